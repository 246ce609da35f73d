// LU factorisation (PopLibs' poplin/experimental/LuFactorization.hpp): A = L U without
// pivoting, as PopLibs computes it.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <utility>

namespace poplin {

namespace experimental {

/// For `input` [M, N] (FLOAT or HALF), new FLOAT tensors L [M, M] (unit lower triangular) and
/// U [M, N] (upper triangular) with input = L U, by Doolittle's elimination in rounds of 6
/// columns (no pivoting: a zero pivot gives infinities or NaNs, as on PopLibs). Vertices
/// poplin::experimental::LUD{Core,Row,Col,Block}Vertex<align> and LUD{Core,Block}SplitVertex
/// on blocks of the matrix spread over the tiles. A tensor that is not a matrix, or of another
/// type, is a poputil::poplibs_error.
std::pair<poplar::Tensor, poplar::Tensor>
LUFactorization(poplar::Graph& graph, poplar::Tensor& input, poplar::program::Sequence& seq,
                const poplar::DebugContext& debugContext = {});

} // namespace experimental

} // namespace poplin
