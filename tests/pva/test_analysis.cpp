// The analysis layer (pva/Analysis.hpp) on the samples' reports, against an oracle written here:
// raw SQL over profile.pop and the profiler's own blob decoders, never libpva's reader.
#include "PvaTestUtil.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <pva/Analysis.hpp>
#include <pva/OperationTiles.hpp>

namespace {

using u64 = std::uint64_t;
using Kind = pva::TileCycleTotals::Kind;

pva::Report openSample(const std::string& sample) {
  return pva::openReport(test::sampleReport(sample).string());
}

u64 integer(test::Report& raw, const std::string& sql) {
  return u64(raw.integer(sql));
}

/// Slowest-IPU cycles of each step by program id, and their counts, from the steps table.
struct StepOracle {
  std::map<u64, u64> cyclesByProgram, executionsByProgram;
  u64 total = 0, steps = 0;
  std::map<unsigned, u64> streamIn, streamOut, globalIn, globalOut;
};

StepOracle stepOracle(test::Report& raw, long long run = -1) {
  StepOracle o;
  std::map<u64, std::string> typeOf;
  for (const auto& row : raw.rows("SELECT id, type FROM programs"))
    typeOf[u64(row[0].i)] = row[1].bytes;
  const std::string where = run >= 0 ? " WHERE run = " + std::to_string(run) : "";
  for (const auto& row : raw.rows("SELECT program, ipus FROM steps" + where + " ORDER BY id")) {
    const u64 program = u64(row[0].i);
    const auto ipus = tessera::profiler::decodeStepIpus(row[1].bytes.data(), row[1].bytes.size());
    u64 slowest = 0;
    const std::string& type = typeOf[program];
    for (const auto& ipu : ipus) {
      slowest = std::max(slowest, ipu.cycles);
      if (type.rfind("StreamCopy", 0) == 0) {
        o.streamIn[ipu.ipu] += ipu.dataIn;
        o.streamOut[ipu.ipu] += ipu.dataOut;
      } else if (type == "GlobalExchange") {
        o.globalIn[ipu.ipu] += ipu.dataIn;
        o.globalOut[ipu.ipu] += ipu.dataOut;
      }
    }
    o.cyclesByProgram[program] += slowest;
    ++o.executionsByProgram[program];
    o.total += slowest;
    ++o.steps;
  }
  return o;
}

void checkSummary(const std::string& sample) {
  INFO(sample);
  const pva::Report report = openSample(sample);
  test::Report raw(test::sampleReport(sample));
  const pva::ReportSummary s = pva::summarize(report);
  const u64 replicas = integer(raw, "SELECT num_replicas FROM target");
  const u64 bytesPerTile = integer(raw, "SELECT bytes_per_tile FROM target");

  // Graph.
  CHECK(s.graph.vertices == integer(raw, "SELECT num_vertices FROM graph"));
  CHECK(s.graph.computeSets == integer(raw, "SELECT num_compute_sets FROM graph"));
  CHECK(s.graph.programs == integer(raw, "SELECT count(*) FROM programs"));
  // Two counts named apart: the schedule's liveness steps and the distinct programs they run.
  CHECK(s.graph.livenessSteps == integer(raw, "SELECT count(*) FROM liveness_steps"));
  CHECK(s.graph.livenessSteps >= s.graph.programSteps);

  // Memory: every tile of the device, so each replica's tiles count.
  const pva::MemorySummary& m = s.memory;
  CHECK(m.scope.replicas == pva::Scope::Replicas::AllReplicas);
  CHECK(m.numTiles == integer(raw, "SELECT num_ipus * tiles_per_ipu FROM target"));
  CHECK(m.includingGapsBytes ==
        replicas * integer(raw, "SELECT sum(including_gaps) FROM tile_memory"));
  CHECK(m.excludingGapsBytes ==
        replicas * integer(raw, "SELECT sum(excluding_gaps) FROM tile_memory"));
  CHECK(m.alwaysLiveBytes ==
        replicas * integer(raw, "SELECT sum(always_live_bytes) FROM tile_memory"));
  CHECK(m.overflowedBytes ==
        replicas * integer(raw, "SELECT sum(overflowed_including_gaps) FROM tile_memory"));
  CHECK(m.tilesUsed ==
        replicas * integer(raw, "SELECT count(*) FROM tile_memory WHERE including_gaps > 0"));
  CHECK(m.tilesOutOfMemory ==
        replicas * integer(raw, "SELECT count(*) FROM tile_memory WHERE including_gaps > " +
                                    std::to_string(bytesPerTile)));
  CHECK(m.largestTileIncludingGaps.bytes ==
        integer(raw, "SELECT max(including_gaps) FROM tile_memory"));
  CHECK(m.largestTileIncludingGaps.tile ==
        integer(raw, "SELECT tile FROM tile_memory ORDER BY including_gaps DESC, tile LIMIT 1"));
  CHECK(m.largestTileExcludingGaps.bytes ==
        integer(raw, "SELECT max(excluding_gaps) FROM tile_memory"));

  // Categories and regions: the stored allocations, summed; both add up to allocatedBytes.
  u64 categoriesSum = 0, regionsSum = 0;
  for (const pva::AllocatedBytes& c : m.categories) {
    INFO(c.name);
    const std::string where = " FROM tile_memory_categories WHERE category = '" + c.name + "'";
    CHECK(c.nonOverlapped ==
          replicas * integer(raw, "SELECT coalesce(sum(non_interleaved_non_overlapped + "
                                  "interleaved_non_overlapped + overflowed_non_overlapped), 0)" +
                                      where));
    CHECK(c.overlapped ==
          replicas * integer(raw, "SELECT coalesce(sum(non_interleaved_overlapped + "
                                  "interleaved_overlapped + overflowed_overlapped), 0)" +
                                      where));
    CHECK(c.regionBytes[0] + c.regionBytes[1] + c.regionBytes[2] == c.total());
    categoriesSum += c.total();
  }
  for (const pva::AllocatedBytes& r : m.regions)
    regionsSum += r.total();
  CHECK(categoriesSum == m.allocatedBytes);
  CHECK(regionsSum == m.allocatedBytes);
  CHECK(m.allocatedBytes ==
        replicas * integer(raw,
                           "SELECT sum(non_interleaved_non_overlapped + non_interleaved_overlapped"
                           " + interleaved_non_overlapped + interleaved_overlapped"
                           " + overflowed_non_overlapped + overflowed_overlapped)"
                           " FROM tile_memory_categories"));
  // The histogram holds every tile once.
  u64 binned = 0;
  for (u64 n : m.tilesPerBin)
    binned += n;
  CHECK(binned == m.numTiles);

  // Peak liveness: the first step of the largest not-always-live bytes.
  REQUIRE(m.peakLiveness.known);
  CHECK(m.peakLiveness.notAlwaysLiveBytes ==
        integer(raw, "SELECT max(not_always_live_bytes) FROM liveness_steps"));
  CHECK(m.peakLiveness.step ==
        integer(raw,
                "SELECT id FROM liveness_steps ORDER BY not_always_live_bytes DESC, id LIMIT 1"));
  CHECK(m.peakLiveness.program ==
        raw.text("SELECT p.name FROM liveness_steps l JOIN programs p ON p.id = l.program "
                 "ORDER BY l.not_always_live_bytes DESC, l.id LIMIT 1"));
  CHECK(m.peakLiveness.bytes == m.alwaysLiveBytes + m.peakLiveness.notAlwaysLiveBytes);

  // Execution: the runs' stored totals, and tile cycles by kind from the stored per-tile blobs.
  const pva::ExecutionSummary& x = s.execution;
  CHECK(x.scope.runs == pva::Scope::Runs::AllRuns);
  CHECK(x.scope.describe() == "all runs, one replica");
  if (sample == "oom") { // compiled, never run
    CHECK_FALSE(x.profiled);
    CHECK(x.runs.empty());
    CHECK(x.totalCycles == 0);
    return;
  }
  REQUIRE(x.profiled);
  CHECK(x.runs.size() == integer(raw, "SELECT count(*) FROM runs"));
  CHECK(x.totalCycles == integer(raw, "SELECT sum(cycles) FROM runs"));
  CHECK(x.steps == integer(raw, "SELECT count(*) FROM steps"));
  for (std::size_t k = 0; k < pva::CycleKinds::numKinds; ++k) {
    const Kind kind = static_cast<Kind>(k);
    INFO(pva::TileCycleTotals::kindName(kind));
    u64 sum = 0;
    for (const auto& row : raw.rows("SELECT cycles_by_tile FROM run_tile_cycles WHERE kind = '" +
                                    pva::TileCycleTotals::kindName(kind) + "'"))
      for (u64 v : tessera::profiler::decodeTileValues(row[0].bytes.data(), row[0].bytes.size()))
        sum += v;
    CHECK(x.tileCycles.of(kind) == sum);
  }
  const pva::RunSummary& first = x.runs.front();
  CHECK(first.cycles == integer(raw, "SELECT cycles FROM runs ORDER BY id LIMIT 1"));
  CHECK(first.steps == integer(raw, "SELECT num_steps FROM runs ORDER BY id LIMIT 1"));
  CHECK(first.scope.runs == pva::Scope::Runs::OneRun);
  CHECK(first.scope.runName == raw.text("SELECT name FROM runs ORDER BY id LIMIT 1"));
}

void checkExecution(const std::string& sample) {
  INFO(sample);
  const pva::Report report = openSample(sample);
  test::Report raw(test::sampleReport(sample));
  double lastProgress = -1;
  bool monotonic = true;
  const pva::ExecutionAnalysis e = pva::analyseExecution(report, [&](double done) {
    monotonic = monotonic && done >= lastProgress;
    lastProgress = done;
  });
  CHECK(monotonic);
  CHECK(lastProgress == 1.0);

  const StepOracle all = stepOracle(raw);
  CHECK(e.allRuns.cycles == all.total);
  CHECK(e.allRuns.steps == all.steps);
  REQUIRE(e.allRuns.programs.size() == integer(raw, "SELECT count(*) FROM programs"));
  for (std::size_t id = 0; id < e.allRuns.programs.size(); ++id) {
    INFO("program " << id);
    const pva::ProgramFigures& p = e.allRuns.programs[id];
    CHECK(p.cycles == (all.cyclesByProgram.count(id) ? all.cyclesByProgram.at(id) : 0));
    CHECK(p.executions == (all.executionsByProgram.count(id) ? all.executionsByProgram.at(id) : 0));
    CHECK(p.tileBalance >= 0.0);
    CHECK(p.tileBalance <= 1.0 + 1e-6);
    CHECK(p.parallelEfficiency <= p.tileBalance + 1e-6); // all tiles' balance <= the working tiles'
  }
  // A compute set's cycles are those of the OnTileExecute programs that run it.
  std::map<u64, u64> csCycles;
  for (const auto& row :
       raw.rows("SELECT id, compute_set FROM programs WHERE type = 'OnTileExecute'"))
    if (all.cyclesByProgram.count(u64(row[0].i)))
      csCycles[u64(row[1].i)] += all.cyclesByProgram.at(u64(row[0].i));
  for (std::size_t cs = 0; cs < e.allRuns.computeSets.size(); ++cs) {
    INFO("compute set " << cs);
    CHECK(e.allRuns.computeSets[cs].cycles == (csCycles.count(cs) ? csCycles.at(cs) : 0));
  }
  // Traffic by IPU.
  for (const pva::IpuTraffic& t : e.allRuns.ipus) {
    INFO("IPU " << t.ipu);
    CHECK(t.streamCopyInBytes == (all.streamIn.count(t.ipu) ? all.streamIn.at(t.ipu) : 0));
    CHECK(t.streamCopyOutBytes == (all.streamOut.count(t.ipu) ? all.streamOut.at(t.ipu) : 0));
    CHECK(t.globalExchangeInBytes == (all.globalIn.count(t.ipu) ? all.globalIn.at(t.ipu) : 0));
    CHECK(t.globalExchangeOutBytes == (all.globalOut.count(t.ipu) ? all.globalOut.at(t.ipu) : 0));
  }
  // Runs: each its own span; together they are all runs.
  REQUIRE(e.runs.size() == integer(raw, "SELECT count(*) FROM runs"));
  u64 runCycles = 0, runSteps = 0;
  for (std::size_t r = 0; r < e.runs.size(); ++r) {
    runCycles += e.runs[r].cycles;
    runSteps += e.runs[r].steps;
    CHECK(e.runs[r].scope.runs == pva::Scope::Runs::OneRun);
  }
  CHECK(runCycles == e.allRuns.cycles);
  CHECK(runSteps == e.allRuns.steps);
  const StepOracle firstRun = stepOracle(raw, raw.integer("SELECT min(id) FROM runs"));
  CHECK(e.runs.front().cycles == firstRun.total);
  // Tile cycles per IPU add up to the summary's tile cycles.
  const pva::ExecutionSummary x = pva::summarize(report).execution;
  for (std::size_t k = 0; k < pva::CycleKinds::numKinds; ++k) {
    u64 sum = 0;
    for (const pva::CycleKinds& ipu : e.allRuns.tileCyclesByIpu)
      sum += ipu.cycles[k];
    CHECK(sum == x.tileCycles.cycles[k]);
  }
  // The slowest-IPU step cycles, summed, are the runs' stored cycles on one IPU; where IPUs run
  // different steps at the same time (a pipeline), the sum counts the overlap again.
  if (integer(raw, "SELECT num_ipus FROM target") == 1)
    CHECK(e.allRuns.cycles == x.totalCycles);
  else
    CHECK(e.allRuns.cycles > x.totalCycles); // the pipeline's stages overlap

  // One run has one length: read off the per-IPU timelines, it is the run's stored cycles (the
  // engine's clock) and the summary's, and all runs' is their sum.
  const auto storedRunCycles = raw.rows("SELECT cycles FROM runs ORDER BY id");
  REQUIRE(storedRunCycles.size() == e.runs.size());
  u64 lengths = 0;
  for (std::size_t r = 0; r < e.runs.size(); ++r) {
    INFO("run " << r);
    const pva::SpanFigures& run = e.runs[r];
    CHECK(run.lengthCycles == u64(storedRunCycles[r][0].i));
    CHECK(run.lengthCycles == x.runs[r].cycles);
    REQUIRE(run.cyclesByIpu.size() == std::size_t(integer(raw, "SELECT num_ipus FROM target")));
    CHECK(run.lengthCycles == *std::max_element(run.cyclesByIpu.begin(), run.cyclesByIpu.end()));
    CHECK(run.lengthCycles <= run.cycles);
    // Each IPU's timeline and the steps' slowest IPU: the sum over IPUs counts every IPU.
    u64 overIpus = 0;
    for (u64 c : run.cyclesByIpu)
      overIpus += c;
    CHECK(overIpus >= run.cycles);
    lengths += run.lengthCycles;
  }
  CHECK(e.allRuns.lengthCycles == lengths);
  CHECK(e.allRuns.lengthCycles == x.totalCycles);
  // A stretch of one run: analyseSteps reads the same timelines.
  const pva::SpanFigures firstRunSteps = pva::analyseSteps(report, 0, e.runs.front().steps);
  CHECK(firstRunSteps.lengthCycles == e.runs.front().lengthCycles);
}

} // namespace

