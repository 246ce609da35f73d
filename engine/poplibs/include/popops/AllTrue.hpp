// Whether every element of a BOOL tensor is true.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A one-element BOOL tensor (shape {}) holding the logical AND of every element of A (true for
/// an empty A). Throws poputil::poplibs_error unless A is BOOL.
poplar::Tensor allTrue(poplar::Graph& graph, poplar::Tensor A, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {});

} // namespace popops
