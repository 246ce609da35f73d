// Row-wise sorting, top-k and arg-max vertices. Each vertex works on whole rows of rowLength
// elements, its fields holding several consecutive rows. Each row is costed as PopLibs' vertex
// for one row (SortCycleEstimators.hpp): HeapSortVertex(KV) its heap sort, TopK popnn's
// ReduceMaxNClassSparse (a heap of k), the arg-max family ReduceMax/MinClassSparse.
#include "poplibs_support/Arith.hpp"
#include "poplibs_support/SortCycleEstimators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <vector>

namespace popops {
namespace {

using poplar::half;
using poplar::InOut;
using poplar::Input;
using poplar::Output;
using poplar::Vector;
using poplibs_support::Arith;

template <typename T> class HeapSortVertex : public poplar::Vertex {
public:
  InOut<Vector<T>> out;
  unsigned rowLength;
  void compute() {
    for (std::size_t r = 0; r + rowLength <= out.size() && rowLength; r += rowLength)
      std::sort(out.begin() + r, out.begin() + r + rowLength,
                [](const T& a, const T& b) { return Arith<T>(a) < Arith<T>(b); });
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    const unsigned n = v.getInitialValue<unsigned>("rowLength");
    const std::uint64_t rows = n ? v.getFieldInfo("out").size() / n : 0;
    return rows * poplibs_support::heapSortCycles(n, false);
  }
};

template <typename K, typename V> class HeapSortVertexKV : public poplar::Vertex {
public:
  InOut<Vector<K>> key;
  InOut<Vector<V>> value;
  unsigned rowLength;
  void compute() {
    std::vector<unsigned> order(rowLength);
    std::vector<K> keys(rowLength);
    std::vector<V> values(rowLength);
    for (std::size_t r = 0; r + rowLength <= key.size() && rowLength; r += rowLength) {
      std::iota(order.begin(), order.end(), 0u);
      std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
        return Arith<K>(key[r + a]) < Arith<K>(key[r + b]);
      });
      for (unsigned i = 0; i < rowLength; ++i) {
        keys[i] = key[r + order[i]];
        values[i] = value[r + order[i]];
      }
      std::copy(keys.begin(), keys.end(), key.begin() + r);
      std::copy(values.begin(), values.end(), value.begin() + r);
    }
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    const unsigned n = v.getInitialValue<unsigned>("rowLength");
    const std::uint64_t rows = n ? v.getFieldInfo("key").size() / n : 0;
    return rows * poplibs_support::heapSortCycles(n, true);
  }
};

/// The k best keys of each row (largest or smallest), with the values at their positions, in
/// the requested order: 0 none (the order found), 1 ascending, 2 descending.
template <typename K, typename V> class TopK : public poplar::Vertex {
public:
  Input<Vector<K>> key;
  Input<Vector<V>> value;
  Output<Vector<K>> outKey;
  Output<Vector<V>> outValue;
  unsigned rowLength;
  unsigned k;
  unsigned largest;
  unsigned order;
  unsigned stable;
  void compute() {
    std::vector<unsigned> idx(rowLength);
    for (std::size_t row = 0; rowLength && (row + 1) * rowLength <= key.size(); ++row) {
      const std::size_t in = row * rowLength, out = row * k;
      std::iota(idx.begin(), idx.end(), 0u);
      // Better first; ties by position so the choice of the k is deterministic.
      auto better = [&](unsigned a, unsigned b) {
        const auto x = Arith<K>(key[in + a]), y = Arith<K>(key[in + b]);
        if (x != y) return largest ? x > y : x < y;
        return a < b;
      };
      std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), better);
      if (order == 1 || order == 2) {
        const bool ascending = order == 1;
        auto inOrder = [&](unsigned a, unsigned b) {
          const auto x = Arith<K>(key[in + a]), y = Arith<K>(key[in + b]);
          return ascending ? x < y : x > y;
        };
        // The k are in position order among equal keys already: a stable sort keeps that,
        // which satisfies stableSort and makes the unstable case deterministic too.
        std::stable_sort(idx.begin(), idx.begin() + k, inOrder);
      }
      for (unsigned i = 0; i < k; ++i) {
        outKey[out + i] = key[in + idx[i]];
        outValue[out + i] = value[in + idx[i]];
      }
    }
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    const unsigned n = v.getInitialValue<unsigned>("rowLength");
    const unsigned k = v.getInitialValue<unsigned>("k");
    const std::uint64_t rows = n ? v.getFieldInfo("key").size() / n : 0;
    const bool sorted = v.getInitialValue<unsigned>("order") != 0;
    return rows * poplibs_support::reduceMaxNClassSparseCycles(n, k, sorted);
  }
};

