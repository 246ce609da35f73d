#include <cstdint>
#include <gcl/TileAllocation.hpp>
#include <poplar/exceptions.hpp>
#include <string>

namespace gcl {

namespace {
// GCL accepts between 32 and 192 I/O tiles per IPU, an even number; the fewest is the minimum.
constexpr unsigned minIoTilesPerIpu = 32;
} // namespace

unsigned getMinIoTiles(const poplar::Graph& graph) {
  const unsigned tiles = graph.getTarget().getTilesPerIPU();
  // A small test target cannot spare 32 tiles: half of its tiles (at least 2, a pair) instead.
  if (tiles < 2 * minIoTilesPerIpu) return tiles >= 4 ? (tiles / 2) & ~1u : tiles;
  return minIoTilesPerIpu;
}

std::vector<unsigned> perIPUTiles(const poplar::Graph& graph, unsigned offset, unsigned count,
                                  bool /*sorted: always ascending*/, bool tilePairs) {
  const unsigned tilesPerIpu = graph.getTarget().getTilesPerIPU();
  if (std::uint64_t(offset) + count > tilesPerIpu)
    throw poplar::poplar_error("gcl::perIPUTiles: offset " + std::to_string(offset) + " + count " +
                               std::to_string(count) + " exceeds the " +
                               std::to_string(tilesPerIpu) + " tiles of an IPU of this target");
  if (tilePairs && (offset % 2 || count % 2))
    throw poplar::poplar_error("gcl::perIPUTiles: with tilePairs, offset (" +
                               std::to_string(offset) + ") and count (" + std::to_string(count) +
                               ") must be even, as tiles 2k and 2k+1 share an exchange port");
  std::vector<unsigned> tiles(count);
  for (unsigned i = 0; i < count; ++i)
    tiles[i] = offset + i;
  return tiles;
}

} // namespace gcl
