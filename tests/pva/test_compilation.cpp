// report.compilation() on the hand-computed RemoteSum example
// (tests/engine_profiling/test_memory.cpp derives the numbers).
#include "PvaTestUtil.hpp"

#include <numeric>

using pva::Program;

TEST_CASE("Report identity: versions, time, options, instrumentation", "[pva][report]") {
  test::RemoteSumReport r;
  const pva::Report& report = r.report;
  CHECK(report.version().majorVer() == 1);
  CHECK(report.version().string() == pva::supportedFormatVersion().string());
  CHECK_FALSE(report.version().isUnstableFormat());
  CHECK(report.poplarVersion().majorVer() == 0);
  CHECK(report.poplarVersion().minorVer() == 1);
  CHECK_THAT(report.poplarVersion().string(), Catch::StartsWith("0.1.0 ("));
  CHECK(report.timestamp().size() == 20); // 2026-11-23T05:36:27Z
  CHECK(report.timestampMicroseconds() > 1'700'000'000'000'000LL);
  CHECK(report.engineOptions().at("autoReport.all") == "true");
  CHECK(report.instrumentationSettings().compute() ==
        pva::InstrumentationSettings::ComputeInstrumentationLevel::Tile);
  CHECK_FALSE(report.outOfMemory());
  CHECK(report.hasDebugInfo());
  CHECK(report.profilePath() == (r.dir / "profile.pop").string());
}

TEST_CASE("Target and graph counts", "[pva][compilation]") {
  test::RemoteSumReport r;
  const auto t = r.report.compilation().target();
  CHECK(t.type() == pva::Target::Type::IpuModel);
  CHECK(t.architecture() == pva::Target::Architecture::Ipu2);
  CHECK(t.numIPUs() == 1);
  CHECK(t.tilesPerIpu() == 4);
  CHECK(t.numTiles() == 4);
  CHECK(t.bytesPerTile() == 638976);
  CHECK(t.bytesPerIPU() == 4 * 638976);
  CHECK(t.totalMemory() == 4 * 638976);
  CHECK(t.clockFrequency() == Approx(1.33e9));
  CHECK(t.numReplicas() == 1);
  CHECK(t.ipusPerReplica() == 1);
  CHECK(t.tilesPerReplica() == 4);
  CHECK(t.memoryPerReplica() == 4 * 638976);
  CHECK(t.numWorkerContexts() == 6);
  CHECK(t.interleavedMemoryStart() == 16 * 16384);
  CHECK(t.memoryElementOffsets().size() > 16);
  const auto g = r.report.compilation().graph();
  CHECK(g.numVertices() == 1);
  CHECK(g.numComputeSets() == 1);
  CHECK(g.numVariables() == 3);
  CHECK(g.numEdges() == 2);
}

TEST_CASE("Tile memory: totals, categories, vertices, IPUs", "[pva][compilation][memory]") {
  test::RemoteSumReport r;
  const auto c = r.report.compilation();
  const auto tiles = c.tiles();
  REQUIRE(tiles.size() == 4);
  const pva::TileMemory& m = tiles[0].memory();
  CHECK(m.total().includingGaps() == 732);
  CHECK(m.total().excludingGaps() == 720);
  CHECK(m.alwaysLiveBytes() == 700);
  CHECK(m.notAlwaysLiveBytes() == 20);
  CHECK(m.overflowed().includingGaps() == 0);
  CHECK(m.category().vertexCode().total() == 96);
  CHECK(m.category().vertexCode().nonInterleaved().nonOverlapped() == 96);
  CHECK(m.category().vertexInstanceState().total() == 12);
  CHECK(m.category().controlCode().total() == 44);
  CHECK(m.category().internalExchangeCode().total() == 12);
  CHECK(m.category().stack().total() == 512);
  CHECK(m.category().instrumentationResults().total() == 8);
  CHECK(m.category().variable().total() == 20);
  CHECK(m.category().message().total() == 16);
  CHECK(m.category()["message"].total() == 16);
  CHECK_THROWS_AS(m.category()["bogus"], pva::InvalidArgumentError);
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < pva::MemoryCategories::size(); ++i)
    sum += m.category().at(i).total();
  CHECK(sum == 96 + 12 + 44 + 12 + 512 + 8 + 20 + 16);
  const auto vertices = m.vertices();
  REQUIRE(vertices.size() == 1);
  CHECK(vertices[0].type().name() == "SumVertex");
  CHECK(vertices[0].codeBytes() == 96);
  CHECK(vertices[0].count() == 1);
  CHECK(tiles[1].memory().total().includingGaps() == 64);
  CHECK(tiles[1].memory().vertices().empty());
  CHECK(tiles[3].number() == 3);
  CHECK(c.tile(1).memory().alwaysLiveBytes() == 56);
  CHECK_THROWS_AS(c.tile(4), pva::InvalidArgumentError);
  const auto ipus = c.ipus();
  REQUIRE(ipus.size() == 1);
  CHECK(ipus[0].tiles().size() == 4);
  CHECK(ipus[0].tiles()[0].memory().total().includingGaps() == 732);
}

