#include "RowWork.hpp"

#include "poplibs_support/TileWork.hpp"

#include <poputil/exceptions.hpp>

namespace popops::detail {

using namespace poplar;

void checkRowsAndIndices(const Tensor& params, const Tensor& indices, const std::string& op) {
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
}

Tensor rowsAlong(const Tensor& t, unsigned dim) {
  const std::size_t n = t.dim(dim);
  const Tensor rolled = t.dimRoll(dim, t.rank() - 1);
  return rolled.reshape({n == 0 ? 0 : t.numElements() / n, n});
}

Tensor addRowsLike(Graph& graph, Type type, std::size_t rows, std::size_t width,
                   const std::vector<std::vector<Interval>>& work, const DebugContext& di) {
  const Tensor v = graph.addVariable(type, {rows, width}, di);
  Graph::TileToTensorMapping mapping(graph.getTarget().getNumTiles());
  for (std::size_t tile = 0; tile < work.size() && tile < mapping.size(); ++tile)
    for (const auto& r : work[tile])
      mapping[tile].emplace_back(r.begin() * width, r.end() * width);
  graph.setTileMapping(v, mapping);
  return v;
}

std::vector<VertexRef> addRowVertices(Graph& graph, const ComputeSet& cs,
                                      const std::string& vertexType,
                                      const std::vector<std::vector<Interval>>& work,
                                      const std::vector<std::pair<std::string, Tensor>>& fields,
                                      unsigned n) {
  std::vector<VertexRef> vertices;
  for (unsigned tile = 0; tile < work.size(); ++tile)
    for (const auto& rows : work[tile]) {
      auto v = graph.addVertex(cs, vertexType);
      for (const auto& f : fields)
        graph.connect(v[f.first], f.second.slice(rows).flatten());
      graph.setInitialValue(v["rowLength"], n);
      graph.setTileMapping(v, tile);
      vertices.push_back(v);
    }
  return vertices;
}

} // namespace popops::detail
