// The k largest (or smallest) values of each row of a tensor, and the arg-max family.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/SortOrder.hpp>
#include <utility>
#include <vector>

namespace popops {

/// What topK* computes.
struct TopKParams {
  /// How many values per row: at most the innermost dimension of the input.
  unsigned k;
  /// true: the k largest values; false: the k smallest.
  bool largest;
  /// The order of the k results (NONE leaves it to the implementation).
  SortOrder sortOrder;
  /// With an order, equal values keep their input order.
  bool stableSort;

  TopKParams(unsigned k, bool largest, SortOrder sortOrder, bool stableSort = false) noexcept;
};

std::ostream& operator<<(std::ostream& os, const TopKParams& p);

/// A new tensor of `shape` laid out for topK: whole rows (innermost dimension) on each tile.
poplar::Tensor createTopKInput(poplar::Graph& graph, const poplar::Type& type,
                               const std::vector<std::size_t>& shape, const TopKParams& params,
                               const poplar::DebugContext& debugContext = {});

/// The top k values of each row of `t` (its innermost dimension): t's shape with the innermost
/// dimension k.
poplar::Tensor topK(poplar::Graph& graph, poplar::program::Sequence& prog, const poplar::Tensor& t,
                    const TopKParams& params, const poplar::DebugContext& debugContext = {});

/// The top k keys of each row and the values at the same positions of `values` (same shape).
std::pair<poplar::Tensor, poplar::Tensor>
topKKeyValue(poplar::Graph& graph, poplar::program::Sequence& prog, const poplar::Tensor& keys,
             const poplar::Tensor& values, const TopKParams& params,
             const poplar::DebugContext& debugContext = {});

/// The top k values of each row and their positions in the row (UNSIGNED_INT).
std::pair<poplar::Tensor, poplar::Tensor>
topKWithPermutation(poplar::Graph& graph, poplar::program::Sequence& prog, const poplar::Tensor& t,
                    const TopKParams& params, const poplar::DebugContext& debugContext = {});

/// For a 2-D `input` [batch, n]: the position (UNSIGNED_INT [batch]) of each row's largest
/// value; the first one when several are equal.
poplar::Tensor argMax(poplar::Graph& graph, const poplar::Tensor& input,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {});

/// As argMax, for the smallest value.
poplar::Tensor argMin(poplar::Graph& graph, const poplar::Tensor& input,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {});

/// Each row's largest value (input's type, [batch]) and its position (UNSIGNED_INT [batch]).
std::pair<poplar::Tensor, poplar::Tensor>
maxAndArgMax(poplar::Graph& graph, const poplar::Tensor& input, poplar::program::Sequence& prog,
             const poplar::DebugContext& debugContext = {});

/// Each row's smallest value and its position.
std::pair<poplar::Tensor, poplar::Tensor>
minAndArgMin(poplar::Graph& graph, const poplar::Tensor& input, poplar::program::Sequence& prog,
             const poplar::DebugContext& debugContext = {});

} // namespace popops
