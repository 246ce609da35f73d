// report.execution(): runs, steps, per-IPU cycles, totals by kind, blocks.
#include "PvaTestUtil.hpp"

#include <algorithm>
#include <poplar/exceptions.hpp>

using pva::Program;

TEST_CASE("Runs and steps with absolute cycle counters", "[pva][execution]") {
  test::RemoteSumReport r(2);
  const auto e = r.report.execution();
  const auto runs = e.runs();
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].name() == "run0");
  CHECK(runs[1].index() == 1);
  CHECK(runs[0].cycles() ==
        211); // Sync 60, DoExchange 13 (8 + 16 bytes / 4 + 1 message), compute 138
  CHECK(runs[0].programIndex() == 0);
  CHECK(runs[0].microseconds().end() >= runs[0].microseconds().start());
  CHECK(runs[0].steps().size() == 3);
  CHECK(e.steps().size() == 6);
  CHECK(e.totalCycles().total() == 422);

  std::vector<std::uint64_t> cycles;
  std::vector<std::string> names;
  for (const pva::ExecutionStep& step : e.steps()) {
    cycles.push_back(step.ipus().at(0).cycles());
    names.push_back(step.program()->name());
  }
  CHECK(cycles == std::vector<std::uint64_t>{60, 13, 138, 60, 13, 138});
  CHECK(names == std::vector<std::string>{"sum/Sync", "sum/Exchange", "sum", "sum/Sync",
                                          "sum/Exchange", "sum"});

  const auto step = runs[1].steps()[2];
  CHECK(step.index() == 5);
  CHECK(step.run() == 1);
  const auto ipu = step.ipus().at(0);
  CHECK(ipu.activeCycles().from().min() == 211 + 73);
  CHECK(ipu.activeCycles().to().max() == 422);
  CHECK(ipu.allCycles().from().max() == 211 + 73);
  CHECK(ipu.activeTiles() == 1);
  CHECK(ipu.tileBalance() == Approx(0.25));
  CHECK(ipu.activeTileBalance() == Approx(1.0));
  CHECK(step.cyclesByTile() == std::vector<std::uint64_t>{138, 0, 0, 0});
  const auto sets = step.computeSets();
  REQUIRE(sets.size() == 1);
  CHECK(sets[0].name() == "sum");
  CHECK(sets[0].cyclesByTile()[0] == 138);
  CHECK(sets[0].estimatedCyclesByTile()[0] == 138);
  CHECK(runs[0].steps()[0].computeSets().empty());
  CHECK_THROWS_AS(e.steps().at(6), pva::InvalidArgumentError);

  const auto totals = runs[0].tileCycleTotals();
  using K = pva::TileCycleTotals::Kind;
  CHECK(totals.byTile(K::Compute) == std::vector<std::uint64_t>{138, 0, 0, 0});
  CHECK(totals.byTile(K::Sync) == std::vector<std::uint64_t>{15, 30, 45, 60});
  CHECK(totals.total(K::InternalExchange) == 26);
  CHECK(e.tileCycleTotals().total() == 2 * totals.total());
}

TEST_CASE("Iterating steps reads them in chunks and sees every one", "[pva][execution]") {
  test::RemoteSumReport r(1500); // 4,500 steps: more than one chunk
  const auto steps = r.report.execution().steps();
  REQUIRE(steps.size() == 4500);
  std::uint64_t n = 0, sum = 0;
  for (const auto& step : steps) {
    CHECK(step.index() == n);
    ++n;
    sum += step.ipus()[0].cycles();
  }
  CHECK(n == 4500);
  CHECK(sum == 1500 * 211);
  CHECK(steps[4499].program()->name() == "sum");
}

