// The index value that encodeOneHot (and popnn's losses) treat as "no label": its row is left
// entirely off.
#pragma once

#define MASKED_LABEL_CODE 0xFFFFFFFFU

// The smallest values the encoding functions (and popnn's losses) add before taking a logarithm
// so that log(0) stays finite: float's smallest normal number, and about half's smallest
// subnormal (2^-24).
#define EPS_LOG_N_FLOAT (1.17549435e-38F)
#define EPS_LOG_N_HALF (0.000000059605F)
