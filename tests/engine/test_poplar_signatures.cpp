// Poplar's signatures as public code uses them (issue 22): ArrayRef and StringRef arguments,
// replication_factor, DebugNameAndId, variadic Sequence, Graph::connect(field, value), the
// three-argument setPerfEstimate, Graph::serialize, poplar/CSRFunctions.hpp, and a profile
// kept by debug.instrument alone.
#include "TestUtil.hpp"
#include "common/ScratchDir.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <poplar/CSRFunctions.hpp>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/exceptions.hpp>
#include <pva/pva.hpp>
#include <sstream>
#include <type_traits>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {
std::size_t product(ArrayRef<std::size_t> shape) {
  std::size_t n = 1;
  for (auto d : shape)
    n *= d;
  return n;
}
std::string text(StringRef s) {
  return s;
}
std::string pathOf(const DebugContext& dc) {
  return dc.getPathName();
}
} // namespace

TEST_CASE("ArrayRef takes braced lists, vectors, arrays and C arrays", "[engine][api]") {
  const std::vector<std::size_t> v = {2, 3, 4};
  const std::array<std::size_t, 2> a = {{5, 6}};
  const std::size_t c[] = {7, 8};
  CHECK(product({2, 3}) == 6);
  CHECK(product(v) == 24);
  CHECK(product(a) == 30);
  CHECK(product(c) == 56);
  CHECK(product({}) == 1);
  ArrayRef<std::size_t> r(v);
  CHECK(r.size() == 3);
  CHECK(r.front() == 2);
  CHECK(r.back() == 4);
  CHECK(r.cloneAsVector() == v);
  CHECK(r == ArrayRef<std::size_t>(v.data(), v.size()));
  std::ostringstream os;
  os << r;
  CHECK(os.str() == "{2,3,4}");
  CHECK(text("abc") == "abc");
  CHECK(text(std::string("de")) == "de");
  CHECK(StringRef("xy") == "xy");
}

TEST_CASE("Graph and Tensor take shapes as braced lists, vectors and arrays", "[engine][api]") {
  auto device = test::tinyDevice(4);
  Graph g = test::makeGraph(device);
  const std::vector<std::size_t> vs = {2, 6};
  const std::array<std::size_t, 3> as = {{2, 2, 3}};
  Tensor t1 = g.addVariable(FLOAT, {12}, "t1");
  Tensor t2 = g.addVariable(FLOAT, vs, "t2");
  Tensor t3 = g.addVariable(FLOAT, as, VariableMappingMethod::LINEAR, "t3");
  CHECK(t2.shape() == vs);
  CHECK(t3.shape() == std::vector<std::size_t>{2, 2, 3});
  CHECK(t1.reshape(vs).shape() == vs);
  CHECK(t1.reshape(as).shape() == t3.shape());
  CHECK(t3.dimShuffle({2, 0, 1}).shape() == std::vector<std::size_t>{3, 2, 2});
  CHECK(t2.slice({0, 1}, {2, 3}).shape() == std::vector<std::size_t>{2, 2});
  CHECK(concat({t1, t1}).numElements() == 24);
  Tensor k = g.addConstant<float>(FLOAT, {3}, {1.0f, 2.0f, 3.0f}, "k");
  Tensor kv = g.addConstant(INT, {2}, std::vector<int>{4, 5}, "kv");
  CHECK(k.numElements() == 3);
  CHECK(kv.elementType() == INT);
  CHECK_THROWS_AS(g.addConstant<float>(FLOAT, {4}, {1.0f, 2.0f}), index_error);
}

TEST_CASE("Graph(target, replication_factor(n)) replicates as Poplar's does", "[engine][api]") {
  auto device = test::tinyDevice(4, 2);
  Graph g(device.getTarget(), replication_factor(2));
  CHECK(g.getReplicationFactor() == 2);
  CHECK(g.getTarget().getNumTiles() == 4);
  Graph one(device, replication_factor(1));
  CHECK(one.getReplicationFactor() == 1);
  CHECK_THROWS_AS(Graph(device.getTarget(), replication_factor(3)), poplar_error);
}

