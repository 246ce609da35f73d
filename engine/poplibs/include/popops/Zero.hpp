// Zeroing a tensor.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// Sets every element of `t` (FLOAT, HALF, INT or UNSIGNED_INT) to zero.
void zero(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext = {});

} // namespace popops
