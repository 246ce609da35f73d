// B-spline basis (PopLibs' popops/SplineBasis.hpp), as in PyTorch Geometric's SplineConv.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// For pseudo coordinates `pseudo` [numEdges][numDims] (FLOAT or HALF, in [0, 1]), per-dimension
/// kernel sizes `kernelSize` [numDims] (INT) and open/closed flags `isOpenSpline` [numDims]
/// (UNSIGNED_CHAR), writes into `basis` [numEdges][numSplines] (pseudo's type) the B-spline
/// coefficients of `degree` (1, 2 or 3) and into `weightIndex` [numEdges][numSplines] (INT) the
/// kernel weight each coefficient multiplies; numSplines = (degree + 1)^numDims. Vertices
/// popops::SplineBasis<T,degree> go where `basis` is mapped (it must be mapped). A wrong rank,
/// type, size or degree is a poputil::poplibs_error.
void splineBasis(poplar::Graph& graph, const poplar::Tensor& pseudo,
                 const poplar::Tensor& kernelSize, const poplar::Tensor& isOpenSpline,
                 const poplar::Tensor& basis, const poplar::Tensor& weightIndex, unsigned degree,
                 poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

} // namespace popops
