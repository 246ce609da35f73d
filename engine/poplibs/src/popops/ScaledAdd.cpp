// The scaled-add overloads. A float scale on FLOAT or HALF tensors of one type runs PopLibs'
// ScaledAdd vertices; every other form (tensor scales, a scale on A, B of another type,
// integer tensors) is one fused expression evaluated in place in A.
#include "poplibs_support/TileWork.hpp"
#include "popops/ScaledAddVertices.hpp"

#include <popops/ElementWise.hpp>
#include <popops/ScaledAdd.hpp>
#include <poputil/Broadcast.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popops {
namespace {

using namespace poplar;
using poplar::program::Sequence;
namespace pe = expr;

/// A scale: absent (1), a constant, or the placeholder of a one-element tensor.
struct Scale {
  bool present = false;
  bool isTensor = false;
  float value = 1.0f;
  Tensor tensor;
};
Scale constant(float v) {
  Scale s;
  s.present = true;
  s.value = v;
  return s;
}
Scale ofTensor(const Tensor& t) {
  Scale s;
  s.present = true;
  s.isTensor = true;
  s.tensor = t;
  return s;
}

void checkArgs(const Tensor& A, const Tensor& B, const Scale& sa, const Scale& sb,
               const OptionFlags& options, const std::string& op) {
  poplibs_support::checkOptions(options, {"optimizeForSpeed", "scaleFloatToHalfTolerance"}, op);
  poplibs_support::checkValid(A, op, "A");
  poplibs_support::checkValid(B, op, "B");
  poplibs_support::checkType(A.elementType(), {FLOAT, HALF, INT, UNSIGNED_INT}, op, "A");
  poplibs_support::checkType(B.elementType(), {FLOAT, HALF, INT, UNSIGNED_INT}, op, "B");
  Tensor b = B;
  if (B.rank() > A.rank() || !poputil::canBroadcastToMatch(A, B))
    throw poputil::poplibs_error(op + ": B of shape " + B.shapeToString() +
                                 " does not match A's shape " + A.shapeToString());
  poputil::broadcastToMatch(b, A.shape());
  for (const auto* s : {&sa, &sb}) {
    if (!s->isTensor) continue;
    const char* name = s == &sa ? "scaleA" : "scaleB";
    poplibs_support::checkValid(s->tensor, op, name);
    poplibs_support::checkType(s->tensor.elementType(), {FLOAT, HALF, INT, UNSIGNED_INT}, op, name);
    if (s->tensor.numElements() != 1)
      throw poputil::poplibs_error(op + ": " + name + " must have one element, not shape " +
                                   s->tensor.shapeToString());
  }
}

/// `e` (of type `from`) as type `to`.
pe::Any as(const pe::Expr& e, const Type& from, const Type& to) {
  if (from == to) return pe::Any(e);
  return pe::Any(pe::Cast(e, to));
}

/// A = f(scaleA) * A +/- scaleB * B; `xMinusAx` makes the A factor (1 - scaleA).
void scaledAddImpl(Graph& graph, const Tensor& A, const Scale& sa, const Tensor& B, const Scale& sb,
                   bool subtract, bool xMinusAx, Sequence& prog, const DebugContext& debugContext,
                   const OptionFlags& options, const char* api) {
  const std::string op = std::string("popops::") + api;
  checkArgs(A, B, sa, sb, options, op);
  const Type t = A.elementType();
  // The fast path: PopLibs' ScaledAdd vertices.
  if (!sa.present && !sb.isTensor && B.elementType() == t && t.isFloatingPoint()) {
    const poputil::PoplibsOpDebugInfo di(debugContext, {},
                                         subtract ? "ScaledSubtract" : "ScaledAdd");
    detail::scaledAddVertices(graph, A, B, subtract ? -sb.value : sb.value, prog, di, options, op);
    return;
  }
  std::vector<Tensor> ts{A, B};
  const auto scaleExpr = [&](const Scale& s) -> pe::Any {
    if (!s.isTensor) return pe::Any(pe::Const(s.value));
    ts.push_back(s.tensor.flatten());
    return as(pe::PlaceHolder(unsigned(ts.size())), s.tensor.elementType(), t);
  };
  pe::Any termA = pe::_1;
  if (sa.present) {
    const pe::Any a = scaleExpr(sa);
    termA = xMinusAx ? pe::Any(pe::Sub(pe::_1, pe::Mul(a, pe::_1))) : pe::Any(pe::Mul(a, pe::_1));
  }
  const pe::Any b = as(pe::_2, B.elementType(), t);
  const pe::Any termB = sb.present ? pe::Any(pe::Mul(scaleExpr(sb), b)) : b;
  const pe::Any e = subtract ? pe::Any(pe::Sub(termA, termB)) : pe::Any(pe::Add(termA, termB));
  detail::namedMapInPlace(graph, api, e, ts, prog, debugContext, {});
}

} // namespace

