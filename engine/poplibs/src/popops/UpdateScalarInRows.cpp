// updateScalarInRows: the params matrix's elements, per tile in pieces contiguous in memory
// (about one per worker context), each piece one UpdateIntervalDEC vertex updating the parts
// of rows it holds in place, so no element moves between tiles except the row indices.
#include "RowWork.hpp"
#include "poplibs_support/TileWork.hpp"

#include <popops/UpdateScalarInRows.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>

namespace popops {

using namespace poplar;

void updateScalarInRows(Graph& graph, const Tensor& params, const Tensor& indices,
                        program::Sequence& program, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "updateScalarInRows");
  const std::string op = "popops::updateScalarInRows";
  detail::checkRowsAndIndices(params, indices, op);
  const std::size_t cols = params.dim(1);
  if (params.numElements() == 0) return;
  const Tensor flat = params.flatten();
  // Pieces of at least a row: fewer vertices when rows are short.
  const auto work = poplibs_support::splitTileWork(graph, flat, cols, op);
  const ComputeSet cs = graph.addComputeSet(di);
  const std::string vertexType =
      poputil::templateVertex("popops::UpdateIntervalDEC", params.elementType());
  for (unsigned tile = 0; tile < work.size(); ++tile)
    for (const Interval& piece : work[tile]) {
      const std::size_t firstRow = piece.begin() / cols, lastRow = (piece.end() - 1) / cols;
      auto v = graph.addVertex(
          cs, vertexType,
          {{"params", flat.slice(piece)}, {"indices", indices.slice(firstRow, lastRow + 1)}});
      graph.setInitialValue(v["paramsWidth"], unsigned(cols));
      graph.setInitialValue(v["firstStartCol"], unsigned(piece.begin() % cols));
      graph.setInitialValue(v["lastEndCol"], unsigned((piece.end() - 1) % cols + 1));
      graph.setInitialValue(v["rowCount"], unsigned(lastRow - firstRow + 1));
      graph.setTileMapping(v, tile);
    }
  program.add(program::Execute(cs, di));
}

} // namespace popops
