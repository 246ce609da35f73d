// Vertices of dynamic slicing (PopLibs' names and fields):
//   DynamicSlice1d / DynamicUpdateSlice1d: a contiguous base block [numBaseElements, regionSize]
//     and slice block [numSubElements, regionSize]; the slice starts at entry `offset`.
//   DynamicSlice2d / DynamicUpdateSlice2d: numRegions column regions, each given as
//     numBaseElements edges of the base (one per entry of the sliced dimension) and
//     numSubElements edges of the slice; the slice starts at entry `offset`.
//   MultiSlice / MultiUpdate / MultiUpdateAdd / MultiUpdateOp (max): one column region of
//     base rows [baseOffset, baseOffset + numBaseElements) and one slice row per offset.
// Cycle estimates follow PopLibs' published estimators for these vertices.
#include "poplibs_support/Arith.hpp"

#include <algorithm>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace popops {
namespace {

using poplar::half;
using poplar::Input;
using poplar::InOut;
using poplar::Output;
using poplar::Vector;
using poplar::VectorList;
using poplibs_support::Arith;

/// Elements one 64-bit load/store moves: the copy loops' vector width.
template <typename T> unsigned copyWidth(const poplar::Target& target) {
  return target.getDataPathWidth() / (std::is_same<T, half>::value ? 16 : 32);
}

/// PopLibs' estimate for the 2d slice and update vertices: a fixed entry cost, then per region
/// a per-slice-row loop of 64-bit copies.
template <typename T> std::uint64_t slice2dCycles(const poplar::VertexIntrospector& v,
                                                  const poplar::Target& target) {
  const auto base = v.getFieldInfo("baseT");
  const unsigned numBase = v.getInitialValue<unsigned>("numBaseElements");
  const unsigned numSub = v.getInitialValue<unsigned>("numSubElements");
  const unsigned numRegions = v.getInitialValue<unsigned>("numRegions");
  const unsigned width = copyWidth<T>(target);
  const bool isHalf = std::is_same<T, half>::value;
  std::uint64_t cycles = 23;
  for (unsigned r = 0; r < numRegions; ++r) {
    const std::size_t vectors = (base.getSizeAtIndex(r * numBase) + width - 1) / width;
    cycles += ((isHalf ? 31 : 29) + (isHalf ? 2 : 1) * vectors) * numSub + 13;
  }
  return cycles;
}

/// PopLibs' estimate for the 1d vertices: the supervisor's set-up (11 + 14 cycles), then each
/// worker copies its share of every slice row with 64-bit copies.
template <typename T> std::uint64_t slice1dCycles(const poplar::VertexIntrospector& v,
                                                  const poplar::Target& target) {
  const unsigned regionSize = v.getInitialValue<unsigned>("regionSize");
  const unsigned numSub = v.getInitialValue<unsigned>("numSubElements");
  const unsigned workers = target.getNumWorkerContexts();
  const unsigned perWorker = (regionSize + workers - 1) / workers;
  const std::uint64_t copies = perWorker / copyWidth<T>(target);
  return 11 + 14 + (41 + (27 + copies) * numSub) * workers;
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
void copyRegionRows(const From& from, const To& to, unsigned offset, unsigned numBase, unsigned numSub,
                    unsigned numRegions, bool toBase) {
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

template <typename T> class DynamicSlice1d : public poplar::Vertex {
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

template <typename T> class DynamicUpdateSlice1d : public poplar::Vertex {
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

/// PopLibs' estimate for MultiSlice and MultiUpdate: per offset a compare and branch, then the
/// region's 64-bit copies (a load and a store each).
template <typename T> std::uint64_t multiSliceCycles(const poplar::VertexIntrospector& v,
                                                     const poplar::Target& target) {
  const unsigned regionSize = v.getInitialValue<unsigned>("regionSize");
  const unsigned width = copyWidth<T>(target);
  const std::uint64_t copies = (regionSize + width - 1) / width;
  return 16 + v.getFieldInfo("offsets").size() * (19 + copies * 3);
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

/// PopLibs' estimate for the accumulating updates: per offset an outer-loop cost plus three
/// cycles per atom (4-byte unit) of the region; half regions of odd length need sub-word
/// read-modify-writes, which the C++ path does at about 20 cycles an element.
template <typename T> std::uint64_t multiUpdateOpCycles(const poplar::VertexIntrospector& v,
                                                        const poplar::Target& target) {
  const std::size_t numOffsets = v.getFieldInfo("offsets").size();
  const unsigned regionSize = v.getInitialValue<unsigned>("regionSize");
  std::uint64_t cycles = 3;
  if (numOffsets == 0) return cycles;
  const bool isFloat = std::is_same<T, float>::value || std::is_integral<T>::value;
  cycles += isFloat ? 14 : 15;
  std::uint64_t outer = isFloat ? 11 : 12;
  const unsigned elemsPerAtom = std::max<unsigned>(1, target.getAtomicStoreGranularity() /
                                                          unsigned(sizeof(T)));
  if (regionSize % elemsPerAtom != 0)
    outer += std::uint64_t(regionSize) * 20;
  else if (regionSize != 0)
    outer += (regionSize / elemsPerAtom - 1) * 3;
  return cycles + outer * numOffsets;
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
            Arith<T>(b), poplibs_support::wrappingMul<Arith<T>>(k, Arith<T>(subT[i * regionSize + e]))));
      }
    }
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return multiUpdateOpCycles<T>(v, target);
  }
};

template <typename T> class MultiUpdateMax : public poplar::Vertex {
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
        if (s > Arith<T>(b)) b = T(s);
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
  using MultiUpdateMax_##T = MultiUpdateMax<T>;                                                    \
  TESSERA_VERTEX_IN("popops",                                                                      \
                    "popops::MultiUpdateOp<" Name ",false,popops::expr::BinaryOpType::MAXIMUM>",   \
                    MultiUpdateMax_##T, offsets, baseT, subT, baseOffset, numBaseElements,         \
                    regionSize)

using uint = unsigned;
POPOPS_SLICE_VERTICES(float, "float");
POPOPS_SLICE_VERTICES(half, "half");
POPOPS_SLICE_VERTICES(int, "int");
POPOPS_SLICE_VERTICES(uint, "unsigned int");

} // namespace
} // namespace popops
