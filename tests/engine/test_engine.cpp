// Engine options, POPLAR_ENGINE_OPTIONS, progress and runtime failures of vertices.
#include "TestUtil.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <poplar/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {
struct EnvGuard {
  explicit EnvGuard(const char* value) { setenv("POPLAR_ENGINE_OPTIONS", value, 1); }
  ~EnvGuard() { unsetenv("POPLAR_ENGINE_OPTIONS"); }
};

/// x (4 floats on tile 0) -> log -> y
struct LogGraph {
  Device device = test::smallDevice(2);
  Graph g = test::makeGraph(device);
  Tensor x = g.addVariable(FLOAT, {4}, "x");
  Tensor y = g.addVariable(FLOAT, {4}, "y");
  ComputeSet cs = g.addComputeSet("log");
  LogGraph() {
    g.setTileMapping(x, 0);
    g.setTileMapping(y, 1);
    g.setTileMapping(g.addVertex(cs, "LogVertex", {{"in", x}, {"out", y}}), 1);
    g.createHostWrite("x", x);
    g.createHostRead("y", y);
  }
};
} // namespace

TEST_CASE_METHOD(LogGraph, "engine options are merged with POPLAR_ENGINE_OPTIONS, which wins",
                 "[engine]") {
  EnvGuard env(R"({"debug.floatPointOpException": true})");
  Engine e(g, Execute(cs), {{"debug.floatPointOpException", "false"}});
  CHECK(e.getEngineOptions().at("debug.floatPointOpException") == "true");
  e.load(device);
  const float bad[4] = {1, 2, -1, 4};
  e.writeTensor("x", bad, bad + 4);
  CHECK_THROWS_MATCHES(e.run(), floating_point_exception,
                       test::What(Catch::Contains("LogVertex") && Catch::Contains("'out'")));
}

TEST_CASE_METHOD(LogGraph, "without floating-point checks NaNs flow through", "[engine]") {
  Engine e(g, Execute(cs));
  e.load(device);
  const float bad[4] = {1, 2, -1, 4};
  float out[4];
  e.writeTensor("x", bad, bad + 4);
  e.run();
  e.readTensor("y", out, out + 4);
  CHECK(out[0] == 0.0f);
  CHECK(std::isnan(out[2]));
}

TEST_CASE_METHOD(LogGraph, "bad engine options are rejected with the option's name",
                 "[engine][errors]") {
  CHECK_THROWS_MATCHES(Engine(g, Execute(cs), {{"debug.nosuch", "1"}}), invalid_option,
                       test::What(Catch::Contains("debug.nosuch")));
  CHECK_THROWS_MATCHES(Engine(g, Execute(cs), {{"debug.floatPointOpException", "maybe"}}),
                       invalid_option, test::What(Catch::Contains("maybe")));
  {
    EnvGuard env("{oops");
    CHECK_THROWS_MATCHES(Engine(g, Execute(cs)), invalid_option,
                         test::What(Catch::Contains("POPLAR_ENGINE_OPTIONS")));
  }
  {
    EnvGuard env(R"({"autoReport.nosuch": "true"})");
    CHECK_THROWS_AS(Engine(g, Execute(cs)), invalid_option);
  }
}

TEST_CASE_METHOD(LogGraph, "compilation reports progress", "[engine]") {
  std::vector<std::pair<int, int>> steps;
  Engine e(g, Execute(cs), {}, [&](int i, int n) { steps.emplace_back(i, n); });
  REQUIRE(!steps.empty());
  CHECK(steps.front().first == 0);
  CHECK(steps.back().first == steps.back().second);
}