TEST_CASE("summarize agrees with raw SQL on the samples' reports", "[pva][analysis]") {
  for (const char* sample : {"mlp", "pipeline", "oom"})
    checkSummary(sample);
}

TEST_CASE("analyseExecution agrees with the steps decoded by hand", "[pva][analysis]") {
  for (const char* sample : {"mlp", "pipeline"})
    checkExecution(sample);
}

TEST_CASE("Scopes say what figures cover", "[pva][analysis]") {
  pva::Scope s;
  CHECK(s.describe() == "one replica");
  s.replicas = pva::Scope::Replicas::AllReplicas;
  CHECK(s.describe() == "all replicas");
  s.runs = pva::Scope::Runs::OneRun;
  s.runName = "train";
  CHECK(s.describe() == "run 'train', all replicas");
}

TEST_CASE("peakLiveBytes: the most bytes live at one step, ends before starts", "[pva][analysis]") {
  CHECK(pva::peakLiveBytes({}) == 0);
  CHECK(pva::peakLiveBytes({{0, 10, 5}, {10, 20, 7}}) == 7); // [0,10) and [10,20) never meet
  CHECK(pva::peakLiveBytes({{0, 10, 5}, {9, 20, 7}}) == 12);
  CHECK(pva::peakLiveBytes({{0, 10, 5}, {2, 4, 1}, {3, 8, 2}, {5, 6, 100}}) == 107);
  CHECK(pva::peakLiveBytes({{4, 4, 99}}) == 0); // an empty life
}

