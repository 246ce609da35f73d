// Cycle estimates of PopLibs' reduction vertices as PopLibs' published estimators compute them
// (graphcore/poplibs lib/popops/reduction/CycleEstimationFunctions.cpp: the constants are facts
// about the vertices' assembly; the code is ours).
//
// Tessera's reduce vertices (popops::ReducePartial, ReduceFinal, ScaledReduceFinal) reduce each
// edge of a 2D field to one output element: with one edge that is PopLibs' single-input
// specialisation (SCALAR_OUTPUT_SINGLE_INPUT), with several PopLibs' ContinuousReduce
// (ALL_REGIONS_CONTINUOUS: numOutputs rows of numPartials contiguous partials each).
#pragma once

#include <algorithm>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace poplibs_support {

namespace detail {
/// Elements of the partials type per 64-bit load (the data path) and in the accumulators
/// (8 halves, 4 floats, 1 of the integer types): PopLibs' dataPathWidth and accVectorWidth.
inline std::uint64_t reduceDataPathElems(const poplar::Target& target, poplar::Type partials) {
  return target.getDataPathWidth() / (partials.size() * 8);
}
inline std::uint64_t reduceAccumulatorElems(poplar::Type partials) {
  return partials == poplar::HALF ? 8 : partials == poplar::FLOAT ? 4 : 1;
}
} // namespace detail

/// One output from n partials (SCALAR_OUTPUT_SINGLE_INPUT): 3 to enter, store and exit, 6 to
/// initialise, the loop (as many loads per loop as the accumulators need, one op per cycle),
/// 5 to take the remainder and read the accumulators, 1 per remaining element, 3 to sum the
/// accumulators, and 5 more when the output is not float.
inline std::uint64_t reduceSingleInputCycles(const poplar::Target& target, poplar::Type partials,
                                             poplar::Type out, std::uint64_t n) {
  const std::uint64_t opWidth = detail::reduceAccumulatorElems(partials);
  const std::uint64_t perCycle = std::min(opWidth, detail::reduceDataPathElems(target, partials));
  const std::uint64_t loads = opWidth / perCycle;
  const std::uint64_t cyclesPerLoop = std::max<std::uint64_t>(loads, 1);
  const std::uint64_t perLoop = perCycle * loads;
  return 3 + 6 + cyclesPerLoop * n / perLoop + 5 + n % perLoop + 3 + (out == poplar::FLOAT ? 0 : 5);
}

/// numOutputs outputs of numPartials contiguous partials each (ALL_REGIONS_CONTINUOUS):
/// numPartials / (elements per inner loop) per output, 2 when numPartials is odd, 12 per
/// output, 10, 1 when updating, and 7 to call and return. (The published estimator passes the
/// vertex's numOutputsM1 field as the number of outputs; we count the outputs the vertex's
/// loop runs over, one more.)
inline std::uint64_t reduceContinuousCycles(const poplar::Target& target, poplar::Type partials,
                                            std::uint64_t numPartials, std::uint64_t numOutputs,
                                            bool update) {
  const std::uint64_t perLoop = std::min(detail::reduceAccumulatorElems(partials),
                                         detail::reduceDataPathElems(target, partials));
  return numOutputs * (numPartials / perLoop) + (numPartials % 2 ? 2 : 0) + 12 * numOutputs + 10 +
         (update ? 1 : 0) + 7;
}

/// A Tessera reduce vertex whose edges have `edgeSizes` partials each: one edge as PopLibs'
/// single-input vertex (whose estimate has no update term), several as its ContinuousReduce (edges
/// of different sizes each count their own inner loops; equal sizes give PopLibs' formula exactly).
inline std::uint64_t reduceEdgesCycles(const poplar::Target& target, poplar::Type partials,
                                       poplar::Type out,
                                       const std::vector<std::uint64_t>& edgeSizes, bool update) {
  if (edgeSizes.empty()) return 17 + (update ? 1 : 0);
  if (edgeSizes.size() == 1) return reduceSingleInputCycles(target, partials, out, edgeSizes[0]);
  const bool equal = std::all_of(edgeSizes.begin(), edgeSizes.end(),
                                 [&](std::uint64_t s) { return s == edgeSizes[0]; });
  if (equal)
    return reduceContinuousCycles(target, partials, edgeSizes[0], edgeSizes.size(), update);
  const std::uint64_t perLoop = std::min(detail::reduceAccumulatorElems(partials),
                                         detail::reduceDataPathElems(target, partials));
  std::uint64_t cycles = 10 + (update ? 1 : 0) + 7;
  bool odd = false;
  for (const std::uint64_t s : edgeSizes) {
    cycles += s / perLoop + 12;
    odd = odd || s % 2;
  }
  return cycles + (odd ? 2 : 0);
}

} // namespace poplibs_support