TEST_CASE("Compute sets, vertices and variables", "[pva][compilation]") {
  test::RemoteSumReport r;
  const auto c = r.report.compilation();
  const auto sets = c.computeSets();
  REQUIRE(sets.size() == 1);
  CHECK(sets[0].name() == "sum");
  CHECK(sets[0].numVertices() == 1);
  CHECK(sets[0].estimatedCyclesByTile() == std::vector<std::uint64_t>{30 + 18 * 6, 0, 0, 0});
  const auto vertices = sets[0].vertices();
  REQUIRE(vertices.size() == 1);
  CHECK(vertices[0].type().name() == "SumVertex");
  CHECK(vertices[0].type().size() == 8);
  CHECK(vertices[0].count() == 1);
  CHECK(vertices[0].countByTile() == std::vector<std::uint64_t>{1, 0, 0, 0});
  REQUIRE(sets[0].debugContext());
  CHECK(sets[0].debugContext()->name() == "sum");

  const auto vars = c.variables();
  REQUIRE(vars.size() == 3);
  CHECK(vars[0].name() == "a");
  CHECK(vars[0].size() == 32);
  CHECK(vars[0].alwaysLive());
  CHECK(vars[0].elementType() == "float");
  CHECK(vars[0].shape() == "[8]");
  CHECK(vars[2].name() == "sum/message");
  CHECK(vars[2].category() == "message");
  CHECK(vars[2].liveFrom() == 1);
  CHECK(vars[2].liveTo() == 3);
}

TEST_CASE("Liveness steps: bytes and variables per step, tile and IPU",
          "[pva][compilation][liveness]") {
  test::RemoteSumReport r;
  const auto c = r.report.compilation();
  const auto steps = c.livenessProgramSteps();
  REQUIRE(steps.size() == 3);
  CHECK(steps[0].program()->type() == Program::Type::Sync);
  CHECK(steps[1].program()->type() == Program::Type::DoExchange);
  CHECK(steps[2].program()->name() == "sum");
  std::vector<std::uint64_t> bytes;
  for (const auto& s : steps)
    bytes.push_back(s.notAlwaysLiveMemory().bytes());
  CHECK(bytes == std::vector<std::uint64_t>{0, 16, 20});
  const auto at2 = steps[2].notAlwaysLiveMemory();
  REQUIRE(at2.variables().size() == 2);
  CHECK(at2.variables()[0].name() == "out");
  CHECK(at2.variables()[1].name() == "sum/message");
  CHECK(steps[2].notAlwaysLiveMemoryForTile(0).bytes() == 20);
  CHECK(steps[2].notAlwaysLiveMemoryForTile(0).variables().size() == 2);
  CHECK(steps[2].notAlwaysLiveMemoryForTile(1).bytes() == 0);
  CHECK(steps[1].notAlwaysLiveMemoryForIpu(0).bytes() == 16);
  CHECK(steps[1].notAlwaysLiveMemoryForIpu(0).variables().at(0).size() == 16);
  CHECK_THROWS_AS(steps[0].notAlwaysLiveMemoryForTile(9), pva::InvalidArgumentError);
  CHECK_THROWS_AS(steps[0].notAlwaysLiveMemoryForIpu(1), pva::InvalidArgumentError);

  // Always live: variables plus code and state, adding up to the tiles' always-live bytes; and
  // per tile, always live + not always live at a step = the tile's memory at that step.
  std::uint64_t alwaysLive = 0, tilesAlwaysLive = 0;
  for (const auto& v : c.alwaysLiveVariables())
    alwaysLive += v.size();
  for (const auto& t : c.tiles())
    tilesAlwaysLive += t.memory().alwaysLiveBytes();
  CHECK(alwaysLive == tilesAlwaysLive);
  const auto tile0 = c.alwaysLiveVariablesForTile(0);
  std::uint64_t tile0Bytes = 0;
  bool sawCode = false;
  for (const auto& v : tile0) {
    tile0Bytes += v.size();
    sawCode = sawCode || v.name() == "vertexCode";
  }
  CHECK(sawCode);
  CHECK(tile0Bytes + steps[2].notAlwaysLiveMemoryForTile(0).bytes() ==
        c.tile(0).memory().total().excludingGaps());
}

