// Fill vertices: every element of a piece set to the vertex's value.
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
    // Stores go out a full data path (64 bits) at a time, whatever the type.
    const std::size_t perStore =
        std::max<std::size_t>(1, target.getDataPathWidth() / 8 / sizeof(T));
    return 10 + (v.getFieldInfo("out").size() + perStore - 1) / perStore;
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
