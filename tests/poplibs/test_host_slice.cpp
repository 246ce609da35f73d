// popops::createHostSliceableTensor / createHostTransferableTensor: the packet layout over the
// tiles, values through the tensors, and API misuse.
#include "TestUtil.hpp"

#include <algorithm>
#include <map>
#include <popops/HostSliceTensor.hpp>
#include <poputil/exceptions.hpp>
#include <set>

using namespace poplar;
using Catch::Contains;

namespace {

/// The tile holding each element of the flattened `t`; -1 where unmapped.
std::vector<int> tileOfEach(const Graph& g, const Tensor& t) {
  std::vector<int> tiles(t.numElements(), -1);
  const auto mapping = g.getTileMapping(t);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto& iv : mapping[tile])
      for (std::size_t i = iv.begin(); i < iv.end(); ++i)
        tiles[i] = int(tile);
  return tiles;
}

} // namespace

TEST_CASE("createHostSliceableTensor: 1 KiB packets spread evenly, indices with their rows",
          "[popops][hostslice]") {
  test::Harness h(16);
  // 3 rows of 600 floats: 256 floats a packet, so 3 packets a row (256, 256, 88), 9 in all:
  // fewer than tiles, so one packet each on 9 evenly spaced tiles.
  const auto it = popops::createHostSliceableTensor(h.graph(), FLOAT, {3, 600}, false, "hs");
  REQUIRE(it.tensor.shape() == std::vector<std::size_t>{3, 600});
  REQUIRE(it.indices.shape() == std::vector<std::size_t>{3});
  CHECK(it.indices.elementType() == UNSIGNED_INT);
  const auto tiles = tileOfEach(h.graph(), it.tensor);
  CHECK(std::count(tiles.begin(), tiles.end(), -1) == 0);
  const std::vector<int> packetTiles = {0, 1, 3, 5, 7, 8, 10, 12, 14};
  for (std::size_t row = 0, p = 0; row < 3; ++row)
    for (std::size_t col = 0; col < 600; col += 256, ++p) {
      const std::size_t end = std::min<std::size_t>(600, col + 256);
      for (std::size_t c = col; c < end; ++c)
        REQUIRE(tiles[row * 600 + c] == packetTiles[p]);
    }
  const auto indexTiles = tileOfEach(h.graph(), it.indices);
  CHECK(indexTiles == std::vector<int>{0, 5, 10}); // the tile of each row's first packet
  // An offset of 2 KiB starts the spread of leftover packets at tile 2 (packets still go to the
  // tiles in order).
  const auto shifted =
      popops::createHostSliceableTensor(h.graph(), FLOAT, {3, 600}, true, 2048, "shifted");
  const auto shiftedTiles = tileOfEach(h.graph(), shifted.tensor);
  std::set<int> used(shiftedTiles.begin(), shiftedTiles.end());
  CHECK(used == std::set<int>{0, 2, 3, 5, 7, 9, 10, 12, 14});
  // Values go through it as through any tensor.
  const auto values = test::randomValues(1800, -1.0f, 1.0f, 3);
  h.write("hs", it.tensor, values);
  h.read("hs", it.tensor);
  h.run();
  CHECK(h.result("hs") == values);
}

TEST_CASE("createHostTransferableTensor: any shape, balanced to a packet", "[popops][hostslice]") {
  test::Harness h(16);
  // 40 packets of 512 halves over 16 tiles: 2 each and 8 tiles with a third.
  const Tensor t =
      popops::createHostTransferableTensor(h.graph(), HALF, {4, 10, 512}, false, "transfer");
  CHECK(t.shape() == std::vector<std::size_t>{4, 10, 512});
  const auto tiles = tileOfEach(h.graph(), t);
  std::map<int, std::size_t> perTile;
  for (int tile : tiles)
    ++perTile[tile];
  CHECK(perTile.count(-1) == 0);
  REQUIRE(perTile.size() == 16);
  for (const auto& kv : perTile)
    CHECK((kv.second == 2 * 512 || kv.second == 3 * 512));
  // Packets are contiguous and in order: tile numbers never decrease along the tensor.
  CHECK(std::is_sorted(tiles.begin(), tiles.end()));
}

TEST_CASE("createHostSliceableTensor: misuse is a clear error", "[popops][hostslice]") {
  test::Harness h(4);
  CHECK_THROWS_MATCHES(popops::createHostSliceableTensor(h.graph(), FLOAT, {2, 3, 4}, false),
                       poputil::poplibs_error, test::What(Contains("must have rank 2")));
  IPUModel model;
  model.numIPUs = 2;
  model.tilesPerIPU = 4;
  Graph g(model.createDevice().getTarget());
  CHECK_THROWS_MATCHES(popops::createHostTransferableTensor(g, FLOAT, {8}, true),
                       poputil::poplibs_error, test::What(Contains("spans 2 IPUs")));
}