TEST_CASE("Lowered variables: brief and full records", "[pva][compilation]") {
  test::RemoteSumReport r;
  const auto lowered = r.report.compilation().loweredVariables();
  const auto brief = lowered.allBriefVars();
  std::uint64_t total = 0;
  for (const auto& b : brief)
    total += b.bytes();
  std::uint64_t tiles = 0;
  for (const auto& t : r.report.compilation().tiles())
    for (const auto& v : lowered.forTile(t.number()))
      tiles += v.bytes();
  CHECK(total == tiles);
  const auto tile0 = lowered.forTile(0);
  REQUIRE(tile0.size() == 9);
  CHECK(tile0[0].name() == "vertexCode");
  CHECK_FALSE(tile0[0].hasUnloweredVar());
  CHECK_THROWS_AS(tile0[0].unloweredVar(), pva::InvalidArgumentError);
  CHECK(tile0[7].name() == "sum/message");
  CHECK(tile0[7].offset() == 712);
  CHECK(tile0[7].hasUnloweredVar());
  CHECK(tile0[7].unloweredVar().name() == "sum/message");
  CHECK(tile0[7].unloweredVar() == r.report.compilation().variables()[2]);
  bool messageInterval = false;
  for (const auto& b : brief)
    if (b.id() == tile0[7].id())
      messageInterval = b.equivalenceClass().steps.size() == 1 &&
                        b.equivalenceClass().steps[0].start == 1 &&
                        b.equivalenceClass().steps[0].end == 3;
  CHECK(messageInterval);
}

TEST_CASE("Replicated graphs: tiles cover every replica with identical memory",
          "[pva][compilation]") {
  test::ScratchDir dir;
  auto device = test::tinyDevice(4, 2);
  poplar::Graph graph = test::makeGraph(device, 2);
  poplar::Tensor x = graph.addVariable(poplar::FLOAT, {4}, "x");
  graph.setTileMapping(x, 2);
  graph.setInitialValue(x, std::vector<float>{1, 2, 3, 4});
  { poplar::Engine e(graph, poplar::program::Sequence(), test::reportOptions(dir.path())); }
  const auto report = pva::openReport((dir / "profile.pop").string());
  const auto t = report.compilation().target();
  CHECK(t.numReplicas() == 2);
  CHECK(t.numIPUs() == 2);
  CHECK(t.tilesPerReplica() == 4);
  const auto tiles = report.compilation().tiles();
  REQUIRE(tiles.size() == 8);
  CHECK(tiles[2].memory().total().includingGaps() == tiles[6].memory().total().includingGaps());
  CHECK(tiles[6].ipu() == 1);
}
