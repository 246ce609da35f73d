// Cycle estimates of popops' NaN/infinity check vertices as PopLibs' published estimators
// compute them (graphcore/poplibs lib/popops/PopopsCycleEstimators.cpp, HasNaNOrInf1D and
// HasNaNOrInf2D). The constants are facts about the vertices' assembly; the code is ours.
#pragma once

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace poplibs_support {

/// The scanning loop over `n` elements. float (and half when only NaN is checked) goes 4
/// elements a step, 2 cycles a step plus one when the step needs a second compare; half
/// checking both goes 8 a step at 2 cycles. The tail costs per leftover group.
inline std::uint64_t hasNaNLoopCycles(poplar::Type type, std::uint64_t n, bool nanOrInf) {
  const bool isFloat = type == poplar::FLOAT;
  std::uint64_t cycles = isFloat ? 10 : 12;
  if (n == 0) return cycles;
  const bool halfNaNOnly = !isFloat && !nanOrInf;
  if (isFloat || halfNaNOnly) {
    const std::uint64_t perStep = 2 + ((isFloat && nanOrInf) || halfNaNOnly ? 1 : 0);
    cycles += perStep * (n / 4);
    if (n & 2) cycles += 2;
    if (n & 1) cycles += 1;
  } else {
    cycles += 2 * (n / 8);
    if (n & 4) cycles += 2;
    if (n & 2) cycles += 2;
    if (n & 1) cycles += 2;
  }
  return cycles;
}

/// Turning the accumulated compare into the result.
inline std::uint64_t hasNaNResultCycles(poplar::Type type, bool nanOrInf) {
  return (nanOrInf ? 1 : 0) + (type == poplar::FLOAT ? 7 : 11);
}

/// popops::HasNaNOrInf1D<T, nanOrInf> (a MultiVertex over one contiguous region): every worker
/// is charged the largest share, sizeIn8BytesPerWorker 8-byte grains plus one when some
/// workers get an extra grain, plus remWorkerExtras elements; 24 supervisor cycles.
inline std::uint64_t hasNaN1DCycles(const poplar::Target& target, poplar::Type type,
                                    unsigned sizeIn8BytesPerWorker, unsigned remWorkerId,
                                    unsigned remWorkerExtras, bool nanOrInf) {
  const std::uint64_t perGrain = 8 / target.getTypeSize(type);
  const std::uint64_t n =
      (sizeIn8BytesPerWorker + (remWorkerId > 0 ? 1 : 0)) * perGrain + remWorkerExtras;
  return (15 + hasNaNLoopCycles(type, n, nanOrInf) + hasNaNResultCycles(type, nanOrInf)) *
             target.getNumWorkerContexts() +
         24;
}

/// popops::HasNaNOrInf2D<T, nanOrInf> (a worker vertex over a list of regions of `sizes`):
/// 6 cycles of entry and exit alone when the list is empty, else 7, each region's loop and the
/// result, counted in the cycles of all worker contexts.
inline std::uint64_t hasNaN2DCycles(const poplar::Target& target, poplar::Type type,
                                    const std::vector<std::uint64_t>& sizes, bool nanOrInf) {
  if (sizes.empty()) return 6;
  std::uint64_t cycles = 7;
  for (std::uint64_t n : sizes)
    cycles += hasNaNLoopCycles(type, n, nanOrInf);
  cycles += hasNaNResultCycles(type, nanOrInf);
  return cycles * target.getNumWorkerContexts();
}

} // namespace poplibs_support
