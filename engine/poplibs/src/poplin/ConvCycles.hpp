// Which PopLibs vertex a convolution's work is named and costed as, and the AMP shape that
// names it. The cycle formulas themselves are PopLibs' published estimators
// (poplibs_support/ConvCycleEstimators.hpp), applied to Tessera's vertices by
// ConvVertexEstimates.hpp, which both the codelets and the planner call so that plans are
// chosen by the costs the profile will show.
#pragma once

namespace poplin {

/// Which PopLibs vertex a convolution's work is named and costed as.
enum class ConvMethod { AMP_1X1, AMP_NX1, HMAC };

/// The accumulating matrix product (AMP) units of a tile: input channels consumed per group,
/// conv units (output channels per pass) and input elements loaded per cycle.
struct AmpShape {
  unsigned inChansPerGroup, numConvUnits, inputLoadElemsPerCycle, coeffLoadBytesPerCycle;
};
inline AmpShape ampShape(bool halfInputs, bool halfOutputs) {
  return {halfInputs ? 16u : 8u, halfInputs && halfOutputs ? 16u : 8u, halfInputs ? 4u : 2u, 8u};
}

} // namespace poplin
