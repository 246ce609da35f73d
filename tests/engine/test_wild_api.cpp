// The Poplar API as public code outside Graphcore uses it (issue 33): 64-bit host integers,
// conversion of state values, connection lists with values and tensor lists, 2-D tensors on
// lists of edges, replication index constants, partial dim shuffles, targets named after IPU
// systems, virtual devices, ProfileValue and the older SDKs' profiling calls.
#include "TestUtil.hpp"

#include <catch2/catch.hpp>
#include <poplar/exceptions.hpp>
#include <sstream>

using namespace poplar;
using namespace poplar::program;

TEST_CASE("64-bit host integers convert to the tensor's type", "[graph][wild]") {
  auto device = test::smallDevice(2);
  Graph g = test::makeGraph(device);
  CHECK(equivalent_device_type<std::size_t>().value == UNSIGNED_LONGLONG);
  CHECK(equivalent_device_type<long long>().value == LONGLONG);
  CHECK(equivalent_device_type<float>().value == FLOAT);
  CHECK(UNSIGNED_LONGLONG.size() == 8);
  auto u = g.addVariable(UNSIGNED_INT, {3}, "u");
  auto i = g.addVariable(INT, {}, "i");
  auto f = g.addConstant(FLOAT, {2}, std::vector<unsigned long>{7, 9}, "f");
  for (const auto& t : {u, i, f})
    g.setTileMapping(t, 0);
  g.setInitialValue(u, std::vector<std::size_t>{1, 2, 4000000000ul});
  g.setInitialValue(i, -5l);
  g.createHostRead("u", u);
  g.createHostRead("i", i);
  g.createHostRead("f", f);
  Engine e(g, Sequence{});
  e.load(device);
  e.run(0);
  std::vector<unsigned> hu(3);
  int hi = 0;
  std::vector<float> hf(2);
  e.readTensor("u", hu.data(), hu.data() + 3);
  e.readTensor("i", &hi, &hi + 1);
  e.readTensor("f", hf.data(), hf.data() + 2);
  CHECK(hu == std::vector<unsigned>{1, 2, 4000000000u});
  CHECK(hi == -5);
  CHECK(hf == std::vector<float>{7, 9});
}

namespace {
/// out = in * factor, the factor an unsigned state member.
class ScaleByCount : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<int>> in;
  poplar::Output<poplar::Vector<int>> out;
  unsigned factor;
  bool compute() {
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = in[i] * int(factor);
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector&, const Target&) { return 8; }
};
} // namespace
TESSERA_VERTEX(ScaleByCount, in, out, factor);

TEST_CASE("a state member takes an integer of another integer type", "[graph][wild]") {
  auto device = test::smallDevice(1);
  Graph g(device.getTarget());
  g.addCodelets("test_wild_api.cpp"); // the TESSERA_VERTEX line above
  auto in = g.addVariable(INT, {2}, "in");
  auto out = g.addVariable(INT, {2}, "out");
  g.setTileMapping(in, 0);
  g.setTileMapping(out, 0);
  g.setInitialValue(in, std::vector<int>{1, -2});
  auto cs = g.addComputeSet("scale");
  auto v = g.addVertex(cs, "ScaleByCount", {{"in", in}, {"out", out}});
  g.setTileMapping(v, 0);
  g.setInitialValue(v["factor"], std::size_t(3)); // unsigned member, std::size_t value
  CHECK_THROWS_MATCHES(g.setInitialValue(v["factor"], 2.5f), type_error,
                       test::What(Catch::Contains("factor") && Catch::Contains("float")));
  g.createHostRead("out", out);
  Engine e(g, Execute(cs));
  e.load(device);
  e.run(0);
  std::vector<int> got(2);
  e.readTensor("out", got.data(), got.data() + 2);
  CHECK(got == std::vector<int>{3, -6});
}

