// poplar::DebugInfo is declared in <poplar/DebugContext.hpp>, as in Poplar; this header (which
// poputil/DebugInfo.hpp includes) is Tessera's and only brings that one in.
#pragma once

#include <poplar/DebugContext.hpp>
