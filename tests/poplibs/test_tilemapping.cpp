#include "TestUtil.hpp"

#include <algorithm>
#include <poputil/TileMapping.hpp>

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
  const auto expected = poputil::calcLinearTileMapping(h.graph(), t, 4, 2);
  CHECK(expected == poputil::calcLinearTileMapping(h.graph(), t.shape(), 4, 2));
  poputil::mapTensorLinearly(h.graph(), t, 4, 2);
  CHECK(h.graph().getTileMapping(t) == expected);
  // The default grain is one element and there is no minimum.
  const auto defaults = poputil::calcLinearTileMapping(h.graph(), t);
  CHECK(defaults == poputil::calcLinearTileMapping(h.graph(), t.shape(), 0, 1));
  CHECK(defaults[0] == std::vector<Interval>{Interval(0, 5)});
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
