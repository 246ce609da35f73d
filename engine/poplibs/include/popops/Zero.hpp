// Zeroing a tensor.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <vector>

namespace popops {

/// Adds to zeroCS vertices on `tile` zeroing the elements of the flattened `t` in tileRegions.
void zero(poplar::Graph& graph, poplar::Tensor t, const std::vector<poplar::Interval>& tileRegions,
          unsigned tile, poplar::ComputeSet zeroCS);
/// Adds to zeroCS vertices on `tile` zeroing every element of `t`.
void zero(poplar::Graph& graph, const poplar::Tensor& t, unsigned tile, poplar::ComputeSet zeroCS);
/// Adds to zeroCS, on each tile, vertices zeroing the elements mapping[tile] of the flattened
/// `t`.
void zero(poplar::Graph& graph, const poplar::Tensor& t,
          const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet zeroCS);

/// Sets every element of `t` (FLOAT, HALF, INT or UNSIGNED_INT) to zero.
void zero(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext = {});

} // namespace popops
