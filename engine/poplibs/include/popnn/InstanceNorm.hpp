// Instance normalisation of activations [N][C][field...]: statistics per batch element and
// channel, over the field (group normalisation with one group per channel). Mean and inverse
// standard deviation are [N * C], batch-major; gamma and beta are per channel [C]. No options
// are recognised.
#pragma once

#include <cstdint>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <utility>

namespace popnn {
namespace in {

std::pair<poplar::Tensor, poplar::Tensor>
instanceNormStatistics(poplar::Graph& graph, const poplar::Tensor acts, float eps,
                       poplar::program::Sequence& prog, bool unbiasedVarEstimate,
                       bool stableAlgo = false, const poplar::Type& partialsType = poplar::FLOAT,
                       const poplar::DebugContext& debugContext = {},
                       const poplar::OptionFlags& options = {});

poplar::Tensor instanceNormWhiten(poplar::Graph& graph, const poplar::Tensor& acts,
                                  const poplar::Tensor& mean, const poplar::Tensor& invStdDev,
                                  poplar::program::Sequence& prog,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});

/// (normalised activations, whitened activations).
std::pair<poplar::Tensor, poplar::Tensor>
instanceNormalise(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gamma,
                  const poplar::Tensor& beta, const poplar::Tensor& mean,
                  const poplar::Tensor& invStdDev, poplar::program::Sequence& prog,
                  const poplar::DebugContext& debugContext = {},
                  const poplar::OptionFlags& options = {});

std::pair<poplar::Tensor, poplar::Tensor> instanceNormParamGradients(
    poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gradsIn,
    const poplar::Tensor& mean, const poplar::Tensor& iStdDev, poplar::program::Sequence& prog,
    const poplar::Type& partialsType = poplar::FLOAT, const poplar::DebugContext& debugContext = {},
    const poplar::OptionFlags& options = {});
std::pair<poplar::Tensor, poplar::Tensor> instanceNormParamGradients(
    poplar::Graph& graph, const poplar::Tensor& actsWhitened, const poplar::Tensor& gradsIn,
    poplar::program::Sequence& prog, const poplar::Type& partialsType = poplar::FLOAT,
    const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {});

poplar::Tensor instanceNormGradients(poplar::Graph& graph, const poplar::Tensor& acts,
                                     const poplar::Tensor& gradsIn, const poplar::Tensor& mean,
                                     const poplar::Tensor& invStdDev, const poplar::Tensor& gamma,
                                     poplar::program::Sequence& prog,
                                     const poplar::Type& partialsType = poplar::FLOAT,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {});
poplar::Tensor instanceNormGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                                     const poplar::Tensor& gradsIn, const poplar::Tensor& invStdDev,
                                     const poplar::Tensor& gamma, poplar::program::Sequence& prog,
                                     const poplar::Type& partialsType = poplar::FLOAT,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {});

void instanceNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                             const poplar::Tensor& betaDelta, float scale, poplar::Tensor& gamma,
                             poplar::Tensor& beta, poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {});
void instanceNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                             const poplar::Tensor& betaDelta, const poplar::Tensor& scale,
                             poplar::Tensor& gamma, poplar::Tensor& beta,
                             poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {});

/// FLOPs of instance normalisation over numChannels (batch elements times channels) instances
/// of actsPerChannel activations each: popnn's normalisation counts (Norms.hpp) with one
/// statistic per instance. (PopLibs declares these three without defining them.)
uint64_t getFwdFlops(uint64_t numChannels, uint64_t actsPerChannel, bool computeEstimates);
uint64_t getBwdFlops(uint64_t numChannels, uint64_t actsPerChannel);
uint64_t getWuFlops(uint64_t numChannels, uint64_t actsPerChannel);

} // namespace in
} // namespace popnn
