// Log of softmax over the innermost dimension: x - max - log(sum(exp(x - max))), per row,
// for FLOAT and HALF tensors.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popnn {

/// t = log(softmax(t)) in place; t must not contain aliased elements.
void logSoftmaxInPlace(poplar::Graph& graph, poplar::Tensor t, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {});

/// log(softmax(t)) as a new tensor mapped like t.
poplar::Tensor logSoftmax(poplar::Graph& graph, poplar::Tensor t, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {});

} // namespace popnn
