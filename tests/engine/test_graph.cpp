// Tile mappings, virtual graphs, constants and vertex construction.
#include "TestUtil.hpp"

#include <catch2/catch.hpp>
#include <poplar/Engine.hpp>
#include <poplar/exceptions.hpp>
#include <sstream>

using namespace poplar;

TEST_CASE("tile mappings are set per element and read back as intervals", "[graph]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget());
  auto t = g.addVariable(FLOAT, {4, 3});
  g.setTileMapping(t, 0);
  g.setTileMapping(t[1], 2);
  g.setTileMapping(t.slice(1, 2, 1), 3); // column 1
  const auto m = g.getTileMapping(t);
  REQUIRE(m.size() == 4);
  CHECK(m[0] == std::vector<Interval>{{0, 1}, {2, 3}, {6, 7}, {8, 10}, {11, 12}});
  CHECK(m[1].empty());
  CHECK(m[2] == std::vector<Interval>{{3, 4}, {5, 6}});
  CHECK(m[3] == std::vector<Interval>{{1, 2}, {4, 5}, {7, 8}, {10, 11}});
  CHECK(g.getTilesOf(t) == std::vector<unsigned>{0, 2, 3});
  // The mapping of a view is expressed in the view's own element order.
  CHECK(g.getTileMapping(t.transpose())[3] == std::vector<Interval>{{4, 8}});
}

TEST_CASE("setTileMapping with a TileToTensorMapping and getTileMapping agree", "[graph]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget());
  auto t = g.addVariable(INT, {10});
  Graph::TileToTensorMapping m(4);
  m[1] = {{0, 4}};
  m[3] = {{4, 10}};
  g.setTileMapping(t.reverse(0), m);
  const auto back = g.getTileMapping(t);
  CHECK(back[1] == std::vector<Interval>{{6, 10}});
  CHECK(back[3] == std::vector<Interval>{{0, 6}});
}

TEST_CASE("unmapped elements are reported by getTileMapping", "[graph][errors]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget());
  auto t = g.addVariable(FLOAT, {6}, "partly");
  g.setTileMapping(t.slice(0, 3), 1);
  CHECK_THROWS_MATCHES(g.getTileMapping(t), invalid_tile_mapping,
                       test::What(Catch::Contains("partly")));
  CHECK(g.getTileMapping(t, false)[1] == std::vector<Interval>{{0, 3}});
  CHECK_THROWS_MATCHES(g.setTileMapping(t, 4), invalid_tile_mapping,
                       test::What(Catch::Contains("tile 4")));
}

TEST_CASE("linear variable mapping spreads elements evenly", "[graph]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget());
  auto t = g.addVariable(FLOAT, {10}, VariableMappingMethod::LINEAR);
  const auto m = g.getTileMapping(t);
  CHECK(m[0] == std::vector<Interval>{{0, 3}});
  CHECK(m[3] == std::vector<Interval>{{9, 10}});
  const auto lm = detail::linearMapping(100, 8, 20, 4);
  CHECK(lm[0] == Interval(0, 20));
  CHECK(lm[4] == Interval(80, 100));
  CHECK(lm[5].size() == 0);
}

TEST_CASE("virtual graphs see a rebased range of tiles", "[graph]") {
  auto device = test::smallDevice(8, 2); // 2 IPUs x 8 tiles
  Graph g(device.getTarget());
  Graph ipu1 = g.createVirtualGraph(8, 16);
  CHECK(ipu1.getTarget().getNumTiles() == 8);
  CHECK(ipu1.getTarget().getNumIPUs() == 1);
  auto t = ipu1.addVariable(FLOAT, {4});
  ipu1.setTileMapping(t, 3);
  CHECK(g.getTileMapping(t)[11] == std::vector<Interval>{{0, 4}});
  CHECK(ipu1.getTileMapping(t)[3] == std::vector<Interval>{{0, 4}});
  Graph half = ipu1.createVirtualGraph(4, 8);
  half.setTileMapping(t, 0);
  CHECK(g.getTilesOf(t) == std::vector<unsigned>{12});
  CHECK(g.createVirtualGraph(0, 16).getTarget().getNumIPUs() == 2);
  CHECK_THROWS_AS(g.createVirtualGraph(4, 12), invalid_tile_mapping);
  CHECK_THROWS_AS(ipu1.setTileMapping(t, 8), invalid_tile_mapping);
}

TEST_CASE("clone copies shape, type and tile mapping", "[graph]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget());
  auto t = g.addVariable(FLOAT, {2, 5});
  test::mapRoundRobin(g, t, 3);
  auto c = g.clone(t, "copy");
  CHECK(c.shape() == t.shape());
  CHECK(g.getTileMapping(c) == g.getTileMapping(t));
  CHECK_FALSE(c.intersectsWith(t));
  auto h = g.clone(HALF, t);
  CHECK(h.elementType() == HALF);
}

