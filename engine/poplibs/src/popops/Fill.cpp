#include "poplibs_support/Arith.hpp"
#include "poplibs_support/TileWork.hpp"

#include <cctype>
#include <popops/Fill.hpp>
#include <popops/Zero.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

namespace {

void setValue(poplar::Graph& graph, const poplar::VertexRef& v, const poplar::Type& type,
              double fillValue) {
  using namespace poplar;
  using poplibs_support::saturatingCast;
  if (type == FLOAT)
    graph.setInitialValue(v["value"], saturatingCast<float>(fillValue));
  else if (type == HALF)
    graph.setInitialValue(v["value"], saturatingCast<half>(fillValue));
  else if (type == INT)
    graph.setInitialValue(v["value"], saturatingCast<int>(fillValue));
  else
    graph.setInitialValue(v["value"], saturatingCast<unsigned>(fillValue));
}

} // namespace

void detail::fill(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
                  double fillValue, const poplar::DebugContext& debugContext, const char* opName) {
  using namespace poplar;
  const std::string op = std::string("popops::") + opName;
  std::string csName = opName;
  csName[0] = char(std::toupper(static_cast<unsigned char>(csName[0])));
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, csName);
  poplibs_support::checkValid(t, op, "the tensor");
  const Type type = t.elementType();
  poplibs_support::checkType(type, {FLOAT, HALF, INT, UNSIGNED_INT}, op, "the tensor");
  const ComputeSet cs = graph.addComputeSet(di);
  const auto vertices = poplibs_support::addElementWiseVertices(
      graph, cs, poputil::templateVertex("popops::Fill", type), t, {{"out", t}}, op);
  for (const auto& v : vertices)
    setValue(graph, v, type, fillValue);
  prog.add(program::Execute(cs, di));
}

std::vector<std::vector<poplar::Interval>>
detail::onTile(const poplar::Graph& graph, unsigned tile,
               const std::vector<poplar::Interval>& regions) {
  const unsigned tiles = graph.getTarget().getNumTiles();
  if (tile >= tiles)
    throw poputil::poplibs_error("popops::fill/zero: tile " + std::to_string(tile) +
                                 " is not a tile of the graph (" + std::to_string(tiles) +
                                 " tiles)");
  std::vector<std::vector<poplar::Interval>> mapping(tiles);
  mapping[tile] = regions;
  return mapping;
}

void detail::fill(poplar::Graph& graph, const poplar::Tensor& t,
                  const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet cs,
                  double fillValue, const char* opName) {
  using namespace poplar;
  const std::string op = std::string("popops::") + opName;
  poplibs_support::checkValid(t, op, "the tensor");
  const Type type = t.elementType();
  poplibs_support::checkType(type, {FLOAT, HALF, INT, UNSIGNED_INT}, op, "the tensor");
  if (mapping.size() > graph.getTarget().getNumTiles())
    throw poputil::poplibs_error(op + ": the mapping has " + std::to_string(mapping.size()) +
                                 " tiles but the graph " +
                                 std::to_string(graph.getTarget().getNumTiles()));
  const Tensor flat = t.flatten();
  const std::string vertexType = poputil::templateVertex("popops::Fill", type);
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    for (const auto& iv : mapping[tile])
      if (iv.end() > flat.numElements())
        throw poputil::poplibs_error(op + ": region [" + std::to_string(iv.begin()) + ", " +
                                     std::to_string(iv.end()) + ") on tile " +
                                     std::to_string(tile) + " is outside the tensor's " +
                                     std::to_string(flat.numElements()) + " elements");
    // One vertex per worker's share of the tile's regions.
    for (const auto& share :
         poputil::splitRegionsBetweenWorkers(graph.getTarget(), mapping[tile], 1)) {
      if (share.empty()) continue;
      auto v = graph.addVertex(cs, vertexType);
      graph.connect(v["out"], poplar::concat(flat.slices(share)));
      setValue(graph, v, type, fillValue);
      graph.setTileMapping(v, tile);
    }
  }
}

void zero(poplar::Graph& graph, poplar::Tensor t, const std::vector<poplar::Interval>& tileRegions,
          unsigned tile, poplar::ComputeSet zeroCS) {
  detail::fill(graph, t, detail::onTile(graph, tile, tileRegions), zeroCS, 0.0, "zero");
}

void zero(poplar::Graph& graph, const poplar::Tensor& t, unsigned tile, poplar::ComputeSet zeroCS) {
  detail::fill(graph, t, detail::onTile(graph, tile, {poplar::Interval(0, t.numElements())}),
               zeroCS, 0.0, "zero");
}

void zero(poplar::Graph& graph, const poplar::Tensor& t,
          const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet zeroCS) {
  detail::fill(graph, t, mapping, zeroCS, 0.0, "zero");
}

void zero(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext) {
  detail::fill(graph, t, prog, 0.0, debugContext, "zero");
}

} // namespace popops
