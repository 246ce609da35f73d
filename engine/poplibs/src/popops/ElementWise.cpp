#include "poplibs_support/TileWork.hpp"
#include "popops/ScaledAddVertices.hpp"

#include <popops/ElementWise.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {
namespace {

using namespace poplar;
using poplar::program::Sequence;
using poplibs_support::addElementWiseVertices;

/// An element-wise operation: its API name ("add"), vertex name ("Add") and accepted types.
struct OpInfo {
  const char* api;
  const char* vertex;
  bool acceptsInt;
};

std::string qualified(const OpInfo& info, bool inPlace) {
  return std::string("popops::") + info.api + (inPlace ? "InPlace" : "");
}

void checkOperand(const Tensor& t, bool acceptsInt, const std::string& op, const char* name) {
  poplibs_support::checkValid(t, op, name);
  if (acceptsInt)
    poplibs_support::checkType(t.elementType(), {FLOAT, HALF, INT}, op, name);
  else
    poplibs_support::checkType(t.elementType(), {FLOAT, HALF}, op, name);
}

/// B viewed with A's shape by numpy broadcasting: B's dimensions, aligned to A's trailing ones,
/// must be 1 or equal to A's.
Tensor broadcastTo(const Tensor& B, const Tensor& A, const std::string& op) {
  const auto& shape = A.shape();
  const auto fail = [&] {
    throw poputil::poplibs_error(op + ": B of shape " + B.shapeToString() +
                                 " cannot be broadcast to A's shape " + A.shapeToString() +
                                 " (each of B's trailing dimensions must be 1 or equal A's)");
  };
  if (B.rank() > A.rank()) fail();
  std::vector<std::size_t> aligned(A.rank() - B.rank(), 1);
  aligned.insert(aligned.end(), B.shape().begin(), B.shape().end());
  Tensor b = B.reshape(aligned);
  for (unsigned d = 0; d < A.rank(); ++d) {
    if (b.dim(d) == shape[d]) continue;
    if (b.dim(d) != 1) fail();
    b = shape[d] == 0 ? b.slice(0, 0, d) : b.broadcast(unsigned(shape[d]), d);
  }
  return b;
}

/// Checks both operands and returns B broadcast to A's shape.
Tensor binaryOperands(const Tensor& A, const Tensor& B, bool acceptsInt, const std::string& op) {
  checkOperand(A, acceptsInt, op, "A");
  checkOperand(B, acceptsInt, op, "B");
  if (A.elementType() != B.elementType())
    throw poputil::poplibs_error(op + ": A is " + A.elementType().toString() + " but B is " +
                                 B.elementType().toString());
  return broadcastTo(B, A, op);
}

void checkInPlaceTarget(const Tensor& A, const std::string& op) {
  if (A.containsAliases())
    throw poputil::poplibs_error(op + ": A of shape " + A.shapeToString() +
                                 " contains aliased elements (a broadcast view?); an in-place "
                                 "operation needs each element once");
}

Tensor binary(Graph& graph, const OpInfo& info, const Tensor& A, const Tensor& B, Sequence& prog,
              const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = qualified(info, false);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, info.vertex);
  poplibs_support::checkOptions(options, {}, op);
  const Tensor b = binaryOperands(A, B, info.acceptsInt, op);
  const Tensor out = graph.clone(A, {di, "output"});
  const ComputeSet cs = graph.addComputeSet(di);
  addElementWiseVertices(
      graph, cs, poputil::templateVertex(std::string("popops::") + info.vertex, A.elementType()),
      out, {{"in1", A}, {"in2", b}, {"out", out}}, op);
  prog.add(program::Execute(cs, di));
  return out;
}

void binaryInPlace(Graph& graph, const OpInfo& info, const Tensor& A, const Tensor& B,
                   Sequence& prog, const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = qualified(info, true);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, std::string(info.vertex) + "InPlace");
  poplibs_support::checkOptions(options, {}, op);
  const Tensor b = binaryOperands(A, B, info.acceptsInt, op);
  checkInPlaceTarget(A, op);
  const ComputeSet cs = graph.addComputeSet(di);
  addElementWiseVertices(
      graph, cs,
      poputil::templateVertex(std::string("popops::") + info.vertex + "InPlace", A.elementType()),
      A, {{"in1Out", A}, {"in2", b}}, op);
  prog.add(program::Execute(cs, di));
}

