// Connectionist Temporal Classification (CTC) loss and its gradient: the negative log of the
// probability of a label sequence summed over every alignment of it to the data (with blanks and
// repeats collapsed), by the forward-backward (alpha / beta) recursion in the log domain.
//
// Each batch entry is handled on the tile its plan names: a CTCAlpha vertex computes the
// forward variables, then a CTCGradGivenAlpha vertex the backward ones, the loss and the
// gradient. Where Tessera differs from PopLibs: batch entries are not split over time or label,
// and labels or lengths out of range (a symbol >= numClasses or equal to blankClass, a length
// beyond the planned maximum) stop the run with an error naming the vertex.
#pragma once

#include "CTCPlan.hpp"

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <utility>

namespace popnn {
namespace ctc {

/// A plan for CTC loss over [maxTime, batchSize, numClasses] data (numClasses includes the
/// blank) and labels of up to maxLabelLength symbols. Options: "partialsType" ("half" or
/// "float", default float: the type of alpha, beta and the gradient before the cast to outType)
/// and "availableMemoryProportion" (a decimal >= 0, default 0.6; accepted, not used for
/// planning). partialsType half with inType FLOAT is an error, as in PopLibs.
Plan plan(const poplar::Graph& graph, const poplar::Type& inType, const poplar::Type& outType,
          unsigned batchSize, unsigned maxTime, unsigned maxLabelLength, unsigned numClasses,
          const poplar::OptionFlags& options = {});

/// A [maxTime, batchSize, numClasses] tensor of `type` with batch entry b on the plan's tile.
poplar::Tensor createDataInput(poplar::Graph& graph, const poplar::Type& type,
                               const std::size_t batchSize, const std::size_t maxTime,
                               const std::size_t numClasses, const Plan& plan,
                               const poplar::DebugContext& debugContext = {});

/// A [batchSize, maxLabelLength] tensor of `type` (UNSIGNED_INT for the loss functions) with
/// row b on the plan's tile for batch entry b.
poplar::Tensor createLabelsInput(poplar::Graph& graph, const poplar::Type& type,
                                 const std::size_t batchSize, const std::size_t maxLabelLength,
                                 const Plan& plan, const poplar::DebugContext& debugContext = {});

/// {loss [batchSize], gradient [maxTime, batchSize, numClasses]}, both of outType, from log
/// probabilities `logProbs` [maxTime, batchSize, numClasses] (HALF or FLOAT), `labels`
/// [batchSize, maxLabelLength] and the UNSIGNED_INT lengths `dataLengths` and `labelLengths`
/// [batchSize]. loss[b] = -log p(labels[b] | logProbs[:, b]); the gradient is with respect to
/// the logits the log probabilities came from (PopLibs' includeSoftmaxGradient):
/// exp(logProbs) minus the posterior of each class at each time. As in PopLibs, time steps at
/// or beyond dataLengths[b] get exp(logProbs). A label no alignment fits gets loss 65504 (the
/// largest half, PopLibs' "infinite" loss). Options: "includeSoftmaxGradient" (true, the only
/// value PopLibs supports), "zeroInfinity" (false; true zeroes such losses and their
/// gradients), "zeroInfinityRelTolerance" (a positive decimal, default 0.01).
std::pair<poplar::Tensor, poplar::Tensor> calcLossAndGradientLogProbabilities(
    poplar::Graph& graph, const poplar::Type& outType, const poplar::Tensor& logProbs,
    const poplar::Tensor& labels, const poplar::Tensor& dataLengths,
    const poplar::Tensor& labelLengths, poplar::program::Sequence& prog, const unsigned blankClass,
    const Plan& plan, const poplar::DebugContext& debugContext = {},
    const poplar::OptionFlags& options = {});

/// The same from logits: log-softmax over the classes first (into a copy mapped like logits).
std::pair<poplar::Tensor, poplar::Tensor>
calcLossAndGradientLogits(poplar::Graph& graph, const poplar::Type& outType,
                          const poplar::Tensor& logits, const poplar::Tensor& labels,
                          const poplar::Tensor& dataLengths, const poplar::Tensor& labelLengths,
                          poplar::program::Sequence& prog, const unsigned blankClass,
                          const Plan& plan, const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {});

/// The loss [batchSize] alone, from log probabilities (only the forward vertices run).
poplar::Tensor
calcCTCLossLogProbabilities(poplar::Graph& graph, const poplar::Type& outType,
                            const poplar::Tensor& logProbs, const poplar::Tensor& labels,
                            const poplar::Tensor& dataLengths, const poplar::Tensor& labelLengths,
                            poplar::program::Sequence& prog, const unsigned blankClass,
                            const Plan& plan, const poplar::DebugContext& debugContext = {},
                            const poplar::OptionFlags& options = {});

/// The loss [batchSize] alone, from logits (log-softmax first).
poplar::Tensor calcCTCLossLogits(poplar::Graph& graph, const poplar::Type& outType,
                                 const poplar::Tensor& logits, const poplar::Tensor& labels,
                                 const poplar::Tensor& dataLengths,
                                 const poplar::Tensor& labelLengths,
                                 poplar::program::Sequence& prog, const unsigned blankClass,
                                 const Plan& plan, const poplar::DebugContext& debugContext = {},
                                 const poplar::OptionFlags& options = {});

} // namespace ctc
} // namespace popnn
