// Vertices of dynamic slicing (PopLibs' names and fields):
//   DynamicSlice1d / DynamicUpdateSlice1d: a contiguous base block [numBaseElements, regionSize]
//     and slice block [numSubElements, regionSize]; the slice starts at entry `offset`.
//   DynamicSlice2d / DynamicUpdateSlice2d: numRegions column regions, each given as
//     numBaseElements edges of the base (one per entry of the sliced dimension) and
//     numSubElements edges of the slice; the slice starts at entry `offset`.
//   MultiSlice / MultiUpdate / MultiUpdateAdd / MultiUpdateOp (max, mul): one column region of
//     base rows [baseOffset, baseOffset + numBaseElements) and one slice row per offset.
// Cycle estimates follow PopLibs' published estimators for these vertices.
#include "poplibs_support/Arith.hpp"
#include "poplibs_support/SliceCycleEstimators.hpp"

#include <algorithm>
#include <cstdint>
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
using poplar::VectorList;
using poplibs_support::Arith;

/// PopLibs' estimate for the 2d slice and update vertices (SliceCycleEstimators.hpp).
template <typename T>
std::uint64_t slice2dCycles(const poplar::VertexIntrospector& v, const poplar::Target& target) {
  const auto base = v.getFieldInfo("baseT");
  const unsigned numBase = v.getInitialValue<unsigned>("numBaseElements");
  const unsigned numRegions = v.getInitialValue<unsigned>("numRegions");
  std::vector<std::uint64_t> sizes(numRegions);
  for (unsigned r = 0; r < numRegions; ++r)
    sizes[r] = base.getSizeAtIndex(r * numBase);
  return poplibs_support::dynamicSlice2dCycles(target, poplar::TypeOf<T>::value, sizes,
                                               v.getInitialValue<unsigned>("numSubElements"));
}

/// PopLibs' estimate for the 1d vertices (SliceCycleEstimators.hpp): a supervisor figure, as
/// these are supervisor vertices in PopLibs and here.
template <typename T>
std::uint64_t slice1dCycles(const poplar::VertexIntrospector& v, const poplar::Target& target) {
  return poplibs_support::dynamicSlice1dCycles(target, poplar::TypeOf<T>::value,
                                               v.getInitialValue<unsigned>("regionSize"),
                                               v.getInitialValue<unsigned>("numSubElements"));
}

/// Copies slice rows between a base block and a slice block, wrapping at the end of the base.
template <typename T, typename From, typename To>
void copyRows(const From& from, const To& to, unsigned offset, unsigned numBase, unsigned numSub,
              unsigned regionSize, bool toBase) {
  unsigned entry = offset < numBase ? offset : 0;
  for (unsigned s = 0; s < numSub; ++s) {
    const std::size_t b = std::size_t(entry) * regionSize, u = std::size_t(s) * regionSize;
    for (unsigned e = 0; e < regionSize; ++e) {
      if (toBase)
        to[b + e] = from[u + e];
      else
        to[u + e] = from[b + e];
    }
    if (++entry == numBase) entry = 0;
  }
}

/// The 2-D forms: `numRegions` regions, each of `numBase` rows in the base and `numSub` in the
/// slice (one vector each), rows taken from `offset` on, wrapping to row 0 (as copyRows).
template <typename From, typename To>
void copyRegionRows(const From& from, const To& to, unsigned offset, unsigned numBase,
                    unsigned numSub, unsigned numRegions, bool toBase) {
  for (unsigned r = 0; r < numRegions; ++r) {
    unsigned entry = offset < numBase ? offset : 0;
    for (unsigned s = 0; s < numSub; ++s) {
      const std::size_t b = std::size_t(r) * numBase + entry, u = std::size_t(r) * numSub + s;
      const auto& src = from[toBase ? u : b];
      const auto& dst = to[toBase ? b : u];
      std::copy(src.begin(), src.end(), dst.begin());
      if (++entry == numBase) entry = 0;
    }
  }
}

template <typename T> class DynamicSlice1d : public poplar::SupervisorVertex {
public:
  Input<unsigned> offset;
  Input<Vector<T>> baseT;
  Output<Vector<T>> subT;
  unsigned numBaseElements;
  unsigned numSubElements;
  unsigned regionSize;
  void compute() {
    copyRows<T>(baseT, subT, *offset, numBaseElements, numSubElements, regionSize, false);
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return slice1dCycles<T>(v, target);
  }
};

template <typename T> class DynamicUpdateSlice1d : public poplar::SupervisorVertex {
public:
  Input<unsigned> offset;
  InOut<Vector<T>> baseT;
  Input<Vector<T>> subT;
  unsigned numBaseElements;
  unsigned numSubElements;
  unsigned regionSize;
  void compute() {
    copyRows<T>(subT, baseT, *offset, numBaseElements, numSubElements, regionSize, true);
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return slice1dCycles<T>(v, target);
  }
};