Tensor unary(Graph& graph, const OpInfo& info, const Tensor& A, Sequence& prog,
             const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = qualified(info, false);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, info.vertex);
  poplibs_support::checkOptions(options, {}, op);
  checkOperand(A, info.acceptsInt, op, "A");
  const Tensor out = graph.clone(A, {di, "output"});
  const ComputeSet cs = graph.addComputeSet(di);
  addElementWiseVertices(
      graph, cs, poputil::templateVertex(std::string("popops::") + info.vertex, A.elementType()),
      out, {{"in", A}, {"out", out}}, op);
  prog.add(program::Execute(cs, di));
  return out;
}

void unaryInPlace(Graph& graph, const OpInfo& info, const Tensor& A, Sequence& prog,
                  const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = qualified(info, true);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, std::string(info.vertex) + "InPlace");
  poplibs_support::checkOptions(options, {}, op);
  checkOperand(A, info.acceptsInt, op, "A");
  checkInPlaceTarget(A, op);
  const ComputeSet cs = graph.addComputeSet(di);
  addElementWiseVertices(
      graph, cs,
      poputil::templateVertex(std::string("popops::") + info.vertex + "InPlace", A.elementType()),
      A, {{"inOut", A}}, op);
  prog.add(program::Execute(cs, di));
}

void scaledAdd(Graph& graph, const Tensor& A, const Tensor& B, float scaleB, Sequence& prog,
               const DebugContext& di, const OptionFlags& options, const std::string& op) {
  poplibs_support::checkOptions(options, {"optimizeForSpeed", "scaleFloatToHalfTolerance"}, op);
  const Tensor b = binaryOperands(A, B, false, op);
  checkInPlaceTarget(A, op);
  const ComputeSet cs = graph.addComputeSet(di);
  const auto vertices = addElementWiseVertices(
      graph, cs, poputil::templateVertex("popops::ScaledAdd", A.elementType()), A,
      {{"data", A}, {"deltas", b}}, op);
  for (const auto& v : vertices)
    graph.setInitialValue(v["scaleB"], scaleB);
  prog.add(program::Execute(cs, di));
}

} // namespace

#define POPOPS_DEFINE_BINARY(name, Vertex, acceptsInt)                                             \
  Tensor name(Graph& graph, const Tensor& A, const Tensor& B, Sequence& prog,                      \
              const DebugContext& debugContext, const OptionFlags& options) {                      \
    return binary(graph, {#name, #Vertex, acceptsInt}, A, B, prog, debugContext, options);         \
  }                                                                                                \
  void name##InPlace(Graph& graph, const Tensor& A, const Tensor& B, Sequence& prog,               \
                     const DebugContext& debugContext, const OptionFlags& options) {               \
    binaryInPlace(graph, {#name, #Vertex, acceptsInt}, A, B, prog, debugContext, options);         \
  }
#define POPOPS_DEFINE_UNARY(name, Vertex, acceptsInt)                                              \
  Tensor name(Graph& graph, const Tensor& A, Sequence& prog, const DebugContext& debugContext,     \
              const OptionFlags& options) {                                                        \
    return unary(graph, {#name, #Vertex, acceptsInt}, A, prog, debugContext, options);             \
  }                                                                                                \
  void name##InPlace(Graph& graph, const Tensor& A, Sequence& prog,                                \
                     const DebugContext& debugContext, const OptionFlags& options) {               \
    unaryInPlace(graph, {#name, #Vertex, acceptsInt}, A, prog, debugContext, options);             \
  }

POPOPS_DEFINE_BINARY(add, Add, true)
POPOPS_DEFINE_BINARY(sub, Sub, true)
POPOPS_DEFINE_BINARY(mul, Mul, true)
POPOPS_DEFINE_BINARY(div, Div, false)
POPOPS_DEFINE_BINARY(max, Max, true)
POPOPS_DEFINE_BINARY(min, Min, true)

POPOPS_DEFINE_UNARY(neg, Neg, true)
POPOPS_DEFINE_UNARY(exp, Exp, false)
POPOPS_DEFINE_UNARY(log, Log, false)
POPOPS_DEFINE_UNARY(sqrt, Sqrt, false)
POPOPS_DEFINE_UNARY(square, Square, true)
POPOPS_DEFINE_UNARY(abs, Abs, true)
POPOPS_DEFINE_UNARY(tanh, Tanh, false)
POPOPS_DEFINE_UNARY(sigmoid, Sigmoid, false)

namespace detail {
void scaledAddVertices(Graph& graph, const Tensor& A, const Tensor& B, float scaleB, Sequence& prog,
                       const DebugContext& di, const OptionFlags& options, const std::string& op) {
  scaledAdd(graph, A, B, scaleB, prog, di, options, op);
}
} // namespace detail

} // namespace popops