TEST_CASE("vertex construction checks fields, types and shapes", "[graph][errors]") {
  auto device = test::smallDevice(4);
  auto g = test::makeGraph(device);
  auto cs = g.addComputeSet("cs");
  auto f = g.addVariable(FLOAT, {4});
  auto i = g.addVariable(INT, {4});
  auto v = g.addVertex(cs, "SumVertex");
  CHECK_THROWS_MATCHES(g.connect(v["nope"], f), unknown_field,
                       test::What(Catch::Contains("SumVertex") && Catch::Contains("in, out")));
  CHECK_THROWS_MATCHES(g.connect(v["in"], i), type_error,
                       test::What(Catch::Contains("float") && Catch::Contains("int")));
  CHECK_THROWS_MATCHES(g.connect(v["out"], f), index_error,
                       test::What(Catch::Contains("scalar") && Catch::Contains("{4}")));
  CHECK_THROWS_AS(g.connect(v["in"][0], f), graph_connection_error);
  auto gv = g.addVertex(cs, "GatherVertex");
  CHECK_THROWS_AS(g.connect(gv["in"][0], f), no_size_specified);
  CHECK_THROWS_AS(g.connect(gv["in"], f), graph_connection_error);
  g.setFieldSize(gv["in"], 2);
  CHECK_THROWS_AS(g.connect(gv["in"][2], f), index_error);
  // An edge list holds at most 2^32 - 1 edges (32-bit counts): refused before any allocation,
  // and the field keeps its size.
  CHECK_THROWS_MATCHES(g.setFieldSize(gv["in"], std::size_t(1) << 32), graph_connection_error,
                       test::What(Catch::Contains("2^32")));
  CHECK_THROWS_AS(g.connect(gv["in"][2], f), index_error);
  // Resized from two edges to one (held inline) and back: the count follows.
  g.setFieldSize(gv["in"], 1);
  CHECK_THROWS_AS(g.connect(gv["in"][1], f), index_error);
  g.setFieldSize(gv["in"], 2);
  CHECK_THROWS_AS(g.connect(gv["in"][2], f), index_error);
  CHECK_THROWS_AS(g.setFieldSize(v["in"], 2), graph_connection_error);
  auto sv = g.addVertex(cs, "ScaleVertex");
  CHECK_THROWS_AS(g.connect(sv["factor"], f), graph_connection_error);
  CHECK_THROWS_AS(g.setInitialValue(sv["factor"], 2), type_error); // int given, float field
  CHECK_THROWS_AS(g.setInitialValue(sv["data"], 2.0f), graph_connection_error);
  CHECK_THROWS_MATCHES(g.addVertex(cs, "NoSuchVertex"), unknown_vertex_type,
                       test::What(Catch::Contains("NoSuchVertex")));
  Graph other(device.getTarget());
  CHECK_THROWS_MATCHES(other.addVertex(other.addComputeSet(), "SumVertex"), unknown_vertex_type,
                       test::What(Catch::Contains("addCodelets")));
  // Not registered by TESSERA_VERTEX, so a codelet file to compile: and there is none.
  CHECK_THROWS_AS(other.addCodelets("missing_codelets.cpp"), codelet_file_error);
  CHECK_THROWS_AS(g.connect(v["in"], other.addVariable(FLOAT, {2})), graph_connection_error);
}

TEST_CASE("host handles, streams and remote buffers are checked when created", "[graph][errors]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget());
  auto t = g.addVariable(FLOAT, {4});
  g.createHostWrite("t", t);
  CHECK_THROWS_AS(g.createHostRead("t", t), tensor_io_state_error);
  CHECK_THROWS_AS(g.createHostWrite("b", t.broadcast(2, 0)), tensor_io_state_error);
  g.addHostToDeviceFIFO("in", FLOAT, 4);
  CHECK_THROWS_AS(g.addDeviceToHostFIFO("in", FLOAT, 4), stream_connection_error);
  CHECK_THROWS_AS(g.addHostToDeviceFIFO("empty", FLOAT, 0), stream_connection_error);
  CHECK_THROWS_MATCHES(g.addHostToDeviceFIFO("huge", FLOAT, 64u << 20), stream_connection_error,
                       test::What(Catch::Contains("128 MiB")));
  g.addRemoteBuffer("rb", FLOAT, 4, 2);
  CHECK_THROWS_AS(g.addRemoteBuffer("rb", FLOAT, 4, 2), stream_connection_error);
}

