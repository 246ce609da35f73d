// Cast vertices: a piece of elements converted from one element type to another.
#include "poplibs_support/Arith.hpp"
#include "poplibs_support/CycleEstimators.hpp"

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>

namespace popops {
namespace {

using poplar::half;

template <typename In, typename Out> class Cast : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<In>> src;
  poplar::Output<poplar::Vector<Out>> dst;
  void compute() {
    for (std::size_t i = 0; i < dst.size(); ++i)
      dst[i] = poplibs_support::saturatingCast<Out>(double(poplibs_support::Arith<In>(src[i])));
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& target) {
    return poplibs_support::castCycles(target, poplar::TypeOf<In>::value,
                                       poplar::TypeOf<Out>::value, v.getFieldInfo("dst").size());
  }
};

using uint = unsigned;
#define POPOPS_CAST(In, InName, Out, OutName)                                                      \
  using Cast_##In##_##Out = Cast<In, Out>;                                                         \
  TESSERA_VERTEX_IN("popops", "popops::Cast<" InName "," OutName ">", Cast_##In##_##Out, src, dst)

POPOPS_CAST(float, "float", half, "half");
POPOPS_CAST(float, "float", int, "int");
POPOPS_CAST(float, "float", uint, "unsigned int");
POPOPS_CAST(half, "half", float, "float");
POPOPS_CAST(half, "half", int, "int");
POPOPS_CAST(half, "half", uint, "unsigned int");
POPOPS_CAST(int, "int", float, "float");
POPOPS_CAST(int, "int", half, "half");
POPOPS_CAST(int, "int", uint, "unsigned int");
POPOPS_CAST(uint, "unsigned int", float, "float");
POPOPS_CAST(uint, "unsigned int", half, "half");
POPOPS_CAST(uint, "unsigned int", int, "int");

} // namespace
} // namespace popops
