// XLA's scatter: a copy of slices of `updates` into `operand` at start indices read when the
// program runs (https://www.tensorflow.org/xla/operation_semantics#scatter), optionally
// combined with what is there by a computation of the caller's.
#pragma once

#include <cstddef>
#include <functional>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>
#include <vector>

namespace popops {

/// Writes each update window of `updates` into `operand` at the start index taken from
/// `indices` (UNSIGNED_INT or INT): the index vectors lie along indexVectorDim (== indices.rank()
/// for scalar indices); updateWindowDims are the window's dimensions in `updates`;
/// insertWindowDims the operand dimensions the window has size 1 in (and leaves out);
/// scatterDimsToOperandDims maps index vector element i to an operand dimension. A window that
/// would not fit inside `operand` at its start index is skipped, as XLA does.
void scatter(poplar::Graph& graph, const poplar::Tensor& operand, const poplar::Tensor& indices,
             const poplar::Tensor& updates, std::size_t indexVectorDim,
             std::vector<unsigned> updateWindowDims, std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims, poplar::program::Sequence& prog,
             const poplar::DebugContext& debugContext = {},
             const poplar::OptionFlags& optionFlags = {});

/// Combines the operand's current window (first argument) with the update window (second) into
/// the window to write back.
using UpdateComputationFunc = std::function<poplar::Tensor(
    poplar::Graph&, poplar::Tensor&, poplar::Tensor&, poplar::program::Sequence&)>;

/// As above, writing updateComputation(current window, update window) instead of the update.
void scatter(poplar::Graph& graph, const poplar::Tensor& operand, const poplar::Tensor& indices,
             const poplar::Tensor& updates, std::size_t indexVectorDim,
             std::vector<unsigned> updateWindowDims, std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims,
             UpdateComputationFunc& updateComputation, poplar::program::Sequence& prog,
             const poplar::DebugContext& debugContext = {},
             const poplar::OptionFlags& optionFlags = {});

} // namespace popops
