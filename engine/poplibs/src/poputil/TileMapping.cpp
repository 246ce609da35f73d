#include <algorithm>
#include <map>
#include <numeric>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace poputil {

unsigned transformTileIndex(unsigned tile, unsigned numTiles, unsigned offset, bool ascending) {
  if (numTiles == 0) throw poplibs_error("poputil::transformTileIndex: numTiles is 0");
  tile %= numTiles;
  offset %= numTiles;
  if (ascending) return (tile + numTiles - offset) % numTiles;
  // Position k sits on tile numTiles - 1 - offset - k (mod numTiles): its own inverse.
  return (2 * numTiles - 1 - offset - tile) % numTiles;
}

unsigned invTransformTileIndex(unsigned tile, unsigned numTiles, unsigned offset, bool ascending) {
  if (numTiles == 0) throw poplibs_error("poputil::invTransformTileIndex: numTiles is 0");
  tile %= numTiles;
  offset %= numTiles;
  if (ascending) return (tile + offset) % numTiles;
  return (2 * numTiles - 1 - offset - tile) % numTiles;
}

std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Target& target, std::vector<std::size_t> shape,
                      unsigned minElementsPerTile, unsigned grainSize, unsigned offset,
                      bool ascendingOrder) {
  const unsigned numTiles = target.getNumTiles();
  const std::size_t n =
      std::accumulate(shape.begin(), shape.end(), std::size_t(1), std::multiplies<>());
  const auto perTile =
      poplar::detail::linearMapping(n, numTiles, minElementsPerTile, std::max(grainSize, 1u));
  std::vector<std::vector<poplar::Interval>> mapping(perTile.size());
  for (std::size_t k = 0; k < perTile.size(); ++k)
    if (perTile[k].size())
      mapping[invTransformTileIndex(unsigned(k), numTiles, offset, ascendingOrder)].push_back(
          perTile[k]);
  return mapping;
}

std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Graph& graph, std::vector<std::size_t> shape,
                      unsigned minElementsPerTile, unsigned grainSize, unsigned offset,
                      bool ascendingOrder) {
  return calcLinearTileMapping(graph.getTarget(), std::move(shape), minElementsPerTile, grainSize,
                               offset, ascendingOrder);
}

std::vector<std::vector<poplar::Interval>>
calcLinearTileMapping(const poplar::Target& target, const std::vector<std::size_t> shape,
                      poplar::Type elementType, unsigned offset, bool ascendingOrder) {
  // As PopLibs: whole vectors per grain, and at least 128 bytes on a tile so that exchange
  // overheads do not dominate.
  const unsigned typeSize = unsigned(target.getTypeSize(elementType));
  const unsigned minBytesPerTile = 128;
  const unsigned minElements = (minBytesPerTile + typeSize - 1) / std::max(typeSize, 1u);
  return calcLinearTileMapping(target, shape, minElements, target.getVectorWidth(elementType),
                               offset, ascendingOrder);
}

std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph& graph,
                                                                 const poplar::Tensor& t,
                                                                 unsigned offset,
                                                                 bool ascendingOrder) {
  if (!t.valid()) throw poplibs_error("poputil::calcLinearTileMapping: t is an invalid tensor");
  return calcLinearTileMapping(graph.getTarget(), t.shape(), t.elementType(), offset,
                               ascendingOrder);
}

std::pair<poplar::Graph::TileToTensorMapping, unsigned>
calcLinearTileMappingAndNewOffset(const poplar::Graph& graph, const poplar::Tensor& t,
                                  unsigned offset) {
  const unsigned numTiles = graph.getTarget().getNumTiles();
  if (offset >= numTiles)
    throw poplibs_error("poputil::calcLinearTileMappingAndNewOffset: offset " +
                        std::to_string(offset) + " is not below the graph's " +
                        std::to_string(numTiles) + " tiles");
  if (!t.valid())
    throw poplibs_error("poputil::calcLinearTileMappingAndNewOffset: t is an invalid tensor");
  const auto linear = calcLinearTileMapping(graph.getTarget(), t.shape(), t.elementType(), 0, true);
  std::size_t used = 0;
  for (std::size_t k = 0; k < linear.size(); ++k)
    if (!linear[k].empty()) used = k + 1;
  poplar::Graph::TileToTensorMapping mapping(numTiles);
  for (std::size_t k = 0; k < linear.size(); ++k)
    mapping[(k + offset) % numTiles] = linear[k];
  return {mapping, unsigned((offset + used) % numTiles)};
}

void mapTensorLinearly(poplar::Graph& graph, const poplar::Tensor& t, unsigned minElementsPerTile,
                       unsigned grainSize) {
  if (!t.valid()) throw poplibs_error("poputil::mapTensorLinearly: t is an invalid tensor");
  graph.setTileMapping(t, calcLinearTileMapping(graph, t.shape(), minElementsPerTile, grainSize));
}

