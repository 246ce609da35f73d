// Cycle estimates of popnn's ROIAlign vertices. PopLibs publishes a placeholder of 10 cycles for
// each of its ROIAlignForward and ROIAlignBackward vertices (graphcore/poplibs lib/popnn/
// popnnCycleEstimators.cpp, marked TODO), one vertex per sampling point of a region's channel.
// A Tessera vertex does the work of several of PopLibs': it takes 10 for each.
#pragma once

#include <cstdint>

namespace poplibs_support {

/// ROIAlignForward for one region and channel: PopLibs' samplingRatio^2 vertices, 10 each.
inline std::uint64_t roiAlignForwardCycles(std::uint64_t samplingRatio) {
  return 10 * samplingRatio * samplingRatio;
}

/// ROIAlignBackward for one channel over numRois regions: samplingRatio^2 vertices per region,
/// 10 each.
inline std::uint64_t roiAlignBackwardCycles(std::uint64_t samplingRatio, std::uint64_t numRois) {
  return 10 * samplingRatio * samplingRatio * numRois;
}

} // namespace poplibs_support
