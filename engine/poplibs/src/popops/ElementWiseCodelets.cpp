// Element-wise vertices: binary and unary maps over flat vectors, in place or not, and scaled
// add. Each vertex handles one contiguous piece of a tile's elements.
#include "poplibs_support/Arith.hpp"
#include "poplibs_support/Cycles.hpp"
#include "poplibs_support/ElementWiseCycleEstimators.hpp"

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
using poplibs_support::Arith;

// Operations: apply() in the compute type; `op` is PopLibs' name of the operation, which picks
// its loop cost in the estimate.
struct Add {
  static constexpr const char* op = "ADD";
  template <typename C> static C apply(C a, C b) { return poplibs_support::wrappingAdd(a, b); }
};
struct Sub {
  static constexpr const char* op = "SUBTRACT";
  template <typename C> static C apply(C a, C b) { return poplibs_support::wrappingSub(a, b); }
};
struct Mul {
  static constexpr const char* op = "MULTIPLY";
  template <typename C> static C apply(C a, C b) { return poplibs_support::wrappingMul(a, b); }
};
struct Div {
  static constexpr const char* op = "DIVIDE";
  template <typename C> static C apply(C a, C b) { return a / b; }
};
struct Max {
  static constexpr const char* op = "MAXIMUM";
  template <typename C> static C apply(C a, C b) { return a < b ? b : a; }
};
struct Min {
  static constexpr const char* op = "MINIMUM";
  template <typename C> static C apply(C a, C b) { return b < a ? b : a; }
};

struct Neg {
  static constexpr const char* op = "NEGATE";
  template <typename C> static C apply(C a) { return poplibs_support::wrappingSub(C(0), a); }
};
struct Abs {
  static constexpr const char* op = "ABSOLUTE";
  template <typename C> static C apply(C a) { return a < C(0) ? Neg::apply(a) : a; }
};
struct Square {
  static constexpr const char* op = "SQUARE";
  template <typename C> static C apply(C a) { return poplibs_support::wrappingMul(a, a); }
};
struct Exp {
  static constexpr const char* op = "EXPONENT";
  static float apply(float a) { return std::exp(a); }
};
struct Log {
  static constexpr const char* op = "LOGARITHM";
  static float apply(float a) { return std::log(a); }
};
struct Sqrt {
  static constexpr const char* op = "SQRT";
  static float apply(float a) { return std::sqrt(a); }
};
struct Tanh {
  static constexpr const char* op = "TANH";
  static float apply(float a) { return std::tanh(a); }
};
struct Sigmoid {
  static constexpr const char* op = "SIGMOID";
  static float apply(float a) { return 1.0f / (1.0f + std::exp(-a)); }
};

// PopLibs' worker estimate of UnaryOp1D / BinaryOp1D (in place or not) for this operation and
// type (poplibs_support/ElementWiseCycleEstimators.hpp).
template <typename Op, typename T>
std::uint64_t estimate(const poplar::VertexIntrospector& v, const poplar::Target& target,
                       const char* field, bool binary, bool inPlace) {
  const poplar::Type type = poplar::TypeOf<T>::value;
  const std::uint64_t n = v.getFieldInfo(field).size();
  const auto info = binary ? poplibs_support::binaryOpLoopInfo(Op::op, type, inPlace)
                           : poplibs_support::unaryOpLoopInfo(Op::op, type, inPlace);
  if (!info) return poplibs_support::mapCycles(n, type, 1, target.getVectorWidth(type));
  return binary ? poplibs_support::binaryOp1DWorkerCycles(target, Op::op, type, inPlace, n, *info)
                : poplibs_support::unaryOp1DWorkerCycles(target, Op::op, type, inPlace, n, *info);
}

template <typename Op, typename T> class Binary : public poplar::Vertex {
public:
  Input<Vector<T>> in1;
  Input<Vector<T>> in2;
  Output<Vector<T>> out;
  void compute() {
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = T(Op::apply(Arith<T>(in1[i]), Arith<T>(in2[i])));
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return estimate<Op, T>(v, t, "out", true, false);
  }
};

template <typename Op, typename T> class BinaryInPlace : public poplar::Vertex {
public:
  InOut<Vector<T>> in1Out;
  Input<Vector<T>> in2;
  void compute() {
    for (std::size_t i = 0; i < in1Out.size(); ++i)
      in1Out[i] = T(Op::apply(Arith<T>(in1Out[i]), Arith<T>(in2[i])));
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return estimate<Op, T>(v, t, "in1Out", true, true);
  }
};

