// Edge lists whose rows lie equally spaced in memory: the rows of a matrix block, as PopLibs lays
// out a product's operands and its partial sums. A vertex that finds its rows so on its first run
// keeps the first row and the spacing, and later runs compute each row's address instead of
// reading the row's edge descriptor. The descriptors are cold in cache on every run (for the
// 512^3 product, about 6 MB of them a run, twice A, B and C), and reading them cost the
// matmul vertices more than setting up their products (issue 38, docs/benchmarks.md). An
// engine binds a vertex's edges once, when it loads, so what the first run found stays true.
// Host speed only: what a vertex computes and its cycle estimate do not depend on it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace poplin {

template <class T> struct EvenRows {
  T* first = nullptr;
  std::ptrdiff_t stride = 0; ///< elements from one row to the next
  T* row(std::size_t i) const { return first + stride * static_cast<std::ptrdiff_t>(i); }
};

/// True, with `rows` set, when every edge of `edges` is `size` elements long and the edges
/// start equally spaced (at any distance, in either direction); false otherwise.
template <class T, class Edges>
bool findEvenRows(const Edges& edges, std::size_t size, EvenRows<T>& rows) {
  const std::size_t n = edges.size();
  if (n == 0) {
    rows = {};
    return true;
  }
  const auto address = [&](std::size_t i) {
    return reinterpret_cast<std::uintptr_t>(edges[i].data());
  };
  // Unsigned arithmetic: a step backwards wraps, and the comparisons below still hold.
  const std::uintptr_t first = address(0), step = n > 1 ? address(1) - first : 0;
  if (static_cast<std::intptr_t>(step) % static_cast<std::intptr_t>(sizeof(T)) != 0) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (edges[i].size() != size || address(i) != first + step * i) return false;
  rows.first = edges[0].data();
  rows.stride = static_cast<std::intptr_t>(step) / static_cast<std::intptr_t>(sizeof(T));
  return true;
}

} // namespace poplin
