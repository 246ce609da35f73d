// The work split shared by splineBasis and splineWeighting: an output's elements on each tile
// cut into one list of regions per worker, and the first edge each list needs.
#pragma once

#include <cstddef>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Tensor.hpp>
#include <string>
#include <vector>

namespace popops {
namespace spline {

struct VertexWork {
  unsigned tile;
  std::vector<poplar::Interval> regions; ///< of the flattened output, in order
  std::size_t edgeBegin, edgeEnd;        ///< rows [edgeBegin, edgeEnd) of the inputs it reads
};

/// `out` [numEdges][rowLength], mapped, cut per tile into worker lists of its regions.
std::vector<VertexWork> splitOutput(const poplar::Graph& graph, const poplar::Tensor& out,
                                    const std::string& op);

/// The regions' first element indices, as a constant UNSIGNED_INT tensor on `tile`.
poplar::Tensor offsetsTensor(poplar::Graph& graph, const VertexWork& work,
                             const poplar::DebugContext& dc);

} // namespace spline
} // namespace popops