TEST_CASE("An operation's or a group's live bytes never exceed the liveness peak",
          "[pva][analysis]") {
  const pva::Report report =
      pva::openReport(test::sampleReport("mlp").string(),
                      (test::sampleReport("mlp").parent_path() / "debug.cbor").string());
  const u64 peak = pva::summarize(report).memory.peakLiveness.notAlwaysLiveBytes;
  std::vector<pva::Variable> everything;
  u64 plainSum = 0;
  for (const pva::Operation& op : pva::OperationAnalysis(report).operations()) {
    const std::vector<pva::Variable> vars = op.vars();
    CHECK(pva::peakNotAlwaysLiveBytes(vars) <= peak);
    for (const pva::Variable& v : vars)
      if (!v.alwaysLive()) plainSum += v.bytes();
  }
  const std::vector<pva::Variable> all = report.compilation().variables();
  CHECK(pva::peakNotAlwaysLiveBytes(all) == peak); // every variable: the report's own peak
  CHECK(plainSum > peak);                          // what the old column summed
}

TEST_CASE("operationFigures: code, vertices and exchanged bytes of an operation's programs",
          "[pva][analysis]") {
  const pva::Report report =
      pva::openReport(test::sampleReport("mlp").string(),
                      (test::sampleReport("mlp").parent_path() / "debug.cbor").string());
  test::Report raw(test::sampleReport("mlp"));
  u64 vertices = 0, exchanged = 0;
  for (const pva::Operation& op : pva::OperationAnalysis(report).operations()) {
    INFO(op.name());
    const pva::OperationFigures f = pva::operationFigures(op);
    // The oracle: the same sums over the programs table and compute sets by raw SQL.
    std::string ids;
    for (const pva::ProgramPtr& p : op.programs())
      ids += (ids.empty() ? "" : ",") + std::to_string(p->_id());
    if (ids.empty()) {
      CHECK(f.codeBytes == 0);
      continue;
    }
    CHECK(f.exchangeBytes ==
          integer(raw, "SELECT coalesce(sum(data_bytes), 0) FROM programs WHERE id IN (" + ids +
                           ") AND type IN ('DoExchange', 'GlobalExchange', 'StreamCopyBegin', "
                           "'StreamCopyMid', 'StreamCopyEnd')"));
    CHECK(
        f.vertices ==
        integer(raw, "SELECT coalesce(sum(num_vertices), 0) FROM compute_sets WHERE id IN (SELECT "
                     "DISTINCT compute_set FROM programs WHERE id IN (" +
                         ids + ") AND type = 'OnTileExecute')"));
    CHECK(f.computeSets ==
          integer(raw, "SELECT count(DISTINCT compute_set) FROM programs WHERE id IN (" + ids +
                           ") AND type = 'OnTileExecute'"));
    u64 code = 0;
    for (const auto& row :
         raw.rows("SELECT control_code_by_tile, code_bytes_by_tile FROM programs WHERE id IN (" +
                  ids + ")"))
      for (const test::Value& blob : row)
        if (blob.type == test::Value::Blob)
          for (u64 v : tessera::profiler::decodeTileValues(blob.bytes.data(), blob.bytes.size()))
            code += v;
    CHECK(f.codeBytes == code);
    CHECK(f.peakNotAlwaysLiveBytes == pva::peakNotAlwaysLiveBytes(op.vars()));
    vertices += f.vertices;
    exchanged += f.exchangeBytes;
  }
  CHECK(vertices > 0);
  CHECK(exchanged > 0);
}