TEST_CASE("a vertex that fails or throws stops the run with its name and tile",
          "[engine][errors]") {
  auto device = test::smallDevice(4);
  auto g = test::makeGraph(device);
  auto x = g.addVariable(FLOAT, {}, "x");
  g.setTileMapping(x, 0);
  auto failCs = g.addComputeSet("failing");
  g.setTileMapping(g.addVertex(failCs, "FailingVertex", {{"in", x}}), 3);
  auto throwCs = g.addComputeSet("throwing");
  g.setTileMapping(g.addVertex(throwCs, "ThrowingVertex", {{"in", x}}), 2);
  Engine e(g, {Execute(failCs), Execute(throwCs)});
  e.load(device);
  CHECK_THROWS_MATCHES(e.run(0), application_runtime_error,
                       test::What(Catch::Contains("FailingVertex") && Catch::Contains("tile 3") &&
                                  Catch::Contains("returned false")));
  CHECK_THROWS_MATCHES(
      e.run(1), application_runtime_error,
      test::What(Catch::Contains("ThrowingVertex") && Catch::Contains("index 7 out of range")));
}

TEST_CASE("a multi-IPU graph runs across IPUs", "[engine]") {
  auto device = test::smallDevice(4, 2);
  auto g = test::makeGraph(device);
  auto x = g.addVariable(FLOAT, {8}, "x");
  auto s = g.addVariable(FLOAT, {2}, "s");
  test::mapRoundRobin(g, x); // spans both IPUs
  g.setTileMapping(s[0], 1);
  g.setTileMapping(s[1], 6);
  auto cs = g.addComputeSet("sums");
  g.setTileMapping(g.addVertex(cs, "SumVertex", {{"in", x.slice(0, 4)}, {"out", s[0]}}), 1);
  g.setTileMapping(g.addVertex(cs, "SumVertex", {{"in", x.slice(4, 8)}, {"out", s[1]}}), 6);
  g.setInitialValue(x, std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
  g.createHostRead("s", s);
  Engine e(g, Sequence{Execute(cs), Copy(s[1], s[0])});
  e.load(device);
  e.run();
  float out[2];
  e.readTensor("s", out, out + 2);
  CHECK(out[0] == 26);
  CHECK(out[1] == 26);
}

TEST_CASE("every variable starts on a cache line of the host's memory", "[engine]") {
  // Host speed only (compiler::kArenaAlignment): sizes that are not multiples of 64 bytes would
  // have put the next variable mid-line, and a heap arena itself starts 16 bytes into one.
  auto device = test::smallDevice(2);
  auto g = test::makeGraph(device);
  auto cs = g.addComputeSet("probe");
  const std::vector<std::size_t> sizes{3, 5, 1, 17, 7};
  auto offsets = g.addVariable(UNSIGNED_INT, {sizes.size()}, "offsets");
  g.setTileMapping(offsets, 1);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    auto v = g.addVariable(FLOAT, {sizes[i]}, "v" + std::to_string(i));
    g.setTileMapping(v, 0);
    g.setTileMapping(g.addVertex(cs, "LineOffsetVertex", {{"in", v}, {"offset", offsets[i]}}), 0);
  }
  g.setInitialValue(offsets, std::vector<unsigned>(sizes.size(), 99));
  g.createHostRead("offsets", offsets);
  Engine e(g, Execute(cs));
  e.load(device);
  e.run();
  std::vector<unsigned> got(sizes.size());
  e.readTensor("offsets", got.data(), got.data() + got.size());
  CHECK(got == std::vector<unsigned>(sizes.size(), 0));
}

TEST_CASE("engines are independent of later graph changes", "[engine]") {
  auto device = test::smallDevice(2);
  Graph g(device.getTarget());
  auto x = g.addVariable(INT, {2}, "x");
  g.setTileMapping(x, 0);
  g.setInitialValue(x, std::vector<int>{1, 2});
  g.createHostRead("x", x);
  Engine e(g, Sequence());
  g.setInitialValue(x, std::vector<int>{5, 6});
  e.load(device);
  int out[2];
  e.readTensor("x", out, out + 2);
  CHECK(out[0] == 1);
  Engine later(g, Sequence());
  later.load(device);
  later.readTensor("x", out, out + 2);
  CHECK(out[0] == 5);
}
