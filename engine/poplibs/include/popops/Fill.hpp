// Setting every element of a tensor to one value.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <vector>

namespace popops {

namespace detail {
/// fill() and zero() for every value type; `opName` ("fill" or "zero") names the operation in
/// errors and, capitalised, its compute set.
void fill(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          double fillValue, const poplar::DebugContext& debugContext, const char* opName);
/// The compute-set forms: mapping[tile] lists the intervals of the flattened `t` that tile
/// fills; each tile's intervals are shared between its workers.
void fill(poplar::Graph& graph, const poplar::Tensor& t,
          const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet cs,
          double fillValue, const char* opName);
/// `regions` as mapping[tile] of a mapping that is otherwise empty.
std::vector<std::vector<poplar::Interval>> onTile(const poplar::Graph& graph, unsigned tile,
                                                  const std::vector<poplar::Interval>& regions);
} // namespace detail

/// Adds to fillCS vertices on `tile` setting the elements of the flattened `t` in tileRegions
/// to `fillValue`.
template <typename FillValueType>
void fill(poplar::Graph& graph, poplar::Tensor t, const std::vector<poplar::Interval>& tileRegions,
          unsigned tile, poplar::ComputeSet fillCS, FillValueType fillValue) {
  detail::fill(graph, t, detail::onTile(graph, tile, tileRegions), fillCS,
               static_cast<double>(fillValue), "fill");
}
/// Adds to fillCS vertices on `tile` setting every element of `t` to `fillValue`.
template <typename FillValueType>
void fill(poplar::Graph& graph, const poplar::Tensor& t, unsigned tile, poplar::ComputeSet fillCS,
          FillValueType fillValue) {
  detail::fill(graph, t, detail::onTile(graph, tile, {poplar::Interval(0, t.numElements())}),
               fillCS, static_cast<double>(fillValue), "fill");
}
/// Adds to fillCS, on each tile, vertices setting the elements mapping[tile] of the flattened
/// `t` to `fillValue`.
template <typename FillValueType>
void fill(poplar::Graph& graph, const poplar::Tensor& t,
          const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet fillCS,
          FillValueType fillValue) {
  detail::fill(graph, t, mapping, fillCS, static_cast<double>(fillValue), "fill");
}

/// Sets every element of `t` (FLOAT, HALF, INT or UNSIGNED_INT) to `fillValue`, converted to t's
/// element type. Each tile fills the elements it holds.
template <typename FillValueType>
void fill(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          FillValueType fillValue, const poplar::DebugContext& debugContext = {}) {
  detail::fill(graph, t, prog, static_cast<double>(fillValue), debugContext, "fill");
}

} // namespace popops
