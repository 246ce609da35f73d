// compare(): a report against itself, against a bigger version of the same program, and the
// samples' reports (mlp against mlp with bigger batches, and against the unrelated pipeline) with
// every figure checked against that report's own pva::summarize, analyseExecution and
// operationFigures.
#include "PvaTestUtil.hpp"

#include <set>

namespace {
/// RemoteSum with `n` floats in a, half on tile 0 and half on tile 1.
pva::Report sumReport(const test::ScratchDir& dir, std::size_t n) {
  using namespace poplar;
  auto device = test::tinyDevice();
  auto graph = test::makeGraph(device);
  Tensor a = graph.addVariable(FLOAT, {n}, "a");
  graph.setTileMapping(a.slice(0, n / 2), 0);
  graph.setTileMapping(a.slice(n / 2, n), 1);
  graph.setInitialValue(a, std::vector<float>(n, 1.0f));
  Tensor out = graph.addVariable(FLOAT, {1}, "out");
  graph.setTileMapping(out, 0);
  ComputeSet cs = graph.addComputeSet("sum");
  graph.setTileMapping(graph.addVertex(cs, "SumVertex", {{"in", a}, {"out", out[0]}}), 0);
  {
    Engine engine(graph, program::Execute(cs), test::reportOptions(dir.path()));
    engine.load(device);
    engine.run(0, "train");
  }
  return pva::openReport((dir / "profile.pop").string());
}
} // namespace

TEST_CASE("A report compared with itself shows no change", "[pva][compare]") {
  test::ScratchDir dir;
  const auto r = sumReport(dir, 8);
  const auto c = pva::compare(r, r);
  CHECK(c.hasExecution);
  CHECK(c.memory.totalIncludingGaps.delta() == 0);
  CHECK(c.memory.totalIncludingGaps.relative() == 0.0);
  CHECK(c.memory.peakLiveness.base == c.memory.peakLiveness.current);
  CHECK(c.cycles.total.delta() == 0);
  CHECK(c.liveness.base == c.liveness.current);
  for (const auto& n : c.cycles.computeSets)
    CHECK(n.value.delta() == 0);
}

TEST_CASE("A bigger layer shows where memory and cycles grew", "[pva][compare]") {
  test::ScratchDir small, big;
  const auto base = sumReport(small, 8), current = sumReport(big, 64);
  const auto c = pva::compare(base, current);
  // a grows by 56 floats, the message buffer by 28; the exchange and the vertex take longer.
  CHECK(c.memory.totalExcludingGaps.delta() == 56 * 4 + 28 * 4);
  CHECK(c.memory.maxTileIncludingGaps.delta() > 0);
  CHECK(c.memory.maxTileBase == 0);
  CHECK(c.memory.peakLiveness.delta() > 0);
  bool message = false;
  for (const auto& cat : c.memory.categories)
    if (cat.name == "message") message = cat.value.delta() == 28 * 4;
  CHECK(message);
  REQUIRE(c.cycles.runs.size() == 1);
  CHECK(c.cycles.runs[0].name == "train");
  CHECK(c.cycles.runs[0].inBase);
  CHECK(c.cycles.runs[0].inCurrent);
  // Compute: 6 thread cycles per extra element; exchange: 28 more floats at 4 bytes/cycle.
  const std::int64_t compute = 6 * 56, exchange = 28;
  CHECK(c.cycles.total.delta() == compute + exchange);
  REQUIRE(c.cycles.computeSets.size() == 1);
  CHECK(c.cycles.computeSets[0].name == "sum");
  CHECK(c.cycles.computeSets[0].value.delta() == compute);
  CHECK(c.cycles.total.relative() == Approx(double(compute + exchange) / 211.0));
  bool computeKind = false;
  for (const auto& k : c.cycles.kinds)
    if (k.name == "compute") computeKind = k.value.delta() == compute;
  CHECK(computeKind);
}

