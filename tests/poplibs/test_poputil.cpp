// poputil helpers: broadcasting, index arithmetic, region splitting, duplicating and cloning,
// partitionable tensors and grouping detection.
#include "TestUtil.hpp"

#include <popops/ElementWiseUtil.hpp>
#include <poputil/Broadcast.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/Util.hpp>
#include <poputil/VarStructure.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;

TEST_CASE("broadcastToMatch follows numpy's rules", "[poputil]") {
  test::Harness h(4);
  Tensor a = h.graph().addVariable(FLOAT, {3, 1}, "a");
  Tensor b = h.graph().addVariable(FLOAT, {4}, "b");
  CHECK(poputil::canBroadcastToMatch(a, b));
  poputil::broadcastToMatch(a, b);
  CHECK(a.shape() == std::vector<std::size_t>{3, 4});
  CHECK(b.shape() == std::vector<std::size_t>{3, 4});
  Tensor c = h.graph().addVariable(FLOAT, {2, 1, 1}, "c");
  poputil::broadcastToMatch(a, b, c);
  CHECK(c.shape() == std::vector<std::size_t>{2, 3, 4});
  Tensor d = h.graph().addVariable(FLOAT, {5}, "d");
  CHECK_FALSE(poputil::canBroadcastToMatch(b, d));
  CHECK_THROWS_MATCHES(poputil::broadcastToMatch(b, d), poputil::poplibs_error,
                       test::What(Contains("{2,3,4}") && Contains("{5}")));
  Tensor e = h.graph().addVariable(FLOAT, {7}, "e");
  Tensor f = h.graph().addVariable(FLOAT, {2, 3, 7}, "f");
  poputil::expandToMatchRanks(e, f);
  CHECK(e.shape() == std::vector<std::size_t>{1, 1, 7});
}

TEST_CASE("flattenIndex and unflattenIndex invert each other", "[poputil]") {
  const std::vector<std::size_t> shape{3, 4, 5};
  for (std::size_t i = 0; i < 60; ++i)
    CHECK(poputil::flattenIndex(shape, poputil::unflattenIndex(shape, i)) == i);
  CHECK(poputil::unflattenIndex(shape, 27) == std::vector<std::size_t>{1, 1, 2});
  CHECK(poputil::balancedPartition(10, 3) == std::vector<int>{4, 3, 3});
}

TEST_CASE("splitRegions balances elements over partitions", "[poputil]") {
  const std::vector<Interval> regions{{0, 10}, {20, 26}, {30, 46}};
  const auto parts = poputil::splitRegions(regions, 2, 4);
  REQUIRE(parts.size() == 4);
  std::size_t total = 0;
  for (const auto& p : parts) {
    std::size_t n = 0;
    for (const auto& iv : p)
      n += iv.size();
    CHECK(n <= 8);
    total += n;
  }
  CHECK(total == 32);
  const std::vector<std::vector<Interval>> seqs{{{0, 4}, {8, 12}}, {{20, 28}}};
  CHECK(poputil::intervalSequenceNumElements(seqs) == 16);
  const auto seqParts = poputil::splitRegions(seqs, 1, 2);
  REQUIRE(seqParts.size() == 2);
  CHECK(poputil::intervalSequenceNumElements(seqParts[0]) == 8);
  std::vector<Interval> merge{{0, 2}, {2, 5}, {7, 8}};
  poputil::mergeAdjacentRegions(merge);
  CHECK(merge == std::vector<Interval>{{0, 5}, {7, 8}});
  CHECK_THROWS_AS(poputil::splitRegions(regions, 0, 4), poputil::poplibs_error);
}

TEST_CASE("duplicate and cloneN copy layout and values", "[poputil]") {
  test::Harness h(4);
  const std::vector<float> v{1, 2, 3, 4, 5, 6};
  const Tensor A = h.input("A", FLOAT, {2, 3}, v);
  const Tensor D = poputil::duplicate(h.graph(), A, h.prog(), "dup");
  CHECK(h.graph().getTileMapping(D) == h.graph().getTileMapping(A));
  const Tensor N = poputil::cloneN(h.graph(), A, 3, "three");
  CHECK(N.shape() == std::vector<std::size_t>{3, 2, 3});
  CHECK(h.graph().getTileMapping(N[2]) == h.graph().getTileMapping(A));
  const Tensor out = popops::createOutputForElementWiseOp(h.graph(), {A, D}, INT, "out");
  CHECK(out.elementType() == INT);
  CHECK(h.graph().getTileMapping(out) == h.graph().getTileMapping(A));
  h.read("D", D);
  h.run();
  CHECK(h.result("D") == v);
}

