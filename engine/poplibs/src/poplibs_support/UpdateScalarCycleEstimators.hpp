// The cycle estimate of popops::UpdateIntervalDEC as PopLibs' published estimator computes it
// (graphcore/poplibs lib/popops/PopopsCycleEstimators.cpp). The constants are facts about the
// vertex; the code is ours.
#pragma once

#include <cstdint>

namespace poplibs_support {

/// 5 + 1 + 1 cycles of entry and exit, 20 loading the vertex state, then per row of the
/// interval 8 cycles (load the index and the element, check MASKED_LABEL_CODE, subtract,
/// store), 12 for half, whose store is a read-modify-write of the 32-bit word.
inline std::uint64_t updateIntervalDecCycles(std::uint64_t rowCount, bool isHalf) {
  return 5 + 1 + 1 + 20 + (isHalf ? 12 : 8) * rowCount;
}

} // namespace poplibs_support