TEST_CASE("DebugNameAndId names children by path and converts from DebugContext", "[engine][api]") {
  DebugNameAndId parent("layer");
  DebugNameAndId child(parent, "fwd");
  CHECK(child.getPathName() == "layer/fwd");
  CHECK(parent.getId() != child.getId());
  DebugContext dc(child, "matmul");
  CHECK(dc.getPathName() == "layer/fwd/matmul");
  DebugNameAndId back = dc;
  CHECK(back.getPathName() == "layer/fwd/matmul");
  CHECK(pathOf({"a", "b"}) == "a/b"); // a child of DebugContext "a", as before DebugNameAndId
}

TEST_CASE("Variadic Sequence runs its programs in order; a single Sequence argument copies",
          "[engine][api]") {
  auto device = test::tinyDevice(4);
  Graph g = test::makeGraph(device);
  Tensor data = g.addVariable(FLOAT, {4}, "data");
  g.setTileMapping(data, 0);
  g.setInitialValue(data, std::vector<float>{1, 2, 3, 4});
  ComputeSet scale = g.addComputeSet("scale");
  VertexRef v = g.addVertex(scale, "ScaleVertex", {{"data", data}});
  g.setInitialValue(v["factor"], 3.0f);
  g.setTileMapping(v, 0);
  Tensor copy = g.addVariable(FLOAT, {4}, "copy");
  g.setTileMapping(copy, 1);
  g.createHostRead("copy", copy);

  Sequence first(Execute(scale), Copy(data, copy), Execute(scale)); // copy holds data * 3
  Sequence again(first);                                            // a copy, not a nesting
  Engine e(g, again);
  e.load(device);
  e.run();
  std::vector<float> out(4);
  e.readTensor("copy", out.data(), out.data() + 4);
  CHECK(out == std::vector<float>{3, 6, 9, 12});
}

// One program is not implicitly a Sequence, as in Poplar SDK 2.5 and later (docs/compatibility.md,
// "Survey of public code"): `Sequence s = Repeat(n, body);` does not compile, while direct and
// brace initialisation do, and copying a Sequence stays a copy.
static_assert(!std::is_convertible<Repeat, Sequence>::value, "Repeat -> Sequence is explicit");
static_assert(!std::is_convertible<Execute, Sequence>::value, "Execute -> Sequence is explicit");
static_assert(!std::is_convertible<Copy, Sequence>::value, "Copy -> Sequence is explicit");
static_assert(std::is_constructible<Sequence, Repeat>::value, "Sequence(Repeat(...)) compiles");
static_assert(std::is_constructible<Sequence, Execute, Copy>::value, "Sequence(a, b) compiles");
static_assert(std::is_convertible<std::initializer_list<Program>, Sequence>::value,
              "Sequence s = {a, b} compiles");
static_assert(std::is_convertible<const Sequence&, Sequence>::value, "Sequence s = other copies");
static_assert(std::is_convertible<Sequence, Program>::value, "a Sequence is a Program");

TEST_CASE("A Sequence from one program: direct, braced and list initialisation, copies in a "
          "vector",
          "[engine][api]") {
  auto device = test::tinyDevice(4);
  Graph g = test::makeGraph(device);
  Tensor data = g.addVariable(FLOAT, {2}, "data");
  g.setTileMapping(data, 0);
  g.setInitialValue(data, std::vector<float>{1, 2});
  ComputeSet scale = g.addComputeSet("scale");
  VertexRef v = g.addVertex(scale, "ScaleVertex", {{"data", data}});
  g.setInitialValue(v["factor"], 2.0f);
  g.setTileMapping(v, 0);
  g.createHostRead("data", data);

  // The spellings SDK 2.5+ code uses where SDK 1.x code wrote `Sequence s = Repeat(3, body);`.
  Sequence direct(Repeat(3, Execute(scale)));  // * 8
  Sequence braced{Repeat(2, Execute(scale))};  // * 4
  Sequence listed = {Execute(scale)};          // * 2
  std::vector<Sequence> parts{direct, braced}; // copies in a container
  parts.push_back(listed);
  Sequence all;
  for (const Sequence& p : parts)
    all.add(p);
  Engine e(g, all);
  e.load(device);
  e.run();
  std::vector<float> out(2);
  e.readTensor("data", out.data(), out.data() + 2);
  CHECK(out == std::vector<float>{64, 128});
}

