// The execution model: steps, per-IPU cycle counters, runs, cycle totals by kind, blocks.
#include "common/RemoteSum.hpp"
#include "common/ReportFiles.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <poplar/Engine.hpp>
#include <poplar/exceptions.hpp>

using namespace poplar;
using test::Report;

namespace {
// RemoteSum's steps on IPU 0: Sync 60 (the farthest tile), DoExchange 13 (8 + 16 bytes / 4 + 1
// message), OnTileExecute 138.
constexpr std::uint64_t kSync = 60, kExchange = 13, kCompute = 138,
                        kRun = kSync + kExchange + kCompute;
} // namespace

TEST_CASE("Each run records its steps on absolute cycle counters", "[execution]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  {
    Engine engine(s.graph, s.program, test::reportOptions(dir.path()));
    engine.load(s.device);
    engine.run(0, "first");
    engine.run(0);
  }
  Report r(dir / "profile.pop");
  CHECK(r.texts("SELECT name FROM runs ORDER BY id") == std::vector<std::string>{"first", "run1"});
  CHECK(r.integers("SELECT cycles FROM runs ORDER BY id") == std::vector<long long>{kRun, kRun});
  CHECK(r.integers("SELECT first_step FROM runs ORDER BY id") == std::vector<long long>{0, 3});
  CHECK(r.integers("SELECT num_steps FROM runs ORDER BY id") == std::vector<long long>{3, 3});
  CHECK(r.integer("SELECT count(*) FROM steps WHERE cycles_by_tile IS NOT NULL") == 0);
  CHECK(r.integer("SELECT microseconds_end >= microseconds_start FROM runs WHERE id = 0") == 1);

  const auto sync = r.stepIpus("SELECT ipus FROM steps WHERE id = 0");
  REQUIRE(sync.size() == 1);
  CHECK(sync[0].cycles == kSync);
  CHECK(sync[0].activeTiles == 4);
  CHECK(sync[0].activeFromMin == 0);
  CHECK(sync[0].activeToMin == 15);
  CHECK(sync[0].activeToMax == kSync);

  const auto compute = r.stepIpus("SELECT ipus FROM steps WHERE id = 2");
  REQUIRE(compute.size() == 1);
  CHECK(compute[0].cycles == kCompute);
  CHECK(compute[0].activeTiles == 1);
  CHECK(compute[0].activeFromMin == kSync + kExchange);
  CHECK(compute[0].activeToMax == kRun);
  CHECK(compute[0].allToMin == kSync + kExchange); // idle tiles end at once
  CHECK(compute[0].tileBalance == Approx(0.25));
  CHECK(compute[0].activeTileBalance == Approx(1.0));

  // The second run continues the counters.
  CHECK(r.stepIpus("SELECT ipus FROM steps WHERE id = 3")[0].activeFromMin == kRun);

  CHECK(r.tileValues(
            "SELECT cycles_by_tile FROM run_tile_cycles WHERE run = 0 AND kind = 'compute'") ==
        std::vector<std::uint64_t>{kCompute, 0, 0, 0});
  CHECK(
      r.tileValues("SELECT cycles_by_tile FROM run_tile_cycles WHERE run = 0 AND kind = 'sync'") ==
      std::vector<std::uint64_t>{15, 30, 45, 60});
  CHECK(r.tileValues("SELECT cycles_by_tile FROM run_tile_cycles WHERE run = 1 AND kind = "
                     "'internalExchange'") ==
        std::vector<std::uint64_t>{kExchange, kExchange, 0, 0});
  CHECK(r.tileValues(
            "SELECT cycles_by_tile FROM run_tile_cycles WHERE run = 1 AND kind = 'streamCopy'") ==
        std::vector<std::uint64_t>{0, 0, 0, 0});
}

TEST_CASE("A step across IPUs waits for the slowest IPU", "[execution]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice(4, 2);
  auto graph = test::makeGraph(device);
  Tensor x = graph.addVariable(FLOAT, {4}, "x"), y = graph.addVariable(FLOAT, {4}, "y");
  graph.setTileMapping(x, 1);
  graph.setTileMapping(y, 5);
  graph.createHostRead("y", y);
  ComputeSet cs = graph.addComputeSet("work");
  VertexRef v = graph.addVertex(cs, "IotaVertex", {{"out", x}});
  graph.setTileMapping(v, 1);
  graph.setPerfEstimate(v, 1000);
  {
    Engine engine(graph, program::Sequence({program::Execute(cs), program::Copy(x, y)}),
                  test::reportOptions(dir.path()));
    engine.load(device);
    engine.run(0);
    std::vector<float> out(4);
    engine.readTensor("y", out.data(), out.data() + 4);
    CHECK(out == std::vector<float>{0, 1, 2, 3});
  }
  Report r(dir / "profile.pop");
  // IPU 0: Sync 60, compute 30 + 6 x 1000; IPU 1 idles. The GlobalExchange starts when both are
  // ready and takes the global sync (378) plus 16 bytes over the links (2 cycles).
  const std::uint64_t ipu0 = 60 + 6030, global = 378 + 2;
  const auto ex = r.stepIpus("SELECT s.ipus FROM steps s JOIN programs p ON p.id = s.program WHERE "
                             "p.type = 'GlobalExchange'");
  REQUIRE(ex.size() == 2);
  CHECK(ex[0].ipu == 0);
  CHECK(ex[0].cycles == global);
  CHECK(ex[0].dataOut == 16);
  CHECK(ex[1].ipu == 1);
  CHECK(ex[1].cycles == ipu0 + global); // waiting counts
  CHECK(ex[1].dataIn == 16);
  CHECK(ex[1].activeFromMin == ipu0);
  CHECK(r.integer("SELECT cycles FROM runs") == static_cast<long long>(ipu0 + global));
  CHECK(r.tileValues("SELECT cycles_by_tile FROM run_tile_cycles WHERE kind = 'globalExchange'") ==
        std::vector<std::uint64_t>{0, 12, 0, 0, 0, 12, 0, 0});
}