/// Per row, the best value and its position (the first of equal ones).
template <typename T, bool Max> class ReduceClassGather : public poplar::Vertex {
public:
  Input<Vector<T>> activations;
  Output<Vector<T>> value;
  Output<Vector<unsigned>> index;
  unsigned rowLength;
  void compute() {
    for (std::size_t row = 0; row < index.size(); ++row) {
      const std::size_t in = row * rowLength;
      unsigned best = 0;
      for (unsigned i = 1; i < rowLength; ++i) {
        const auto x = Arith<T>(activations[in + i]), b = Arith<T>(activations[in + best]);
        if (Max ? x > b : x < b) best = i;
      }
      index[row] = best;
      value[row] = activations[in + best];
    }
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    const std::uint64_t rows = v.getFieldInfo("index").size();
    const unsigned n = v.getInitialValue<unsigned>("rowLength");
    return rows * poplibs_support::reduceClassSparseCycles(poplar::TypeOf<T>::value, n);
  }
};

using uint = unsigned;
#define POPOPS_SORT_ONE(T, Name)                                                                   \
  using HeapSortVertex_##T = HeapSortVertex<T>;                                                    \
  TESSERA_VERTEX_IN("popops", "popops::HeapSortVertex<" Name ">", HeapSortVertex_##T, out,         \
                    rowLength);                                                                    \
  using MaxClass_##T = ReduceClassGather<T, true>;                                                 \
  TESSERA_VERTEX_IN("popops", "popops::ReduceMaxClassGather<" Name ",unsigned int>", MaxClass_##T, \
                    activations, value, index, rowLength);                                         \
  using MinClass_##T = ReduceClassGather<T, false>;                                                \
  TESSERA_VERTEX_IN("popops", "popops::ReduceMinClassGather<" Name ",unsigned int>", MinClass_##T, \
                    activations, value, index, rowLength)

#define POPOPS_SORT_KV(K, KName, V, VName)                                                         \
  using HeapSortVertexKV_##K##_##V = HeapSortVertexKV<K, V>;                                       \
  TESSERA_VERTEX_IN("popops", "popops::HeapSortVertexKV<" KName "," VName ">",                     \
                    HeapSortVertexKV_##K##_##V, key, value, rowLength);                            \
  using TopK_##K##_##V = TopK<K, V>;                                                               \
  TESSERA_VERTEX_IN("popops", "popops::TopK<" KName "," VName ">", TopK_##K##_##V, key, value,     \
                    outKey, outValue, rowLength, k, largest, order, stable)

#define POPOPS_SORT_KEY(K, KName)                                                                  \
  POPOPS_SORT_ONE(K, KName);                                                                       \
  POPOPS_SORT_KV(K, KName, float, "float");                                                        \
  POPOPS_SORT_KV(K, KName, half, "half");                                                          \
  POPOPS_SORT_KV(K, KName, int, "int");                                                            \
  POPOPS_SORT_KV(K, KName, uint, "unsigned int")

POPOPS_SORT_KEY(float, "float");
POPOPS_SORT_KEY(half, "half");
POPOPS_SORT_KEY(int, "int");
POPOPS_SORT_KEY(uint, "unsigned int");

} // namespace
} // namespace popops
