// Losses of a classifier's outputs against integer labels, their gradients, and accuracy.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

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

/// A program adding only the number of correct rows (as calcLoss does) to `numCorrect`.
poplar::program::Program calcAccuracy(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                      const poplar::Tensor& expected,
                                      const poplar::Tensor& numCorrect,
                                      const poplar::DebugContext& debugContext = {});

} // namespace popnn