void mapTensorLinearlyWithOffset(poplar::Graph& graph, const poplar::Tensor& t,
                                 unsigned minElementsPerTile, unsigned grainSize, unsigned offset,
                                 bool ascendingOrder) {
  if (!t.valid())
    throw poplibs_error("poputil::mapTensorLinearlyWithOffset: t is an invalid tensor");
  graph.setTileMapping(t, calcLinearTileMapping(graph, t.shape(), minElementsPerTile, grainSize,
                                                offset, ascendingOrder));
}

void mapTensorLinearlyWithOffset(poplar::Graph& graph, const poplar::Tensor& t, unsigned offset,
                                 bool ascendingOrder) {
  graph.setTileMapping(t, calcLinearTileMapping(graph, t, offset, ascendingOrder));
}

std::size_t chooseMappingOffset(std::size_t numTiles, const std::vector<std::size_t>& shape,
                                std::size_t seed) {
  if (numTiles == 0) throw poplibs_error("poputil::chooseMappingOffset: numTiles is 0");
  // The usual hash_combine mixing: deterministic across runs and platforms of one word size.
  for (std::size_t d : shape)
    seed ^= d + 0x9e3779b9UL + (seed << 6) + (seed >> 2);
  return seed % numTiles;
}

std::size_t chooseMappingOffset(std::size_t numTiles, const std::vector<std::size_t>& shape) {
  return chooseMappingOffset(numTiles, shape, 0x9e3779b9UL);
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

poplar::Tensor cloneToGraph(poplar::Graph& srcGraph, poplar::Graph& dstGraph,
                            const poplar::Tensor& t, const poplar::DebugContext& debugContext,
                            poplar::TensorCloneMethod method) {
  const std::string op = "poputil::cloneToGraph";
  if (!t.valid()) throw poplibs_error(op + ": t is an invalid tensor");
  if (srcGraph.getReplicationFactor() != dstGraph.getReplicationFactor())
    throw poplibs_error(op + ": the source graph has replication factor " +
                        std::to_string(srcGraph.getReplicationFactor()) +
                        " and the destination graph " +
                        std::to_string(dstGraph.getReplicationFactor()));
  auto mapping = srcGraph.getTileMapping(t, false);
  const unsigned dstTiles = dstGraph.getTarget().getNumTiles();
  for (std::size_t tile = dstTiles; tile < mapping.size(); ++tile)
    if (!mapping[tile].empty())
      throw poplibs_error(op + ": t has elements on tile " + std::to_string(tile) +
                          " of the source graph but the destination graph has only " +
                          std::to_string(dstTiles) + " tiles");
  mapping.resize(std::min<std::size_t>(mapping.size(), dstTiles));
  poplar::Tensor c = srcGraph.clone(t, debugContext, method);
  dstGraph.setTileMapping(c, mapping);
  return c;
}

std::pair<poplar::Tensor, unsigned>
cloneAndExpandAliasing(poplar::Graph& graph, const poplar::Tensor& t, unsigned offset,
                       const poplar::DebugContext& debugContext) {
  if (!t.valid()) throw poplibs_error("poputil::cloneAndExpandAliasing: t is an invalid tensor");
  // A clone has an element of its own for every element of t; it keeps t's mapping, so each
  // repeat of an element would sit with its first occurrence. Those repeats are spread instead.
  poplar::Tensor c = graph.clone(t, debugContext);
  if (!t.containsAliases()) return {c, offset};
  std::vector<poplar::Interval> repeats;
  std::map<unsigned, std::vector<bool>> seen; // per variable, which elements came already
  std::size_t pos = 0;
  for (const auto& r : t.getVarRegions()) {
    auto& marks = seen[r.var];
    if (marks.size() < r.end) marks.resize(r.end, false);
    for (std::size_t i = r.begin; i < r.end; ++i, ++pos) {
      if (!marks[i]) {
        marks[i] = true;
        continue;
      }
      if (!repeats.empty() && repeats.back().end() == pos)
        repeats.back() = poplar::Interval(repeats.back().begin(), pos + 1);
      else
        repeats.emplace_back(pos, pos + 1);
    }
  }
  const poplar::Tensor flat = c.flatten();
  std::vector<poplar::Tensor> pieces;
  for (const auto& iv : repeats)
    pieces.push_back(flat.slice(iv.begin(), iv.end()));
  const poplar::Tensor repeated = poplar::concat(pieces);
  const auto [mapping, newOffset] = calcLinearTileMappingAndNewOffset(graph, repeated, offset);
  graph.setTileMapping(repeated, mapping);
  return {c, newOffset};
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
