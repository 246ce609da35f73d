// poplar::cycleCount and cycleStamp read the simulated cycle counters: the numbers the execution
// profile shows, with or without a profile.
#include "TestUtil.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <poplar/CycleCount.hpp>
#include <poplar/exceptions.hpp>
#include <pva/pva.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

std::uint64_t value(const std::vector<unsigned>& halves) {
  return std::uint64_t(halves[0]) | (std::uint64_t(halves[1]) << 32);
}

/// Sums of 4 rows of 64 on 4 tiles, timed on tile `tile`.
struct Timed {
  Device device = test::smallDevice(8);
  Graph g = test::makeGraph(device);
  Sequence prog;
  Tensor cycles;
  explicit Timed(unsigned tile = 1, SyncType sync = SyncType::INTERNAL) {
    Tensor in = g.addVariable(FLOAT, {4, 64}, "in");
    Tensor out = g.addVariable(FLOAT, {4}, "out");
    ComputeSet cs = g.addComputeSet("sums");
    for (unsigned i = 0; i < 4; ++i) {
      g.setTileMapping(in[i], i);
      g.setTileMapping(out[i], i);
      VertexRef v = g.addVertex(cs, "SumVertex", {{"in", in[i]}, {"out", out[i]}});
      g.setTileMapping(v, i);
    }
    prog.add(Execute(cs));
    cycles = cycleCount(g, prog, tile, sync, "timer");
    g.createHostRead("cycles", cycles);
  }
  std::uint64_t run(Engine& e) {
    std::vector<unsigned> c(2);
    e.load(device);
    e.run();
    e.readTensor("cycles", c.data(), c.data() + 2);
    return value(c);
  }
};

/// The cycles the profile shows from the start stamp's step up to the end stamp's step.
std::uint64_t profiledCycles(const pva::Report& report) {
  std::uint64_t total = 0;
  bool counting = false;
  for (const auto& step : report.execution().steps()) {
    const std::string name = step.program()->name();
    if (name.find("timer/cycleCount/end") != std::string::npos) break;
    if (name.find("timer/cycleCount/start") != std::string::npos) counting = true;
    if (counting)
      for (const auto& ipu : step.ipus())
        total += ipu.cycles();
  }
  return total;
}

} // namespace

TEST_CASE("cycleCount returns the cycles the profile shows", "[cycles]") {
  Timed t;
  CHECK(t.cycles.elementType() == UNSIGNED_INT);
  CHECK(t.cycles.numElements() == 2);
  CHECK(t.g.getTileMapping(t.cycles)[1].size() == 1);

  test::ScratchDir dir;
  Engine profiled(t.g, t.prog,
                  {{"autoReport.all", "true"}, {"autoReport.directory", dir.path().string()}});
  const std::uint64_t counted = t.run(profiled);
  const std::uint64_t shown = profiledCycles(profiled.getReport());
  CHECK(counted > 64); // the sums alone take a cycle per element
  CHECK(counted == shown);

  // Without a profile the counters read the same: the clock runs whenever they are read.
  Engine plain(t.g, t.prog);
  CHECK(t.run(plain) == counted);
  // And a second run reads the same again (a difference, not an absolute time).
  profiled.run();
  std::vector<unsigned> again(2);
  profiled.readTensor("cycles", again.data(), again.data() + 2);
  CHECK(value(again) == counted);
}