void scaledAddTo(Graph& graph, Tensor A, Tensor B, float scaleB, Sequence& prog,
                 const DebugContext& debugContext, const OptionFlags& options) {
  scaledAddImpl(graph, A, {}, B, constant(scaleB), false, false, prog, debugContext, options,
                "scaledAddTo");
}

void scaledAddTo(Graph& graph, Tensor A, Tensor B, Tensor scaleB, Sequence& prog,
                 const DebugContext& debugContext, const OptionFlags& options) {
  scaledAddImpl(graph, A, {}, B, ofTensor(scaleB), false, false, prog, debugContext, options,
                "scaledAddTo");
}

void scaledSubtractFrom(Graph& graph, Tensor A, Tensor B, float scaleB, Sequence& prog,
                        const DebugContext& debugContext, const OptionFlags& options) {
  scaledAddImpl(graph, A, {}, B, constant(scaleB), true, false, prog, debugContext, options,
                "scaledSubtractFrom");
}

void scaledSubtractFrom(Graph& graph, Tensor A, Tensor B, Tensor scaleB, Sequence& prog,
                        const DebugContext& debugContext, const OptionFlags& options) {
  scaledAddImpl(graph, A, {}, B, ofTensor(scaleB), true, false, prog, debugContext, options,
                "scaledSubtractFrom");
}

void scaledAddTo(Graph& graph, Tensor A, Tensor scaleA, Tensor B, Tensor scaleB, Sequence& prog,
                 const DebugContext& debugContext, const OptionFlags& options) {
  scaledAddImpl(graph, A, ofTensor(scaleA), B, ofTensor(scaleB), false, false, prog, debugContext,
                options, "scaledAddTo");
}

void scaledAddTo(Graph& graph, Tensor A, Tensor scaleA, Tensor B, Tensor scaleB, Sequence& prog,
                 const ScaledAddSpecialisation speciality, const DebugContext& debugContext,
                 const OptionFlags& options) {
  scaledAddImpl(graph, A, ofTensor(scaleA), B, ofTensor(scaleB), false,
                speciality == ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY, prog, debugContext,
                options, "scaledAddTo");
}

void scaledAddTo(Graph& graph, Tensor A, float scaleA, Tensor B, float scaleB, Sequence& prog,
                 const DebugContext& debugContext, const OptionFlags& options) {
  scaledAddImpl(graph, A, scaleA == 1.0f ? Scale{} : constant(scaleA), B, constant(scaleB), false,
                false, prog, debugContext, options, "scaledAddTo");
}

void scaledAddTo(Graph& graph, Tensor A, float scaleA, Tensor B, float scaleB, Sequence& prog,
                 const ScaledAddSpecialisation speciality, const DebugContext& debugContext,
                 const OptionFlags& options) {
  const bool xMinusAx = speciality == ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY;
  const bool identity = xMinusAx ? scaleA == 0.0f : scaleA == 1.0f;
  scaledAddImpl(graph, A, identity ? Scale{} : constant(scaleA), B, constant(scaleB), false,
                xMinusAx, prog, debugContext, options, "scaledAddTo");
}

void scaledSubtractFrom(Graph& graph, Tensor A, Tensor scaleA, Tensor B, Tensor scaleB,
                        Sequence& prog, const DebugContext& debugContext,
                        const OptionFlags& options) {
  scaledAddImpl(graph, A, ofTensor(scaleA), B, ofTensor(scaleB), true, false, prog, debugContext,
                options, "scaledSubtractFrom");
}

void scaledSubtractFrom(Graph& graph, Tensor A, float scaleA, Tensor B, float scaleB,
                        Sequence& prog, const DebugContext& debugContext,
                        const OptionFlags& options) {
  scaledAddImpl(graph, A, scaleA == 1.0f ? Scale{} : constant(scaleA), B, constant(scaleB), true,
                false, prog, debugContext, options, "scaledSubtractFrom");
}

} // namespace popops