TEST_CASE(
    "connect(field, value) feeds a constant on the vertex's tile; setPerfEstimate takes FLOPs",
    "[engine][api]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice(4);
  Graph g = test::makeGraph(device);
  Tensor out = g.addVariable(FLOAT, {}, "out");
  g.setTileMapping(out, 2);
  ComputeSet cs = g.addComputeSet("sum");
  VertexRef v = g.addVertex(cs, "SumVertex", {{"out", out}});
  g.connect(v["in"], 2.5f);
  g.setTileMapping(v, 2);
  g.setPerfEstimate(v, 40, 7);
  g.createHostRead("out", out);
  CHECK_THROWS_AS(g.connect(v["out"], 1.0f),
                  graph_connection_error); // an output cannot be a constant

  std::ostringstream json;
  g.serialize(json, {Execute(cs)}, SerializationFormat::JSON);
  CHECK(json.str().find("\"SumVertex\"") != std::string::npos);
  CHECK(json.str().find("\"isConstant\": true") != std::string::npos);
  {
    // Binary is the serialized_graph.capnp message: libpva reads it back.
    std::ofstream file(dir / "graph.capnp", std::ios::binary);
    g.serialize(file, SerializationFormat::Binary);
  }
  const pva::SerializedGraph sg = pva::openSerializedGraph((dir / "graph.capnp").string());
  CHECK(sg.tilesPerIpu == 4);
  REQUIRE(sg.computeSets.size() == 1);
  CHECK(sg.computeSets[0].name == "sum");
  bool constantOnTile2 = false;
  for (const auto& var : sg.variables)
    if (var.isConstant && var.mapping.size() == 1 && var.mapping[0].tile == 2)
      constantOnTile2 = true;
  CHECK(constantOnTile2); // connect(field, value) placed its constant with the vertex

  Engine e(g, Execute(cs),
           {{"autoReport.all", "true"},
            {"autoReport.directory", dir.path().string()},
            {"profiler.includeFlopEstimates", "true"}});
  // The constant went to the vertex's tile: nothing to exchange into tile 2.
  e.load(device);
  e.run();
  float result = 0;
  e.readTensor("out", &result, &result + 1);
  CHECK(result == 2.5f);
  const pva::Report report = e.getReport();
  bool found = false;
  for (const auto& c : report.compilation().computeSets())
    if (c.name() == "sum") {
      found = true;
      CHECK(c.estimatedCyclesByTile()[2] > 0);
      CHECK(c.estimatedFlops() == 7u);
      CHECK(c.verticesWithoutFlopEstimate() == 0u);
    }
  CHECK(found);
}