template <typename T> class DynamicSlice2d : public poplar::Vertex {
public:
  Input<unsigned> offset;
  Input<VectorList<T>> baseT;
  Output<VectorList<T>> subT;
  unsigned numBaseElements;
  unsigned numSubElements;
  unsigned numRegions;
  void compute() {
    copyRegionRows(baseT, subT, *offset, numBaseElements, numSubElements, numRegions, false);
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return slice2dCycles<T>(v, target);
  }
};

template <typename T> class DynamicUpdateSlice2d : public poplar::Vertex {
public:
  Input<unsigned> offset;
  InOut<VectorList<T>> baseT;
  Input<VectorList<T>> subT;
  unsigned numBaseElements;
  unsigned numSubElements;
  unsigned numRegions;
  void compute() {
    copyRegionRows(subT, baseT, *offset, numBaseElements, numSubElements, numRegions, true);
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return slice2dCycles<T>(v, target);
  }
};

/// PopLibs' estimate for MultiSlice and MultiUpdate (SliceCycleEstimators.hpp).
template <typename T>
std::uint64_t multiSliceCycles(const poplar::VertexIntrospector& v, const poplar::Target& target) {
  return poplibs_support::multiSliceCycles(target, poplar::TypeOf<T>::value,
                                           v.getInitialValue<unsigned>("regionSize"),
                                           v.getFieldInfo("offsets").size());
}

template <typename T> class MultiSlice : public poplar::Vertex {
public:
  Input<Vector<unsigned>> offsets;
  Input<Vector<T>> baseT;
  Output<Vector<T>> subT;
  unsigned baseOffset;
  unsigned numBaseElements;
  unsigned regionSize;
  void compute() {
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      T* to = &subT[i * regionSize];
      const unsigned row = offsets[i] - baseOffset;
      if (offsets[i] < baseOffset || row >= numBaseElements)
        std::fill(to, to + regionSize, T(Arith<T>(0))); // out of range: a zero slice
      else
        std::copy(&baseT[row * regionSize], &baseT[row * regionSize] + regionSize, to);
    }
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return multiSliceCycles<T>(v, target);
  }
};

template <typename T> class MultiUpdate : public poplar::Vertex {
public:
  Input<Vector<unsigned>> offsets;
  InOut<Vector<T>> baseT;
  Input<Vector<T>> subT;
  unsigned baseOffset;
  unsigned numBaseElements;
  unsigned regionSize;
  void compute() {
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      const unsigned row = offsets[i] - baseOffset;
      if (offsets[i] < baseOffset || row >= numBaseElements) continue;
      std::copy(&subT[i * regionSize], &subT[i * regionSize] + regionSize,
                &baseT[row * regionSize]);
    }
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return multiSliceCycles<T>(v, target);
  }
};

/// PopLibs' estimates for the accumulating updates (SliceCycleEstimators.hpp).
template <typename T>
std::uint64_t multiUpdateAddCycles(const poplar::VertexIntrospector& v,
                                   const poplar::Target& target) {
  return poplibs_support::multiUpdateAddCycles(target, poplar::TypeOf<T>::value,
                                               v.getInitialValue<unsigned>("regionSize"),
                                               v.getFieldInfo("offsets").size());
}
template <typename T>
std::uint64_t multiUpdateOpCycles(const poplar::VertexIntrospector& v,
                                  const poplar::Target& target) {
  return poplibs_support::multiUpdateOpWorkerCycles(target, poplar::TypeOf<T>::value,
                                                    v.getInitialValue<unsigned>("regionSize"),
                                                    v.getFieldInfo("offsets").size());
}

template <typename T> class MultiUpdateAdd : public poplar::Vertex {
public:
  Input<Vector<unsigned>> offsets;
  InOut<Vector<T>> baseT;
  Input<Vector<T>> subT;
  Input<T> scale;
  unsigned baseOffset;
  unsigned numBaseElements;
  unsigned regionSize;
  void compute() {
    const Arith<T> k = Arith<T>(*scale);
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      const unsigned row = offsets[i] - baseOffset;
      if (offsets[i] < baseOffset || row >= numBaseElements) continue;
      for (unsigned e = 0; e < regionSize; ++e) {
        T& b = baseT[row * regionSize + e];
        b = T(poplibs_support::wrappingAdd<Arith<T>>(
            Arith<T>(b),
            poplibs_support::wrappingMul<Arith<T>>(k, Arith<T>(subT[i * regionSize + e]))));
      }
    }
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return multiUpdateAddCycles<T>(v, target);
  }
};

