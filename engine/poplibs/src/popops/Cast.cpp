#include "poplibs_support/TileWork.hpp"

#include <poplar/Quarter.hpp>
#include <poplar/exceptions.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {
namespace {

using namespace poplar;

const std::string kOp = "popops::cast";

bool isQuarter(const Tensor& t) {
  return t.elementType() == QUARTER;
}

void checkTypes(const Tensor& src, Type dstType) {
  poplibs_support::checkValid(src, kOp, "src");
  poplibs_support::checkType(src.elementType(), {FLOAT, HALF, INT, UNSIGNED_INT, BOOL, QUARTER},
                             kOp, "src");
  poplibs_support::checkType(dstType, {FLOAT, HALF, INT, UNSIGNED_INT, BOOL, QUARTER}, kOp,
                             "the destination");
  const Type srcType = src.elementType();
  if ((srcType == QUARTER) != (dstType == QUARTER)) {
    const Type other = srcType == QUARTER ? dstType : srcType;
    if (other != FLOAT && other != HALF)
      throw poputil::poplibs_error(kOp + ": " + srcType.toString() + " to " + dstType.toString() +
                                   " is not supported (quarter converts to and from float and "
                                   "half only)");
  }
}

void checkPair(const Tensor& src, const Tensor& dst) {
  poplibs_support::checkValid(dst, kOp, "dst");
  checkTypes(src, dst.elementType());
  if (src.shape() != dst.shape())
    throw poputil::poplibs_error(kOp + ": src has shape " + src.shapeToString() +
                                 " but dst has shape " + dst.shapeToString());
}

void checkMetadata(const Tensor& metadata) {
  poplibs_support::checkValid(metadata, kOp, "metadata");
  if (metadata.elementType() != QUARTER_METADATA || metadata.numElements() != 1)
    throw poputil::poplibs_error(kOp +
                                 ": metadata must be a one-element quarter_metadata "
                                 "tensor (poplar::createVariableMetadataTensor), not " +
                                 metadata.elementType().toString() + " of shape " +
                                 metadata.shapeToString());
}

/// The QUARTER_METADATA tensor of the QUARTER tensor `t` (`what` names it in the error).
Tensor metadataOf(const Tensor& t, const std::string& what) {
  Tensor m;
  try {
    m = poplar::detail::getQuarterMetadata(t);
  } catch (const poplar::poplar_error& e) {
    throw poputil::poplibs_error(kOp + ": " + what + ": " + e.what());
  }
  if (!m.valid())
    throw poputil::poplibs_error(
        kOp + ": " + what +
        " is a quarter tensor without metadata; make quarter tensors with the cast forms that "
        "take a metadata tensor (popops::cast(graph, src, QUARTER, metadata, ...))");
  return m;
}

/// Whether a QUARTER to QUARTER conversion is only a copy of the codes.
bool sameMetadata(const Tensor& src, const Tensor& dst) {
  return metadataOf(src, "src").elementsAreEqual(metadataOf(dst, "dst"));
}

/// The Cast vertices converting src into dst, added to cs.
void addCastVertices(Graph& graph, const Tensor& src, const Tensor& dst, const ComputeSet& cs) {
  const std::string name =
      poputil::templateVertex("popops::Cast", src.elementType(), dst.elementType());
  if (!isQuarter(src) && !isQuarter(dst)) {
    poplibs_support::addElementWiseVertices(graph, cs, name, dst, {{"src", src}, {"dst", dst}},
                                            kOp);
    return;
  }
  // QUARTER fields take the codes as bytes; each vertex reads the metadata bytes when it runs.
  const auto bytes = [](const Tensor& t) {
    return isQuarter(t) ? t.reinterpret(UNSIGNED_CHAR) : t;
  };
  const auto metadataByte = [](const Tensor& m) {
    return m.reinterpret(UNSIGNED_CHAR).reshape({});
  };
  const Tensor srcMeta = isQuarter(src) ? metadataOf(src, "src") : Tensor();
  const Tensor dstMeta = isQuarter(dst) ? metadataOf(dst, "dst") : Tensor();
  for (auto& v : poplibs_support::addElementWiseVertices(
           graph, cs, name, dst, {{"src", bytes(src)}, {"dst", bytes(dst)}}, kOp)) {
    if (srcMeta.valid()) graph.connect(v["metadataSrc"], metadataByte(srcMeta));
    if (dstMeta.valid()) graph.connect(v["metadataDst"], metadataByte(dstMeta));
  }
}

program::Program castInto(Graph& graph, const Tensor& src, const Tensor& dst,
                          const DebugContext& di) {
  checkPair(src, dst);
  if (src.elementType() == dst.elementType() && (!isQuarter(src) || sameMetadata(src, dst)))
    return program::Copy(src, dst, false, di);
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

/// The new tensor a cast to dstType writes: a QUARTER result keeps `metadata`, or src's when
/// src is QUARTER too and no metadata is given.
Tensor castOutput(Graph& graph, const Tensor& src, const Type& dstType, const Tensor& metadata,
                  const DebugContext& di) {
  checkTypes(src, dstType);
  Tensor m = metadata;
  if (dstType == QUARTER && !m.valid()) {
    if (!isQuarter(src))
      throw poputil::poplibs_error(kOp + ": a cast of " + src.elementType().toString() +
                                   " to quarter needs a metadata tensor (the format and "
                                   "scale): use cast(graph, src, QUARTER, metadata, ...)");
    m = metadataOf(src, "src");
  }
  const Tensor dst = graph.clone(dstType, src, {di, "output"});
  if (dstType == QUARTER) poplar::detail::setQuarterMetadata(dst, m);
  return dst;
}

} // namespace

Tensor cast(Graph& graph, const Tensor& src, const Type& dstType, program::Sequence& prog,
            const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Cast");
  const Tensor dst = castOutput(graph, src, dstType, Tensor(), di);
  prog.add(castInto(graph, src, dst, di));
  return dst;
}

Tensor cast(Graph& graph, const Tensor& src, const Type& dstType, const Tensor& metadata,
            program::Sequence& prog, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Cast");
  checkMetadata(metadata);
  if (dstType != QUARTER)
    throw poputil::poplibs_error(kOp + ": a metadata tensor is for casts to quarter, not to " +
                                 dstType.toString());
  const Tensor dst = castOutput(graph, src, dstType, metadata, di);
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
  if (src.elementType() == dst.elementType() && (!isQuarter(src) || sameMetadata(src, dst)))
    throw poputil::poplibs_error(kOp + ": src and dst are both " + src.elementType().toString() +
                                 (isQuarter(src) ? " with the same metadata" : "") +
                                 "; a compute set cannot copy, use the Program form");
  addCastVertices(graph, src, dst, cs);
}

Tensor cast(Graph& graph, Tensor src, const Type& dstType, ComputeSet cs,
            const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Cast");
  const Tensor dst = castOutput(graph, src, dstType, Tensor(), di);
  cast(graph, src, dst, cs);
  return dst;
}

Tensor cast(Graph& graph, Tensor src, const Type& dstType, const Tensor& metadata, ComputeSet cs,
            const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Cast");
  checkMetadata(metadata);
  if (dstType != QUARTER)
    throw poputil::poplibs_error(kOp + ": a metadata tensor is for casts to quarter, not to " +
                                 dstType.toString());
  const Tensor dst = castOutput(graph, src, dstType, metadata, di);
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
