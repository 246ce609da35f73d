// What real libpva clients compute (shared/api/libpva.md §7), on the samples' reports, checked
// against raw SQL over the same file where SQL can say it.
#include "PvaTestUtil.hpp"

#include <algorithm>
#include <regex>
#include <set>

using pva::Program;

namespace {
pva::Report mlp() {
  return pva::openReport(test::sampleReport("mlp").string(),
                         (test::sampleReport("mlp").parent_path() / "debug.cbor").string());
}
} // namespace

TEST_CASE("Memory: total, largest tile, always live, peak liveness and its step (§7.1-9)",
          "[pva][clients]") {
  const auto report = mlp();
  test::Report raw(test::sampleReport("mlp"));
  const auto c = report.compilation();
  std::uint64_t total = 0, maxTile = 0, totalIncl = 0, alwaysLive = 0;
  for (const auto& t : c.tiles()) {
    total += t.memory().total().excludingGaps();
    totalIncl += t.memory().total().includingGaps();
    maxTile = std::max(maxTile, t.memory().total().excludingGaps());
    alwaysLive += t.memory().alwaysLiveBytes();
  }
  CHECK(total == std::uint64_t(raw.integer("SELECT sum(excluding_gaps) FROM tile_memory")));
  CHECK(totalIncl == std::uint64_t(raw.integer("SELECT sum(including_gaps) FROM tile_memory")));
  CHECK(maxTile == std::uint64_t(raw.integer("SELECT max(excluding_gaps) FROM tile_memory")));
  CHECK(alwaysLive == std::uint64_t(raw.integer("SELECT sum(always_live_bytes) FROM tile_memory")));
  CHECK(c.tiles()[0].memory().total().excludingGaps() ==
        std::uint64_t(raw.integer("SELECT excluding_gaps FROM tile_memory WHERE tile = 0")));

  std::uint64_t peak = 0;
  std::string peakName;
  std::vector<std::uint64_t> curve;
  std::uint64_t alwaysLiveVars = 0;
  for (const auto& v : c.alwaysLiveVariables())
    alwaysLiveVars += v.size();
  CHECK(alwaysLiveVars == alwaysLive);
  for (const auto& s : c.livenessProgramSteps()) {
    curve.push_back(alwaysLiveVars + s.notAlwaysLiveMemory().bytes());
    if (s.notAlwaysLiveMemory().bytes() > peak) {
      peak = s.notAlwaysLiveMemory().bytes();
      peakName = s.program()->name();
    }
  }
  CHECK(peak ==
        std::uint64_t(raw.integer("SELECT max(not_always_live_bytes) FROM liveness_steps")));
  CHECK(peakName ==
        raw.text("SELECT p.name FROM liveness_steps l JOIN programs p ON p.id = l.program "
                 "ORDER BY l.not_always_live_bytes DESC, l.id LIMIT 1"));
  CHECK(*std::max_element(curve.begin(), curve.end()) == alwaysLive + peak);

  // §7.9: a tile's bottleneck from always-live and per-step not-always-live memory.
  const unsigned t = 0;
  std::uint64_t tilePeak = 0;
  for (const auto& s : c.livenessProgramSteps())
    tilePeak = std::max(tilePeak, s.notAlwaysLiveMemoryForTile(t).bytes());
  CHECK(c.tiles()[t].memory().alwaysLiveBytes() + tilePeak ==
        c.tiles()[t].memory().total().excludingGaps());
}

