#include "poplibs_support/TileWork.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {
namespace {

using namespace poplar;

const std::string kOp = "popops::cast";

void checkTypes(const Tensor& src, Type dstType) {
  poplibs_support::checkValid(src, kOp, "src");
  poplibs_support::checkType(src.elementType(), {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}, kOp, "src");
  poplibs_support::checkType(dstType, {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}, kOp,
                             "the destination");
}

void checkPair(const Tensor& src, const Tensor& dst) {
  poplibs_support::checkValid(dst, kOp, "dst");
  checkTypes(src, dst.elementType());
  if (src.shape() != dst.shape())
    throw poputil::poplibs_error(kOp + ": src has shape " + src.shapeToString() +
                                 " but dst has shape " + dst.shapeToString());
}

/// The Cast vertices converting src into dst, added to cs.
void addCastVertices(Graph& graph, const Tensor& src, const Tensor& dst, const ComputeSet& cs) {
  poplibs_support::addElementWiseVertices(
      graph, cs, poputil::templateVertex("popops::Cast", src.elementType(), dst.elementType()), dst,
      {{"src", src}, {"dst", dst}}, kOp);
}

program::Program castInto(Graph& graph, const Tensor& src, const Tensor& dst,
                          const DebugContext& di) {
  checkPair(src, dst);
  if (src.elementType() == dst.elementType()) return program::Copy(src, dst, false, di);
  if (src.elementType() == BOOL || dst.elementType() == BOOL) {
    // To and from BOOL (0/1; non-zero is true): the fused expression vertex converts.
    program::Sequence seq;
    detail::namedMapWithOutput(graph, "cast", expr::Cast(expr::_1, dst.elementType()), {src}, dst,
                               seq, di, {});
    return seq;
  }
  const ComputeSet cs = graph.addComputeSet(di);
  addCastVertices(graph, src, dst, cs);
  return program::Execute(cs, di);
}

} // namespace

Tensor cast(Graph& graph, const Tensor& src, const Type& dstType, program::Sequence& prog,
            const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Cast");
  checkTypes(src, dstType);
  const Tensor dst = graph.clone(dstType, src, {di, "output"});
  prog.add(castInto(graph, src, dst, di));
  return dst;
}

program::Program cast(Graph& graph, Tensor src, Tensor dst, const DebugContext& debugContext) {
  return castInto(graph, src, dst, {debugContext, "Cast"});
}

void cast(Graph& graph, Tensor src, Tensor dst, ComputeSet cs) {
  checkPair(src, dst);
  if (src.elementType() == BOOL || dst.elementType() == BOOL)
    throw poputil::poplibs_error(kOp + ": casts to or from bool run their own compute set; use "
                                       "the Sequence or Program form");
  if (src.elementType() == dst.elementType())
    throw poputil::poplibs_error(kOp + ": src and dst are both " + src.elementType().toString() +
                                 "; a compute set cannot copy, use the Program form");
  addCastVertices(graph, src, dst, cs);
}

Tensor cast(Graph& graph, Tensor src, const Type& dstType, ComputeSet cs,
            const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Cast");
  checkTypes(src, dstType);
  const Tensor dst = graph.clone(dstType, src, {di, "output"});
  cast(graph, src, dst, cs);
  return dst;
}

void castWithOutput(Graph& graph, const Tensor& src, const Tensor& dst, program::Sequence& prog,
                    const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Cast");
  prog.add(castInto(graph, src, dst, di));
}

Tensor checkAccuracyWhenCast(Graph& graph, const Tensor& input, Type outputType, double tolerance,
                             program::Sequence& prog, const DebugContext& debugContext) {
  const std::string op = "popops::checkAccuracyWhenCast";
  poplibs_support::checkValid(input, op, "input");
  if (input.elementType() != FLOAT || input.numElements() != 1)
    throw poputil::poplibs_error(op + ": input must be a one-element float tensor, not " +
                                 input.elementType().toString() + " of shape " +
                                 input.shapeToString());
  if (outputType != HALF)
    throw poputil::poplibs_error(op + ": outputType must be half, not " + outputType.toString());
  namespace pe = expr;
  // |float(half(x)) - x| <= tolerance * |x|, and the half value finite.
  const pe::Cast roundTrip(pe::Cast(pe::_1, HALF), FLOAT);
  const pe::Any ok = pe::And(pe::Lte(pe::Abs(pe::Sub(roundTrip, pe::_1)),
                                     pe::Mul(pe::Const(float(tolerance)), pe::Abs(pe::_1))),
                             pe::IsFinite(roundTrip));
  return popops::detail::namedMap(graph, "checkAccuracyWhenCast", ok, {input.flatten()}, prog,
                                  debugContext, {});
}

} // namespace popops