TEST_CASE("addVertex connects values, tensor lists and 2-D tensors", "[graph][wild]") {
  auto device = test::smallDevice(2);
  Graph g = test::makeGraph(device);
  auto m = g.addVariable(FLOAT, {3, 2}, "m");
  auto out = g.addVariable(FLOAT, {6}, "out");
  auto a = g.addVariable(UNSIGNED_INT, {}, "a");
  auto less = g.addVariable(BOOL, {}, "less");
  for (const auto& t : {m, out, a, less})
    g.setTileMapping(t, 0);
  g.setInitialValue(m, std::vector<float>{1, 2, 3, 4, 5, 6});
  g.setInitialValue(a, 4u);
  auto cs = g.addComputeSet("cs");
  // A 2-D tensor on a list of edges connects one edge per row.
  auto gather = g.addVertex(cs, "GatherVertex", {{"in", m}, {"out", out}});
  g.setTileMapping(gather, 0);
  auto lt = g.addVertex(cs, "LessThanVertex", {{"a", a}, {"b", 9u}, {"result", less}});
  g.setTileMapping(lt, 1);
  // A list of tensors in the connection list.
  auto out2 = g.addVariable(FLOAT, {3}, "out2");
  g.setTileMapping(out2, 1);
  auto gather2 = g.addVertex(cs, "GatherVertex",
                             {{"in", std::vector<Tensor>{m[0].slice(0, 1), m[2]}}, {"out", out2}});
  g.setTileMapping(gather2, 1);
  g.createHostRead("out", out);
  g.createHostRead("out2", out2);
  g.createHostRead("less", less);
  Engine e(g, Execute(cs));
  e.load(device);
  e.run(0);
  std::vector<float> ho(6), ho2(3);
  bool hl = false;
  e.readTensor("out", ho.data(), ho.data() + 6);
  e.readTensor("out2", ho2.data(), ho2.data() + 3);
  e.readTensor("less", &hl, &hl + 1);
  CHECK(ho == std::vector<float>{1, 2, 3, 4, 5, 6});
  CHECK(ho2 == std::vector<float>{1, 5, 6});
  CHECK(hl);
  // A field the vertex type does not have is named in the error.
  CHECK_THROWS_MATCHES(g.addVertex(cs, "GatherVertex", {{"nosuch", m}}), unknown_field,
                       test::What(Catch::Contains("nosuch")));
}

TEST_CASE("a replication index constant differs per replica", "[graph][wild]") {
  IPUModel model;
  model.numIPUs = 4;
  model.tilesPerIPU = 2;
  auto device = model.createDevice();
  Graph g(device.getTarget(), replication_factor(4));
  auto idx = g.addReplicationIndexConstant("idx");
  g.setTileMapping(idx, 1);
  CHECK(idx.elementType() == UNSIGNED_INT);
  CHECK(idx.rank() == 0);
  auto seen = g.addVariable(UNSIGNED_INT, {}, "seen");
  g.setTileMapping(seen, 0);
  auto s = g.addDeviceToHostFIFO("seen", UNSIGNED_INT, 1);
  Engine e(g, Sequence{Copy(idx, seen), Copy(seen, s)});
  e.load(device);
  std::vector<unsigned> got(4, 99);
  for (unsigned r = 0; r < 4; ++r)
    e.connectStream("seen", r, &got[r], &got[r] + 1);
  e.run(0);
  CHECK(got == std::vector<unsigned>{0, 1, 2, 3});
}

TEST_CASE("dimShufflePartial moves the listed dimensions", "[tensor][wild]") {
  auto device = test::smallDevice(1);
  Graph g(device.getTarget());
  auto t = g.addVariable(FLOAT, {2, 3, 4, 5});
  CHECK(t.dimShufflePartial({3}, {1}).shape() == std::vector<std::size_t>{2, 5, 3, 4});
  CHECK(t.dimShufflePartial({0, 3}, {3, 0}).shape() == std::vector<std::size_t>{5, 3, 4, 2});
  CHECK(t.dimShufflePartial({1}, {1}).elementsAreEqual(t));
  CHECK_THROWS_AS(t.dimShufflePartial({0, 1}, {2}), index_error);
  CHECK_THROWS_AS(t.dimShufflePartial({4}, {0}), index_error);
  CHECK_THROWS_AS(t.dimShufflePartial({0, 1}, {2, 2}), index_error);
  CHECK(t.slice(1, 2, 0).getDebugStr().find("float{1,3,4,5}") == 0);
}