TEST_CASE("Graph counts, compute sets and vertex types (§7.10-13)", "[pva][clients]") {
  const auto report = mlp();
  test::Report raw(test::sampleReport("mlp"));
  const auto c = report.compilation();
  CHECK(c.graph().numComputeSets() ==
        std::uint64_t(raw.integer("SELECT count(*) FROM compute_sets")));
  CHECK(c.graph().numVertices() > 1000);
  CHECK(c.target().numTiles() == 1472);
  CHECK_THAT(report.poplarVersion().string(), Catch::StartsWith("0.1."));
  std::size_t matmuls = 0;
  std::set<std::string> types;
  for (const auto& cs : c.computeSets()) {
    if (std::regex_search(cs.name(), std::regex("MatMul"))) ++matmuls;
    for (const auto& v : cs.vertices())
      types.insert(v.type().name());
  }
  CHECK(matmuls > 2);
  // Matmuls run as PopLibs runs them: 1x1 convolutions' partials vertices.
  CHECK(std::any_of(types.begin(), types.end(), [](const std::string& n) {
    return n.rfind("poplin::ConvPartial1x1Out<float,float,", 0) == 0;
  }));
  CHECK(types.count("poplin::MatMulPartial<float,float>") == 0);
  CHECK(std::none_of(types.begin(), types.end(),
                     [](const std::string& n) { return n.rfind("popops::Cast", 0) == 0; }));
}

TEST_CASE("Cycles: IPU 0 total, compute sets by name, per-tile run cycles, runs (§7.14-18)",
          "[pva][clients]") {
  const auto report = mlp();
  test::Report raw(test::sampleReport("mlp"));
  const auto e = report.execution();
  std::uint64_t ipu0 = 0;
  std::map<std::string, std::uint64_t> byType;
  for (const auto& step : e.steps()) {
    ipu0 += step.ipus()[0].cycles();
    const auto cycles = step.cyclesByTile();
    std::uint64_t sum = 0;
    for (auto v : cycles)
      sum += v;
    byType[Program::typeName(step.program()->type())] += sum;
  }
  CHECK(ipu0 == e.totalCycles().total());
  CHECK(e.totalCycles().total() == std::uint64_t(raw.integer("SELECT sum(cycles) FROM runs")));
  // Tile cycles grouped by program type equal the totals by kind.
  const auto totals = e.tileCycleTotals();
  using K = pva::TileCycleTotals::Kind;
  CHECK(byType["OnTileExecute"] == totals.total(K::Compute));
  // A stream copy's StreamCopyBegin is its host sync: sync cycles, on every tile.
  CHECK(byType["Sync"] + byType["StreamCopyBegin"] == totals.total(K::Sync));
  CHECK(byType["StreamCopyMid"] + byType["StreamCopyEnd"] == totals.total(K::StreamCopy));
  CHECK(byType["DoExchange"] == totals.total(K::InternalExchange));
  // §7.15: a compute set's cycles by name, measured and estimated.
  bool found = false;
  for (const auto& step : e.steps())
    for (const auto& cs : step.computeSets())
      if (cs.name().find("MatMul") != std::string::npos && !found) {
        found = true;
        CHECK(cs.cyclesByTile() == cs.estimatedCyclesByTile());
      }
  CHECK(found);
  // §7.16: per-tile cycles of a run.
  const auto runs = e.runs();
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].name() == "train0");
  std::vector<std::uint64_t> perTile(1472, 0);
  for (const auto& step : runs[0].steps()) {
    const auto cycles = step.cyclesByTile();
    for (std::size_t t = 0; t < cycles.size(); ++t)
      perTile[t] += cycles[t];
  }
  const auto runTotals = runs[0].tileCycleTotals();
  for (std::size_t t = 0; t < 1472; t += 97) {
    std::uint64_t sum = 0;
    for (std::size_t k = 0; k < pva::TileCycleTotals::numKinds; ++k)
      sum += runTotals.byTile(static_cast<K>(k))[t];
    CHECK(perTile[t] == sum);
  }
}