TEST_CASE("createPartitionableTensor makes each partition contiguous", "[poputil]") {
  test::Harness h(4);
  const Tensor t = poputil::createPartitionableTensor(h.graph(), FLOAT, {5, 6}, {2, 3}, "p");
  CHECK(t.shape() == std::vector<std::size_t>{5, 6});
  std::size_t count = 0, elements = 0;
  poputil::iterateTensorPartitions(t, {2, 3},
                                   [&](const std::vector<std::size_t>& i, const Tensor& s) {
                                     CHECK(s.getContiguousRegions().size() == 1);
                                     CHECK(i.size() == 2);
                                     ++count;
                                     elements += s.numElements();
                                   });
  CHECK(count == 6);
  CHECK(elements == 30);
  CHECK_THROWS_MATCHES(poputil::createPartitionableTensor(h.graph(), FLOAT, {5, 6}, {2}),
                       poputil::poplibs_error, test::What(Contains("nPartitions")));
}

TEST_CASE("detectInnermostGrouping finds the contiguous group size", "[poputil]") {
  test::Harness h(4);
  const Tensor t = h.graph().addVariable(FLOAT, {4, 16}, "t");
  poputil::mapTensorLinearly(h.graph(), t, 0, 8); // grains of 8 elements
  CHECK(poputil::detectInnermostGrouping(h.graph(), t) == 16);
  const Tensor u = h.graph().addVariable(FLOAT, {6, 12}, "u");
  h.graph().setTileMapping(u.slice(0, 4, 1), 0);
  h.graph().setTileMapping(u.slice(4, 12, 1), 1);
  CHECK(poputil::detectInnermostGrouping(h.graph(), u) == 4);
  const auto groups = poputil::detectDimGroupings(h.graph(), u);
  REQUIRE_FALSE(groups.empty());
  CHECK(groups.front() == poputil::GroupingInfo{1, 4});
}

TEST_CASE("dimIsSplitOverTiles, createBroadcastOperand and cloneToIpu follow the mapping",
          "[poputil]") {
  test::Harness h(4);
  auto& g = h.graph();
  const Tensor t = g.addVariable(FLOAT, {4, 6}, "t");
  g.setTileMapping(t.slice(0, 2), 0); // rows 0-1 on tile 0, rows 2-3 on tile 1
  g.setTileMapping(t.slice(2, 4), 1);
  CHECK_FALSE(poputil::dimIsSplitOverTiles(g, t, 1));
  CHECK(poputil::dimIsSplitOverTiles(g, t, 0));
  CHECK_FALSE(poputil::dimIsSplitOverIPUs(g, t, 0));
  CHECK_THROWS_MATCHES(poputil::dimIsSplitOverTiles(g, t, 2), poputil::poplibs_error,
                       test::What(Contains("dimension 2")));
  const Tensor bias = poputil::createBroadcastOperand(g, t, HALF, 0, false, "bias");
  CHECK(bias.shape() == std::vector<std::size_t>{4});
  const auto biasMapping = g.getTileMapping(bias);
  std::vector<unsigned> tileOf(4, 99);
  for (unsigned tile = 0; tile < biasMapping.size(); ++tile)
    for (const auto& iv : biasMapping[tile])
      for (std::size_t i = iv.begin(); i < iv.end(); ++i)
        tileOf[i] = tile;
  CHECK(tileOf == std::vector<unsigned>{0, 0, 1, 1});
  const Tensor c = poputil::cloneToIpu(g, t, 0, "c");
  CHECK(g.getTileMapping(c) == g.getTileMapping(t));
  CHECK_THROWS_MATCHES(poputil::cloneToIpu(g, t, 1), poputil::poplibs_error,
                       test::What(Contains("dstIPU 1")));
}
