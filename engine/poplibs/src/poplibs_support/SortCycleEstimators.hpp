// Cycle estimates of the sorting, top-k, arg-max and encoding vertices as PopLibs' published
// estimators compute them (graphcore/poplibs lib/popops/popopsCycleEstimators.cpp for
// HeapSortVertex(KV), EncodeOneHot(CustomValues), Iota and ForLoopCounter;
// lib/popnn/popnnCycleEstimators.cpp for ReduceMaxClassSparse and ReduceMaxNClassSparse: the
// constants are facts about the vertices' code; the code is ours). Tessera's vertices work on
// several rows each; every row is costed as PopLibs' vertex over that row.
#pragma once

#include "poplibs_support/NnCycleEstimators.hpp"

#include <cmath>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

namespace poplibs_support {

/// HeapSortVertex over n keys (the worst case of every heap operation): 8 x (19 n floor(log2 n)
/// + 6 n + 2); HeapSortVertexKV moves the values too: 16 x the same. 0 for an empty row.
inline std::uint64_t heapSortCycles(std::uint64_t n, bool keyValue) {
  if (n == 0) return 0;
  const std::uint64_t depth = std::uint64_t(std::floor(std::log2(double(n))));
  return (keyValue ? 16 : 8) * (19 * n * depth + 6 * n + 2);
}

/// popnn::ReduceMaxNClassSparse: the top k of n activations with a heap: 12 to set up, 23 for
/// the first push, 13 + 20 ln(i) for each further of the first k, 13 + 20 ln(k) for each
/// other activation (the worst case, every one a push), 8 per result, and when sorted
/// 10 + 20 ln(i) per pop. Accumulated as PopLibs does: each step adds a real number to the
/// integer count, which keeps the whole part.
inline std::uint64_t reduceMaxNClassSparseCycles(std::uint64_t n, std::uint64_t k, bool sorted) {
  std::uint64_t cycles = 10 + 2 + 23;
  for (std::uint64_t i = 1; i < k; ++i)
    cycles = std::uint64_t(double(cycles) + 13 + std::log(double(i)) * 20);
  if (n > k)
    cycles = std::uint64_t(double(cycles) + double(n - k) * (13 + std::log(double(k)) * 20));
  cycles += 8 * k;
  if (sorted)
    for (std::uint64_t i = k; i >= 1; --i) {
      cycles += 10;
      cycles = std::uint64_t(double(cycles) + 20 * std::log(double(i)));
    }
  return cycles;
}

/// The arg-max / arg-min of a row of n (popnn::ReduceMaxClassSparse, ReduceMinClassSparse):
/// float and half in assembly (reduceMaxClassSparseCycles), other types compiled, 5 + 18 +
/// 6 per element.
inline std::uint64_t reduceClassSparseCycles(poplar::Type type, std::uint64_t n) {
  if (type == poplar::FLOAT || type == poplar::HALF) return reduceMaxClassSparseCycles(n);
  return 5 + 18 + 6 * n;
}

/// popops::EncodeOneHot: unsigned indices into half: the assembly vertex, 11 (supervisor) +
/// (62 + 12) per index (its worst branch and the ignore-index test); other types the C++
/// vertex, 100 per index. EncodeOneHotCustomValues: always C++, 100 per index.
inline std::uint64_t encodeOneHotCycles(poplar::Type index, poplar::Type out,
                                        std::uint64_t numIndices) {
  if (index == poplar::UNSIGNED_INT && out == poplar::HALF) return 11 + (62 + 12) * numIndices;
  return 100 * numIndices;
}
inline std::uint64_t encodeOneHotCustomValuesCycles(std::uint64_t numIndices) {
  return 100 * numIndices;
}

/// popops::Iota over one region of n: 10 + 4 + 3 per vector of the output type.
inline std::uint64_t iotaCycles(const poplar::Target& t, poplar::Type type, std::uint64_t n) {
  const std::uint64_t width = t.getVectorWidth(type);
  return 10 + 4 + 3 * ((n + width - 1) / width);
}

/// popops::ForLoopCounter: PopLibs publishes a constant 43 cycles.
constexpr std::uint64_t forLoopCounterCycles() {
  return 43;
}

} // namespace poplibs_support