template <typename Op, typename T> class Unary : public poplar::Vertex {
public:
  Input<Vector<T>> in;
  Output<Vector<T>> out;
  void compute() {
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = T(Op::apply(Arith<T>(in[i])));
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return estimate<Op, T>(v, t, "out", false, false);
  }
};

template <typename Op, typename T> class UnaryInPlace : public poplar::Vertex {
public:
  InOut<Vector<T>> inOut;
  void compute() {
    for (std::size_t i = 0; i < inOut.size(); ++i)
      inOut[i] = T(Op::apply(Arith<T>(inOut[i])));
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target& t) {
    return estimate<Op, T>(v, t, "inOut", false, true);
  }
};

/// data += scaleB * deltas.
template <typename T> class ScaledAdd : public poplar::Vertex {
public:
  InOut<Vector<T>> data;
  Input<Vector<T>> deltas;
  float scaleB;
  void compute() {
    for (std::size_t i = 0; i < data.size(); ++i)
      data[i] = T(float(data[i]) + scaleB * float(deltas[i]));
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector& v,
                                        const poplar::Target&) {
    // PopLibs' ScaledAdd2D over one region with a constant scale.
    return poplibs_support::scaledAdd2DCycles(poplar::TypeOf<T>::value,
                                              v.getFieldInfo("data").size());
  }
};

// Registration: "popops::Add<float>" and "popops::AddInPlace<float>", and so on.
#define POPOPS_BINARY(Op, T)                                                                       \
  using Op##_##T = Binary<Op, T>;                                                                  \
  TESSERA_VERTEX_IN("popops", "popops::" #Op "<" #T ">", Op##_##T, in1, in2, out);                 \
  using Op##InPlace_##T = BinaryInPlace<Op, T>;                                                    \
  TESSERA_VERTEX_IN("popops", "popops::" #Op "InPlace<" #T ">", Op##InPlace_##T, in1Out, in2)
#define POPOPS_UNARY(Op, T)                                                                        \
  using Op##_##T = Unary<Op, T>;                                                                   \
  TESSERA_VERTEX_IN("popops", "popops::" #Op "<" #T ">", Op##_##T, in, out);                       \
  using Op##InPlace_##T = UnaryInPlace<Op, T>;                                                     \
  TESSERA_VERTEX_IN("popops", "popops::" #Op "InPlace<" #T ">", Op##InPlace_##T, inOut)

POPOPS_BINARY(Add, float);
POPOPS_BINARY(Add, half);
POPOPS_BINARY(Add, int);
POPOPS_BINARY(Sub, float);
POPOPS_BINARY(Sub, half);
POPOPS_BINARY(Sub, int);
POPOPS_BINARY(Mul, float);
POPOPS_BINARY(Mul, half);
POPOPS_BINARY(Mul, int);
POPOPS_BINARY(Div, float);
POPOPS_BINARY(Div, half);
POPOPS_BINARY(Max, float);
POPOPS_BINARY(Max, half);
POPOPS_BINARY(Max, int);
POPOPS_BINARY(Min, float);
POPOPS_BINARY(Min, half);
POPOPS_BINARY(Min, int);

POPOPS_UNARY(Neg, float);
POPOPS_UNARY(Neg, half);
POPOPS_UNARY(Neg, int);
POPOPS_UNARY(Abs, float);
POPOPS_UNARY(Abs, half);
POPOPS_UNARY(Abs, int);
POPOPS_UNARY(Square, float);
POPOPS_UNARY(Square, half);
POPOPS_UNARY(Square, int);
POPOPS_UNARY(Exp, float);
POPOPS_UNARY(Exp, half);
POPOPS_UNARY(Log, float);
POPOPS_UNARY(Log, half);
POPOPS_UNARY(Sqrt, float);
POPOPS_UNARY(Sqrt, half);
POPOPS_UNARY(Tanh, float);
POPOPS_UNARY(Tanh, half);
POPOPS_UNARY(Sigmoid, float);
POPOPS_UNARY(Sigmoid, half);

using ScaledAdd_float = ScaledAdd<float>;
using ScaledAdd_half = ScaledAdd<half>;
TESSERA_VERTEX_IN("popops", "popops::ScaledAdd<float>", ScaledAdd_float, data, deltas, scaleB);
TESSERA_VERTEX_IN("popops", "popops::ScaledAdd<half>", ScaledAdd_half, data, deltas, scaleB);

} // namespace
} // namespace popops
