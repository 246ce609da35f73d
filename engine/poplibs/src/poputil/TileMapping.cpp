#include <algorithm>
#include <numeric>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace poputil {

std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Graph& graph, const std::vector<std::size_t>& shape,
                      unsigned minElementsPerTile, unsigned grainSize) {
  const std::size_t n =
      std::accumulate(shape.begin(), shape.end(), std::size_t(1), std::multiplies<>());
  const auto perTile = poplar::detail::linearMapping(n, graph.getTarget().getNumTiles(),
                                                     minElementsPerTile, grainSize);
  std::vector<std::vector<poplar::Interval>> mapping(perTile.size());
  for (std::size_t tile = 0; tile < perTile.size(); ++tile)
    if (perTile[tile].size()) mapping[tile].push_back(perTile[tile]);
  return mapping;
}

std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph& graph,
                                                                 const poplar::Tensor& t,
                                                                 unsigned minElementsPerTile,
                                                                 unsigned grainSize) {
  return calcLinearTileMapping(graph, t.shape(), minElementsPerTile, grainSize);
}

std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph& graph,
                                                                 const poplar::Tensor& t) {
  return calcLinearTileMapping(graph, t.shape(), 0, 1);
}

void mapTensorLinearly(poplar::Graph& graph, const poplar::Tensor& t, unsigned minElementsPerTile,
                       unsigned grainSize) {
  graph.setTileMapping(t, calcLinearTileMapping(graph, t, minElementsPerTile, grainSize));
}

unsigned getTileImbalance(const poplar::Graph::TileToTensorMapping& mapping,
                          unsigned minElementsPerTile, unsigned grainSize) {
  std::size_t total = 0, fullest = 0;
  for (const auto& intervals : mapping) {
    std::size_t n = 0;
    for (const auto& iv : intervals)
      n += iv.size();
    total += n;
    fullest = std::max(fullest, n);
  }
  if (mapping.empty()) return 0;
  // The fullest tile of a balanced mapping: an equal share, rounded up to whole grains.
  const std::size_t grain = std::max(grainSize, 1u);
  const std::size_t grains = (total + grain - 1) / grain;
  std::size_t balanced = (grains + mapping.size() - 1) / mapping.size() * grain;
  balanced = std::min(std::max<std::size_t>(balanced, minElementsPerTile), total);
  return fullest > balanced ? unsigned(fullest - balanced) : 0;
}

unsigned getTileImbalance(const poplar::Graph& graph, const poplar::Tensor& t,
                          unsigned minElementsPerTile, unsigned grainSize) {
  return getTileImbalance(graph.getTileMapping(t), minElementsPerTile, grainSize);
}

namespace {

/// The tile of every element of t (flattened).
std::vector<unsigned> tileOfEachElement(const poplar::Graph& graph, const poplar::Tensor& t) {
  std::vector<unsigned> tiles(t.numElements(), 0);
  const auto mapping = graph.getTileMapping(t);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto& iv : mapping[tile])
      for (std::size_t i = iv.begin(); i < iv.end(); ++i)
        tiles[i] = tile;
  return tiles;
}

void checkDim(const poplar::Tensor& t, unsigned dim, const char* op) {
  if (!t.valid()) throw poplibs_error(std::string(op) + ": the tensor is invalid");
  if (dim >= t.rank())
    throw poplibs_error(std::string(op) + ": dimension " + std::to_string(dim) +
                        " is out of range for a tensor of shape " + t.shapeToString());
}

/// Whether some line along `dim` has elements in more than one group of `groupTiles` tiles.
bool splitOver(const poplar::Graph& graph, const poplar::Tensor& t, unsigned dim,
               unsigned groupTiles) {
  if (t.numElements() == 0) return false;
  const poplar::Tensor lines = t.dimRoll(dim, unsigned(t.rank() - 1));
  const std::size_t len = t.dim(dim);
  const auto tiles = tileOfEachElement(graph, lines);
  for (std::size_t start = 0; start < tiles.size(); start += len)
    for (std::size_t i = start + 1; i < start + len; ++i)
      if (tiles[i] / groupTiles != tiles[start] / groupTiles) return true;
  return false;
}

} // namespace

bool dimIsSplitOverTiles(const poplar::Graph& graph, const poplar::Tensor& t, unsigned dimension) {
  checkDim(t, dimension, "poputil::dimIsSplitOverTiles");
  return splitOver(graph, t, dimension, 1);
}

bool dimIsSplitOverIPUs(const poplar::Graph& graph, const poplar::Tensor& t, unsigned dimension) {
  checkDim(t, dimension, "poputil::dimIsSplitOverIPUs");
  return splitOver(graph, t, dimension, graph.getTarget().getTilesPerIPU());
}

poplar::Tensor createBroadcastOperand(poplar::Graph& graph, const poplar::Tensor& fullTensor,
                                      const poplar::Type& type, unsigned dim, bool,
                                      const poplar::DebugContext& debugContext) {
  checkDim(fullTensor, dim, "poputil::createBroadcastOperand");
  const std::size_t n = fullTensor.dim(dim);
  poplar::Tensor out = graph.addVariable(type, {n}, debugContext);
  if (n == 0) return out;
  // Slice i along dim is row i of the view with dim first.
  const poplar::Tensor rows = fullTensor.dimRoll(dim, 0);
  const std::size_t rowLen = fullTensor.numElements() / n;
  const auto tiles = rowLen ? tileOfEachElement(graph, rows) : std::vector<unsigned>();
  for (std::size_t i = 0; i < n; ++i)
    graph.setTileMapping(out.slice(i, i + 1), rowLen ? tiles[i * rowLen] : 0);
  return out;
}

poplar::Tensor cloneToIpu(poplar::Graph& graph, const poplar::Tensor& t, unsigned dstIPU,
                          const poplar::DebugContext& debugContext,
                          poplar::TensorCloneMethod method) {
  const auto& target = graph.getTarget();
  if (!t.valid()) throw poplibs_error("poputil::cloneToIpu: t is an invalid tensor");
  if (dstIPU >= target.getNumIPUs())
    throw poplibs_error("poputil::cloneToIpu: dstIPU " + std::to_string(dstIPU) +
                        " is out of range for a graph of " + std::to_string(target.getNumIPUs()) +
                        " IPU(s)");
  poplar::Tensor c = graph.clone(t, debugContext, method);
  const unsigned perIpu = target.getTilesPerIPU();
  const auto mapping = graph.getTileMapping(c);
  poplar::Graph::TileToTensorMapping moved(target.getNumTiles());
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto& iv : mapping[tile])
      moved[dstIPU * perIpu + tile % perIpu].push_back(iv);
  graph.setTileMapping(c, moved);
  return c;
}

poplar::Tensor copyToIpu(poplar::Graph& masterGraph, const poplar::Tensor& t,
                         poplar::program::Sequence& prog, unsigned dstIPU,
                         const poplar::DebugContext& debugContext,
                         poplar::TensorCloneMethod method) {
  poplar::Tensor c = cloneToIpu(masterGraph, t, dstIPU, debugContext, method);
  prog.add(poplar::program::Copy(t, c, false, debugContext));
  return c;
}

poplar::Tensor createIpuCopy(poplar::Graph& graph, const poplar::Tensor& t, unsigned dstIpu,
                             poplar::Tensor& copySrc, poplar::Tensor& copyDst,
                             const poplar::DebugContext& debugContext,
                             poplar::TensorCloneMethod method) {
  poplar::Tensor c = cloneToIpu(graph, t, dstIpu, debugContext, method);
  copySrc = t;
  copyDst = c;
  return c;
}

} // namespace poputil
