// Losses of a classifier's outputs against integer labels, their gradients, and accuracy.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <utility>

namespace popnn {

/// For probabilities p [B,C] (after softmax) and labels l [B], with y = onehot(l):
///   CROSS_ENTROPY_LOSS: loss[b] = -log(p[b,l[b]]) (p clamped to the smallest normal float),
///                       deltas = p - y (the gradient with respect to the softmax's input);
///   SUM_SQUARED_LOSS:   loss[b] = 0.5 * sum_c (p[b,c] - y[b,c])^2, deltas = p - y.
enum LossType { SUM_SQUARED_LOSS, CROSS_ENTROPY_LOSS };

/// A program writing `loss` [B] and `deltas` [B,C] (both of modelOutputs' type, FLOAT or HALF)
/// from `modelOutputs` [B,C] and `expected` [B] (UNSIGNED_INT or INT). Each row is handled on
/// the tile holding its first output. A label outside [0, C) stops the run with
/// poplar::application_runtime_error naming the loss vertex and compute set.
poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, LossType lossType,
                                  const poplar::DebugContext& debugContext = {});
/// The same, also ADDING the number of rows whose largest output is at the label to the
/// one-element UNSIGNED_INT tensor `numCorrect` (as PopLibs' accuracy vertex does: zero it
/// yourself, e.g. once per epoch, to count over several batches).
poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, const poplar::Tensor& numCorrect,
                                  LossType lossType, const poplar::DebugContext& debugContext = {});

/// The cross-entropy forms with scaled outputs (a SOFTMAX_SCALED layer's): the probabilities
/// are modelOutputs / modelOutputScaling, and the deltas are multiplied by deltasScale (both
/// one-element tensors; an invalid Tensor() stands for 1). SUM_SQUARED_LOSS ignores both.
poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, const poplar::Tensor& deltasScale,
                                  const poplar::Tensor& modelOutputScaling, LossType lossType,
                                  const poplar::DebugContext& debugContext = {});
poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, const poplar::Tensor& deltasScale,
                                  const poplar::Tensor& modelOutputScaling,
                                  const poplar::Tensor& numCorrect, LossType lossType,
                                  const poplar::DebugContext& debugContext = {});

/// A program adding only the number of correct rows (as calcLoss does) to `numCorrect`.
poplar::program::Program calcAccuracy(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                      const poplar::Tensor& expected,
                                      const poplar::Tensor& numCorrect,
                                      const poplar::DebugContext& debugContext = {});

/// For `input` [batch, n]: the position (UNSIGNED_INT [batch]) of each row's largest value
/// (popops::argMax).
poplar::Tensor argMax(poplar::Graph& graph, const poplar::Tensor& input,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {});
/// Each row's largest value and its position.
std::pair<poplar::Tensor, poplar::Tensor>
maxAndArgMax(poplar::Graph& graph, const poplar::Tensor& input, poplar::program::Sequence& prog,
             const poplar::DebugContext& debugContext = {});
/// As argMax and maxAndArgMax, for the smallest value.
poplar::Tensor argMin(poplar::Graph& graph, const poplar::Tensor& input,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {});
std::pair<poplar::Tensor, poplar::Tensor>
minAndArgMin(poplar::Graph& graph, const poplar::Tensor& input, poplar::program::Sequence& prog,
             const poplar::DebugContext& debugContext = {});

/// The K largest values of each row of `input` [batch, n] as [batch, K], in descending order
/// when `sort`; `indices` is set to their positions in the rows (UNSIGNED_INT [batch, K]).
poplar::Tensor topK(poplar::Graph& graph, const poplar::Tensor& input, poplar::Tensor& indices,
                    unsigned K, bool sort, poplar::program::Sequence& prog,
                    const poplar::DebugContext& debugContext = {});

} // namespace popnn
