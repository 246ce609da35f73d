// Spatial softmax over 2D fields: the expected (y, x) coordinate, each in [-1, 1], of every field
// under a softmax of the fields scaled by 1 / temperature.
#pragma once

#include <poplar/Graph.hpp>
#include <popnn/NonLinearity.hpp>
#include <utility>

namespace popnn {

/// For fields [F, H, W] (FLOAT or HALF): {coordinates [F, 2], temperature}, where temperature is
/// a new scalar variable (on tile 0) initialised to `temperature`, and coordinates[f] = (sum
/// over pixels of p * y, sum of p * x) with y and x evenly spaced from -1 to 1 down the rows and
/// across the columns, and p = softmax of fields / temperature taken over all F x H x W values
/// jointly (PopLibs' flattened softmax), or fields / temperature with disableSoftmax.
///
/// Differs from PopLibs: PopLibs' implementation computes the softmax and discards it (it calls
/// the non-in-place nonLinearity), so its result is that of disableSoftmax; Tessera applies it as
/// documented. A temperature of 0 or one that is not finite is an error here.
std::pair<poplar::Tensor, poplar::Tensor>
spatialSoftMax2D(poplar::Graph& graph, poplar::program::Sequence& prog,
                 const poplar::Tensor& fields, float temperature, bool disableSoftmax = false,
                 const poplar::DebugContext& debugContext = {});

} // namespace popnn