#ifdef TESSERA_MLP_SAMPLE
namespace {

pva::Report openSampleWithDebug(const std::string& sample) {
  const auto& profile = test::sampleReport(sample);
  return pva::openReport(profile.string(), (profile.parent_path() / "debug.cbor").string());
}

const pva::NamedComparison* named(const std::vector<pva::NamedComparison>& rows,
                                  const std::string& name) {
  for (const auto& n : rows)
    if (n.name == name) return &n;
  return nullptr;
}

std::uint64_t sumOf(const std::vector<pva::NamedComparison>& rows,
                    std::uint64_t pva::ComparedValue::*side) {
  std::uint64_t s = 0;
  for (const auto& n : rows)
    s += n.value.*side;
  return s;
}

/// Checks one side of a comparison against that report's own figures.
void checkSide(const pva::ReportComparison& c, const pva::Report& r,
               std::uint64_t pva::ComparedValue::*side) {
  const pva::ReportSummary s = pva::summarize(r);
  const pva::Target t = r.compilation().target();
  CHECK(c.target.ipus.*side == t.numIPUs());
  CHECK(c.target.tilesPerIpu.*side == t.tilesPerIpu());
  CHECK(c.target.bytesPerTile.*side == t.bytesPerTile());
  CHECK(c.target.replicas.*side == t.numReplicas());
  // Categories add up to the allocated total, which is the summary's.
  CHECK(c.memory.allocated.*side == s.memory.allocatedBytes);
  CHECK(sumOf(c.memory.categories, side) == s.memory.allocatedBytes);
  // Variables: always live (one replica: the samples have one) and at the peak step.
  CHECK(t.numReplicas() == 1);
  CHECK(c.variables.alwaysLiveTotal.*side == s.memory.alwaysLiveBytes);
  CHECK(sumOf(c.variables.alwaysLive, side) == s.memory.alwaysLiveBytes);
  CHECK(c.variables.atPeakTotal.*side == s.memory.peakLiveness.notAlwaysLiveBytes);
  CHECK(sumOf(c.variables.atPeak, side) == s.memory.peakLiveness.notAlwaysLiveBytes);
  // Cycles: runs add up to the total; programs to every step's cycles; kinds to the tile cycles.
  const pva::ExecutionAnalysis e = pva::analyseExecution(r);
  CHECK(c.cycles.runsTotal.*side == s.execution.totalCycles);
  CHECK(c.cycles.programsTotal.*side == e.allRuns.cycles);
  CHECK(c.cycles.kindsTotal.*side == s.execution.tileCycles.total());
  std::uint64_t computeSets = 0;
  for (const auto& cs : e.allRuns.computeSets)
    computeSets += cs.cycles;
  CHECK(c.cycles.computeSetsTotal.*side == computeSets);
  // Operations: each matched row has its operation's own figures.
  REQUIRE(c.operations.compared);
  const auto ops = pva::OperationAnalysis(r).operations();
  std::uint64_t cycles = 0, code = 0;
  for (const pva::Operation& op : ops) {
    cycles += pva::operationCycles(op, e.allRuns);
    code += pva::operationFigures(op).codeBytes;
    if (op.debugContext()->path().empty()) continue;
    const pva::OperationComparison* found = nullptr;
    for (const auto& o : c.operations.operations)
      if (o.name == op.debugContext()->path()) found = &o;
    REQUIRE(found);
    const pva::OperationFigures f = pva::operationFigures(op);
    CHECK(found->cycles.*side == pva::operationCycles(op, e.allRuns));
    CHECK(found->estimatedCycles.*side == op.estimatedCycles());
    CHECK(found->alwaysLiveBytes.*side == f.alwaysLiveBytes);
    CHECK(found->peakNotAlwaysLiveBytes.*side == f.peakNotAlwaysLiveBytes);
    CHECK(found->codeBytes.*side == f.codeBytes);
  }
  CHECK(c.operations.total.cycles.*side == cycles);
  CHECK(c.operations.total.codeBytes.*side == code);
  // Operations own their programs: their cycles are every step's but those of programs no
  // operation owns, never more.
  CHECK(cycles <= e.allRuns.cycles);
  CHECK(c.operations.total.peakNotAlwaysLiveBytes.*side <=
        s.memory.peakLiveness.notAlwaysLiveBytes);
}

} // namespace

TEST_CASE("Compare on the samples: every figure is each report's own", "[pva][compare][samples]") {
  const pva::Report mlp = openSampleWithDebug("mlp"), big = openSampleWithDebug("mlp-big");
  const pva::ReportComparison c = pva::compare(mlp, big);
  checkSide(c, mlp, &pva::ComparedValue::base);
  checkSide(c, big, &pva::ComparedValue::current);
  // Same program, same device: related, the same target, runs paired by name.
  CHECK(c.target.same());
  CHECK(c.programsInCommon.related);
  CHECK(c.programsInCommon.share > 0.9);
  REQUIRE(c.cycles.matchedRuns.size() == 2);
  for (const auto& r : c.cycles.matchedRuns) {
    CHECK(r.match == pva::RunComparison::Match::ByName);
    CHECK(r.baseName == r.currentName);
    CHECK(r.cycles.delta() > 0);
  }
  // Every operation of one has its partner in the other (same debug paths).
  for (const auto& o : c.operations.operations) {
    CHECK(o.inBase);
    CHECK(o.inCurrent);
  }
  // Bigger batches: the weights stay, the activations grow.
  const auto* weights = named(c.variables.alwaysLive, "layer1/weights");
  REQUIRE(weights);
  CHECK(weights->value.delta() == 0);
  CHECK(c.variables.atPeakTotal.delta() > 0);
}

