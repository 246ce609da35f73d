// The index value that encodeOneHot (and popnn's losses) treat as "no label": its row is left
// entirely off.
#pragma once

#define MASKED_LABEL_CODE 0xFFFFFFFFU
