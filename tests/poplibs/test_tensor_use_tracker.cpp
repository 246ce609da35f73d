// poputil::TensorUseTracker: elements mapped to the tiles that use them, shared uses spread.
#include "TestUtil.hpp"
#include "common/Devices.hpp"

#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Catch::Contains;
using Tracker = poputil::TensorUseTracker;

namespace {

/// The tile of each element of the one-dimensional `t`.
std::vector<unsigned> tileOf(const Graph& graph, const Tensor& t) {
  std::vector<unsigned> out(t.numElements(), ~0u);
  const auto mapping = graph.getTileMapping(t);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto& iv : mapping[tile])
      for (std::size_t i = iv.begin(); i < iv.end(); ++i)
        out[i] = tile;
  return out;
}

} // namespace

TEST_CASE("TensorUseTracker maps elements to the tiles that use them", "[poputil][tracker]") {
  auto device = test::smallDevice(4);
  Graph graph(device.getTarget());
  const Tensor w = graph.addVariable(FLOAT, {16}, "w");
  Tracker tracker(4);
  CHECK(tracker.empty());
  tracker.add(graph, 0, w.slice(0, 8));
  tracker.add(graph, 1, w.slice(4, 12));
  tracker.add(graph, 2, w.slice(12, 16));
  CHECK_FALSE(tracker.empty());

  SECTION("shared elements are split between their users") {
    tracker.mapTensorsByUse(graph, 1, 0);
    // [4, 8) is used by tiles 0 and 1: tile 1 (with nothing yet) takes the first half.
    CHECK(tileOf(graph, w) ==
          std::vector<unsigned>{0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2});
  }
  SECTION("a grain keeps small shared regions whole") {
    tracker.mapTensorsByUse(graph, 4, 0);
    CHECK(tileOf(graph, w) ==
          std::vector<unsigned>{0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2});
  }
  SECTION("halo regions go to the neighbour's tile") {
    tracker.mapTensorsByUse(graph, 1, 0, false, Tracker::MappingMethod::OptimizeHaloRegions);
    CHECK(tileOf(graph, w) ==
          std::vector<unsigned>{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2});
  }
}

TEST_CASE("TensorUseTracker merges trackers and extends partial uses", "[poputil][tracker]") {
  auto device = test::smallDevice(4);
  Graph graph(device.getTarget());
  const Tensor w = graph.addVariable(FLOAT, {4, 3}, "w");
  Tracker a(4), b(4);
  a.add(graph, 3, w[0]);
  b.add(graph, 1, w[3]);
  Tracker copy = a;
  copy.add(b);
  // Rows 1 and 2 are used by no tile: they follow row 0.
  copy.mapTensorsByUse(graph, 1, 0, true);
  CHECK(tileOf(graph, w.flatten()) == std::vector<unsigned>{3, 3, 3, 3, 3, 3, 3, 3, 3, 1, 1, 1});
  CHECK_THROWS_MATCHES(a.add(graph, 4, w), poputil::poplibs_error, test::What(Contains("tile 4")));
  CHECK_THROWS_MATCHES(a.add(Tracker(8)), poputil::poplibs_error, test::What(Contains("8 tiles")));
  CHECK_THROWS_MATCHES(a.resolve(graph, 0, 0), poputil::poplibs_error,
                       test::What(Contains("grainSize")));
}

TEST_CASE("TensorUseTracker breaks ties in the mapping order it was given", "[poputil][tracker]") {
  auto device = test::smallDevice(4);
  Graph graph(device.getTarget());
  const Tensor w = graph.addVariable(FLOAT, {8}, "w");
  SECTION("ascending from tile 0: the lower tile takes the first half") {
    Tracker tracker(4);
    tracker.add(graph, 1, w);
    tracker.add(graph, 2, w);
    tracker.mapTensorsByUse(graph, 1, 0);
    CHECK(tileOf(graph, w) == std::vector<unsigned>{1, 1, 1, 1, 2, 2, 2, 2});
  }
  SECTION("descending: the higher tile comes first") {
    Tracker tracker(4, 0, false);
    tracker.add(graph, 1, w);
    tracker.add(graph, 2, w);
    tracker.mapTensorsByUse(graph, 1, 0);
    CHECK(tileOf(graph, w) == std::vector<unsigned>{2, 2, 2, 2, 1, 1, 1, 1});
  }
  SECTION("ascending from tile 2: tile 2 comes before tile 1") {
    Tracker tracker(4, 2);
    tracker.add(graph, 1, w);
    tracker.add(graph, 2, w);
    tracker.mapTensorsByUse(graph, 1, 0);
    CHECK(tileOf(graph, w) == std::vector<unsigned>{2, 2, 2, 2, 1, 1, 1, 1});
  }
  CHECK_THROWS_AS(Tracker(4, 4), poputil::poplibs_error);
}
