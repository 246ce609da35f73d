// The vertices of hasNaN and hasNaNOrInf, as PopLibs names them. Each reports, as a float 0 or
// 1, whether its elements hold a NaN (with NanOrInf, a NaN or an infinity); the op reduces the
// flags of all vertices with a max and casts the result to bool. Floats rather than bools
// because a float per vertex exchanges without the sub-word padding a bool would need.
#include "poplibs_support/NaNCycleEstimators.hpp"

#include <cmath>
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

template <bool NanOrInf> bool flagged(float x) {
  return std::isnan(x) || (NanOrInf && std::isinf(x));
}

/// Over one contiguous region of a tile. The region is described as PopLibs' MultiVertex
/// describes it (8-byte grains per worker, how many workers take one more grain, and the
/// elements after the last whole grain). outSetIfFound is only ever set, so the op zeroes it
/// first; worker 0 scans, as the C++ form of PopLibs' vertex does.
template <typename T, bool NanOrInf> class HasNaNOrInf1D : public poplar::MultiVertex {
public:
  Input<Vector<T>> in;
  unsigned short sizeIn8BytesPerWorker;
  unsigned char remWorkerId;
  unsigned char remWorkerExtras;
  InOut<float> outSetIfFound;
  bool compute(unsigned workerId) {
    if (workerId != 0) return true;
    const std::size_t perGrain = 8 / sizeof(T);
    const std::size_t n =
        (std::size_t(sizeIn8BytesPerWorker) * numWorkers() + remWorkerId) * perGrain +
        remWorkerExtras;
    if (n != in.size()) return false; // the state does not describe the connected region
    for (std::size_t i = 0; i < n; ++i)
      if (flagged<NanOrInf>(float(in[i]))) {
        *outSetIfFound = 1.0f;
        break;
      }
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::hasNaN1DCycles(
        target, poplar::TypeOf<T>::value,
        v.getInitialValue<unsigned short>("sizeIn8BytesPerWorker"),
        v.getInitialValue<unsigned char>("remWorkerId"),
        v.getInitialValue<unsigned char>("remWorkerExtras"), NanOrInf);
  }
};

/// Over a list of regions of a tile, one worker's share when the tile's elements are scattered.
template <typename T, bool NanOrInf> class HasNaNOrInf2D : public poplar::Vertex {
public:
  Vector<Input<Vector<T>>> in;
  Output<float> out;
  void compute() {
    for (std::size_t r = 0; r < in.size(); ++r)
      for (std::size_t i = 0; i < in[r].size(); ++i)
        if (flagged<NanOrInf>(float(in[r][i]))) {
          *out = 1.0f;
          return;
        }
    *out = 0.0f;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    const auto in = v.getFieldInfo("in");
    std::vector<std::uint64_t> sizes(in.size());
    for (std::size_t r = 0; r < in.size(); ++r)
      sizes[r] = in.getSizeAtIndex(r);
    return poplibs_support::hasNaN2DCycles(target, poplar::TypeOf<T>::value, sizes, NanOrInf);
  }
};

#define POPOPS_HAS_NAN(T, Name, NanOrInf, Flag)                                                    \
  using HasNaNOrInf1D_##T##_##Flag = HasNaNOrInf1D<T, NanOrInf>;                                   \
  TESSERA_VERTEX_IN("popops", "popops::HasNaNOrInf1D<" Name "," #NanOrInf ">",                     \
                    HasNaNOrInf1D_##T##_##Flag, in, sizeIn8BytesPerWorker, remWorkerId,            \
                    remWorkerExtras, outSetIfFound);                                               \
  using HasNaNOrInf2D_##T##_##Flag = HasNaNOrInf2D<T, NanOrInf>;                                   \
  TESSERA_VERTEX_IN("popops", "popops::HasNaNOrInf2D<" Name "," #NanOrInf ">",                     \
                    HasNaNOrInf2D_##T##_##Flag, in, out)

POPOPS_HAS_NAN(float, "float", true, inf);
POPOPS_HAS_NAN(float, "float", false, nan);
POPOPS_HAS_NAN(half, "half", true, inf);
POPOPS_HAS_NAN(half, "half", false, nan);

} // namespace
} // namespace popops
