// Cycle estimates of popfloat's gfloat casts as PopLibs' published estimators compute them
// (graphcore/poplibs lib/popfloat/popfloatCycleEstimators.cpp with the constants of
// lib/popfloat/codelets/popfloatCycleCount.hpp; the code here is ours). PopLibs has one
// supervisor vertex per calculation type (CastToGfloat16 for HALF, CastToGfloat32 for FLOAT) and
// separate unpacking vertices; Tessera's vertices take the figure of the vertex PopLibs would
// run for their types.
#pragma once

#include <cstdint>

namespace poplibs_support {

/// CastToGfloat32Supervisor (FLOAT calculation) over n elements: 35 (+ 11 when not saving
/// float), then per pair 7 + 7 + 10 + (3 saving float, 5 otherwise).
inline std::uint64_t castToGfloat32Cycles(std::uint64_t n, bool floatOut) {
  return 35 + (floatOut ? 0 : 11) + (n + 1) / 2 * (7 + 7 + 10 + (floatOut ? 3 : 5));
}

/// CastToGfloat16Supervisor (HALF calculation) over n elements: 5 (16-bit output) or 4 + 8
/// (8-bit), 15, then per 4 elements 1 + (7 for float input, as PopLibs' estimator has it;
/// 6 + 7 otherwise) + 4 + 8 + 7 + 5 + 6.
inline std::uint64_t castToGfloat16Cycles(std::uint64_t n, bool floatIn, bool gf8Out) {
  const std::uint64_t setup = (gf8Out ? 4 + 8 : 5) + 15;
  const std::uint64_t iter = 1 + (floatIn ? 7 : 6 + 7) + 4 + 8 + 7 + 5 + 6;
  return setup + (n + 3) / 4 * iter;
}

/// CastGf16ToFloatSupervisor over n elements: 25, then per pair 3 (bfloat16) or 9 + 16
/// (denormals) / 9 + 15 (none).
inline std::uint64_t castGf16ToFloatCycles(std::uint64_t n, bool bfloat16, bool denorms) {
  return 25 + (n + 1) / 2 * (bfloat16 ? 3 : 9 + (denorms ? 16 : 15));
}

/// CastGf8ToHalfSupervisor over n elements: 14, then per 4 elements 5 (1-5-2) or 8 + 9
/// (max-norm aligned) / 8 + 15 (min-norm aligned).
inline std::uint64_t castGf8ToHalfCycles(std::uint64_t n, bool oneFiveTwo, bool maxNormAlign) {
  return 14 + (n + 3) / 4 * (oneFiveTwo ? 5 : 8 + (maxNormAlign ? 9 : 15));
}

} // namespace poplibs_support
