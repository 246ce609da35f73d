// What the normalisation layers (batch, group, instance, layer norm) share: creating their
// per-channel parameters and counting their floating-point operations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <utility>

namespace popnn {

/// FLOPs of a normalisation's forward pass over numActsElements activations with
/// statisticsSize statistics (means and inverse standard deviations): 2 per activation to
/// apply gamma and beta; with computeStats also 2 per activation for the sums, 5 per statistic
/// and 2 per activation to whiten (PopLibs' count).
std::uint64_t getNormFwdFlops(std::size_t statisticsSize, std::size_t numActsElements,
                              bool computeStats = true);
/// FLOPs of the backward pass: 8 per activation and 2 per statistic.
std::uint64_t getNormBwdFlops(std::size_t statisticsSize, std::size_t numActsElements);
/// FLOPs of the parameter gradients and update: 3 per activation and 4 per parameter.
std::uint64_t getNormWuFlops(std::size_t paramsSize, std::size_t numActsElements);

/// The scale (gamma) for activations [N][C] or [N][C][field...]: [C] of the activations' type,
/// spread over the tiles.
poplar::Tensor createNormGamma(poplar::Graph& graph, const poplar::Tensor& acts,
                               const poplar::DebugContext& debugContext = {});
/// The shift (beta), made like gamma.
poplar::Tensor createNormBeta(poplar::Graph& graph, const poplar::Tensor& acts,
                              const poplar::DebugContext& debugContext = {});
/// (gamma, beta).
std::pair<poplar::Tensor, poplar::Tensor>
createNormParams(poplar::Graph& graph, const poplar::Tensor acts,
                 const poplar::DebugContext& debugContext = {});

} // namespace popnn
