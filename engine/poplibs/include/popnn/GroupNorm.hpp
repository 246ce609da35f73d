// Group normalisation of activations [N][C][field...]: the C channels form numGroups groups and
// statistics are taken per batch element and group, over the group's channels and the field.
// Mean and inverse standard deviation are [N * numGroups], batch-major (index n * numGroups + g).
// Gamma and beta are per channel [C].
//
// Option "groupNormStridedChannelGrouping" ("true", the default, or "false"): with strided
// grouping channel c belongs to group c % numGroups; otherwise to group c / (C / numGroups).
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <utility>

namespace popnn {
namespace gn {

std::pair<poplar::Tensor, poplar::Tensor>
groupNormStatistics(poplar::Graph& graph, const poplar::Tensor acts, float eps,
                    poplar::program::Sequence& prog, unsigned numGroups, bool unbiasedVarEstimate,
                    bool stableAlgo = false, const poplar::Type& partialsType = poplar::FLOAT,
                    const poplar::DebugContext& debugContext = {},
                    const poplar::OptionFlags& options = {});

poplar::Tensor groupNormWhiten(poplar::Graph& graph, const poplar::Tensor& acts,
                               const poplar::Tensor& mean, const poplar::Tensor& invStdDev,
                               poplar::program::Sequence& prog,
                               const poplar::DebugContext& debugContext = {},
                               const poplar::OptionFlags& options = {});

/// (normalised activations, whitened activations).
std::pair<poplar::Tensor, poplar::Tensor>
groupNormalise(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gamma,
               const poplar::Tensor& beta, const poplar::Tensor& mean,
               const poplar::Tensor& invStdDev, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext = {},
               const poplar::OptionFlags& options = {});

/// (gamma delta, beta delta) per channel.
std::pair<poplar::Tensor, poplar::Tensor> groupNormParamGradients(
    poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gradsIn,
    const poplar::Tensor& mean, const poplar::Tensor& iStdDev, poplar::program::Sequence& prog,
    const poplar::Type& partialsType = poplar::FLOAT, const poplar::DebugContext& debugContext = {},
    const poplar::OptionFlags& options = {});
std::pair<poplar::Tensor, poplar::Tensor> groupNormParamGradients(
    poplar::Graph& graph, const poplar::Tensor& actsWhitened, const poplar::Tensor& gradsIn,
    poplar::program::Sequence& prog, const poplar::Type& partialsType = poplar::FLOAT,
    const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {});

/// The gradient with respect to the input activations, through the statistics.
poplar::Tensor groupNormGradients(poplar::Graph& graph, const poplar::Tensor& acts,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& mean,
                                  const poplar::Tensor& invStdDev, const poplar::Tensor& gamma,
                                  poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});
poplar::Tensor groupNormGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& invStdDev,
                                  const poplar::Tensor& gamma, poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});

/// gamma += scale * gammaDelta, beta += scale * betaDelta.
void groupNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, float scale, poplar::Tensor& gamma,
                          poplar::Tensor& beta, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {});
void groupNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, const poplar::Tensor& scale,
                          poplar::Tensor& gamma, poplar::Tensor& beta,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {});

} // namespace gn
} // namespace popnn