TEST_CASE("cycleStamp reads a counter that only goes up", "[cycles]") {
  auto device = test::smallDevice(4);
  Graph g = test::makeGraph(device);
  Tensor x = g.addVariable(FLOAT, {32}, "x");
  Tensor s = g.addVariable(FLOAT, {1}, "s");
  g.setTileMapping(x, 2);
  g.setTileMapping(s, 2);
  ComputeSet cs = g.addComputeSet("sum");
  VertexRef v = g.addVertex(cs, "SumVertex", {{"in", x}, {"out", s[0]}});
  g.setTileMapping(v, 2);
  Sequence prog;
  Tensor first = cycleStamp(g, prog, 0, SyncType::EXTERNAL);
  prog.add(Execute(cs));
  std::vector<Tensor> second = cycleStamp(g, prog, {0, 3}, SyncType::INTERNAL, "after");
  REQUIRE(second.size() == 2);
  g.createHostRead("first", first);
  g.createHostRead("second0", second[0]);
  g.createHostRead("second3", second[1]);
  Engine e(g, prog);
  e.load(device);
  std::vector<unsigned> a(2), b(2), c(2);
  e.run();
  e.readTensor("first", a.data(), a.data() + 2);
  e.readTensor("second0", b.data(), b.data() + 2);
  e.readTensor("second3", c.data(), c.data() + 2);
  CHECK(value(b) > value(a) + 32);
  CHECK(value(b) == value(c)); // tiles of one IPU share its clock after a sync
  const std::uint64_t firstRun = value(b);
  e.run(); // the counter keeps running across runs
  e.readTensor("first", a.data(), a.data() + 2);
  CHECK(value(a) >= firstRun);
}

TEST_CASE("cycleCount and cycleStamp check their tile", "[cycles][errors]") {
  auto device = test::smallDevice(4);
  Graph g = test::makeGraph(device);
  Sequence prog;
  CHECK_THROWS_MATCHES(cycleCount(g, prog, 4, SyncType::INTERNAL), index_error,
                       test::What(Catch::Contains("tile 4") && Catch::Contains("4 tiles")));
  CHECK_THROWS_AS(cycleStamp(g, prog, 9), index_error);
  CHECK_THROWS_AS(cycleStamp(g, prog, std::vector<unsigned>{}, SyncType::INTERNAL), index_error);
}

TEST_CASE("the older forms without a sync type time as INTERNAL", "[cycles]") {
  Timed internal(0, SyncType::INTERNAL);
  Engine a(internal.g, internal.prog);
  Device device = test::smallDevice(8);
  Graph g = test::makeGraph(device);
  Tensor in = g.addVariable(FLOAT, {4, 64}, "in");
  Tensor out = g.addVariable(FLOAT, {4}, "out");
  ComputeSet cs = g.addComputeSet("sums");
  for (unsigned i = 0; i < 4; ++i) {
    g.setTileMapping(in[i], i);
    g.setTileMapping(out[i], i);
    VertexRef v = g.addVertex(cs, "SumVertex", {{"in", in[i]}, {"out", out[i]}});
    g.setTileMapping(v, i);
  }
  Sequence prog{Execute(cs)};
  Tensor cycles = cycleCount(g, prog, 0, "timer");
  g.createHostRead("cycles", cycles);
  Engine b(g, prog);
  b.load(device);
  b.run();
  std::vector<unsigned> c(2);
  b.readTensor("cycles", c.data(), c.data() + 2);
  CHECK(value(c) == internal.run(a));
}

TEST_CASE("every replica reads the counters replica 0 read", "[cycles]") {
  auto device = test::smallDevice(4, 2);
  Graph g = test::makeGraph(device, 2);
  Tensor x = g.addVariable(FLOAT, {16}, "x");
  Tensor s = g.addVariable(FLOAT, {1}, "s");
  g.setTileMapping(x, 1);
  g.setTileMapping(s, 1);
  ComputeSet cs = g.addComputeSet("sum");
  VertexRef v = g.addVertex(cs, "SumVertex", {{"in", x}, {"out", s[0]}});
  g.setTileMapping(v, 1);
  Sequence prog{Execute(cs)};
  Tensor cycles = cycleCount(g, prog, 1, SyncType::INTERNAL);
  DataStream out = g.addDeviceToHostFIFO("cycles", UNSIGNED_INT, 2);
  prog.add(Copy(cycles, out));
  Engine e(g, prog);
  std::vector<unsigned> r0(2), r1(2);
  e.connectStream("cycles", 0, r0.data(), r0.data() + 2);
  e.connectStream("cycles", 1, r1.data(), r1.data() + 2);
  e.load(device);
  e.run();
  CHECK(value(r0) > 16);
  CHECK(r1 == r0);
}
