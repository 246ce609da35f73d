// The matmul planner's own throughput model of its vertices. The vertices' cycle estimates are
// PopLibs' published ones (ConvVertexEstimates.hpp: a block costs what PopLibs' ConvPartial1x1Out
// would); the planner keeps this model so that matmul plans, and with them the order partial
// sums are added in, and so the results, stay as they were (docs/fidelity.md).
#pragma once

#include <cstddef>
#include <cstdint>

namespace poplin {

/// The widest block of output columns a MatMulPartial vertex accumulates: its accumulator row
/// lives in registers / on the stack.
constexpr std::size_t kMaxBlockCols = 128;

/// One MatMulPartial vertex on its tile: the supervisor starts the workers, which drive the
/// accumulating matrix product units at 16 float or 64 half multiply-accumulates per cycle per
/// tile (Mk2: 62.5 / 250 TFLOPS over 1472 tiles at 1.33 GHz), plus pointer setup per output row.
inline std::uint64_t matMulPartialCycles(std::size_t rows, std::size_t depth, std::size_t cols,
                                         bool halfInputs) {
  const std::uint64_t macsPerCycle = halfInputs ? 64 : 16;
  const std::uint64_t macs = std::uint64_t(rows) * depth * cols;
  return 50 + 6 * std::uint64_t(rows) + (macs + macsPerCycle - 1) / macsPerCycle;
}

/// One ReducePartials vertex: `numPartials` vectors of `n` elements loaded and summed.
inline std::uint64_t reducePartialsCycles(std::size_t numPartials, std::size_t n,
                                          unsigned vectorWidth) {
  return 12 + std::uint64_t(numPartials) * (2 + (n + vectorWidth - 1) / vectorWidth);
}

} // namespace poplin
