// Row-wise operations (sort, top-k, arg-max) view a tensor as a matrix [rows, n] along one
// dimension and give each tile the rows that start on it.
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <string>
#include <utility>
#include <vector>

namespace popops::detail {

/// Checks the arguments of the row-scalar ops (selectScalarFromRows, updateScalarInRows):
/// `params` a valid 2-D FLOAT or HALF matrix, `indices` a valid UNSIGNED_INT vector of one
/// index per row; throws poputil::poplibs_error naming `op` and the argument otherwise.
void checkRowsAndIndices(const poplar::Tensor& params, const poplar::Tensor& indices,
                         const std::string& op);

/// `t` as [rows, t.dim(dim)]: every 1-D slice along `dim` a row.
poplar::Tensor rowsAlong(const poplar::Tensor& t, unsigned dim);

/// A new variable [rows, width] whose rows sit on the tiles `work` (splitRowsByTile of the
/// input matrix) gave them.
poplar::Tensor addRowsLike(poplar::Graph& graph, poplar::Type type, std::size_t rows,
                           std::size_t width,
                           const std::vector<std::vector<poplar::Interval>>& work,
                           const poplar::DebugContext& di);

/// Adds one `vertexType` vertex per group of rows in `work`; each field connects to the group's
/// rows of its [rows, *] matrix; `rowLength` is set to `n`. Returns the vertices.
std::vector<poplar::VertexRef>
addRowVertices(poplar::Graph& graph, const poplar::ComputeSet& cs, const std::string& vertexType,
               const std::vector<std::vector<poplar::Interval>>& work,
               const std::vector<std::pair<std::string, poplar::Tensor>>& fields, unsigned n);

} // namespace popops::detail