TEST_CASE("Blocks recorded by lightweight profiling", "[pva][execution]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  auto options = test::reportOptions(dir.path());
  options.set("profiler.blocks.filter", "timed");
  {
    poplar::Engine engine(s.graph, poplar::program::Block(s.program, "timed"), options);
    engine.load(s.device);
    engine.run(0);
  }
  const auto report = pva::openReport((dir / "profile.pop").string());
  const auto blocks = report.execution().blocks(0);
  // The run's two control stream copies, the block, and the flush at the end of the run.
  REQUIRE(blocks.size() == 10);
  for (std::size_t i = 0; i < 6; ++i)
    CHECK(blocks[i].isStreamCopy());
  CHECK(blocks[6].program()->name() == "timed");
  CHECK(blocks[6].program()->type() == Program::Type::Block);
  CHECK(blocks[6].isCommon());
  CHECK(blocks[6].cyclesTo() - blocks[6].cyclesFrom() == 211);
  for (std::size_t i = 7; i < 10; ++i)
    CHECK(blocks[i].isBlockFlush());
  CHECK(report.execution().blocks(1).empty());
  CHECK_THROWS_AS(report.execution().blocks(4), pva::InvalidArgumentError);
}

TEST_CASE("analyseBlocks groups the blocks by IPU and by program", "[pva][execution]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  auto options = test::reportOptions(dir.path());
  options.set("profiler.blocks.filter", "timed");
  options.set("debug.instrumentExternalExchange", "true");
  {
    poplar::Engine engine(s.graph, poplar::program::Block(s.program, "timed"), options);
    engine.load(s.device);
    engine.run(0);
    engine.run(0);
  }
  const auto report = pva::openReport((dir / "profile.pop").string());
  const pva::BlockFigures b = pva::analyseBlocks(report);
  REQUIRE(b.any());
  CHECK(b.recordingTile == 0);
  REQUIRE(b.recorded.size() == 1);
  REQUIRE(b.io.size() == 1);
  // Every record of every tile is counted once, on the recording tile or in an I/O copy.
  std::uint64_t records = b.recorded[0].size();
  for (const pva::IoBlock& io : b.io[0]) {
    CHECK(io.block.isStreamCopy());
    CHECK(io.block.tile() != 0);
    records += io.tiles;
  }
  CHECK(records == b.numRecords);
  std::uint64_t byTile = 0;
  for (unsigned t = 0; t < report.compilation().target().numTiles(); ++t)
    byTile += report.execution().blocks(t).size();
  CHECK(byTile == b.numRecords);
  const auto timed =
      std::find_if(b.programs.begin(), b.programs.end(),
                   [](const pva::BlockProgramFigures& f) { return f.name == "timed"; });
  REQUIRE(timed != b.programs.end());
  CHECK(timed->kind == pva::BlockProgramFigures::Kind::Common);
  CHECK(timed->count == 2); // two runs
  CHECK(timed->cycles == 2 * 211);
  CHECK(timed->minCycles == 211);
  CHECK(timed->maxCycles == 211);
  for (std::size_t i = 1; i < b.recorded[0].size(); ++i)
    CHECK(b.recorded[0][i - 1].from() <= b.recorded[0][i].from());
}

TEST_CASE("analyseBlocks of a report without lightweight profiling is empty", "[pva][execution]") {
  test::RemoteSumReport r(1);
  const pva::BlockFigures b = pva::analyseBlocks(r.report);
  CHECK_FALSE(b.any());
  CHECK(b.programs.empty());
  CHECK(b.numTiles == 0);
  REQUIRE(b.recorded.size() == 1);
  CHECK(b.recorded[0].empty());
}

TEST_CASE("Engine::getReport returns the report with the runs so far", "[pva][execution]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  poplar::Engine engine(s.graph, s.program, test::reportOptions(dir.path()));
  engine.load(s.device);
  engine.run(0);
  CHECK(engine.getReport().execution().runs().size() == 1);
  engine.run(0);
  const pva::Report report = engine.getReport();
  CHECK(report.execution().runs().size() == 2);
  CHECK(report.hasDebugInfo());
  CHECK(engine.getReport(false).compilation().graph().numComputeSets() == 1);

  test::RemoteSum quiet;
  poplar::Engine noReports(quiet.graph, quiet.program);
  CHECK_THROWS_AS(noReports.getReport(), poplar::runtime_error);
}
