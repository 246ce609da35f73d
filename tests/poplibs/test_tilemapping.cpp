#include "TestUtil.hpp"

#include <algorithm>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;

namespace {

/// Per element of `t`, the tile holding it; fails if an element is held twice.
std::vector<int> tileOfEachElement(const Graph& graph, const Tensor& t) {
  std::vector<int> owner(t.numElements(), -1);
  const auto mapping = graph.getTileMapping(t);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto& iv : mapping[tile])
      for (std::size_t e = iv.begin(); e < iv.end(); ++e) {
        CHECK(owner[e] == -1);
        owner[e] = int(tile);
      }
  return owner;
}

} // namespace

TEST_CASE("mapTensorLinearly maps every element once, in whole grains", "[poputil]") {
  test::Harness h(16);
  const auto [n, minPerTile, grain] =
      GENERATE(table<std::size_t, unsigned, unsigned>({{1, 0, 1},
                                                       {10, 0, 1},
                                                       {100, 0, 1},
                                                       {100, 0, 8},
                                                       {1000, 0, 3},
                                                       {1000, 128, 4},
                                                       {17, 64, 2}}));
  CAPTURE(n, minPerTile, grain);
  const Tensor t = h.graph().addVariable(FLOAT, {n}, "t");
  poputil::mapTensorLinearly(h.graph(), t, minPerTile, grain);
  const auto owner = tileOfEachElement(h.graph(), t);
  CHECK(std::count(owner.begin(), owner.end(), -1) == 0);
  // Tiles hold consecutive ranges in tile order, each (except the last used) whole grains and
  // at least the minimum.
  CHECK(std::is_sorted(owner.begin(), owner.end()));
  const auto mapping = h.graph().getTileMapping(t);
  std::size_t lastUsed = 0;
  for (std::size_t tile = 0; tile < mapping.size(); ++tile)
    if (!mapping[tile].empty()) lastUsed = tile;
  for (std::size_t tile = 0; tile < lastUsed; ++tile) {
    std::size_t held = 0;
    for (const auto& iv : mapping[tile])
      held += iv.size();
    CHECK(held % grain == 0);
    CHECK(held >= std::min<std::size_t>(minPerTile, n));
  }
}

TEST_CASE("mapTensorLinearly spreads a large tensor evenly over all tiles", "[poputil]") {
  test::Harness h(16);
  const Tensor t = h.graph().addVariable(FLOAT, {40, 40}, "t");
  poputil::mapTensorLinearly(h.graph(), t);
  CHECK(h.graph().getTilesOf(t).size() == 16);
  CHECK(poputil::getTileImbalance(h.graph(), t) == 0);
  // 1600 elements over 16 tiles: 100 each.
  for (const auto& intervals : h.graph().getTileMapping(t)) {
    REQUIRE(intervals.size() == 1);
    CHECK(intervals[0].size() == 100);
  }
}

TEST_CASE("calcLinearTileMapping is the mapping mapTensorLinearly applies", "[poputil]") {
  test::Harness h(8);
  const Tensor t = h.graph().addVariable(HALF, {5, 7}, "t");
  const auto expected = poputil::calcLinearTileMapping(h.graph(), t.shape(), 4, 2);
  poputil::mapTensorLinearly(h.graph(), t, 4, 2);
  CHECK(h.graph().getTileMapping(t) == expected);
  // mapTensorLinearly's defaults: one-element grains and no minimum.
  poputil::mapTensorLinearly(h.graph(), t);
  const auto defaults = poputil::calcLinearTileMapping(h.graph(), t.shape(), 0, 1);
  CHECK(h.graph().getTileMapping(t) == defaults);
  CHECK(defaults[0] == std::vector<Interval>{Interval(0, 5)});
}

TEST_CASE("calcLinearTileMapping of a tensor uses its type's vector width and 128 bytes a tile",
          "[poputil]") {
  test::Harness h(8);
  // 200 halves: at least 64 per tile (128 bytes) in grains of 4 -> 64, 64, 64, 8.
  const Tensor t = h.graph().addVariable(HALF, {200}, "t");
  const auto m = poputil::calcLinearTileMapping(h.graph(), t);
  CHECK(m == poputil::calcLinearTileMapping(h.graph().getTarget(), t.shape(), HALF));
  std::vector<std::size_t> sizes;
  for (const auto& tile : m) {
    std::size_t n = 0;
    for (const auto& iv : tile)
      n += iv.size();
    sizes.push_back(n);
  }
  sizes.resize(8);
  CHECK(sizes == std::vector<std::size_t>{64, 64, 64, 8, 0, 0, 0, 0});
}