TEST_CASE("operationTileFigures: an operation's code, vertices and cycles on each tile",
          "[pva][analysis][operationTiles]") {
  for (const char* sample : {"mlp", "pipeline"}) {
    INFO(sample);
    const pva::Report report =
        pva::openReport(test::sampleReport(sample).string(),
                        (test::sampleReport(sample).parent_path() / "debug.cbor").string());
    const std::size_t tiles = report.compilation().target().tilesPerReplica();
    const pva::ExecutionAnalysis execution = pva::analyseExecution(report);
    const pva::TileCycleTotals totals = report.execution().tileCycleTotals();
    std::vector<u64> allOps(tiles, 0);
    u64 executedOps = 0;
    for (const pva::Operation& op : pva::OperationAnalysis(report).operations()) {
      INFO(op.name());
      const pva::OperationTileFigures t = pva::operationTileFigures(report, op);
      const pva::OperationFigures f = pva::operationFigures(op);
      REQUIRE(t.codeBytes.size() == tiles);
      REQUIRE(t.vertices.size() == tiles);
      REQUIRE(t.estimatedCycles.size() == tiles);
      REQUIRE(t.cycles.size() == tiles);
      CHECK(t.profiled);
      auto sum = [](const std::vector<u64>& v) {
        return std::accumulate(v.begin(), v.end(), u64(0));
      };
      auto max = [](const std::vector<u64>& v) { return *std::max_element(v.begin(), v.end()); };
      // Over tiles, the operation's own totals.
      CHECK(sum(t.codeBytes) == f.codeBytes);
      CHECK(sum(t.vertices) == f.vertices);
      // Estimated: the busiest tile never exceeds the estimate that takes each step's slowest tile.
      CHECK(max(t.estimatedCycles) <= op.estimatedCycles());
      if (op.estimatedCycles() > 0) CHECK(max(t.estimatedCycles) > 0);
      // Executed: the steps that ran its programs, and no tile busier than those steps' IPUs took.
      const pva::OperationExecution ran = pva::operationExecution({op}, execution.allRuns);
      CHECK(t.executedSteps == ran.steps);
      CHECK(max(t.cycles) <= ran.cycles);
      if (ran.cycles > 0 && f.vertices > 0) {
        CHECK(max(t.cycles) > 0);
        ++executedOps;
      }
      for (std::size_t i = 0; i < tiles; ++i)
        allOps[i] += t.cycles[i];
    }
    CHECK(executedOps > 0);
    // Operations own disjoint programs: together no tile has more than its recorded cycles.
    for (std::size_t i = 0; i < tiles; ++i) {
      u64 recorded = 0;
      for (std::size_t k = 0; k < pva::TileCycleTotals::numKinds; ++k)
        recorded += totals.byTile(pva::TileCycleTotals::Kind(k))[i];
      INFO("tile " << i);
      CHECK(allOps[i] <= recorded);
    }
  }
}

