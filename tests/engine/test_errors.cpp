// Graph errors found when the engine compiles: each names the object and the fix.
#include "TestUtil.hpp"

#include <catch2/catch.hpp>
#include <poplar/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;
using Catch::Contains;

TEST_CASE("unmapped tensors are named, with counts", "[errors]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget());
  auto a = g.addVariable(FLOAT, {10}, "weights");
  g.setTileMapping(a.slice(0, 4), 0);
  g.addVariable(FLOAT, {3}, "bias");
  CHECK_THROWS_MATCHES(Engine(g, Sequence()), invalid_tile_mapping,
                       test::What(Contains("2 tensor(s)") &&
                                  Contains("'weights' (6 of 10 elements)") && Contains("'bias'")));
}

TEST_CASE("unmapped vertices and unconnected fields are named", "[errors]") {
  auto device = test::smallDevice(4);
  auto g = test::makeGraph(device);
  auto x = g.addVariable(FLOAT, {4}, "x");
  auto y = g.addVariable(FLOAT, {}, "y");
  g.setTileMapping(x, 0);
  g.setTileMapping(y, 0);

  auto cs1 = g.addComputeSet("unmapped");
  g.addVertex(cs1, "SumVertex", {{"in", x}, {"out", y}});
  CHECK_THROWS_MATCHES(
      Engine(g, Execute(cs1)), invalid_tile_mapping,
      test::What(Contains("SumVertex") && Contains("'unmapped'") && Contains("not mapped")));
}

TEST_CASE("an unconnected field stops compilation", "[errors]") {
  auto device = test::smallDevice(4);
  auto g = test::makeGraph(device);
  auto x = g.addVariable(FLOAT, {4}, "x");
  g.setTileMapping(x, 0);
  auto cs = g.addComputeSet("half-connected");
  g.setTileMapping(g.addVertex(cs, "SumVertex", {{"in", x}}), 0);
  CHECK_THROWS_MATCHES(Engine(g, Execute(cs)), graph_connection_error,
                       test::What(Contains("field 'out' is not connected")));
}

TEST_CASE("an edge list with a missing edge stops compilation", "[errors]") {
  auto device = test::smallDevice(4);
  auto g = test::makeGraph(device);
  auto x = g.addVariable(FLOAT, {4}, "x");
  g.setTileMapping(x, 0);
  auto cs = g.addComputeSet("gather");
  auto v = g.addVertex(cs, "GatherVertex", {{"out", x}});
  g.setTileMapping(v, 0);
  g.setFieldSize(v["in"], 2);
  g.connect(v["in"][0], x.slice(0, 2));
  CHECK_THROWS_MATCHES(Engine(g, Execute(cs)), graph_connection_error,
                       test::What(Contains("edge 1 of field 'in'")));
  auto g2 = test::makeGraph(device); // every compute set of a graph is compiled: use a fresh one
  auto y = g2.addVariable(FLOAT, {4}, "y");
  g2.setTileMapping(y, 0);
  auto cs2 = g2.addComputeSet("unsized");
  g2.setTileMapping(g2.addVertex(cs2, "GatherVertex", {{"out", y}}), 0);
  CHECK_THROWS_AS(Engine(g2, Execute(cs2)), no_size_specified);
}

TEST_CASE("unset vertex state is accepted, as Poplar accepts it, and reads as zero", "[errors]") {
  auto device = test::smallDevice(4);
  auto g = test::makeGraph(device);
  auto x = g.addVariable(FLOAT, {4}, "x");
  g.setTileMapping(x, 0);
  g.setInitialValue(x, std::vector<float>{1, 2, 3, 4});
  g.createHostRead("x", x);
  auto cs = g.addComputeSet("scale");
  g.setTileMapping(g.addVertex(cs, "ScaleVertex", {{"data", x}}), 0); // 'factor' never set
  Engine e(g, Execute(cs));
  e.load(device);
  e.run();
  std::vector<float> out(4, -1.0f);
  e.readTensor("x", out.data(), out.data() + 4);
  CHECK(out == std::vector<float>{0, 0, 0, 0});
}

TEST_CASE("a vertex without any cycle estimate stops compilation", "[errors]") {
  auto device = test::smallDevice(4);
  auto g = test::makeGraph(device);
  auto h = g.addVariable(HALF, {4}, "h");
  g.setTileMapping(h, 0);
  auto cs = g.addComputeSet("double");
  auto v = g.addVertex(cs, "DoubleHalfVertex", {{"data", h}});
  g.setTileMapping(v, 0);
  CHECK_THROWS_MATCHES(Engine(g, Execute(cs)), missing_perf_estimate,
                       test::What(Contains("DoubleHalfVertex") && Contains("setPerfEstimate")));
  g.registerPerfEstimator("DoubleHalfVertex", [](const VertexIntrospector& vi, const Target&) {
    return std::uint64_t(vi.getFieldInfo("data").size());
  });
  CHECK_NOTHROW(Engine(g, Execute(cs)));
}

TEST_CASE("programs referring to bad objects are rejected", "[errors]") {
  auto device = test::smallDevice(4);
  Graph g(device.getTarget()), other(device.getTarget());
  auto a = g.addVariable(FLOAT, {4}, "a");
  auto b = g.addVariable(INT, {4}, "b");
  auto c = g.addVariable(FLOAT, {5}, "c");
  auto s = g.addVariable(FLOAT, {2}, "s");
  for (const auto& t : {a, b, c, s})
    g.setTileMapping(t, 0);
  CHECK_THROWS_MATCHES(Engine(g, Copy(a, b)), type_error,
                       test::What(Contains("float") && Contains("int")));
  CHECK_THROWS_MATCHES(Engine(g, Copy(a, c)), index_error,
                       test::What(Contains("{4}") && Contains("{5}")));
  CHECK_THROWS_AS(Engine(g, Copy(a, a.slice(0, 1).broadcast(4, 0))),
                  graph_program_compilation_error);
  CHECK_THROWS_MATCHES(Engine(g, If(s, Sequence())), index_error,
                       test::What(Contains("If predicate") && Contains("single element")));
  CHECK_THROWS_AS(Engine(g, Switch(a[0], Sequence())), type_error);
  CHECK_THROWS_AS(Engine(g, Execute(other.addComputeSet("foreign"))),
                  graph_program_compilation_error);
  CHECK_THROWS_AS(Engine(g, Copy(a, Tensor())), graph_program_compilation_error);
  Switch dup(b[0]);
  dup.add(1, Sequence()).add(1, Sequence());
  CHECK_THROWS_MATCHES(Engine(g, dup), graph_program_compilation_error,
                       test::What(Contains("case 1 appears twice")));
}