TEST_CASE("Streams, exchanges and the program tree (§7.19-25)", "[pva][clients]") {
  const auto report = mlp();
  const auto e = report.execution();
  const auto runs = e.runs();
  std::size_t mids = 0;
  std::uint64_t toHost = 0;
  for (const auto& step : runs[0].steps())
    if (step.program()->type() == Program::Type::StreamCopyMid) {
      ++mids;
      for (const auto& ipu : step.ipus())
        toHost += ipu.dataOut();
    }
  CHECK(mids == 16 * 4);              // images, labels in; loss, correct out; per step
  CHECK(toHost == 16 * (32 * 4 + 4)); // loss (32 floats) and correct (one unsigned) per step
  std::size_t exchanges = 0;
  for (const auto& p : report.compilation().programs())
    if (p->type() == Program::Type::DoExchange) ++exchanges;
  CHECK(exchanges > 5);
  // §7.22: from the OnEveryTileSwitch down.
  const auto programs = report.compilation().programs();
  auto top = std::find_if(programs.begin(), programs.end(), [](const pva::ProgramPtr& p) {
    return p->type() == Program::Type::OnEveryTileSwitch;
  });
  REQUIRE(top != programs.end());
  const auto entry = (*top)->children().at(0);
  CHECK(entry->type() == Program::Type::Repeat);
  CHECK(static_cast<const pva::RepeatProgram&>(*entry).repeatCount() == 16);
  // §7.23: compute/IO overlap with a visitor over run 0's steps (none: BSP steps do not overlap).
  struct Intervals : pva::ProgramVisitor {
    const pva::ExecutionStep* step = nullptr;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> compute, io;
    void visitOnTileExecute(const pva::OnTileExecuteProgram&) override { add(compute); }
    void visitStreamCopyMid(const pva::StreamCopyMidProgram&) override { add(io); }
    void add(std::vector<std::pair<std::uint64_t, std::uint64_t>>& v) {
      const auto ipu = step->ipus()[0];
      v.push_back({ipu.activeCycles().from().max(), ipu.activeCycles().to().max()});
    }
  } v;
  for (const auto& step : runs[0].steps()) {
    v.step = &step;
    step.program()->accept(v);
  }
  CHECK(v.compute.size() > 100);
  std::uint64_t overlap = 0;
  for (const auto& a : v.compute)
    for (const auto& b : v.io)
      overlap += std::max<std::int64_t>(0, std::int64_t(std::min(a.second, b.second)) -
                                               std::int64_t(std::max(a.first, b.first)));
  CHECK(overlap == 0);
  // §7.26: category totals over an IPU's tiles.
  std::uint64_t vertexCode = 0;
  for (const auto& t : report.compilation().ipus()[0].tiles())
    vertexCode += t.memory().category().vertexCode().total();
  CHECK(vertexCode > 0);
}

TEST_CASE("Two IPUs: global exchanges and per-IPU liveness (§7.21, §7.24)", "[pva][clients]") {
  const auto report = pva::openReport(test::sampleReport("pipeline").string());
  CHECK(report.compilation().target().numIPUs() == 2);
  CHECK(report.compilation().ipus().size() == 2);
  std::size_t globals = 0;
  for (const auto& p : report.compilation().programs())
    if (p->type() == Program::Type::GlobalExchange) ++globals;
  CHECK(globals > 0);
  std::uint64_t skew = 0, ipuSteps = 0;
  for (const auto& step : report.execution().steps())
    for (const auto& ipu : step.ipus()) {
      skew += ipu.allCycles().from().max() - ipu.allCycles().from().min();
      ++ipuSteps;
    }
  CHECK(ipuSteps > report.execution().steps().size()); // some steps run on both IPUs
  CHECK(skew == 0);
  const auto steps = report.compilation().livenessProgramSteps();
  for (const auto& s : steps)
    CHECK(s.notAlwaysLiveMemoryForIpu(0).bytes() + s.notAlwaysLiveMemoryForIpu(1).bytes() ==
          s.notAlwaysLiveBytes());
}

TEST_CASE("Out of memory: detection and target constants (§7.29)", "[pva][clients]") {
  const auto report = pva::openReport(test::sampleReport("oom").string());
  CHECK(report.outOfMemory());
  const auto t = report.compilation().target();
  CHECK(t.tilesPerIpu() == 1472);
  CHECK(t.bytesPerTile() == 638976);
  CHECK(t.bytesPerIPU() == 940572672);
  CHECK(t.clockFrequency() == Approx(1.33e9));
  std::uint64_t overflowed = 0;
  for (const auto& tile : report.compilation().tiles())
    overflowed += tile.memory().overflowed().excludingGaps();
  CHECK(overflowed > 0);
  CHECK(report.execution().runs().empty());
  CHECK(report.execution().totalCycles().total() == 0);
}