TEST_CASE("operationOfProgram: each program's owner, as operations() group them",
          "[pva][analysis][debug]") {
  for (const char* sample : {"mlp", "pipeline"}) {
    INFO(sample);
    const pva::Report report =
        pva::openReport(test::sampleReport(sample).string(),
                        (test::sampleReport(sample).parent_path() / "debug.cbor").string());
    const pva::OperationAnalysis analysis(report);
    const std::vector<pva::Operation> ops = analysis.operations();
    const std::vector<std::int64_t>& owner = analysis.operationOfProgram();
    REQUIRE(owner.size() == report.compilation().programs().size());
    std::map<u64, std::int64_t> expected; // from operations()' own program lists
    for (std::size_t i = 0; i < ops.size(); ++i)
      for (const pva::ProgramPtr& p : ops[i].programs())
        expected[p->_id()] = std::int64_t(i);
    std::size_t owned = 0;
    for (std::size_t id = 0; id < owner.size(); ++id) {
      INFO("program " << id);
      CHECK(owner[id] == (expected.count(id) ? expected.at(id) : -1));
      owned += owner[id] >= 0;
    }
    CHECK(owned > 0);
  }
}

TEST_CASE("analyseSteps: a stretch of steps counted as analyseExecution counts a run",
          "[pva][analysis]") {
  const pva::Report report = openSample("mlp");
  test::Report raw(test::sampleReport("mlp"));
  const pva::ExecutionAnalysis e = pva::analyseExecution(report);
  // A whole run: the same figures as the run's.
  const pva::SpanFigures run0 = pva::analyseSteps(report, 0, e.runs[0].steps);
  CHECK(run0.scope.runs == pva::Scope::Runs::OneRun);
  CHECK(run0.scope.runName == e.runs[0].scope.runName);
  CHECK(run0.cycles == e.runs[0].cycles);
  CHECK(run0.steps == e.runs[0].steps);
  for (std::size_t id = 0; id < run0.programs.size(); ++id)
    CHECK(run0.programs[id].cycles == e.runs[0].programs[id].cycles);
  // A stretch across the first run's end: all runs' scope, the slowest IPU of each step summed.
  const u64 first = e.runs[0].steps - 5, count = 12;
  const pva::SpanFigures across = pva::analyseSteps(report, first, count);
  CHECK(across.scope.runs == pva::Scope::Runs::AllRuns);
  CHECK(across.steps == count);
  u64 oracle = 0;
  for (const auto& row : raw.rows("SELECT ipus FROM steps ORDER BY id LIMIT " +
                                  std::to_string(count) + " OFFSET " + std::to_string(first))) {
    u64 slowest = 0;
    for (const auto& ipu :
         tessera::profiler::decodeStepIpus(row[0].bytes.data(), row[0].bytes.size()))
      slowest = std::max(slowest, ipu.cycles);
    oracle += slowest;
  }
  CHECK(across.cycles == oracle);
  CHECK(pva::analyseSteps(report, 3, 0).steps == 0);
  const u64 total = e.allRuns.steps;
  CHECK_THROWS_AS(pva::analyseSteps(report, total - 1, 2), pva::InvalidArgumentError);
  CHECK_THROWS_AS(pva::analyseSteps(report, total + 1, 0), pva::InvalidArgumentError);
}

TEST_CASE("operationExecution: an operation group's cycles in a span, each program once",
          "[pva][analysis]") {
  const pva::Report report =
      pva::openReport(test::sampleReport("mlp").string(),
                      (test::sampleReport("mlp").parent_path() / "debug.cbor").string());
  const pva::ExecutionAnalysis e = pva::analyseExecution(report);
  const std::vector<pva::Operation> ops = pva::OperationAnalysis(report).operations();
  u64 cycles = 0, steps = 0;
  for (const pva::Operation& op : ops) {
    INFO(op.name());
    const pva::OperationExecution x = pva::operationExecution({op}, e.allRuns);
    u64 c = 0, n = 0;
    for (const pva::ProgramPtr& p : op.programs()) {
      c += e.allRuns.programs[p->_id()].cycles;
      n += e.allRuns.programs[p->_id()].executions;
    }
    CHECK(x.cycles == c);
    CHECK(x.steps == n);
    cycles += x.cycles;
    steps += x.steps;
  }
  // Every operation together: each program once, so never more than the whole execution.
  const pva::OperationExecution all = pva::operationExecution(ops, e.allRuns);
  CHECK(all.cycles == cycles);
  CHECK(all.steps == steps);
  CHECK(all.cycles <= e.allRuns.cycles);
  CHECK(all.steps <= e.allRuns.steps);
  CHECK(all.cycles > 0);
  std::vector<pva::Operation> twice = {ops.front(), ops.front()};
  CHECK(pva::operationExecution(twice, e.allRuns).cycles ==
        pva::operationExecution({ops.front()}, e.allRuns).cycles);
}