/// popops::MultiUpdateOp<T, false, op>: each offset's slice combined into its base row with
/// `op` (MAXIMUM keeps the larger, MULTIPLY multiplies), offsets outside the rows ignored.
template <typename T, bool Multiply> class MultiUpdateOp : public poplar::Vertex {
public:
  Input<Vector<unsigned>> offsets;
  InOut<Vector<T>> baseT;
  Input<Vector<T>> subT;
  unsigned baseOffset;
  unsigned numBaseElements;
  unsigned regionSize;
  void compute() {
    for (std::size_t i = 0; i < offsets.size(); ++i) {
      const unsigned row = offsets[i] - baseOffset;
      if (offsets[i] < baseOffset || row >= numBaseElements) continue;
      for (unsigned e = 0; e < regionSize; ++e) {
        T& b = baseT[row * regionSize + e];
        const Arith<T> s = Arith<T>(subT[i * regionSize + e]);
        if (Multiply)
          b = T(poplibs_support::wrappingMul<Arith<T>>(Arith<T>(b), s));
        else if (s > Arith<T>(b))
          b = T(s);
      }
    }
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return multiUpdateOpCycles<T>(v, target);
  }
};

#define POPOPS_SLICE_VERTICES(T, Name)                                                             \
  using DynamicSlice1d_##T = DynamicSlice1d<T>;                                                    \
  TESSERA_VERTEX_IN("popops", "popops::DynamicSlice1d<" Name ">", DynamicSlice1d_##T, offset,      \
                    baseT, subT, numBaseElements, numSubElements, regionSize);                     \
  using DynamicUpdateSlice1d_##T = DynamicUpdateSlice1d<T>;                                        \
  TESSERA_VERTEX_IN("popops", "popops::DynamicUpdateSlice1d<" Name ">", DynamicUpdateSlice1d_##T,  \
                    offset, baseT, subT, numBaseElements, numSubElements, regionSize);             \
  using DynamicSlice2d_##T = DynamicSlice2d<T>;                                                    \
  TESSERA_VERTEX_IN("popops", "popops::DynamicSlice2d<" Name ">", DynamicSlice2d_##T, offset,      \
                    baseT, subT, numBaseElements, numSubElements, numRegions);                     \
  using DynamicUpdateSlice2d_##T = DynamicUpdateSlice2d<T>;                                        \
  TESSERA_VERTEX_IN("popops", "popops::DynamicUpdateSlice2d<" Name ">", DynamicUpdateSlice2d_##T,  \
                    offset, baseT, subT, numBaseElements, numSubElements, numRegions);             \
  using MultiSlice_##T = MultiSlice<T>;                                                            \
  TESSERA_VERTEX_IN("popops", "popops::MultiSlice<" Name ">", MultiSlice_##T, offsets, baseT,      \
                    subT, baseOffset, numBaseElements, regionSize);                                \
  using MultiUpdate_##T = MultiUpdate<T>;                                                          \
  TESSERA_VERTEX_IN("popops", "popops::MultiUpdate<" Name ">", MultiUpdate_##T, offsets, baseT,    \
                    subT, baseOffset, numBaseElements, regionSize);                                \
  using MultiUpdateAdd_##T = MultiUpdateAdd<T>;                                                    \
  TESSERA_VERTEX_IN("popops", "popops::MultiUpdateAdd<" Name ",false>", MultiUpdateAdd_##T,        \
                    offsets, baseT, subT, scale, baseOffset, numBaseElements, regionSize);         \
  using MultiUpdateMax_##T = MultiUpdateOp<T, false>;                                              \
  TESSERA_VERTEX_IN(                                                                               \
      "popops", "popops::MultiUpdateOp<" Name ",false,popops::expr::BinaryOpType::MAXIMUM>",       \
      MultiUpdateMax_##T, offsets, baseT, subT, baseOffset, numBaseElements, regionSize);          \
  using MultiUpdateMul_##T = MultiUpdateOp<T, true>;                                               \
  TESSERA_VERTEX_IN(                                                                               \
      "popops", "popops::MultiUpdateOp<" Name ",false,popops::expr::BinaryOpType::MULTIPLY>",      \
      MultiUpdateMul_##T, offsets, baseT, subT, baseOffset, numBaseElements, regionSize)

using uint = unsigned;
POPOPS_SLICE_VERTICES(float, "float");
POPOPS_SLICE_VERTICES(half, "half");
POPOPS_SLICE_VERTICES(int, "int");
POPOPS_SLICE_VERTICES(uint, "unsigned int");

} // namespace
} // namespace popops