TEST_CASE("IPU targets are named after systems; devices give virtual devices", "[device][wild]") {
  auto pod = Target::createIPUTarget(4, "IPU-POD16", {{"ipuLinkTopology", "torus"}});
  CHECK(pod.getNumIPUs() == 4);
  CHECK(pod.getTilesPerIPU() == 1472);
  CHECK(pod.getTargetArchString() == "ipu2");
  CHECK(Target::createIPUTarget(1, "Bow-2000").getTileClockFrequency() == 1.85e9);
  CHECK(Target::createIPUTarget(2, 16, "ipu2").getNumTiles() == 32);
  CHECK_THROWS_AS(Target::createIPUTarget(1, "IPU-POD16", {{"noSuchOption", "1"}}), invalid_option);
  CHECK_THROWS_MATCHES(Target::createIPUTarget(1, "GPU"), invalid_machine_model,
                       test::What(Catch::Contains("IPU-POD16")));
  auto device = test::smallDevice(8);
  CHECK(device.supportsRemoteBuffers());
  auto half = device.createVirtualDevice(4);
  CHECK(half.getTarget().getNumTiles() == 4);
  CHECK_THROWS_AS(device.createVirtualDevice(9), invalid_machine_model);
}

TEST_CASE("ProfileValue holds trees and writes JSON", "[profile][wild]") {
  ProfileValue v(ProfileValue::Map{
      {"n", 3u}, {"list", ProfileValue::Vector{1.5, 2u}}, {"s", "text"}, {"ok", true}});
  CHECK(v.type() == ProfileValue::Type::MAP);
  CHECK(v["n"].asUint() == 3);
  CHECK(v["list"].sumDouble() == 3.5);
  CHECK(v["list"][1].asInt() == 2);
  CHECK(v["s"].asString() == "text");
  CHECK(v["ok"].asBool());
  CHECK(v.getOrNull("missing") == nullptr);
  CHECK_THROWS_MATCHES(v["missing"], poplar_error, test::What(Catch::Contains("missing")));
  CHECK_THROWS_MATCHES(v["s"].asUint(), poplar_error, test::What(Catch::Contains("a string")));
  std::ostringstream json;
  serializeToJSON(json, v);
  CHECK(json.str() == R"({"list":[1.5,2],"n":3,"ok":true,"s":"text"})");
  ProfileValue moved = std::move(v);
  CHECK(moved.size() == 4);
}

TEST_CASE("the older SDKs' profiling calls read the engine's report", "[profile][wild]") {
  auto device = test::smallDevice(2);
  Graph g = test::makeGraph(device);
  auto data = g.addVariable(FLOAT, {4}, "data");
  g.setTileMapping(data, 1);
  auto cs = g.addComputeSet("scale");
  auto v = g.addVertex(cs, "ScaleVertex", {{"data", data}});
  g.setInitialValue(v["factor"], 2.0f);
  g.setTileMapping(v, 1);
  {
    Engine quiet(g, Execute(cs));
    CHECK_THROWS_MATCHES(quiet.getGraphProfile(), profiling_disabled,
                         test::What(Catch::Contains("debug.instrument")));
    CHECK_THROWS_AS(quiet.enableExecutionProfiling(), profiling_disabled);
  }
  Engine e(g, Execute(cs), {{"debug.instrument", "true"}});
  e.load(device);
  e.enableExecutionProfiling();
  e.run(0);
  e.disableExecutionProfiling();
  e.run(0);
  e.enableExecutionProfiling();
  e.run(0);
  const auto graph = e.getGraphProfile();
  const auto exec = e.getExecutionProfile();
  CHECK(graph["target"]["numTiles"].asUint() == 2);
  CHECK(graph["graph"]["numVertices"].asUint() == 1);
  CHECK(graph["memory"]["byTile"]["total"].size() == 2);
  const auto report = e.getReport();
  std::uint64_t bytes = 0;
  for (const auto& tile : report.compilation().tiles())
    bytes += tile.memory().total().excludingGaps();
  CHECK(graph["memory"]["byTile"]["total"].sumUint() == bytes);
  CHECK(exec["runs"].size() == 2); // the disabled run is not recorded
  std::uint64_t cycles = 0;
  for (const auto& run : report.execution().runs())
    cycles += run.cycles();
  CHECK(exec["simulation"]["cycles"].asUint() == cycles);
  e.resetExecutionProfile();
  CHECK(e.getExecutionProfile()["runs"].size() == 0);
  std::ostringstream fromValues, fromEngine;
  printProfileSummary(fromValues, graph, exec);
  e.printProfileSummary(fromEngine);
  CHECK(fromValues.str() == fromEngine.str());
  CHECK_THROWS_MATCHES(printProfileSummary(fromValues, ProfileValue{}), poplar_error,
                       test::What(Catch::Contains("profilePath")));
}

