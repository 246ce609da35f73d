// The tiles' generator states of a graph, as a graph variable (the IPU keeps them in registers;
// the simulated tiles keep them in 16 bytes of memory each, reported as "poprand/hwSeeds").
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>

namespace poprand {
namespace detail {

/// The UNSIGNED_INT [tiles, 4] variable holding each tile's generator state for `graph` (row t
/// on tile t of this graph), created on first use with the same state on every tile.
poplar::Tensor hardwareSeeds(poplar::Graph& graph);

} // namespace detail
} // namespace poprand
