// Decrementing one element per row of a matrix in place, as the gradient of a sparse softmax
// cross-entropy subtracts the one-hot label from the probabilities.
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popops/ExprOp.hpp>
#include <string>

namespace popops {

/// For `params` [rows, cols] (FLOAT or HALF, mapped to tiles) and `indices` [rows]
/// (UNSIGNED_INT): params[r][indices[r]] -= 1 for every row r, in place. A row whose index is
/// MASKED_LABEL_CODE is left alone; a row whose index is outside [0, cols) becomes all NaN.
void updateScalarInRows(poplar::Graph& graph, const poplar::Tensor& params,
                        const poplar::Tensor& indices, poplar::program::Sequence& program,
                        const poplar::DebugContext& debugContext = {});

} // namespace popops
