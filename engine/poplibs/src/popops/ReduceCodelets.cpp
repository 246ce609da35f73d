// Reduction vertices. Stage 1 (ReducePartial) reduces pieces of input held on one tile to
// partials; stage 2 (ReduceFinal, ScaledReduceFinal) combines each output element's partials.
// Every edge holds at least one element, so no identity value is needed.
#include "poplibs_support/Arith.hpp"
#include "poplibs_support/ReduceCycleEstimators.hpp"

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Vertex.hpp>
#include <type_traits>
#include <vector>

namespace popops {
namespace {

using poplar::half;
using poplar::InOut;
using poplar::Input;
using poplar::Output;
using poplar::Vector;

// map() turns an input element into a partial, combine() merges two partials.
struct ReduceAdd {
  template <typename P> static P map(P x) { return x; }
  template <typename P> static P combine(P a, P b) { return poplibs_support::wrappingAdd(a, b); }
};
struct ReduceSquareAdd {
  template <typename P> static P map(P x) { return poplibs_support::wrappingMul(x, x); }
  template <typename P> static P combine(P a, P b) { return poplibs_support::wrappingAdd(a, b); }
};
struct ReduceMul {
  template <typename P> static P map(P x) { return x; }
  template <typename P> static P combine(P a, P b) { return poplibs_support::wrappingMul(a, b); }
};
struct ReduceMax {
  template <typename P> static P map(P x) { return x; }
  template <typename P> static P combine(P a, P b) { return a < b ? b : a; }
};
struct ReduceMin {
  template <typename P> static P map(P x) { return x; }
  template <typename P> static P combine(P a, P b) { return b < a ? b : a; }
};

/// The partial type of an input type: floating point accumulates in float.
template <typename In> using PartialOf = std::conditional_t<std::is_same_v<In, half>, float, In>;

template <typename Op, typename P, typename T> P reduceEdge(const T& edge) {
  P acc = Op::map(P(edge[0]));
  for (std::size_t i = 1; i < edge.size(); ++i)
    acc = Op::combine(acc, Op::map(P(edge[i])));
  return acc;
}

/// PopLibs' estimate of a reduction of each edge of `edges` (partials of `partials` type) to one
/// output element of `out` type (poplibs_support/ReduceCycleEstimators.hpp).
std::uint64_t reduceCycles(const poplar::VertexIntrospector::FieldInfo& edges,
                           poplar::Type partials, poplar::Type out, bool update,
                           const poplar::Target& target) {
  std::vector<std::uint64_t> sizes(edges.size());
  for (std::size_t e = 0; e < edges.size(); ++e)
    sizes[e] = edges.getSizeAtIndex(e);
  return poplibs_support::reduceEdgesCycles(target, partials, out, sizes, update);
}

/// out[e] = reduction of edge in[e].
template <typename Op, typename In> class ReducePartial : public poplar::Vertex {
public:
  using P = PartialOf<In>;
  Vector<Input<Vector<In>>> in;
  Output<Vector<P>> out;
  void compute() {
    for (std::size_t e = 0; e < in.size(); ++e)
      out[e] = reduceEdge<Op, P>(in[e]);
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return reduceCycles(v.getFieldInfo("in"), poplar::TypeOf<In>::value, poplar::TypeOf<P>::value,
                        false, t);
  }
};

/// out[e] = combination of the partials of edge partials[e].
template <typename Op, typename P, typename Out> class ReduceFinal : public poplar::Vertex {
public:
  Vector<Input<Vector<P>>> partials;
  Output<Vector<Out>> out;
  void compute() {
    for (std::size_t e = 0; e < partials.size(); ++e)
      out[e] = Out(reduceEdge<Op, P>(partials[e]));
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return reduceCycles(v.getFieldInfo("partials"), poplar::TypeOf<P>::value,
                        poplar::TypeOf<Out>::value, false, t);
  }
};

/// out[e] = scale * sum of partials[e], added to out[e] when Update.
template <typename Out, bool Update> class ScaledReduceFinal : public poplar::Vertex {
public:
  Vector<Input<Vector<float>>> partials;
  std::conditional_t<Update, InOut<Vector<Out>>, Output<Vector<Out>>> out;
  Input<float> scale;
  void compute() {
    for (std::size_t e = 0; e < partials.size(); ++e) {
      const float r = scale * reduceEdge<ReduceAdd, float>(partials[e]);
      out[e] = Out(Update ? float(out[e]) + r : r);
    }
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return reduceCycles(v.getFieldInfo("partials"), poplar::FLOAT, poplar::TypeOf<Out>::value,
                        Update, t);
  }
};

using uint = unsigned;

#define POPOPS_REDUCE_PARTIAL(Op, OpName, In, InName)                                              \
  using Op##_##In = ReducePartial<Op, In>;                                                         \
  TESSERA_VERTEX_IN("popops", "popops::ReducePartial<" OpName "," InName ">", Op##_##In, in, out)
#define POPOPS_REDUCE_PARTIALS(Op, OpName)                                                         \
  POPOPS_REDUCE_PARTIAL(Op, OpName, float, "float");                                               \
  POPOPS_REDUCE_PARTIAL(Op, OpName, half, "half");                                                 \
  POPOPS_REDUCE_PARTIAL(Op, OpName, int, "int");                                                   \
  POPOPS_REDUCE_PARTIAL(Op, OpName, uint, "unsigned int")

POPOPS_REDUCE_PARTIALS(ReduceAdd, "ADD");
POPOPS_REDUCE_PARTIALS(ReduceSquareAdd, "SQUARE_ADD");
POPOPS_REDUCE_PARTIALS(ReduceMul, "MUL");
POPOPS_REDUCE_PARTIALS(ReduceMin, "MIN");
POPOPS_REDUCE_PARTIALS(ReduceMax, "MAX");

#define POPOPS_REDUCE_FINAL(Op, OpName, P, PName, Out, OutName)                                    \
  using Final_##Op##_##P##_##Out = ReduceFinal<Op, P, Out>;                                        \
  TESSERA_VERTEX_IN("popops", "popops::ReduceFinal<" OpName "," PName "," OutName ">",             \
                    Final_##Op##_##P##_##Out, partials, out)
#define POPOPS_REDUCE_FINALS(Op, OpName)                                                           \
  POPOPS_REDUCE_FINAL(Op, OpName, float, "float", float, "float");                                 \
  POPOPS_REDUCE_FINAL(Op, OpName, float, "float", half, "half");                                   \
  POPOPS_REDUCE_FINAL(Op, OpName, int, "int", int, "int");                                         \
  POPOPS_REDUCE_FINAL(Op, OpName, uint, "unsigned int", uint, "unsigned int")

POPOPS_REDUCE_FINALS(ReduceAdd, "ADD");
POPOPS_REDUCE_FINALS(ReduceMul, "MUL");
POPOPS_REDUCE_FINALS(ReduceMin, "MIN");
POPOPS_REDUCE_FINALS(ReduceMax, "MAX");

using ScaledFinal_float = ScaledReduceFinal<float, false>;
using ScaledFinal_half = ScaledReduceFinal<half, false>;
using ScaledUpdate_float = ScaledReduceFinal<float, true>;
using ScaledUpdate_half = ScaledReduceFinal<half, true>;
TESSERA_VERTEX_IN("popops", "popops::ScaledReduceFinal<float,false>", ScaledFinal_float, partials,
                  out, scale);
TESSERA_VERTEX_IN("popops", "popops::ScaledReduceFinal<half,false>", ScaledFinal_half, partials,
                  out, scale);
TESSERA_VERTEX_IN("popops", "popops::ScaledReduceFinal<float,true>", ScaledUpdate_float, partials,
                  out, scale);
TESSERA_VERTEX_IN("popops", "popops::ScaledReduceFinal<half,true>", ScaledUpdate_half, partials,
                  out, scale);

} // namespace
} // namespace popops