TEST_CASE("FLOP estimates: each compute set's, and an operation's over its compute sets each once",
          "[pva][analysis]") {
  const auto profile = test::sampleReport("mlp");
  const pva::Report report =
      pva::openReport(profile.string(), (profile.parent_path() / "debug.cbor").string());
  test::Report raw(profile);
  REQUIRE(report.hasFlopEstimates()); // the samples turn profiler.includeFlopEstimates on
  for (const pva::ComputeSet& cs : report.compilation().computeSets()) {
    INFO(cs.name());
    REQUIRE(cs.estimatedFlops());
    CHECK(*cs.estimatedFlops() ==
          integer(raw, "SELECT estimated_flops FROM compute_sets WHERE id = " +
                           std::to_string(cs.id())));
    CHECK(cs.verticesWithoutFlopEstimate() ==
          integer(raw, "SELECT vertices_without_flop_estimate FROM compute_sets WHERE id = " +
                           std::to_string(cs.id())));
  }
  u64 total = 0;
  for (const pva::Operation& op : pva::OperationAnalysis(report).operations()) {
    INFO(op.name());
    const pva::OperationFigures f = pva::operationFigures(op);
    REQUIRE(f.estimatedFlops); // 0 for an operation without compute sets, never "none"
    std::string ids;
    for (const pva::ProgramPtr& p : op.programs())
      ids += (ids.empty() ? "" : ",") + std::to_string(p->_id());
    const std::string sets = "SELECT DISTINCT compute_set FROM programs WHERE id IN (" + ids +
                             ") AND type = 'OnTileExecute'";
    CHECK(*f.estimatedFlops ==
          (ids.empty() ? 0
                       : integer(raw, "SELECT coalesce(sum(estimated_flops), 0) FROM compute_sets "
                                      "WHERE id IN (" +
                                          sets + ")")));
    CHECK(
        f.verticesWithoutFlopEstimate ==
        (ids.empty()
             ? 0
             : integer(raw,
                       "SELECT coalesce(sum(vertices_without_flop_estimate), 0) FROM compute_sets "
                       "WHERE id IN (" +
                           sets + ")")));
    total += *f.estimatedFlops;
  }
  CHECK(total > 0); // the MLP's matmuls do floating-point work
}

TEST_CASE("A report of format 1.0 (no FLOP columns) reads, with no estimate rather than 0",
          "[pva][analysis][compat]") {
  // The mlp report made into a 1.0 one: the two FLOP columns and the meta key dropped.
  test::ScratchDir dir;
  const auto sample = test::sampleReport("mlp");
  std::filesystem::copy_file(sample, dir / "profile.pop");
  std::filesystem::copy_file(sample.parent_path() / "debug.cbor", dir / "debug.cbor");
  test::execSql(dir / "profile.pop",
                "ALTER TABLE compute_sets DROP COLUMN estimated_flops;"
                "ALTER TABLE compute_sets DROP COLUMN vertices_without_flop_estimate;"
                "DELETE FROM meta WHERE key = 'flop_estimates';"
                "UPDATE meta SET value = '1.0.0' WHERE key = 'format_version';");
  const pva::Report old =
      pva::openReport((dir / "profile.pop").string(), (dir / "debug.cbor").string());
  const pva::Report now =
      pva::openReport(sample.string(), (sample.parent_path() / "debug.cbor").string());
  CHECK(old.version().minorVer() == 0);
  CHECK_FALSE(old.hasFlopEstimates());
  const auto sets = old.compilation().computeSets();
  REQUIRE(!sets.empty());
  for (const pva::ComputeSet& cs : sets) {
    CHECK_FALSE(cs.estimatedFlops());
    CHECK_FALSE(cs.verticesWithoutFlopEstimate());
  }
  const auto oldOps = pva::OperationAnalysis(old).operations();
  const auto nowOps = pva::OperationAnalysis(now).operations();
  REQUIRE(oldOps.size() == nowOps.size());
  for (std::size_t i = 0; i < oldOps.size(); ++i) {
    const pva::OperationFigures f = pva::operationFigures(oldOps[i]);
    CHECK_FALSE(f.estimatedFlops);
    CHECK(f.verticesWithoutFlopEstimate == 0);
    CHECK(f.vertices == pva::operationFigures(nowOps[i]).vertices); // the rest reads as before
  }
}

namespace {

/// A program that streams from and to the host and through a remote buffer, run twice.
void writeStreamingReport(const std::filesystem::path& dir) {
  using namespace poplar;
  auto device = test::tinyDevice();
  auto graph = test::makeGraph(device);
  Tensor x = graph.addVariable(FLOAT, {8}, "x");
  graph.setTileMapping(x.slice(0, 4), 1);
  graph.setTileMapping(x.slice(4, 8), 2);
  auto in = graph.addHostToDeviceFIFO("in", FLOAT, 8);
  auto out = graph.addDeviceToHostFIFO("out", FLOAT, 8);
  auto buffer = graph.addRemoteBuffer("store", FLOAT, 8);
  program::Sequence seq{program::Copy(in, x), program::Copy(x, buffer), program::Copy(buffer, x),
                        program::Copy(buffer, x), program::Copy(x, out)};
  Engine engine(graph, seq, test::reportOptions(dir));
  engine.load(device);
  std::vector<float> hostIn(8, 2.0f), hostOut(8, 0.0f);
  engine.connectStream("in", hostIn.data());
  engine.connectStream("out", hostOut.data());
  engine.run(0, "first");
  engine.run(0, "second");
  CHECK(hostOut == hostIn); // the data went through the remote buffer and back
}

/// Slowest-IPU cycles of the stream-copy steps by the stored destination (NULL: "unknown").
std::map<std::string, u64> streamCyclesOracle(test::Report& raw, long long run = -1) {
  const StepOracle o = stepOracle(raw, run);
  std::map<std::string, u64> out;
  for (const auto& row : raw.rows("SELECT id, IFNULL(stream_destination, 'unknown') FROM programs "
                                  "WHERE type LIKE 'StreamCopy%'")) {
    const auto it = o.cyclesByProgram.find(u64(row[0].i));
    if (it != o.cyclesByProgram.end()) out[row[1].bytes] += it->second;
  }
  return out;
}

} // namespace

