// pva::summarize: the report's headline figures, from the tiles' memory columns, the liveness
// steps and the runs' stored totals. Every front end renders this value; none sums tiles itself.
#include "../model/Access.hpp"
#include "../model/Saturating.hpp"
#include "AnalysisCache.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <pva/Analysis.hpp>

namespace pva {

std::string Scope::describe() const {
  std::string runsText;
  switch (runs) {
  case Runs::OneRun:
    runsText = "run '" + runName + "'";
    break;
  case Runs::AllRuns:
    runsText = "all runs";
    break;
  case Runs::NotApplicable:
    break;
  }
  const std::string replicasText =
      replicas == Replicas::AllReplicas ? "all replicas" : "one replica";
  return runsText.empty() ? replicasText : runsText + ", " + replicasText;
}

const std::vector<std::string>& MemorySummary::regionNames() {
  static const std::vector<std::string> names{"Non-interleaved", "Interleaved", "Overflowed"};
  return names;
}

std::uint64_t CycleKinds::total() const {
  std::uint64_t sum = 0;
  for (std::uint64_t c : cycles)
    detail::addTo(sum, c);
  return sum;
}

double CycleKinds::shareOfTileCycles(TileCycleTotals::Kind k) const {
  const std::uint64_t all = total();
  return all ? double(of(k)) / double(all) : 0.0;
}

const std::string& CycleKinds::label(TileCycleTotals::Kind k) {
  static const std::vector<std::string> labels{"Compute", "Internal exchange", "Global exchange",
                                               "Stream copy", "Sync"};
  return labels.at(static_cast<std::size_t>(k));
}

double ExecutionSummary::tileAverageCycles(TileCycleTotals::Kind k) const {
  return tilesPerReplica ? double(tileCycles.of(k)) / double(tilesPerReplica) : 0.0;
}

double ExecutionSummary::tileAverageShareOfTotal(TileCycleTotals::Kind k) const {
  return totalCycles ? tileAverageCycles(k) / double(totalCycles) : 0.0;
}

double ExecutionSummary::tileAverageComputeExcludingIdleThreads() const {
  return tilesPerReplica ? double(computeExcludingIdleThreads) / double(tilesPerReplica) : 0.0;
}

double ExecutionSummary::tileAverageComputeExcludingIdleThreadsShareOfTotal() const {
  return totalCycles ? tileAverageComputeExcludingIdleThreads() / double(totalCycles) : 0.0;
}

namespace {

// A file's host times are anything it says: their difference saturates rather than overflow
// (found by fuzz_report: a run ending at INT64_MIN).
std::int64_t hostDuration(const MicrosecondInterval& us) {
  std::int64_t d = 0;
  if (!__builtin_sub_overflow(us.end(), us.start(), &d)) return d;
  return us.end() < us.start() ? std::numeric_limits<std::int64_t>::min()
                               : std::numeric_limits<std::int64_t>::max();
}

CycleKinds kindsOf(const TileCycleTotals& totals) {
  CycleKinds k;
  for (std::size_t i = 0; i < CycleKinds::numKinds; ++i)
    k.cycles[i] = totals.total(static_cast<TileCycleTotals::Kind>(i));
  return k;
}

GraphCounts graphCounts(const CompilationReport& c) {
  const Graph g = c.graph();
  GraphCounts counts;
  counts.vertices = g.numVertices();
  counts.computeSets = g.numComputeSets();
  counts.variables = g.numVariables();
  counts.edges = g.numEdges();
  const auto programs = c.programs();
  counts.programs = programs.size();
  for (const auto& p : programs)
    counts.programSteps += p->isStep() ? 1 : 0;
  counts.livenessSteps = c.livenessProgramSteps().size();
  return counts;
}

// Bins of whole KiB in a 1-2-5 width, at most 20 of them (as Poplar's summary histogram).
void histogram(MemorySummary& m, const std::vector<std::uint64_t>& excluding) {
  if (excluding.empty()) return;
  const auto range = std::minmax_element(excluding.begin(), excluding.end());
  const std::uint64_t lo = *range.first / 1024, hi = *range.second / 1024, span = hi - lo + 1;
  std::uint64_t width = 1;
  for (std::uint64_t scale = 1;; scale *= 10) {
    if (span <= 20 * scale) {
      width = scale;
      break;
    }
    if (span <= 40 * scale) {
      width = 2 * scale;
      break;
    }
    if (span <= 100 * scale) {
      width = 5 * scale;
      break;
    }
  }
  const std::uint64_t first = lo / width;
  m.binStartBytes = first * width * 1024;
  m.binWidthBytes = width * 1024;
  m.tilesPerBin.assign(hi / width - first + 1, 0);
  for (std::uint64_t bytes : excluding)
    ++m.tilesPerBin[bytes / 1024 / width - first];
}

MemorySummary memorySummary(const CompilationReport& c, const Tiles& tiles,
                            std::uint64_t bytesPerTile, bool withLiveness) {
  MemorySummary m;
  m.scope.replicas = Scope::Replicas::AllReplicas;
  m.categories.resize(MemoryCategories::size());
  for (std::size_t i = 0; i < m.categories.size(); ++i)
    m.categories[i].name = MemoryCategories::names()[i];
  m.regions.resize(3);
  for (std::size_t r = 0; r < 3; ++r)
    m.regions[r].name = MemorySummary::regionNames()[r];
  m.numTiles = unsigned(tiles.size());
  if (__builtin_mul_overflow(bytesPerTile, std::uint64_t(tiles.size()), &m.capacityBytes))
    m.capacityBytes = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::uint64_t> excluding;
  excluding.reserve(tiles.size());
  bool first = true;
  for (const Tile& t : tiles) {
    const TileMemory& memory = t.memory();
    const std::uint64_t incl = memory.total().includingGaps(),
                        excl = memory.total().excludingGaps();
    detail::addTo(m.includingGapsBytes, incl);
    detail::addTo(m.excludingGapsBytes, excl);
    detail::addTo(m.alwaysLiveBytes, memory.alwaysLiveBytes());
    detail::addTo(m.overflowedBytes, memory.overflowed().includingGaps());
    m.tilesUsed += incl > 0 ? 1 : 0;
    m.tilesOutOfMemory += incl > bytesPerTile ? 1 : 0;
    if (first || incl > m.largestTileIncludingGaps.bytes)
      m.largestTileIncludingGaps = {t.number(), t.ipu(), incl};
    if (first || excl > m.largestTileExcludingGaps.bytes)
      m.largestTileExcludingGaps = {t.number(), t.ipu(), excl};
    first = false;
    excluding.push_back(excl);
    const MemoryCategories& categories = memory.category();
    for (std::size_t i = 0; i < MemoryCategories::size(); ++i) {
      const CategoryMemory& cat = categories.at(i);
      const OverlapBytes* byRegion[3] = {&cat.nonInterleaved(), &cat.interleaved(),
                                         &cat.overflowed()};
      for (std::size_t r = 0; r < 3; ++r) {
        detail::addTo(m.categories[i].nonOverlapped, byRegion[r]->nonOverlapped());
        detail::addTo(m.categories[i].overlapped, byRegion[r]->overlapped());
        detail::addTo(m.categories[i].regionBytes[r], byRegion[r]->total());
        detail::addTo(m.regions[r].nonOverlapped, byRegion[r]->nonOverlapped());
        detail::addTo(m.regions[r].overlapped, byRegion[r]->overlapped());
      }
    }
  }
  for (std::size_t r = 0; r < 3; ++r)
    m.regions[r].regionBytes[r] = m.regions[r].total();
  for (const AllocatedBytes& category : m.categories)
    detail::addTo(m.allocatedBytes, category.total());
  histogram(m, excluding);
  if (!withLiveness) return m;

  // The first step of the largest not-always-live bytes; every front end names this step.
  for (const ProgramStep& step : c.livenessProgramSteps())
    if (!m.peakLiveness.known || step.notAlwaysLiveBytes() > m.peakLiveness.notAlwaysLiveBytes) {
      m.peakLiveness.known = true;
      m.peakLiveness.notAlwaysLiveBytes = step.notAlwaysLiveBytes();
      m.peakLiveness.step = step.index();
      const ProgramPtr program = step.program();
      m.peakLiveness.program = program ? program->name() : std::string();
    }
  m.peakLiveness.bytes =
      detail::saturatingAdd(m.alwaysLiveBytes, m.peakLiveness.notAlwaysLiveBytes);
  return m;
}

ExecutionSummary executionSummary(const ExecutionReport& e, const Target& target) {
  ExecutionSummary x;
  x.scope.runs = Scope::Runs::AllRuns;
  x.tilesPerReplica = target.tilesPerReplica();
  const std::vector<Run> runs = e.runs();
  x.profiled = !runs.empty();
  for (const Run& r : runs) {
    RunSummary run;
    run.scope.runs = Scope::Runs::OneRun;
    run.scope.runName = r.name();
    run.index = r.index();
    run.name = r.name();
    run.steps = r.steps().size();
    run.cycles = r.cycles();
    run.hostMicroseconds = hostDuration(r.microseconds());
    run.tileCycles = kindsOf(r.tileCycleTotals());
    detail::addTo(x.steps, run.steps);
    x.runs.push_back(std::move(run));
  }
  x.totalCycles = e.totalCycles().total();
  if (x.profiled) {
    const TileCycleTotals totals = e.tileCycleTotals();
    x.tileCycles = kindsOf(totals);
    x.hasComputeExcludingIdleThreads = totals.hasComputeExcludingIdleThreads();
    x.computeExcludingIdleThreads = totals.totalComputeExcludingIdleThreads();
  }
  return x;
}

/// The runs' stored stream-copy cycles (format 1.7 on), when every run has its row; a report
/// without them (older, or a run without its row) keeps hasStreamCopyCycles false and zeros.
void storedStreamCopies(storage::ReportStore& store, ExecutionSummary& x) {
  if (!store.hasRunStreamCopies()) return;
  std::map<unsigned, const storage::RunStreamCopyRow*> byRun;
  const std::vector<storage::RunStreamCopyRow> rows = store.runStreamCopyCycles();
  for (const storage::RunStreamCopyRow& row : rows)
    byRun[row.run] = &row;
  for (const RunSummary& run : x.runs)
    if (!byRun.count(run.index)) return;
  StreamCopyCycles all;
  for (RunSummary& run : x.runs) {
    const storage::RunStreamCopyRow& row = *byRun[run.index];
    run.streamCopyCycles.host = row.cycles[0];
    run.streamCopyCycles.remoteBuffer = row.cycles[1];
    run.streamCopyCycles.mixed = row.cycles[2];
    detail::addTo(all.host, row.cycles[0]);
    detail::addTo(all.remoteBuffer, row.cycles[1]);
    detail::addTo(all.mixed, row.cycles[2]);
  }
  x.streamCopyCycles = all;
  x.hasStreamCopyCycles = true;
}

} // namespace

std::uint64_t peakLiveBytes(std::vector<LiveRange> ranges) {
  // Ends before starts at the same step: [from, to) ranges that only touch never overlap. The
  // sweep counts in 128 bits, so no set of ranges overflows it (a damaged report may hold
  // variables of 2^63 bytes); the peak saturates at 2^64 - 1.
  struct Edge {
    std::uint64_t step;
    bool start;
    std::uint64_t bytes;
    bool operator<(const Edge& o) const { return step != o.step ? step < o.step : start < o.start; }
  };
  std::vector<Edge> edges;
  edges.reserve(ranges.size() * 2);
  for (const LiveRange& r : ranges)
    if (r.to > r.from && r.bytes) {
      edges.push_back({r.from, true, r.bytes});
      edges.push_back({r.to, false, r.bytes});
    }
  std::sort(edges.begin(), edges.end());
  // 128 bits: a hostile report's sizes may sum past 2^64 before the result saturates.
  // __extension__: GCC's and clang's 128-bit integer, without -Wpedantic's warning.
  __extension__ using Wide = unsigned __int128;
  Wide live = 0, peak = 0;
  for (const Edge& e : edges) {
    if (e.start)
      live += e.bytes;
    else
      live -= e.bytes;
    peak = std::max(peak, live);
  }
  return peak > std::numeric_limits<std::uint64_t>::max()
             ? std::numeric_limits<std::uint64_t>::max()
             : std::uint64_t(peak);
}

std::uint64_t peakNotAlwaysLiveBytes(const std::vector<Variable>& variables) {
  std::vector<LiveRange> ranges;
  ranges.reserve(variables.size());
  for (const Variable& v : variables)
    if (!v.alwaysLive()) ranges.push_back({v.liveFrom(), v.liveTo(), v.bytes()});
  return peakLiveBytes(std::move(ranges));
}

/// Each rule's vertices (vertex_cycle_rules) and cycles over all runs (run_vertex_cycle_rules).
static VertexCycleSummary vertexCycleSummary(const Report& report, const ReportSummary& s) {
  VertexCycleSummary v;
  v.scope.runs = Scope::Runs::AllRuns;
  v.policy = vertexCyclePolicy(s.target);
  auto& store = detail::Access::state(report)->store;
  v.hasRules = store.hasCycleRules();
  v.hasCycles = store.hasRunCycleRules() && s.execution.profiled;
  std::map<std::string, VertexCycleRuleFigures> byRule;
  for (const VertexCycleRule& r : s.vertexCycleRules) {
    VertexCycleRuleFigures& f = byRule[r.rule];
    f.vertices = detail::saturatingAdd(f.vertices, r.count);
  }
  if (v.hasCycles)
    for (const auto& row : store.runVertexCycleRuleTotals())
      byRule[row.rule].cycles = row.cycles;
  for (auto& [rule, f] : byRule) {
    f.rule = rule;
    f.label = vertexCycleRuleLabel(rule);
    v.vertices = detail::saturatingAdd(v.vertices, f.vertices);
    v.cycles = detail::saturatingAdd(v.cycles, f.cycles);
  }
  for (auto& [rule, f] : byRule) {
    if (v.vertices) f.shareOfVertices = double(f.vertices) / double(v.vertices);
    if (v.cycles) f.shareOfVertexCycles = double(f.cycles) / double(v.cycles);
    v.rules.push_back(std::move(f));
  }
  return v;
}

MemorySummary summarizeMemory(const Report& report, const Tiles& tiles) {
  const CompilationReport c = report.compilation();
  const bool all = tiles.size() == c.tiles().size();
  MemorySummary m = memorySummary(c, tiles, c.target().bytesPerTile(), all);
  if (!all) m.scope.replicas = Scope::Replicas::OneReplica;
  return m;
}

std::shared_ptr<const ReportSummary> sharedSummary(const Report& report) {
  // Computed once per open report; a report whose reading throws is read again (and throws
  // again) on the next call.
  const std::shared_ptr<detail::ReportState> state = detail::Access::state(report);
  detail::Lazy<ReportSummary>& cached = detail::analysisCache(*state).summary;
  const ReportSummary& kept = cached.get([&] {
    const CompilationReport c = report.compilation();
    ReportSummary& s = cached.value;
    s.target = c.target();
    s.graph = graphCounts(c);
    s.memory = memorySummary(c, c.tiles(), s.target.bytesPerTile(), true);
    s.execution = executionSummary(report.execution(), s.target);
    storedStreamCopies(detail::Access::state(report)->store, s.execution);
    s.vertexCycleRules.clear();
    for (auto& row : detail::Access::state(report)->store.vertexCycleRuleTotals())
      s.vertexCycleRules.push_back({std::move(row.rule), row.count});
    s.vertexCycles = vertexCycleSummary(report, s);
    detail::countDerivation(detail::Derivation::Summary);
  });
  return std::shared_ptr<const ReportSummary>(state, &kept); // shares the report's ownership
}

ReportSummary summarize(const Report& report) {
  return *sharedSummary(report);
}

StreamCopySummary summarizeStreamCopies(const Report& report) {
  const std::shared_ptr<const ReportSummary> summary = sharedSummary(report);
  const ExecutionSummary& x = summary->execution;
  StreamCopySummary out;
  if (x.hasStreamCopyCycles || !x.profiled) {
    out.stored = x.hasStreamCopyCycles;
    for (const RunSummary& run : x.runs)
      out.runs.push_back(run.streamCopyCycles);
    out.allRuns = x.streamCopyCycles;
    return out;
  }
  // An older report: the pass over the steps (kept with the open report, so a later
  // analyseExecution costs nothing more).
  const std::shared_ptr<const ExecutionAnalysis> a = sharedExecutionAnalysis(report);
  for (const SpanFigures& run : a->runs)
    out.runs.push_back(run.streamCopyCycles);
  out.allRuns = a->allRuns.streamCopyCycles;
  return out;
}

std::string vertexCycleRuleLabel(const std::string& rule) {
  static const std::map<std::string, std::string> labels{
      {"getCycleEstimate", "declared estimate (getCycleEstimate)"},
      {"setPerfEstimate", "declared estimate (setPerfEstimate)"},
      {"registerPerfEstimator", "registered estimator (registerPerfEstimator)"},
      {"executed", "measured by execution (executed)"},
      {"fieldSizes", "field-size default (fieldSizes)"}};
  const auto it = labels.find(rule);
  return it == labels.end() ? rule : it->second;
}

std::string vertexCyclePolicy(const Target& target) {
  switch (target.type()) {
  case Target::Type::Ipu:
    return "IPU hardware: every vertex of a counted codelet file is measured by execution, "
           "declared estimates ignored";
  case Target::Type::IpuModel:
    return "IPU Model: declared estimates first, codelet vertices without one measured by "
           "execution";
  case Target::Type::Cpu:
    return "CPU: declared estimates first";
  case Target::Type::Unknown:
    break;
  }
  return "unknown target type: declared estimates first";
}

} // namespace pva
