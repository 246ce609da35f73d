// Picking one element from each row of a matrix, as losses pick the probability of the label.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <string>

namespace popops {

/// For `params` [rows, cols] (FLOAT or HALF) and `indices` [rows] (UNSIGNED_INT): element i of
/// the result is params[i][indices[i]]; NaN when the index is outside the row, 0 when it is
/// MASKED_LABEL_CODE.
poplar::Tensor selectScalarFromRows(poplar::Graph& graph, const poplar::Tensor& params,
                                    const poplar::Tensor& indices, poplar::program::Sequence& prog,
                                    const poplar::DebugContext& debugContext = {});

} // namespace popops
