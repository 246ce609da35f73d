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
  std::vector<std::size_t> starts; ///< flattened index of each region's first element
  std::size_t numElements = 0;
};

/// Appends [begin, end) of `var`, merging with the previous region when they are adjacent.
inline void appendRegion(std::vector<VarRegion>& out, unsigned var, std::size_t begin,
                         std::size_t end) {
  if (begin == end) return;
  if (!out.empty() && out.back().var == var && out.back().end == begin) out.back().end = end;
  else out.push_back({var, begin, end});
}

} // namespace poplar::detail
