// Normalisation building blocks over activations [N][C][field...]: statistics per channel C
// (over the batch and the field), whitening, scaling and shifting, and their gradients.
// popnn's batch, group and layer norms are built from these.
//
// Types: FLOAT or HALF activations; statistics are accumulated in float (partialsType FLOAT,
// the default) and returned in the activations' type, as are the parameter gradients.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <utility>
#include <vector>

namespace poplin {

/// FLOPs of a normalisation's forward pass (with or without computing the statistics), its
/// backward pass and its parameter gradients.
std::uint64_t getNormFwdFlops(std::size_t statisticsSize, std::size_t numActsElements,
                              bool computeStats = true);
std::uint64_t getNormBwdFlops(std::size_t statisticsSize, std::size_t numActsElements);
std::uint64_t getNormWuFlops(std::size_t paramsSize, std::size_t numActsElements);

/// The per-channel scale (gamma) or shift (beta) [C] for activations [N][C][field...], mapped
/// linearly; of `type` or the activations' type.
poplar::Tensor createNormGamma(poplar::Graph& graph, const poplar::Tensor& acts,
                               const poplar::Type& type,
                               const poplar::DebugContext& debugContext = {});
poplar::Tensor createNormGamma(poplar::Graph& graph, const poplar::Tensor& acts,
                               const poplar::DebugContext& debugContext = {});
poplar::Tensor createNormBeta(poplar::Graph& graph, const poplar::Tensor& acts,
                              const poplar::Type& type,
                              const poplar::DebugContext& debugContext = {});
poplar::Tensor createNormBeta(poplar::Graph& graph, const poplar::Tensor& acts,
                              const poplar::DebugContext& debugContext = {});
/// (gamma, beta).
std::pair<poplar::Tensor, poplar::Tensor>
createNormParams(poplar::Graph& graph, const poplar::Tensor& acts,
                 const poplar::DebugContext& debugContext = {});

/// (mean, inverse standard deviation) per channel: mean = E[x], invStdDev = 1 / sqrt(var + eps),
/// var the biased (or, with unbiasedVarEstimate, the unbiased) variance. With stableAlgo the
/// variance is computed from the centred activations rather than as E[x^2] - E[x]^2.
std::pair<poplar::Tensor, poplar::Tensor>
normStatistics(poplar::Graph& graph, const poplar::Tensor& actsUngrouped, float eps,
               poplar::program::Sequence& prog, bool unbiasedVarEstimate, bool stableAlgo = false,
               const poplar::Type& partialsType = poplar::FLOAT,
               const poplar::DebugContext& debugContext = {});

/// Adds up `inputsToReduce` (independent per-channel tensors) over `groupSize` adjacent
/// replicas of the replicated graph and returns the sums in the same order; for example with
/// gcl::allReduceCrossReplica(graph, t, gcl::CollectiveOperator::ADD, prog, ...).
using DistributedNormReduceCallback = std::function<std::vector<poplar::Tensor>(
    poplar::Graph& replicatedGraph, const std::vector<poplar::Tensor>& inputsToReduce,
    poplar::program::Sequence& prog, unsigned groupSize, const poplar::DebugContext& debugContext,
    const poplar::OptionFlags& options)>;

/// normStatistics() over `normSize` batch elements spread over replicas of actsUngrouped.dim(0)
/// each: every replica's partial statistics are scaled by 1 / (normSize x field) and summed by
/// `allReduceCallback` over normSize / dim(0) replicas, so each replica gets the statistics of
/// the whole distributed batch. No callback, or normSize <= dim(0), is normStatistics(); a
/// normSize that is not a multiple of dim(0) gives poputil::poplibs_error.
std::pair<poplar::Tensor, poplar::Tensor>
distributedNormStatistics(poplar::Graph& replicatedGraph, const poplar::Tensor& actsUngrouped,
                          float eps, poplar::program::Sequence& prog, bool unbiasedVarEstimate,
                          DistributedNormReduceCallback allReduceCallback, unsigned normSize,
                          bool stableAlgo = false, const poplar::Type& partialsType = poplar::FLOAT,
                          const poplar::DebugContext& debugContext = {});

/// normStatisticsGradients() over `normSize` batch elements spread over replicas: the
/// per-channel mean terms are summed over the group by `reduceCallback`.
poplar::Tensor distributedNormStatisticsGradients(
    poplar::Graph& replicatedGraph, const poplar::Tensor& actsWhitened,
    const poplar::Tensor& gradsIn, const poplar::Tensor& invStdDev, poplar::program::Sequence& prog,
    poplin::DistributedNormReduceCallback reduceCallback, unsigned normSize,
    const poplar::Type& partialsType = poplar::FLOAT,
    const poplar::DebugContext& debugContext = {});

/// (acts - mean) * iStdDev, per channel, as a new tensor.
poplar::Tensor normWhiten(poplar::Graph& graph, const poplar::Tensor& acts,
                          const poplar::Tensor& mean, const poplar::Tensor& iStdDev,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {});

/// actsWhitened * gamma + beta, per channel, as a new tensor.
poplar::Tensor normalise(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                         const poplar::Tensor& gamma, const poplar::Tensor& beta,
                         poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = {});

/// (gamma delta, beta delta): the sums over the batch and field of gradsIn * actsWhitened and
/// of gradsIn, per channel.
std::pair<poplar::Tensor, poplar::Tensor>
normParamGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                   const poplar::Tensor& gradsIn, poplar::program::Sequence& prog,
                   const poplar::Type& partialsType = poplar::FLOAT,
                   const poplar::DebugContext& debugContext = {});

/// gradsIn * gamma, per channel: the gradient with respect to the whitened activations.
poplar::Tensor normGradients(poplar::Graph& graph, const poplar::Tensor& gradsIn,
                             const poplar::Tensor& gamma, poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {});

/// The gradient with respect to the activations, through the statistics, given the gradient
/// with respect to the whitened activations (gradsIn):
///   invStdDev * (gradsIn - mean(gradsIn) - actsWhitened * mean(gradsIn * actsWhitened)),
/// means taken per channel over the batch and field.
poplar::Tensor normStatisticsGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                                       const poplar::Tensor& gradsIn,
                                       const poplar::Tensor& invStdDev,
                                       poplar::program::Sequence& prog,
                                       const poplar::Type& partialsType = poplar::FLOAT,
                                       const poplar::DebugContext& debugContext = {});

} // namespace poplin
