#include "RowWork.hpp"
#include "poplibs_support/TileWork.hpp"

#include <popops/SelectScalarFromRows.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;

Tensor selectScalarFromRows(Graph& graph, const Tensor& params, const Tensor& indices,
                            program::Sequence& prog, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, "selectScalarFromRows");
  const std::string op = "popops::selectScalarFromRows";
  poplibs_support::checkValid(params, op, "params");
  poplibs_support::checkValid(indices, op, "indices");
  poplibs_support::checkType(params.elementType(), {FLOAT, HALF}, op, "params");
  poplibs_support::checkType(indices.elementType(), {UNSIGNED_INT}, op, "indices");
  if (params.rank() != 2)
    throw poputil::poplibs_error(op + ": params has shape " + params.shapeToString() +
                                 "; it must be 2-dimensional");
  if (indices.rank() != 1 || indices.dim(0) != params.dim(0))
    throw poputil::poplibs_error(op + ": indices has shape " + indices.shapeToString() +
                                 "; it must be [" + std::to_string(params.dim(0)) + "]");
  const std::size_t rows = params.dim(0);
  if (rows == 0 || params.dim(1) == 0)
    return graph.addVariable(params.elementType(), {rows}, {di, "selected"});
  const auto work = poplibs_support::splitRowsByTile(graph, params, op);
  const Tensor out = detail::addRowsLike(graph, params.elementType(), rows, 1, work,
                                         {di, "selected"});
  const ComputeSet cs = graph.addComputeSet(di);
  detail::addRowVertices(graph, cs,
                         poputil::templateVertex("popops::SelectFromRows", params.elementType()),
                         work,
                         {{"params", params}, {"indices", indices.expand({1})}, {"out", out}},
                         unsigned(params.dim(1)));
  prog.add(program::Execute(cs, di));
  return out.reshape({rows});
}

} // namespace popops
