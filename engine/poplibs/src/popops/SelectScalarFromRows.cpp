#include "RowWork.hpp"
#include "poplibs_support/TileWork.hpp"

#include <popops/SelectScalarFromRows.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>

namespace popops {

using namespace poplar;

Tensor selectScalarFromRows(Graph& graph, const Tensor& params, const Tensor& indices,
                            program::Sequence& prog, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "selectScalarFromRows");
  const std::string op = "popops::selectScalarFromRows";
  detail::checkRowsAndIndices(params, indices, op);
  const std::size_t rows = params.dim(0);
  if (rows == 0 || params.dim(1) == 0)
    return graph.addVariable(params.elementType(), {rows}, {di, "selected"});
  const auto work = poplibs_support::splitRowsByTile(graph, params, op);
  const Tensor out =
      detail::addRowsLike(graph, params.elementType(), rows, 1, work, {di, "selected"});
  const ComputeSet cs = graph.addComputeSet(di);
  detail::addRowVertices(graph, cs,
                         poputil::templateVertex("popops::SelectFromRows", params.elementType()),
                         work, {{"params", params}, {"indices", indices.expand({1})}, {"out", out}},
                         unsigned(params.dim(1)));
  prog.add(program::Execute(cs, di));
  return out.reshape({rows});
}

} // namespace popops
