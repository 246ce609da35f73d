#include <algorithm>
#include <numeric>
#include <poputil/TileMapping.hpp>

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

} // namespace poputil
