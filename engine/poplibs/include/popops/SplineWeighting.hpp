// Spline weighting (PopLibs' popops/SplineWeighting.hpp): edge features weighted by a
// continuous B-spline kernel, the second half of PyTorch Geometric's SplineConv.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// output[e][o] = sum over s and c of basis[e][s] * input[e][c] * weight[weightIndex[e][s]][c][o]
/// for `input` [numEdges][numInCh] (FLOAT or HALF), `weight` [kernel][numInCh][numOutCh],
/// `basis` [numEdges][numSplines] (input's type) and `weightIndex` [numEdges][numSplines] (INT),
/// as splineBasis writes them. Returns a new output [numEdges][numOutCh] mapped linearly;
/// vertices popops::SplineWeighting<T> go where it is mapped. A wrong rank, type or size is a
/// poputil::poplibs_error; a weight index outside `weight` fails the run.
poplar::Tensor splineWeighting(poplar::Graph& graph, const poplar::Tensor& input,
                               const poplar::Tensor& weight, const poplar::Tensor& basis,
                               const poplar::Tensor& weightIndex, poplar::program::Sequence& prog,
                               const poplar::DebugContext& debugContext = {});

} // namespace popops
