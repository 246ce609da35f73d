// Layer normalisation of activations [N][C][field...]: statistics per batch element over all
// its channels and field (group normalisation with one group). Mean and inverse standard
// deviation are [N]; gamma and beta are per channel [C]. No options are recognised.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <utility>

namespace popnn {
namespace ln {

std::pair<poplar::Tensor, poplar::Tensor>
layerNormStatistics(poplar::Graph& graph, const poplar::Tensor acts, float eps,
                    poplar::program::Sequence& prog, bool unbiasedVarEstimate,
                    bool stableAlgo = false, const poplar::Type& partialsType = poplar::FLOAT,
                    const poplar::DebugContext& debugContext = {},
                    const poplar::OptionFlags& options = {});

poplar::Tensor layerNormWhiten(poplar::Graph& graph, const poplar::Tensor& acts,
                               const poplar::Tensor& mean, const poplar::Tensor& invStdDev,
                               poplar::program::Sequence& prog,
                               const poplar::DebugContext& debugContext = {},
                               const poplar::OptionFlags& options = {});

/// (normalised activations, whitened activations).
std::pair<poplar::Tensor, poplar::Tensor>
layerNormalise(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gamma,
               const poplar::Tensor& beta, const poplar::Tensor& mean,
               const poplar::Tensor& invStdDev, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext = {},
               const poplar::OptionFlags& options = {});

std::pair<poplar::Tensor, poplar::Tensor> layerNormParamGradients(
    poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gradsIn,
    const poplar::Tensor& mean, const poplar::Tensor& iStdDev, poplar::program::Sequence& prog,
    const poplar::Type& partialsType = poplar::FLOAT, const poplar::DebugContext& debugContext = {},
    const poplar::OptionFlags& options = {});
std::pair<poplar::Tensor, poplar::Tensor> layerNormParamGradients(
    poplar::Graph& graph, const poplar::Tensor& actsWhitened, const poplar::Tensor& gradsIn,
    poplar::program::Sequence& prog, const poplar::Type& partialsType = poplar::FLOAT,
    const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {});

poplar::Tensor layerNormGradients(poplar::Graph& graph, const poplar::Tensor& acts,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& mean,
                                  const poplar::Tensor& invStdDev, const poplar::Tensor& gamma,
                                  poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});
poplar::Tensor layerNormGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& invStdDev,
                                  const poplar::Tensor& gamma, poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});

void layerNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, float scale, poplar::Tensor& gamma,
                          poplar::Tensor& beta, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {});
void layerNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, const poplar::Tensor& scale,
                          poplar::Tensor& gamma, poplar::Tensor& beta,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {});

} // namespace ln
} // namespace popnn
