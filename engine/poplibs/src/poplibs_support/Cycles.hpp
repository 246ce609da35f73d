// The cycle model shared by the element-wise vertices' estimators.
#pragma once

#include <cstddef>
#include <cstdint>
#include <poplar/Type.hpp>

namespace poplibs_support {

/// Cycles of a vertex mapping `n` elements: `cyclesPerVector` per vector of the type's width
/// (integers are not vectorised), plus the vertex's fixed overhead.
inline std::uint64_t mapCycles(std::size_t n, poplar::Type type, unsigned cyclesPerVector,
                               unsigned vectorWidth) {
  const std::size_t width = type.isFloatingPoint() ? vectorWidth : 1;
  return 10 + (n + width - 1) / width * cyclesPerVector;
}

} // namespace poplibs_support