TEST_CASE("Stream-copy cycles split by destination: host streams and a remote buffer",
          "[pva][analysis][streamCopy]") {
  using D = pva::Program::StreamCopyDestination;
  test::ScratchDir dir;
  writeStreamingReport(dir.path());
  const auto file = dir / "profile.pop";
  {
    const pva::Report report = pva::openReport(file.string());
    std::map<D, int> programs;
    for (const pva::ProgramPtr& p : report.compilation().programs()) {
      const bool stream = p->type() == pva::Program::Type::StreamCopyBegin ||
                          p->type() == pva::Program::Type::StreamCopyMid ||
                          p->type() == pva::Program::Type::StreamCopyEnd;
      CHECK(stream == (p->streamCopyDestination() != D::None));
      ++programs[p->streamCopyDestination()];
    }
    CHECK(programs[D::Host] == 6);         // in and out: Begin, Mid, End each
    CHECK(programs[D::RemoteBuffer] == 9); // one write, two reads
    CHECK(programs[D::Mixed] == 0);
    CHECK(programs[D::Unknown] == 0);
    CHECK(pva::Program::streamCopyDestinationName(D::RemoteBuffer) == "remoteBuffer");

    test::Report raw(file);
    const pva::ExecutionAnalysis a = pva::analyseExecution(report);
    const auto all = streamCyclesOracle(raw);
    CHECK(a.allRuns.streamCopyCycles.host == all.at("host"));
    CHECK(a.allRuns.streamCopyCycles.remoteBuffer == all.at("remoteBuffer"));
    CHECK(a.allRuns.streamCopyCycles.remoteBuffer >
          a.allRuns.streamCopyCycles.host); // three copies against two
    CHECK(a.allRuns.streamCopyCycles.mixed == 0);
    CHECK(a.allRuns.streamCopyCycles.unknown == 0);
    REQUIRE(a.runs.size() == 2);
    u64 runsTotal = 0;
    for (std::size_t r = 0; r < a.runs.size(); ++r) {
      const auto one = streamCyclesOracle(raw, (long long)r);
      CHECK(a.runs[r].streamCopyCycles.host == one.at("host"));
      CHECK(a.runs[r].streamCopyCycles.remoteBuffer == one.at("remoteBuffer"));
      CHECK(a.runs[r].streamCopyCycles.of(D::Host) == one.at("host"));
      runsTotal += a.runs[r].streamCopyCycles.total();
    }
    CHECK(runsTotal == a.allRuns.streamCopyCycles.total());
    // A stretch of steps counts the same way.
    const pva::SpanFigures stretch = pva::analyseSteps(report, 0, a.runs[0].steps);
    CHECK(stretch.streamCopyCycles.remoteBuffer == a.runs[0].streamCopyCycles.remoteBuffer);
  }

  SECTION("a program stored as mixed counts as mixed") {
    test::execSql(
        file,
        "UPDATE programs SET stream_destination = 'mixed' WHERE id = (SELECT MIN(id) FROM programs "
        "WHERE type = 'StreamCopyMid' AND stream_destination = 'host')");
    const pva::Report report = pva::openReport(file.string());
    test::Report raw(file);
    const auto all = streamCyclesOracle(raw);
    const pva::StreamCopyCycles sc = pva::analyseExecution(report).allRuns.streamCopyCycles;
    CHECK(sc.mixed > 0);
    CHECK(sc.mixed == all.at("mixed"));
    CHECK(sc.host == all.at("host"));
  }
  SECTION("an unknown name is a corrupted report") {
    test::execSql(file,
                  "UPDATE programs SET stream_destination = 'pigeon' WHERE type = 'StreamCopyEnd'");
    CHECK_THROWS_AS(pva::openReport(file.string()).compilation().programs(),
                    pva::InvalidReportError);
  }
  SECTION("a report of format 1.2 reads, its stream copies' destination unknown") {
    test::execSql(file, "ALTER TABLE programs DROP COLUMN stream_destination;"
                        "UPDATE meta SET value = '1.2.0' WHERE key = 'format_version';");
    const pva::Report report = pva::openReport(file.string());
    CHECK(report.version().minorVer() == 2);
    for (const pva::ProgramPtr& p : report.compilation().programs())
      if (p->type() == pva::Program::Type::StreamCopyMid)
        CHECK(p->streamCopyDestination() == D::Unknown);
    const pva::SpanFigures all = pva::analyseExecution(report).allRuns;
    CHECK(all.streamCopyCycles.unknown > 0);
    CHECK(all.streamCopyCycles.host == 0);
    CHECK(all.streamCopyCycles.remoteBuffer == 0);
    CHECK(all.streamCopyCycles.total() == all.streamCopyCycles.unknown);
  }
}

TEST_CASE("Stored stream-copy totals equal the pass: host streams and a remote buffer, two runs",
          "[pva][analysis][streamCopy][storedTotals]") {
  test::ScratchDir dir;
  writeStreamingReport(dir.path());
  const auto file = dir / "profile.pop";
  const pva::Report report = pva::openReport(file.string());
  REQUIRE(report.execution().runs().size() == 2);
  test::checkStoredEqualsPass(report, pva::openReport(file.string()));
  const pva::StreamCopySummary s = pva::summarizeStreamCopies(report);
  CHECK(s.stored);
  CHECK(s.allRuns.host > 0);
  CHECK(s.allRuns.remoteBuffer > s.allRuns.host);                // three copies against two
  CHECK(s.runs.at(0).remoteBuffer == s.runs.at(1).remoteBuffer); // the same program each run
  test::Report raw(file);
  CHECK(raw.integer("SELECT count(*) FROM run_stream_copy_cycles") == 2); // a row per run
}

