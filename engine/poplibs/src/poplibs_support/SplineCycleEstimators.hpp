// Cycle estimates of popops' B-spline vertices as PopLibs' published estimators compute them
// (graphcore/poplibs lib/popops/popopsCycleEstimators.cpp, SplineBasis and SplineWeighting:
// PopLibs' own "very rough" figures for its C++ vertices, no assembly version existing). The
// constants are PopLibs'; the code is ours.
#pragma once

#include <cstdint>
#include <poplar/Type.hpp>

namespace poplibs_support {

/// popops::SplineBasis<T,degree> writing `outputs` basis coefficients (and as many weight
/// indices): 30 cycles per coefficient, twice that for float.
inline std::uint64_t splineBasisCycles(poplar::Type type, std::uint64_t outputs) {
  return 30 * outputs * (type == poplar::FLOAT ? 2 : 1);
}

/// popops::SplineWeighting<T> writing `outputs` output elements, each a sum over numSplines
/// coefficients of numInChannels products: 15 cycles per product, twice that for float.
inline std::uint64_t splineWeightingCycles(poplar::Type type, std::uint64_t numInChannels,
                                           std::uint64_t numSplines, std::uint64_t outputs) {
  return 15 * numInChannels * numSplines * outputs * (type == poplar::FLOAT ? 2 : 1);
}

} // namespace poplibs_support
