#include "poplibs_support/TileWork.hpp"

#include <poputil/DebugInfo.hpp>
#include <popops/Cast.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {
namespace {

using namespace poplar;

const std::string kOp = "popops::cast";

void checkTypes(const Tensor& src, Type dstType) {
  poplibs_support::checkValid(src, kOp, "src");
  poplibs_support::checkType(src.elementType(), {FLOAT, HALF, INT, UNSIGNED_INT}, kOp, "src");
  poplibs_support::checkType(dstType, {FLOAT, HALF, INT, UNSIGNED_INT}, kOp, "the destination");
}

program::Program castInto(Graph& graph, const Tensor& src, const Tensor& dst,
                          const DebugContext& di) {
  poplibs_support::checkValid(dst, kOp, "dst");
  checkTypes(src, dst.elementType());
  if (src.shape() != dst.shape())
    throw poputil::poplibs_error(kOp + ": src has shape " + src.shapeToString() +
                                 " but dst has shape " + dst.shapeToString());
  if (src.elementType() == dst.elementType()) return program::Copy(src, dst, false, di);
  const ComputeSet cs = graph.addComputeSet(di);
  poplibs_support::addElementWiseVertices(
      graph, cs, poputil::templateVertex("popops::Cast", src.elementType(), dst.elementType()), dst,
      {{"src", src}, {"dst", dst}}, kOp);
  return program::Execute(cs, di);
}

} // namespace

Tensor cast(Graph& graph, const Tensor& src, const Type& dstType, program::Sequence& prog,
            const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, "Cast");
  checkTypes(src, dstType);
  const Tensor dst = graph.clone(dstType, src, {di, "output"});
  prog.add(castInto(graph, src, dst, di));
  return dst;
}

program::Program cast(Graph& graph, const Tensor& src, const Tensor& dst,
                      const DebugContext& debugContext) {
  return castInto(graph, src, dst, {debugContext, "Cast"});
}

} // namespace popops