TEST_CASE("summarize is computed once per open report and handed out as a copy",
          "[pva][analysis]") {
  const pva::Report report = openSample("mlp");
  pva::ReportSummary first = pva::summarize(report);
  REQUIRE(!first.execution.runs.empty());
  const u64 bytes = first.memory.includingGapsBytes, cycles = first.execution.totalCycles;
  const std::size_t runs = first.execution.runs.size();
  // What a caller does to its copy is not seen by the next caller, nor by a copy of the report.
  first.memory.includingGapsBytes += 1;
  first.execution.runs.clear();
  const pva::Report sameReport = report;
  for (const pva::ReportSummary& again : {pva::summarize(report), pva::summarize(sameReport)}) {
    CHECK(again.memory.includingGapsBytes == bytes);
    CHECK(again.execution.totalCycles == cycles);
    CHECK(again.execution.runs.size() == runs);
  }
  // Another open of the file computes its own, the same.
  CHECK(pva::summarize(openSample("mlp")).memory.includingGapsBytes == bytes);
}

TEST_CASE("summarize on damage throws on every call, not once", "[pva][analysis][hostile]") {
  // A run's cycles by kind of one byte: the summary's reading fails; nothing half-filled is
  // kept for the next call.
  test::ScratchDir dir;
  std::filesystem::copy_file(test::sampleReport("mlp"), dir / "profile.pop");
  test::execSql(dir / "profile.pop", "UPDATE run_tile_cycles SET cycles_by_tile = X'01'");
  const pva::Report report = pva::openReport((dir / "profile.pop").string());
  const std::string message =
      test::messageOf<pva::InvalidReportError>([&] { pva::summarize(report); });
  CHECK_THAT(message, Catch::Contains("profile.pop"));
  CHECK(test::messageOf<pva::InvalidReportError>([&] { pva::summarize(report); }) == message);
}

TEST_CASE("Vertex cycles by rule: the stored runs' figures, shares adding up, older and damaged "
          "reports",
          "[pva][analysis][cycleRules]") {
  test::ScratchDir dir;
  const auto sample = test::sampleReport("mlp");
  const auto file = dir / "profile.pop";
  std::filesystem::copy_file(sample, file);
  {
    const pva::Report report = pva::openReport(file.string());
    const pva::ReportSummary s = pva::summarize(report);
    const pva::VertexCycleSummary& v = s.vertexCycles;
    test::Report raw(file);
    REQUIRE(v.hasRules);
    REQUIRE(v.hasCycles);
    CHECK(v.scope.describe() == "all runs, one replica");
    CHECK(v.policy == pva::vertexCyclePolicy(s.target));
    REQUIRE(!v.rules.empty());
    double shares = 0, vertexShares = 0;
    for (const pva::VertexCycleRuleFigures& r : v.rules) {
      INFO(r.rule);
      CHECK(r.label == pva::vertexCycleRuleLabel(r.rule));
      CHECK(r.cycles == integer(raw, "SELECT coalesce(sum(cycles), 0) FROM run_vertex_cycle_rules "
                                     "WHERE rule = '" +
                                         r.rule + "'"));
      CHECK(r.vertices == integer(raw, "SELECT coalesce(sum(count), 0) FROM vertex_cycle_rules "
                                       "WHERE rule = '" +
                                           r.rule + "'"));
      shares += r.shareOfVertexCycles;
      vertexShares += r.shareOfVertices;
    }
    CHECK(shares == Approx(1.0));
    CHECK(vertexShares == Approx(1.0));
    CHECK(v.vertices == s.graph.vertices);
    // The busy part of compute excluding idle threads: less by the compute sets' launches.
    REQUIRE(s.execution.hasComputeExcludingIdleThreads);
    CHECK(v.cycles > 0);
    CHECK(v.cycles < s.execution.computeExcludingIdleThreads);
    CHECK((s.execution.computeExcludingIdleThreads - v.cycles) % 30 == 0);
  }
  SECTION("a report of format 1.5 has the rules' vertices, not their cycles") {
    const u64 vertices = pva::summarize(pva::openReport(file.string())).vertexCycles.vertices;
    test::execSql(file, "DROP TABLE run_vertex_cycle_rules;"
                        "UPDATE meta SET value = '1.5.0' WHERE key = 'format_version';");
    const pva::VertexCycleSummary v = pva::summarize(pva::openReport(file.string())).vertexCycles;
    CHECK(v.hasRules);
    CHECK_FALSE(v.hasCycles);
    CHECK(v.vertices == vertices);
    CHECK(v.cycles == 0);
    for (const pva::VertexCycleRuleFigures& r : v.rules)
      CHECK(r.shareOfVertexCycles == 0);
  }
  SECTION("a 1.6 report without the table is corrupted") {
    test::execSql(file, "DROP TABLE run_vertex_cycle_rules;");
    CHECK_THROWS_WITH(pva::openReport(file.string()),
                      Catch::Contains("missing table 'run_vertex_cycle_rules'"));
  }
  SECTION("negative cycles or an unknown rule are a corrupted report") {
    for (const char* damage : {"UPDATE run_vertex_cycle_rules SET cycles = -1",
                               "UPDATE run_vertex_cycle_rules SET rule = 'guesswork'"}) {
      INFO(damage);
      test::ScratchDir other;
      std::filesystem::copy_file(file, other / "profile.pop");
      test::execSql(other / "profile.pop", damage);
      CHECK_THROWS_AS(pva::summarize(pva::openReport((other / "profile.pop").string())),
                      pva::InvalidReportError);
    }
  }
}
