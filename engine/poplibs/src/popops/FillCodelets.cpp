// Fill vertices: every element of a piece set to the vertex's value.
#include "poplibs_support/CycleEstimators.hpp"

#include <algorithm>
#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace popops {
namespace {

using poplar::half;

template <typename T> class Fill : public poplar::Vertex {
public:
  poplar::Output<poplar::Vector<T>> out;
  T value;
  void compute() { std::fill(out.begin(), out.end(), value); }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::fillCycles(target, poplar::TypeOf<T>::value,
                                       v.getFieldInfo("out").size());
  }
};

using Fill_float = Fill<float>;
using Fill_half = Fill<half>;
using Fill_int = Fill<int>;
using Fill_uint = Fill<unsigned>;
TESSERA_VERTEX_IN("popops", "popops::Fill<float>", Fill_float, out, value);
TESSERA_VERTEX_IN("popops", "popops::Fill<half>", Fill_half, out, value);
TESSERA_VERTEX_IN("popops", "popops::Fill<int>", Fill_int, out, value);
TESSERA_VERTEX_IN("popops", "popops::Fill<unsigned int>", Fill_uint, out, value);

} // namespace
} // namespace popops
