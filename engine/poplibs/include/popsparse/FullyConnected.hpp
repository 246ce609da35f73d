// Fully connected layers with dynamically sparse weights (see FullyConnectedParams.hpp for the
// shapes). Options as for dynamic::sparseDenseMatMul, plus doGradAPass and doGradWPass
// (default false), which Tessera's plan does not need and accepts.
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popsparse/FullyConnectedParams.hpp>
#include <popsparse/PlanningCache.hpp>
#include <popsparse/SparseTensor.hpp>
#include <tuple>

namespace popsparse {
namespace dynamic {

/// The sparse weights [numGroups][outputChannelsPerGroup][inputChannelsPerGroup].
SparseTensor createFullyConnectedWeights(poplar::Graph& graph, const poplar::Type& inputType,
                                         const FullyConnectedParams& params,
                                         const poplar::DebugContext& debugContext = {},
                                         const poplar::OptionFlags& options = {},
                                         PlanningCache* cache = nullptr);

/// Activations [batchSize][numGroups * inputChannelsPerGroup], laid out for the forward pass.
poplar::Tensor createFullyConnectedInput(poplar::Graph& graph, const poplar::Type& inputType,
                                         const FullyConnectedParams& params,
                                         const poplar::DebugContext& debugContext = {},
                                         const poplar::OptionFlags& options = {},
                                         PlanningCache* cache = nullptr);

/// activations [batchSize][inputChannels] times the weights' transpose:
/// [batchSize][outputChannels].
poplar::Tensor
fullyConnectedFwd(poplar::Graph& graph, const SparseTensor& weights,
                  const poplar::Tensor& activations, const FullyConnectedParams& fcParams,
                  poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                  const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// gradients [batchSize][outputChannels] times the weights: [batchSize][inputChannels].
poplar::Tensor
fullyConnectedGradA(poplar::Graph& graph, const SparseTensor& weights,
                    const poplar::Tensor& gradients, const FullyConnectedParams& fcParams,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                    const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// The gradients of the non-zero weights, laid out as the weights' nzValues: for a weight at
/// (row r, column c), the sum over the batch of gradA[b][r] * activations[b][c].
poplar::Tensor
fullyConnectedSparseGradW(poplar::Graph& graph, const poplar::Tensor sparsityMetaInfo,
                          const poplar::Tensor& gradA, const poplar::Tensor& activations,
                          const FullyConnectedParams& fcParams, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// The serial splits of a dense grad-W [numGroups][inputSize][outputSize]; Tessera's plan does
/// not serialise, so {1, 1, 1}.
std::tuple<unsigned, unsigned, unsigned> fullyConnectedDenseGradWSerialSplits(
    const poplar::Graph& graph, const poplar::Type& inputType, const FullyConnectedParams& fcParams,
    const poplar::OptionFlags& options_ = {}, PlanningCache* cache = nullptr);

} // namespace dynamic
} // namespace popsparse