TEST_CASE("setFloatingPointBehaviour: inv stops on a NaN, oflo on an infinity, nothing otherwise",
          "[engine][api][csr]") {
  auto device = test::tinyDevice(4);
  Graph g = test::makeGraph(device);
  Tensor in = g.addVariable(FLOAT, {2}, "in"), out = g.addVariable(FLOAT, {2}, "out");
  g.setTileMapping(in, 1);
  g.setTileMapping(out, 1);
  g.createHostWrite("in", in);
  ComputeSet cs = g.addComputeSet("log");
  g.setTileMapping(g.addVertex(cs, "LogVertex", {{"in", in}, {"out", out}}), 1);
  auto run = [&](const FloatingPointBehaviour& b, std::vector<float> values) {
    Sequence s;
    setFloatingPointBehaviour(g, s, b, "fp");
    s.add(Execute(cs));
    Engine e(g, s);
    e.load(device);
    e.writeTensor("in", values.data(), values.data() + values.size());
    e.run();
  };
  const FloatingPointBehaviour none(false, false, false, false, false);
  const FloatingPointBehaviour inv(true, false, false, false, false);
  const FloatingPointBehaviour oflo(false, false, true, false, false);
  CHECK_NOTHROW(run(none, {-1.0f, 0.0f})); // NaN and -inf, unchecked
  CHECK_THROWS_AS(run(inv, {-1.0f, 1.0f}), floating_point_exception);
  CHECK_THROWS_WITH(run(inv, {-1.0f, 1.0f}), Catch::Contains("NaN") && Catch::Contains("inv"));
  CHECK_NOTHROW(run(inv, {0.0f, 1.0f})); // -inf is not a NaN
  CHECK_THROWS_AS(run(oflo, {0.0f, 1.0f}), floating_point_exception);
  CHECK_NOTHROW(run(FloatingPointBehaviour(), {1.0f, 2.0f})); // every flag on, finite results

  // getAndModify returns the previous control on every tile; restoring it turns checks off.
  Sequence s;
  setFloatingPointBehaviour(g, s, inv);
  Tensor saved = getAndModifyFloatingPointBehaviour(g, s, oflo, inv);
  CHECK(saved.numElements() == 4);
  setFloatingPointBehaviour(g, s, saved);
  setStochasticRounding(g, s, true);
  g.createHostRead("saved", saved);
  s.add(Execute(cs));
  Engine e(g, s);
  e.load(device);
  std::vector<float> values = {-1.0f, 1.0f};
  e.writeTensor("in", values.data(), values.data() + 2);
  CHECK_THROWS_AS(e.run(), floating_point_exception); // saved = inv: the NaN stops it
  std::vector<unsigned> control(4);
  e.readTensor("saved", control.data(), control.data() + 4);
  CHECK(control == std::vector<unsigned>(4, 1u)); // inv only, on every tile
  CHECK_THROWS_AS(setFloatingPointBehaviour(g, s, in), type_error);
}

TEST_CASE("debug.instrument alone keeps the profile printProfileSummary needs", "[engine][api]") {
  auto device = test::tinyDevice(4);
  Graph g = test::makeGraph(device);
  Tensor data = g.addVariable(FLOAT, {4}, "data");
  g.setTileMapping(data, 0);
  ComputeSet cs = g.addComputeSet("scale");
  VertexRef v = g.addVertex(cs, "ScaleVertex", {{"data", data}});
  g.setInitialValue(v["factor"], 2.0f);
  g.setTileMapping(v, 0);
  for (const char* option : {"debug.instrument", "debug.instrumentCompute"}) {
    INFO(option);
    Engine e{g, Execute(cs), {{option, "true"}}};
    e.load(device);
    e.run();
    std::ostringstream out;
    CHECK_NOTHROW(e.printProfileSummary(out));
    CHECK(out.str().find("scale") != std::string::npos);
  }
  Engine plain(g, Execute(cs));
  std::ostringstream out;
  CHECK_THROWS_WITH(plain.printProfileSummary(out), Catch::Contains("debug.instrument"));
}

TEST_CASE("Tensor::upsample repeats each element in place", "[engine][api]") {
  auto device = test::tinyDevice(4);
  Graph g = test::makeGraph(device);
  Tensor t = g.addVariable(INT, {2, 3}, "t");
  g.setTileMapping(t, 0);
  g.setInitialValue(t, std::vector<int>{1, 2, 3, 4, 5, 6});
  Tensor up = t.upsample(2, 1);
  CHECK(up.shape() == std::vector<std::size_t>{2, 6});
  CHECK(t.upsample(3, 0).shape() == std::vector<std::size_t>{6, 3});
  CHECK(t.upsample(0, 1).numElements() == 0);
  Tensor out = g.addVariable(INT, {2, 6}, "out");
  g.setTileMapping(out, 1);
  g.createHostRead("out", out);
  Engine e(g, Copy(up, out));
  e.load(device);
  e.run();
  std::vector<int> values(12);
  e.readTensor("out", values.data(), values.data() + 12);
  CHECK(values == std::vector<int>{1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6});
}

