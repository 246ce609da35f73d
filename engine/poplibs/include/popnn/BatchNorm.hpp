// Batch normalisation of activations [N][C][field...]: statistics per channel over the batch
// and the field, built from poplin/Norms.hpp. Mean and inverse standard deviation are [C].
// No options are recognised; any option given is an error.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poplin/Norms.hpp>
#include <utility>

namespace popnn {
namespace bn {

/// (mean, inverse standard deviation) of the activations, per channel.
std::pair<poplar::Tensor, poplar::Tensor>
batchNormStatistics(poplar::Graph& graph, const poplar::Tensor acts, float eps,
                    poplar::program::Sequence& prog, bool unbiasedVarEstimate,
                    bool stableAlgo = false, const poplar::Type& partialsType = poplar::FLOAT,
                    const poplar::DebugContext& debugContext = {},
                    const poplar::OptionFlags& options = {});

/// batchNormStatistics() over `normBatchSize` batch elements spread over the replicas (each
/// with acts.dim(0) of them): `reduceCallback` sums the partial statistics over
/// normBatchSize / acts.dim(0) replicas (poplin::distributedNormStatistics()).
std::pair<poplar::Tensor, poplar::Tensor> distributedBatchNormStatistics(
    poplar::Graph& replicatedGraph, const poplar::Tensor acts, float eps,
    poplar::program::Sequence& prog, bool unbiasedVarEstimate,
    poplin::DistributedNormReduceCallback reduceCallback, unsigned normBatchSize,
    bool stableAlgo = false, const poplar::Type& partialsType = poplar::FLOAT,
    const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {});

/// (acts - mean) * invStdDev.
poplar::Tensor batchNormWhiten(poplar::Graph& graph, const poplar::Tensor& acts,
                               const poplar::Tensor& mean, const poplar::Tensor& invStdDev,
                               poplar::program::Sequence& prog,
                               const poplar::DebugContext& debugContext = {},
                               const poplar::OptionFlags& options = {});

/// (normalised activations gamma * whitened + beta, whitened activations).
std::pair<poplar::Tensor, poplar::Tensor>
batchNormalise(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gamma,
               const poplar::Tensor& beta, const poplar::Tensor& mean,
               const poplar::Tensor& invStdDev, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext = {},
               const poplar::OptionFlags& options = {});

/// acts * combinedMultiplicand + addend, per channel (inference with folded statistics:
/// combinedMultiplicand = gamma / stdDev, addend = beta - gamma * mean / stdDev).
poplar::Tensor batchNormalise(poplar::Graph& graph, const poplar::Tensor& acts,
                              const poplar::Tensor& combinedMultiplicand,
                              const poplar::Tensor& addend, poplar::program::Sequence& prog,
                              const poplar::DebugContext& debugContext = {},
                              const poplar::OptionFlags& options = {});

/// (gamma delta, beta delta), from the activations and their statistics or from the whitened
/// activations.
std::pair<poplar::Tensor, poplar::Tensor> batchNormParamGradients(
    poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gradsIn,
    const poplar::Tensor& mean, const poplar::Tensor& iStdDev, poplar::program::Sequence& prog,
    const poplar::Type& partialsType = poplar::FLOAT, const poplar::DebugContext& debugContext = {},
    const poplar::OptionFlags& options = {});
std::pair<poplar::Tensor, poplar::Tensor> batchNormParamGradients(
    poplar::Graph& graph, const poplar::Tensor& actsWhitened, const poplar::Tensor& gradsIn,
    poplar::program::Sequence& prog, const poplar::Type& partialsType = poplar::FLOAT,
    const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {});

/// The gradient with respect to the input activations, through the whole layer including the
/// statistics; from the activations and their statistics or from the whitened activations.
poplar::Tensor batchNormGradients(poplar::Graph& graph, const poplar::Tensor& acts,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& mean,
                                  const poplar::Tensor& invStdDev, const poplar::Tensor& gamma,
                                  poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});
poplar::Tensor batchNormGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& invStdDev,
                                  const poplar::Tensor& gamma, poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});

/// batchNormGradients() over `normBatchSize` batch elements spread over the replicas, from
/// the whitened activations or from the activations and their statistics; `reduceCallback`
/// sums the statistics' gradient terms over the group
/// (poplin::distributedNormStatisticsGradients()).
poplar::Tensor distributedBatchNormGradients(
    poplar::Graph& replicatedGraph, const poplar::Tensor& actsWhitened,
    const poplar::Tensor& gradsIn, const poplar::Tensor& invStdDev, const poplar::Tensor& gamma,
    poplar::program::Sequence& prog, poplin::DistributedNormReduceCallback reduceCallback,
    unsigned normBatchSize, const poplar::Type& partialsType = poplar::FLOAT,
    const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {});
poplar::Tensor distributedBatchNormGradients(
    poplar::Graph& replicatedGraph, const poplar::Tensor& acts, const poplar::Tensor& gradsIn,
    const poplar::Tensor& mean, const poplar::Tensor& invStdDev, const poplar::Tensor& gamma,
    poplar::program::Sequence& prog, poplin::DistributedNormReduceCallback reduceCallback,
    unsigned normBatchSize, const poplar::Type& partialsType = poplar::FLOAT,
    const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {});

/// gamma += scale * gammaDelta, beta += scale * betaDelta (scale = -learningRate for SGD).
void batchNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, float scale, poplar::Tensor& gamma,
                          poplar::Tensor& beta, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {});
void batchNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, const poplar::Tensor& scale,
                          poplar::Tensor& gamma, poplar::Tensor& beta,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {});

} // namespace bn
} // namespace popnn