TEST_CASE("Block programs matching profiler.blocks.filter are timed on the block tile",
          "[execution][blocks]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  auto options = test::reportOptions(dir.path());
  options.set("profiler.blocks.filter", "^timed");
  program::Sequence prog(
      {program::Block(s.program, "timed"), program::Block(s.program, "untimed")});
  {
    Engine engine(s.graph, prog, options);
    engine.load(s.device);
    engine.run(0);
  }
  Report r(dir / "profile.pop");
  const auto blocks =
      r.rows("SELECT p.name, b.tile, b.cycles_from, b.cycles_to, b.kind FROM blocks b "
             "JOIN programs p ON p.id = b.program ORDER BY b.id");
  // The run's two control stream copies (autoReport instruments external exchange), the block,
  // and the flush at the end of the run: a stream-copy triplet.
  REQUIRE(blocks.size() == 10);
  for (int i = 0; i < 6; ++i) {
    CHECK(blocks[i][0].bytes == "ControlStreamCopy");
    CHECK(blocks[i][4].bytes == "StreamCopy");
  }
  const long long start = blocks[5][3].i; // the run starts after its control copies
  CHECK(start > 0);
  CHECK(blocks[6][0].bytes == "timed");
  CHECK(blocks[6][1].i == 0);
  CHECK(blocks[6][2].i == start);
  CHECK(blocks[6][3].i == start + static_cast<long long>(kRun));
  CHECK(blocks[6][4].bytes == "Common");
  for (int i = 7; i < 10; ++i) {
    CHECK(blocks[i][0].bytes == "BlockFlush");
    CHECK(blocks[i][4].bytes == "BlockFlush"); // the buffer is flushed when the run ends
  }
  CHECK(r.integer("SELECT count(*) FROM lowered_variables WHERE tile = 0 AND category = "
                  "'instrumentationResults' AND bytes >= 1000") == 1);
}

TEST_CASE("A full block buffer loses records and says so with an Overflow block",
          "[execution][blocks]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  auto options = test::reportOptions(dir.path());
  options.set("profiler.blocks.filter", "timed");
  options.set("profiler.blocks.bufferSize", "24");       // room for one 24-byte record
  options.set("profiler.blocks.implicitFlush", "false"); // no flush at the end of iterations
  {
    Engine engine(s.graph, program::Repeat(3, program::Block(s.program, "timed")), options);
    engine.load(s.device);
    engine.run(0);
  }
  Report r(dir / "profile.pop");
  CHECK(
      r.texts("SELECT kind FROM blocks WHERE kind != 'StreamCopy' ORDER BY id") ==
      std::vector<std::string>{"Common", "Overflow"}); // no flush program without implicit flushes
  const long long start = r.integer("SELECT cycles_from FROM blocks WHERE kind = 'Common'");
  const auto overflow =
      r.rows("SELECT cycles_from, cycles_to FROM blocks WHERE kind = 'Overflow'")[0];
  CHECK(overflow[0].i == start + static_cast<long long>(kRun)); // from the first lost record
  CHECK(overflow[1].i == start + static_cast<long long>(3 * kRun));
}

TEST_CASE("A run that fails keeps the steps it made", "[execution]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  Tensor yes = s.graph.addConstant(BOOL, {}, true, "yes");
  s.graph.setTileMapping(yes, 0);
  {
    Engine engine(s.graph,
                  program::Sequence({s.program, program::AbortOnCondition(yes, "stop here")}),
                  test::reportOptions(dir.path()));
    engine.load(s.device);
    CHECK_THROWS_AS(engine.run(0), application_runtime_error);
  }
  Report r(dir / "profile.pop");
  CHECK(r.integer("SELECT count(*) FROM runs") == 1);
  CHECK(r.integer("SELECT num_steps FROM runs") == 3);
}

TEST_CASE("Without an execution profile no run is recorded", "[execution]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  OptionFlags options{{"autoReport.outputGraphProfile", "true"},
                      {"autoReport.directory", dir.path().string()}};
  {
    Engine engine(s.graph, s.program, options);
    engine.load(s.device);
    engine.run(0);
    std::ostringstream summary;
    engine.printProfileSummary(summary);
    CHECK_THAT(summary.str(), Catch::Contains("No execution profile: set the engine option"));
    CHECK_THAT(summary.str(), Catch::Contains("Memory Usage:"));
  }
  Report r(dir / "profile.pop");
  CHECK(r.integer("SELECT count(*) FROM runs") == 0);
  CHECK(r.text("SELECT value FROM meta WHERE key = 'execution_profile'") == "false");
  CHECK_FALSE(std::filesystem::exists(dir / "debug.cbor"));
}
