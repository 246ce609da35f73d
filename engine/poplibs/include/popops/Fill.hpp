// Setting every element of a tensor to one value.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

namespace detail {
/// fill() and zero() for every value type; `opName` ("fill" or "zero") names the operation in
/// errors and, capitalised, its compute set.
void fill(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          double fillValue, const poplar::DebugContext& debugContext, const char* opName);
} // namespace detail

/// Sets every element of `t` (FLOAT, HALF, INT or UNSIGNED_INT) to `fillValue`, converted to t's
/// element type. Each tile fills the elements it holds.
template <typename FillValueType>
void fill(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          FillValueType fillValue, const poplar::DebugContext& debugContext = {}) {
  detail::fill(graph, t, prog, static_cast<double>(fillValue), debugContext, "fill");
}

} // namespace popops