TEST_CASE("replicated graphs see one replica's tiles", "[graph]") {
  auto device = test::smallDevice(4, 2);
  Graph g(device.getTarget(), 2);
  CHECK(g.getReplicationFactor() == 2);
  CHECK(g.getTarget().getNumTiles() == 4);
  CHECK_THROWS_AS(Graph(test::smallDevice(4, 3).getTarget(), 2), invalid_machine_model);
  CHECK_THROWS_AS(Graph(device.getTarget(), 0), invalid_machine_model);
}

// The graph keeps a vertex edge as the tensor's variable regions, not as the Tensor (issue 38):
// the tensors below are gone before the engine is built, and every edge still reads what its
// tensor covered, in the tensor's order, however many regions it spans.
TEST_CASE("vertex edges outlive the tensors that connected them", "[graph]") {
  auto device = test::smallDevice(4);
  auto g = test::makeGraph(device);
  auto cs = g.addComputeSet("gather");
  {
    auto x = g.addVariable(FLOAT, {6}, "x");
    auto z = g.addVariable(FLOAT, {2}, "z");
    auto y = g.addVariable(FLOAT, {9}, "y");
    g.setTileMapping(x, 0);
    g.setTileMapping(z, 1);
    g.setTileMapping(y, 2);
    g.setInitialValue(x, std::vector<float>{1, 2, 3, 4, 5, 6});
    g.setInitialValue(z, std::vector<float>{10, 20});
    auto v = g.addVertex(cs, "GatherVertex");
    g.setFieldSize(v["in"], 3);
    g.connect(v["in"][0], concat(x.slice(4, 6), z));      // two variables: two regions
    g.connect(v["in"][1], x.slice(0, 3).reverse(0));      // three regions of one element
    g.connect(v["in"][2], x.slice(3, 5).reshape({2, 1})); // one region
    g.connect(v["out"], y.slice(0, 9));
    g.setTileMapping(v, 2);
    g.createHostRead("y", y);
  }
  std::ostringstream dot;
  g.outputVertexGraph(dot, {program::Execute(cs)});
  CHECK(dot.str().find("label=\"x\"") != std::string::npos);
  CHECK(dot.str().find("label=\"z\"") != std::string::npos);
  Engine e(g, program::Execute(cs));
  e.load(device);
  e.run();
  std::vector<float> out(9);
  e.readTensor("y", out.data(), out.data() + out.size());
  CHECK(out == std::vector<float>{5, 6, 10, 20, 3, 2, 1, 4, 5});
}

TEST_CASE("thousands of vertices keep their own fields (the graph's field blocks)", "[graph]") {
  // 3,000 vertices of three fields and 3,000 of two: more fields than one of the graph's blocks
  // of field connections holds (4,096), with a vertex's fields never split between two blocks.
  constexpr unsigned kVertices = 3000;
  auto device = test::smallDevice(4);
  auto g = test::makeGraph(device);
  auto a = g.addVariable(UNSIGNED_INT, {kVertices}, "a");
  auto b = g.addVariable(UNSIGNED_INT, {kVertices}, "b");
  auto less = g.addVariable(BOOL, {kVertices}, "less");
  auto data = g.addVariable(FLOAT, {kVertices}, "data");
  std::vector<unsigned> av(kVertices), bv(kVertices);
  std::vector<float> dv(kVertices);
  for (unsigned i = 0; i < kVertices; ++i) {
    av[i] = i;
    bv[i] = (i * 7919) % kVertices;
    dv[i] = float(i % 100);
  }
  g.setInitialValue(a, av);
  g.setInitialValue(b, bv);
  g.setInitialValue(data, dv);
  auto cs = g.addComputeSet("many");
  for (unsigned i = 0; i < kVertices; ++i) {
    const unsigned tile = i % 4;
    for (const Tensor& t : {a[i], b[i], less[i], data[i]})
      g.setTileMapping(t, tile);
    auto lt = g.addVertex(cs, "LessThanVertex", {{"a", a[i]}, {"b", b[i]}, {"result", less[i]}});
    auto sv = g.addVertex(cs, "ScaleVertex", {{"data", data.slice(i, i + 1)}});
    g.setInitialValue(sv["factor"], float(i % 3));
    g.setTileMapping(lt, tile);
    g.setTileMapping(sv, tile);
  }
  g.createHostRead("less", less);
  g.createHostRead("data", data);
  Engine e(g, program::Execute(cs));
  e.load(device);
  e.run();
  std::vector<char> lessOut(kVertices);
  std::vector<float> dataOut(kVertices);
  e.readTensor("less", lessOut.data(), lessOut.data() + lessOut.size());
  e.readTensor("data", dataOut.data(), dataOut.data() + dataOut.size());
  for (unsigned i = 0; i < kVertices; ++i) {
    INFO("vertex pair " << i);
    CHECK(bool(lessOut[i]) == (av[i] < bv[i]));
    CHECK(dataOut[i] == dv[i] * float(i % 3));
  }
}
