// The representation behind poplar::Tensor: an ordered list of variable regions and a shape.
#pragma once

#include <poplar/Tensor.hpp>
#include <vector>

namespace poplar::detail {

struct TensorData {
  const void* graph = nullptr;
  Type type;
  std::vector<std::size_t> shape;
  std::vector<VarRegion> regions; ///< adjacent regions are always merged
  /// Flattened index of each region's first element; empty when there is at most one region
  /// (most tensors a large graph holds are one region: its edges' slices).
  std::vector<std::size_t> starts;
  std::size_t numElements = 0;

  std::size_t start(std::size_t region) const { return starts.empty() ? 0 : starts[region]; }
  /// The region holding flattened element `element` (< numElements).
  std::size_t regionOf(std::size_t element) const;
};

} // namespace poplar::detail

namespace poplar::detail::graph {

/// Appends [begin, end) of `var`, merging with the previous region when they are adjacent.
inline void appendRegion(std::vector<VarRegion>& out, unsigned var, std::size_t begin,
                         std::size_t end) {
  if (begin == end) return;
  if (!out.empty() && out.back().var == var && out.back().end == begin)
    out.back().end = end;
  else
    out.push_back({var, begin, end});
}

} // namespace poplar::detail::graph
