// CTC beam search decoding: the most likely label sequences for [maxTime, batchSize,
// numClasses] data, keeping `beamwidth` prefixes (with their blank- and non-blank-ending
// probabilities) at each time step, as the standard CTC prefix beam search does.
//
// Each batch entry is decoded by one vertex on the tile its plan names. Where Tessera differs
// from PopLibs: PopLibs splits the search into candidate generation, merging, ranking and
// update vertices over several tiles; Tessera runs one CTCBeamSearchDecoder vertex per batch
// entry, whose estimate sums PopLibs' per-step vertex estimates.
#pragma once

#include "CTCPlan.hpp"

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <tuple>

namespace popnn {
namespace ctc_infer {

/// A plan for beam search over [maxTime, batchSize, numClasses] data of inType with `beamwidth`
/// beams. Options: "partialsType" (float; half is accepted only for HALF data) and
/// "availableMemoryProportion" (a decimal >= 0, default 0.6; accepted, not used for planning).
ctc::Plan plan(const poplar::Graph& graph, const poplar::Type& inType, unsigned batchSize,
               unsigned maxTime, unsigned numClasses, unsigned beamwidth,
               const poplar::OptionFlags& options = {});

/// A [maxTime, batchSize, numClasses] tensor of `type` with batch entry b on the plan's tile.
poplar::Tensor createDataInput(poplar::Graph& graph, const poplar::Type& type,
                               const std::size_t batchSize, const std::size_t maxTime,
                               const std::size_t numClasses, const ctc::Plan& plan,
                               const poplar::DebugContext& debugContext = {});

/// {labelProbs [batchSize, topPaths] (log probabilities, of logProbs' type: PopLibs documents
///  negative log probabilities but returns the beams' log probabilities, as Tessera does),
///  labelLengths [batchSize, topPaths] (UNSIGNED_INT), decodedLabels [batchSize, topPaths,
///  maxTime] (UNSIGNED_INT, zero beyond each length)}: the topPaths most likely of the beams
/// left after dataLengths[b] steps, most likely first. topPaths must be in [1, beamwidth]. A
/// path no beam reached (fewer distinct prefixes than topPaths) has length 0 and log probability
/// -65504 (PopLibs' log-domain zero). A dataLengths[b] beyond maxTime stops the run.
std::tuple<poplar::Tensor, poplar::Tensor, poplar::Tensor> beamSearchDecoderLogProbabilities(
    poplar::Graph& graph, const poplar::Tensor& logProbs, const poplar::Tensor& dataLengths,
    poplar::program::Sequence& prog, unsigned blankClass, unsigned beamwidth, unsigned topPaths,
    const ctc::Plan& plan, const poplar::DebugContext& debugContext = {},
    const poplar::OptionFlags& options = {});

/// The same from logits: log-softmax over the classes first.
std::tuple<poplar::Tensor, poplar::Tensor, poplar::Tensor>
beamSearchDecoderLogits(poplar::Graph& graph, const poplar::Tensor& logits,
                        const poplar::Tensor& dataLengths, poplar::program::Sequence& prog,
                        unsigned blankClass, unsigned beamwidth, unsigned topPaths,
                        const ctc::Plan& plan, const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {});

} // namespace ctc_infer
} // namespace popnn
