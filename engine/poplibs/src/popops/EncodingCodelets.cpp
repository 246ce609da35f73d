// One-hot encoding and iota vertices (PopLibs' names). EncodeOneHot writes the hot elements of
// rows the op zeroed first; EncodeOneHotCustomValues writes every element. Cycle estimates are
// PopLibs' published estimators (SortCycleEstimators.hpp).
#include "poplibs_support/Arith.hpp"
#include "poplibs_support/SortCycleEstimators.hpp"

#include <algorithm>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace popops {
namespace {

using poplar::half;
using poplar::InOut;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

/// Whether `index` names a column of a row of `sliceLength` (MASKED_LABEL_CODE never does).
template <typename I> bool inRow(I index, unsigned sliceLength) {
  const unsigned u = static_cast<unsigned>(index);
  return u != 0xFFFFFFFFu && u < sliceLength;
}

template <typename I, typename O> class EncodeOneHot : public poplar::Vertex {
public:
  Input<Vector<I>> indices;
  InOut<Vector<O>> out;
  unsigned sliceLength;
  void compute() {
    for (std::size_t i = 0; i < indices.size(); ++i)
      if (inRow(indices[i], sliceLength)) out[i * sliceLength + unsigned(indices[i])] = O(1.0f);
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return poplibs_support::encodeOneHotCycles(poplar::TypeOf<I>::value, poplar::TypeOf<O>::value,
                                               v.getFieldInfo("indices").size());
  }
};

template <typename I, typename O> class EncodeOneHotCustomValues : public poplar::Vertex {
public:
  Input<Vector<I>> indices;
  Output<Vector<O>> out;
  Input<O> on;
  Input<O> off;
  unsigned sliceLength;
  void compute() {
    std::fill(out.begin(), out.end(), *off);
    for (std::size_t i = 0; i < indices.size(); ++i)
      if (inRow(indices[i], sliceLength)) out[i * sliceLength + unsigned(indices[i])] = *on;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    return poplibs_support::encodeOneHotCustomValuesCycles(v.getFieldInfo("indices").size());
  }
};

template <typename T> class Iota : public poplar::Vertex {
public:
  Output<Vector<T>> out;
  T start;
  void compute() {
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = T(static_cast<unsigned>(start) + static_cast<unsigned>(i));
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::iotaCycles(target, poplar::TypeOf<T>::value,
                                       v.getFieldInfo("out").size());
  }
};

using uint = unsigned;
#define POPOPS_ONE_HOT(I, IName, O, OName)                                                         \
  using EncodeOneHot_##I##_##O = EncodeOneHot<I, O>;                                               \
  TESSERA_VERTEX_IN("popops", "popops::EncodeOneHot<" IName "," OName ">", EncodeOneHot_##I##_##O, \
                    indices, out, sliceLength);                                                    \
  using EncodeOneHotCV_##I##_##O = EncodeOneHotCustomValues<I, O>;                                 \
  TESSERA_VERTEX_IN("popops", "popops::EncodeOneHotCustomValues<" IName "," OName ">",             \
                    EncodeOneHotCV_##I##_##O, indices, out, on, off, sliceLength)

POPOPS_ONE_HOT(uint, "unsigned int", float, "float");
POPOPS_ONE_HOT(uint, "unsigned int", half, "half");
POPOPS_ONE_HOT(uint, "unsigned int", int, "int");
POPOPS_ONE_HOT(uint, "unsigned int", uint, "unsigned int");
POPOPS_ONE_HOT(int, "int", float, "float");
POPOPS_ONE_HOT(int, "int", half, "half");
POPOPS_ONE_HOT(int, "int", int, "int");
POPOPS_ONE_HOT(int, "int", uint, "unsigned int");

using Iota_int = Iota<int>;
using Iota_uint = Iota<unsigned>;
TESSERA_VERTEX_IN("popops", "popops::Iota<int>", Iota_int, out, start);
TESSERA_VERTEX_IN("popops", "popops::Iota<unsigned int>", Iota_uint, out, start);

} // namespace
} // namespace popops