TEST_CASE("graph drawings list the vertices and variables", "[graph][wild]") {
  auto device = test::smallDevice(1);
  Graph g = test::makeGraph(device);
  auto in = g.addVariable(FLOAT, {4}, "in");
  auto out = g.addVariable(FLOAT, {1}, "out");
  g.setTileMapping(in, 0);
  g.setTileMapping(out, 0);
  auto cs = g.addComputeSet("sum");
  auto v = g.addVertex(cs, "SumVertex", {{"in", in}, {"out", out}});
  g.setTileMapping(v, 0);
  std::ostringstream vertexGraph, computeGraph, unused;
  g.outputVertexGraph(vertexGraph, {Execute(cs)});
  g.outputComputeGraph(computeGraph);
  g.outputVertexGraph(unused, {Sequence{}});
  CHECK(vertexGraph.str().find("label=\"in\"") != std::string::npos);
  CHECK(vertexGraph.str().find("label=\"SumVertex @0\"") != std::string::npos);
  CHECK(computeGraph.str().find("label=\"sum (1 vertices)\"") != std::string::npos);
  CHECK(unused.str().find("SumVertex") == std::string::npos);
}

// Research code times runs from the host with the Engine's timer (kouteisang/Poplar_API:
// `Engine::TimerTimePoint t0 = engine.getTimeStamp(); engine.run(1); ... reportTiming(t0, t1)`).
TEST_CASE("the engine's timer reports the simulated time of runs", "[engine][wild]") {
  auto device = test::smallDevice(2);
  Graph g = test::makeGraph(device);
  auto a = g.addVariable(FLOAT, {64}, "a");
  auto b = g.addVariable(FLOAT, {64}, "b");
  g.setTileMapping(a, 0);
  g.setTileMapping(b, 1);
  Engine e(g, {Repeat(10, Copy(a, b)), Repeat(40, Copy(a, b))});
  CHECK_THROWS_AS(e.getTimeStamp(), poplar::runtime_error); // before load
  e.load(device);
  auto cyclesOf = [&](unsigned program) {
    const Engine::TimerTimePoint t0 = e.getTimeStamp();
    e.run(program);
    const Engine::TimerTimePoint t1 = e.getTimeStamp();
    const std::string text = e.reportTiming(t0, t1);
    CAPTURE(text);
    CHECK(text.find(" cycles (") != std::string::npos);
    CHECK(text.find(" us at ") != std::string::npos);
    CHECK_THROWS_AS(e.reportTiming(t1, t0), poplar::runtime_error); // end before start
    return std::stoull(text);
  };
  const auto ten = cyclesOf(0), forty = cyclesOf(1);
  CHECK(ten > 0);
  CHECK(forty > ten); // four times the copies take longer on the simulated clock
  CHECK_THROWS_AS(e.reportTiming(Engine::TimerTimePoint{}, e.getTimeStamp()),
                  poplar::runtime_error);
}
