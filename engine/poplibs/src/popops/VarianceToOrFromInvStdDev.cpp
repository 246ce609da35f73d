// invStdDevToVariance and varianceToInvStdDev with a result type (PopLibs' dstType forms): the
// conversion evaluated in src's type by the fused map vertex, then stored as dstType.
#include <popops/ElementWise.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popops {
namespace detail {

using namespace poplar;

Tensor convertVariance(Graph& graph, const Tensor& src, const Tensor& epsilon,
                       program::Sequence& prog, Type dstType, expr::BinaryOpType op,
                       const DebugContext& debugContext) {
  const bool toInvStdDev = op == expr::BinaryOpType::VARIANCE_TO_INV_STD_DEV;
  const std::string api =
      toInvStdDev ? "popops::varianceToInvStdDev" : "popops::invStdDevToVariance";
  const poputil::PoplibsOpDebugInfo di(debugContext, {},
                                       toInvStdDev ? "VarianceToInvStdDev" : "InvStdDevToVariance");
  if (!src.valid() || !epsilon.valid())
    throw poputil::poplibs_error(api + ": an invalid (default-constructed) tensor");
  const Type srcType = src.elementType();
  if (srcType != FLOAT && srcType != HALF)
    throw poputil::poplibs_error(api + ": src must be float or half, not " + srcType.toString());
  // PopLibs' rule: the result keeps src's type or widens/narrows as the statistics flow
  // (variance to a half inverse standard deviation; inverse standard deviation to a float
  // variance).
  const Type other = toInvStdDev ? HALF : FLOAT;
  if (dstType != srcType && dstType != other)
    throw poputil::poplibs_error(api + ": cannot convert " + srcType.toString() + " to " +
                                 dstType.toString() + " (dstType must be " + srcType.toString() +
                                 " or " + other.toString() + ")");
  if (epsilon.numElements() != 1)
    throw poputil::poplibs_error(api + ": epsilon must have one element, not shape " +
                                 epsilon.shapeToString());
  const expr::Cast eps(expr::_2, srcType);
  const expr::BinaryOp value(op, expr::_1, eps);
  const Tensor scalarEps = epsilon.reshape({});
  if (dstType == srcType) return map(graph, value, {src, scalarEps}, prog, {di});
  return map(graph, expr::Cast(value, dstType), {src, scalarEps}, prog, {di});
}

Tensor convertVariance(Graph& graph, const Tensor& src, float epsilon, program::Sequence& prog,
                       Type dstType, expr::BinaryOpType op, const DebugContext& debugContext) {
  if (!src.valid())
    throw poputil::poplibs_error("popops::varianceToInvStdDev/invStdDevToVariance: src is an "
                                 "invalid (default-constructed) tensor");
  const Tensor eps = graph.addConstant(src.elementType(), {}, epsilon, {debugContext, "epsilon"});
  graph.setTileMapping(eps, 0);
  return convertVariance(graph, src, eps, prog, dstType, op, debugContext);
}

} // namespace detail
} // namespace popops