TEST_CASE("OptionFlags print as JSON that readJSON reads back", "[engine][api]") {
  OptionFlags flags{{"debug.instrument", "true"}, {"name", "a \"quoted\" \\ value"}};
  std::ostringstream os;
  os << flags;
  CHECK(os.str() == "{\"debug.instrument\": \"true\", \"name\": \"a \\\"quoted\\\" \\\\ value\"}");
  OptionFlags back;
  std::istringstream in(os.str());
  readJSON(in, back);
  CHECK(back == flags);
  OptionFlags more{{"x", "1"}};
  readJSON("{\"y\": 2, \"z\": true}", more);
  CHECK(more.at("x") == "1");
  CHECK(more.at("y") == "2");
  CHECK(more.at("z") == "true");
  CHECK_THROWS_AS(readJSON("[1, 2]", more), invalid_option);
}

TEST_CASE("readJSONFromEnv adds the options of an environment variable", "[engine][api]") {
  OptionFlags flags{{"x", "1"}};
  ::unsetenv("TESSERA_TEST_OPTIONS");
  readJSONFromEnv("TESSERA_TEST_OPTIONS", flags); // unset: nothing changes
  CHECK(flags == OptionFlags{{"x", "1"}});
  ::setenv("TESSERA_TEST_OPTIONS", "{\"y\": \"2\", \"x\": 3}", 1);
  readJSONFromEnv("TESSERA_TEST_OPTIONS", flags);
  CHECK(flags.at("x") == "3");
  CHECK(flags.at("y") == "2");
  ::setenv("TESSERA_TEST_OPTIONS", "[1]", 1);
  CHECK_THROWS_WITH(readJSONFromEnv("TESSERA_TEST_OPTIONS", flags),
                    Catch::Contains("TESSERA_TEST_OPTIONS"));
  CHECK_THROWS_AS(readJSONFromEnv("TESSERA_TEST_OPTIONS", flags), invalid_option);
  ::unsetenv("TESSERA_TEST_OPTIONS");
}

TEST_CASE("containsConstant tells tensors holding constants", "[engine][api]") {
  auto device = test::smallDevice(2);
  Graph g(device.getTarget());
  Tensor v = g.addVariable(FLOAT, {4}, "v");
  Tensor c = g.addConstant<float>(FLOAT, {2}, 1.0f, "c");
  CHECK_FALSE(v.containsConstant());
  CHECK(c.containsConstant());
  CHECK(concat(v, c).containsConstant());
  CHECK_FALSE(concat(v.slice(0, 2), v.slice(2, 4)).containsConstant());
  CHECK(concat(v, c).slice(4, 5).containsConstant());
  CHECK_FALSE(concat(v, c).slice(0, 4).containsConstant());
  CHECK(g.addReplicationIndexConstant().containsConstant());
}

TEST_CASE("addLinearlyMappedVariable spreads a variable; hasCodelet tells which vertices a graph "
          "can make",
          "[engine][api]") {
  auto device = test::tinyDevice(4);
  Graph g(device.getTarget());
  Tensor t = g.addLinearlyMappedVariable(FLOAT, {16}, "t");
  CHECK(g.getTilesOf(t).size() == 4);
  Tensor grains = g.addLinearlyMappedVariable(FLOAT, {16}, 8, 4, "grains");
  const auto mapping = g.getTileMapping(grains);
  std::size_t used = 0;
  for (const auto& tile : mapping) {
    std::size_t n = 0;
    for (const auto& i : tile)
      n += i.size();
    CHECK((n == 0 || (n >= 8 && n % 4 == 0)));
    used += n ? 1 : 0;
  }
  CHECK(used == 2);
  CHECK_THROWS_AS(g.addLinearlyMappedVariable(FLOAT, {4}, 1, 0), invalid_tile_mapping);

  CHECK_FALSE(g.hasCodelet("SumVertex")); // registered, but this graph has not added it
  test::addTestCodelets(g);
  CHECK(g.hasCodelet("SumVertex"));
  CHECK_FALSE(g.hasCodelet("NoSuchVertex"));

  auto manager = DeviceManager::createDeviceManager();
  CHECK(manager.getDevices().size() >= manager.getDevices(TargetType::IPU, 1).size());
}