TEST_CASE("Compare on unrelated samples: runs by position, reports flagged",
          "[pva][compare][samples]") {
  const pva::Report mlp = openSampleWithDebug("mlp"), pipeline = openSampleWithDebug("pipeline");
  const pva::ReportComparison c = pva::compare(mlp, pipeline);
  checkSide(c, mlp, &pva::ComparedValue::base);
  checkSide(c, pipeline, &pva::ComparedValue::current);
  CHECK_FALSE(c.programsInCommon.related);
  CHECK(c.programsInCommon.share < pva::ProgramsInCommon::relatedShare);
  CHECK(c.programsInCommon.namesInCommon < c.programsInCommon.namesCurrent);
  // 1 IPU against 2.
  CHECK_FALSE(c.target.same());
  CHECK(c.target.differences == std::vector<std::string>{"IPUs"});
  // train0 pairs with the pipeline's only run by run number; train1 has no partner.
  REQUIRE(c.cycles.matchedRuns.size() == 2);
  CHECK(c.cycles.matchedRuns[0].match == pva::RunComparison::Match::ByPosition);
  CHECK(c.cycles.matchedRuns[0].baseName == "train0");
  CHECK(c.cycles.matchedRuns[0].currentName == "pipeline");
  CHECK(c.cycles.matchedRuns[1].match == pva::RunComparison::Match::OnlyInBase);
  CHECK(c.cycles.matchedRuns[1].cycles.current == 0);
  CHECK(pva::RunComparison::matchName(c.cycles.matchedRuns[0].match) == "position");
}

TEST_CASE("compareOperations and compareProgramCycles are compare()'s own rows",
          "[pva][compare][samples]") {
  const pva::Report mlp = openSampleWithDebug("mlp"), big = openSampleWithDebug("mlp-big");
  const pva::ReportComparison c = pva::compare(mlp, big);
  const pva::OperationsComparison ops = pva::compareOperations(mlp, big);
  REQUIRE(ops.compared);
  REQUIRE(ops.operations.size() == c.operations.operations.size());
  const auto baseOps = pva::OperationAnalysis(mlp).operations(),
             currentOps = pva::OperationAnalysis(big).operations();
  std::set<std::size_t> currentIndices;
  for (std::size_t i = 0; i < ops.operations.size(); ++i) {
    const pva::OperationComparison &o = ops.operations[i], &whole = c.operations.operations[i];
    CHECK(o.name == whole.name);
    CHECK(o.cycles.base == whole.cycles.base);
    CHECK(o.cycles.current == whole.cycles.current);
    CHECK(o.codeBytes.current == whole.codeBytes.current);
    // The indices lead back to the operation of each report the row was made from.
    REQUIRE(o.inBase);
    REQUIRE(o.inCurrent);
    REQUIRE(o.baseIndex < baseOps.size());
    REQUIRE(o.currentIndex < currentOps.size());
    if (!baseOps[o.baseIndex].debugContext()->path().empty()) {
      CHECK(baseOps[o.baseIndex].debugContext()->path() == o.name);
      CHECK(currentOps[o.currentIndex].debugContext()->path() == o.name);
    }
    CHECK(pva::operationCycles(baseOps[o.baseIndex], pva::analyseExecution(mlp).allRuns) ==
          o.cycles.base);
    CHECK(currentIndices.insert(o.currentIndex).second); // each current operation once
  }
  const std::vector<pva::NamedComparison> programs = pva::compareProgramCycles(mlp, big);
  REQUIRE(programs.size() == c.cycles.programs.size());
  for (std::size_t i = 0; i < programs.size(); ++i) {
    CHECK(programs[i].name == c.cycles.programs[i].name);
    CHECK(programs[i].value.base == c.cycles.programs[i].value.base);
    CHECK(programs[i].value.current == c.cycles.programs[i].value.current);
  }
  // Programs of the oom report never ran: every row of it counts 0.
  const pva::Report oom = openSampleWithDebug("oom");
  for (const pva::NamedComparison& p : pva::compareProgramCycles(oom, mlp))
    CHECK(p.value.base == 0);
}
#endif

TEST_CASE("Without debug information operations are not compared", "[pva][compare]") {
  test::ScratchDir dir;
  const auto r = sumReport(dir, 8); // opened without debug.cbor
  const auto c = pva::compare(r, r);
  CHECK_FALSE(c.operations.compared);
  CHECK(c.operations.operations.empty());
  CHECK(c.target.same());
  CHECK(c.programsInCommon.related);
  CHECK(c.programsInCommon.share == 1.0);
  REQUIRE(c.cycles.matchedRuns.size() == 1);
  CHECK(c.cycles.matchedRuns[0].match == pva::RunComparison::Match::ByName);
  CHECK(c.cycles.runsTotal.delta() == 0);
}

TEST_CASE("Runs pair by name, then by run number", "[pva][compare]") {
  // Renamed runs of the same program pair by position; a run added at the end has no partner.
  test::RemoteSumReport two(2), three(3);
  const auto c = pva::compare(two.report, three.report);
  REQUIRE(c.cycles.matchedRuns.size() == 3);
  CHECK(c.cycles.matchedRuns[0].match == pva::RunComparison::Match::ByName);
  CHECK(c.cycles.matchedRuns[1].match == pva::RunComparison::Match::ByName);
  CHECK(c.cycles.matchedRuns[2].match == pva::RunComparison::Match::OnlyInCurrent);
  CHECK(c.cycles.matchedRuns[2].currentName == "run2");
  CHECK(c.cycles.matchedRuns[2].inCurrent());
  CHECK_FALSE(c.cycles.matchedRuns[2].inBase());
  CHECK(c.cycles.runsTotal.current == c.cycles.total.current);
  CHECK(c.operations.compared);
}
