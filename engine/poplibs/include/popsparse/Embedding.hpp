// Embedding lookups into dynamically sparse weights: the sparse tensor of a fully connected
// layer ([outputChannels][inputChannels], one group) read and updated by whole rows.
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popsparse/FullyConnected.hpp>
#include <popsparse/FullyConnectedParams.hpp>
#include <popsparse/SparseTensor.hpp>

namespace popsparse {
namespace dynamic {

/// Row indices [numIndices] of UNSIGNED_INT, mapped for embeddingSlice and embeddingUpdateAdd.
poplar::Tensor createIndicesTensor(poplar::Graph& graph, const FullyConnectedParams& params,
                                   std::size_t numIndices, const poplar::OptionFlags& options = {},
                                   const poplar::DebugContext& debugContext = {});

/// Slices [numIndices][inputChannels] of dataType, mapped for embeddingUpdateAdd.
poplar::Tensor createSliceTensor(poplar::Graph& graph, const poplar::Type& dataType,
                                 const FullyConnectedParams& params, std::size_t numIndices,
                                 const poplar::DebugContext& debugContext = {},
                                 const poplar::OptionFlags& options = {},
                                 PlanningCache* cache = nullptr);

/// The dense rows indices[i] of the sparse weights t: [numIndices][inputChannels], zero where
/// the row has no value. An index past the last row fails the run.
poplar::Tensor embeddingSlice(poplar::Graph& graph, const SparseTensor& t,
                              const poplar::Tensor& indices, poplar::program::Sequence& prog,
                              const FullyConnectedParams& params,
                              const poplar::DebugContext& debugContext = {},
                              const poplar::OptionFlags& options = {},
                              PlanningCache* cache = nullptr);

/// Adds scale * slices[i] to row indices[i] of the sparse weights t, at the row's non-zero
/// positions only (the pattern does not change); scale is a scalar of the values' type.
void embeddingUpdateAdd(poplar::Graph& graph, const SparseTensor& t, const poplar::Tensor& slices,
                        const poplar::Tensor& indices, const poplar::Tensor& scale,
                        poplar::program::Sequence& prog, const FullyConnectedParams& params,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

} // namespace dynamic
} // namespace popsparse
