// Sorting along one dimension of a tensor, in ascending order.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <string>

namespace popops {

/// A sorted copy of `t`: every 1-D slice along `dim` in ascending order.
poplar::Tensor sort(poplar::Graph& graph, const poplar::Tensor& t, unsigned dim,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

/// Sorts `t` along `dim` where it is.
void sortInPlace(poplar::Graph& graph, const poplar::Tensor& t, unsigned dim,
                 poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

/// A copy of `v` permuted as sorting `k` (same shape) along `dim` permutes k. Equal keys keep
/// their order.
poplar::Tensor sortKeyValue(poplar::Graph& graph, const poplar::Tensor& k, const poplar::Tensor& v,
                            unsigned dim, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = {});

/// Sorts `k` along `dim` and permutes `v` the same way, both where they are.
void sortKeyValueInPlace(poplar::Graph& graph, const poplar::Tensor& k, const poplar::Tensor& v,
                         unsigned dim, poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = {});

} // namespace popops