TEST_CASE("Offsets and descending order move a linear mapping round the tiles", "[poputil]") {
  test::Harness h(8);
  const Tensor t = h.graph().addVariable(FLOAT, {6}, "t");
  // One element a tile from tile 5 upwards wraps to tiles 5, 6, 7, 0, 1, 2.
  const auto up = poputil::calcLinearTileMapping(h.graph(), t.shape(), 1, 1, 5, true);
  REQUIRE(up.size() == 8);
  CHECK(up[5] == std::vector<Interval>{Interval(0, 1)});
  CHECK(up[7] == std::vector<Interval>{Interval(2, 3)});
  CHECK(up[0] == std::vector<Interval>{Interval(3, 4)});
  CHECK(up[3].empty());
  // Descending from offset 1: the first tile is 8 - 1 - 1 = 6, then 5, 4, ...
  const auto down = poputil::calcLinearTileMapping(h.graph(), t.shape(), 1, 1, 1, false);
  CHECK(down[6] == std::vector<Interval>{Interval(0, 1)});
  CHECK(down[5] == std::vector<Interval>{Interval(1, 2)});
  CHECK(down[1] == std::vector<Interval>{Interval(5, 6)});
  poputil::mapTensorLinearlyWithOffset(h.graph(), t, 1, 1, 5);
  CHECK(h.graph().getTileMapping(t) == up);
  for (unsigned tile = 0; tile < 8; ++tile)
    for (bool asc : {true, false}) {
      CHECK(poputil::invTransformTileIndex(poputil::transformTileIndex(tile, 8, 3, asc), 8, 3,
                                           asc) == tile);
      CHECK(poputil::transformTileIndex(poputil::invTransformTileIndex(0, 8, 3, asc), 8, 3, asc) ==
            0);
    }
  CHECK(poputil::invTransformTileIndex(0, 8, 3, true) == 3);
  CHECK(poputil::invTransformTileIndex(0, 8, 3, false) == 4);
  CHECK_THROWS_AS(poputil::transformTileIndex(0, 0, 0, true), poputil::poplibs_error);
}

TEST_CASE("calcLinearTileMappingAndNewOffset chains small tensors over the tiles", "[poputil]") {
  test::Harness h(8);
  // 100 floats: 32 per tile at least (128 bytes) -> 4 tiles from the offset.
  const Tensor t = h.graph().addVariable(FLOAT, {100}, "t");
  const auto [m, next] = poputil::calcLinearTileMappingAndNewOffset(h.graph(), t, 6);
  CHECK(next == 2); // tiles 6, 7, 0, 1 used
  CHECK(m[6].size() == 1);
  CHECK(m[1].size() == 1);
  CHECK(m[2].empty());
  CHECK_THROWS_AS(poputil::calcLinearTileMappingAndNewOffset(h.graph(), t, 8),
                  poputil::poplibs_error);
  const auto off = poputil::chooseMappingOffset(8, {3, 4});
  CHECK(off < 8);
  CHECK(off == poputil::chooseMappingOffset(8, {3, 4}));
  CHECK(poputil::chooseMappingOffset(1472, {3, 4}, 1) !=
        poputil::chooseMappingOffset(1472, {3, 4}, 2));
  CHECK_THROWS_AS(poputil::chooseMappingOffset(0, {3}), poputil::poplibs_error);
}

TEST_CASE("cloneAndExpandAliasing spreads the repeats of an aliased tensor", "[poputil]") {
  test::Harness h(8);
  const Tensor v = h.graph().addVariable(FLOAT, {4}, "v");
  h.graph().setTileMapping(v, 0);
  const Tensor plain = poputil::cloneAndExpandAliasing(h.graph(), v, 3).first;
  CHECK(h.graph().getTileMapping(plain) == h.graph().getTileMapping(v));
  // [v, v]: the first four stay on tile 0, the repeats go linearly from tile 3.
  const Tensor aliased = poplar::concat(v, v);
  const auto [c, next] = poputil::cloneAndExpandAliasing(h.graph(), aliased, 3);
  CHECK_FALSE(c.containsAliases());
  CHECK(c.shape() == aliased.shape());
  const auto m = h.graph().getTileMapping(c);
  CHECK(m[0] == std::vector<Interval>{Interval(0, 4)});
  CHECK(m[3] == std::vector<Interval>{Interval(4, 8)});
  CHECK(next == 4);
}

TEST_CASE("cloneToGraph maps the clone to the same tiles of another graph", "[poputil]") {
  test::Harness h(8);
  const Tensor t = h.graph().addVariable(FLOAT, {4}, "t");
  h.graph().setTileMapping(t.slice(0, 2), 1);
  h.graph().setTileMapping(t.slice(2, 4), 2);
  poplar::Graph sub = h.graph().createVirtualGraph(4, 8);
  const Tensor c = poputil::cloneToGraph(h.graph(), sub, t);
  // Tiles 1 and 2 of the virtual graph are tiles 5 and 6 of the device.
  const auto m = h.graph().getTileMapping(c);
  CHECK(m[5] == std::vector<Interval>{Interval(0, 2)});
  CHECK(m[6] == std::vector<Interval>{Interval(2, 4)});
  poplar::Graph small = h.graph().createVirtualGraph(0, 2);
  CHECK_THROWS_AS(poputil::cloneToGraph(h.graph(), small, t), poputil::poplibs_error);
}

TEST_CASE("getTileImbalance measures the excess of the fullest tile", "[poputil]") {
  test::Harness h(4);
  const Tensor t = h.graph().addVariable(FLOAT, {40}, "t");
  h.graph().setTileMapping(t, 0);
  CHECK(poputil::getTileImbalance(h.graph(), t) == 30); // 40 on one tile, 10 when balanced
  poputil::mapTensorLinearly(h.graph(), t);
  CHECK(poputil::getTileImbalance(h.graph(), t) == 0);
  CHECK(poputil::getTileImbalance(Graph::TileToTensorMapping{}) == 0);
}
