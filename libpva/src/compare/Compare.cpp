// compare(): two reports side by side, from each report's pva::summarize, analyseExecution and
// operationFigures, so a compared figure is the figure `pva summary`, the viewer and Python show
// for that report. The pairing of rows is in Matching.cpp; targets, variables and operations in
// their own files.
#include "../model/Saturating.hpp"
#include "Matching.hpp"
#include "Parts.hpp"

#include <algorithm>
#include <limits>
#include <pva/Analysis.hpp>
#include <pva/Compare.hpp>

namespace pva {

double ComparedValue::relative() const {
  if (base == 0) return current == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  // From the values themselves: a saturated delta would understate a change beyond 2^63.
  return current >= base ? double(current - base) / double(base)
                         : -(double(base - current) / double(base));
}

const std::string& RunComparison::matchName(Match m) {
  static const std::string names[] = {"name", "position", "only in base", "only in current"};
  return names[static_cast<std::size_t>(m)];
}

namespace {

using detail::NamedValues;

/// What the comparison needs of one report: its summary, and its program cycles when it ran.
struct Side {
  ReportSummary summary;
  ExecutionAnalysis execution; ///< empty when the report has no runs
  NamedValues categories, runs, computeSets, programs, kinds;
  std::vector<detail::RunFigures> runList;
  std::vector<std::string> programNames;
  std::vector<std::uint64_t> tiles, liveness;
};

/// Step programs' executed cycles, all runs, by name (programs sharing a name add up).
NamedValues programCycles(const CompilationReport& c, const ExecutionAnalysis& e) {
  NamedValues named;
  const auto programs = c.programs();
  for (std::size_t i = 0; i < programs.size() && i < e.allRuns.programs.size(); ++i)
    if (e.allRuns.programs[i].executions)
      detail::addTo(named[programs[i]->name()], e.allRuns.programs[i].cycles);
  return named;
}

/// analyseExecution, or nothing for a report that did not run.
ExecutionAnalysis executionOf(const Report& r) {
  return r.execution().runs().empty() ? ExecutionAnalysis() : analyseExecution(r);
}

Side read(const Report& r) {
  Side s;
  s.summary = summarize(r);
  for (const AllocatedBytes& category : s.summary.memory.categories)
    s.categories[category.name] = category.total();
  const auto c = r.compilation();
  for (const Tile& t : c.tiles())
    s.tiles.push_back(t.memory().total().includingGaps());
  for (const ProgramStep& step : c.livenessProgramSteps())
    s.liveness.push_back(
        detail::saturatingAdd(s.summary.memory.alwaysLiveBytes, step.notAlwaysLiveBytes()));
  const auto programs = c.programs();
  for (const ProgramPtr& p : programs)
    s.programNames.push_back(p->name());
  const ExecutionSummary& x = s.summary.execution;
  if (!x.profiled) return s;
  for (const RunSummary& run : x.runs) {
    detail::addTo(s.runs[run.name], run.cycles);
    s.runList.push_back({run.index, run.name, run.cycles, run.steps});
  }
  for (std::size_t k = 0; k < CycleKinds::numKinds; ++k) {
    const auto kind = static_cast<TileCycleTotals::Kind>(k);
    s.kinds[TileCycleTotals::kindName(kind)] = x.tileCycles.of(kind);
  }
  // Named figures: programs (and compute sets) sharing a name add up.
  s.execution = analyseExecution(r);
  const ExecutionAnalysis& e = s.execution;
  s.programs = programCycles(c, e);
  const auto computeSets = c.computeSets();
  for (std::size_t i = 0; i < computeSets.size() && i < e.allRuns.computeSets.size(); ++i)
    if (e.allRuns.computeSets[i].executions)
      detail::addTo(s.computeSets[computeSets[i].name()], e.allRuns.computeSets[i].cycles);
  return s;
}

} // namespace

ReportComparison compare(const Report& base, const Report& current) {
  using detail::matchByName;
  using detail::totalOf;
  const Side a = read(base), b = read(current);
  const MemorySummary &ma = a.summary.memory, &mb = b.summary.memory;
  ReportComparison c;
  auto& m = c.memory;
  m.totalIncludingGaps = {ma.includingGapsBytes, mb.includingGapsBytes};
  m.totalExcludingGaps = {ma.excludingGapsBytes, mb.excludingGapsBytes};
  m.maxTileIncludingGaps = {ma.largestTileIncludingGaps.bytes, mb.largestTileIncludingGaps.bytes};
  m.maxTileBase = ma.largestTileIncludingGaps.tile;
  m.maxTileCurrent = mb.largestTileIncludingGaps.tile;
  m.alwaysLive = {ma.alwaysLiveBytes, mb.alwaysLiveBytes};
  m.peakLiveness = {ma.peakLiveness.bytes, mb.peakLiveness.bytes};
  m.peakStepBase = ma.peakLiveness.step;
  m.peakStepCurrent = mb.peakLiveness.step;
  m.categories = matchByName(a.categories, b.categories);
  m.allocated = {ma.allocatedBytes, mb.allocatedBytes};
  for (std::size_t t = 0; t < std::max(a.tiles.size(), b.tiles.size()); ++t)
    m.tilesIncludingGaps.push_back(
        {t < a.tiles.size() ? a.tiles[t] : 0, t < b.tiles.size() ? b.tiles[t] : 0});
  c.liveness.base = a.liveness;
  c.liveness.current = b.liveness;
  c.hasExecution = a.summary.execution.profiled && b.summary.execution.profiled;
  c.cycles.total = {a.summary.execution.totalCycles, b.summary.execution.totalCycles};
  c.cycles.runs = matchByName(a.runs, b.runs);
  c.cycles.computeSets = matchByName(a.computeSets, b.computeSets);
  c.cycles.programs = matchByName(a.programs, b.programs);
  c.cycles.kinds = matchByName(a.kinds, b.kinds);
  c.cycles.matchedRuns = detail::matchRuns(a.runList, b.runList);
  c.cycles.basis = runBasis(base, current);
  for (const RunComparison& r : c.cycles.matchedRuns) {
    detail::addTo(c.cycles.runsTotal.base, r.cycles.base);
    detail::addTo(c.cycles.runsTotal.current, r.cycles.current);
  }
  c.cycles.computeSetsTotal = totalOf(c.cycles.computeSets);
  c.cycles.programsTotal = totalOf(c.cycles.programs);
  c.cycles.kindsTotal = {a.summary.execution.tileCycles.total(),
                         b.summary.execution.tileCycles.total()};
  if (c.hasExecution) {
    const StreamCopyCycles &sa = a.execution.allRuns.streamCopyCycles,
                           &sb = b.execution.allRuns.streamCopyCycles;
    auto row = [](const char* name, std::uint64_t inBase, std::uint64_t inCurrent) {
      NamedComparison n;
      n.name = name;
      n.inBase = n.inCurrent = true;
      n.value = {inBase, inCurrent};
      return n;
    };
    c.cycles.streamCopies = {
        row("host", sa.host, sb.host), row("remoteBuffer", sa.remoteBuffer, sb.remoteBuffer),
        row("mixed", sa.mixed, sb.mixed), row("unknown", sa.unknown, sb.unknown)};
    c.cycles.streamCopiesTotal = {sa.total(), sb.total()};
  }
  c.target = detail::compareTargets(a.summary.target, b.summary.target);
  c.variables = detail::compareVariables(base, a.summary, current, b.summary);
  c.operations = detail::compareOperations(base, a.execution, current, b.execution);
  c.programsInCommon = detail::programsInCommon(a.programNames, b.programNames);
  return c;
}

OperationsComparison compareOperations(const Report& base, const Report& current) {
  if (!base.hasDebugInfo() || !current.hasDebugInfo())
    return detail::compareOperations(base, {}, current, {});
  return detail::compareOperations(base, executionOf(base), current, executionOf(current));
}

OperationsComparison compareOperations(const Report& base, const ExecutionAnalysis& baseExecution,
                                       const Report& current,
                                       const ExecutionAnalysis& currentExecution) {
  return detail::compareOperations(base, baseExecution, current, currentExecution);
}

std::vector<NamedComparison> compareProgramCycles(const Report& base, const Report& current) {
  return compareProgramCycles(base, executionOf(base), current, executionOf(current));
}

std::vector<NamedComparison> compareProgramCycles(const Report& base,
                                                  const ExecutionAnalysis& baseExecution,
                                                  const Report& current,
                                                  const ExecutionAnalysis& currentExecution) {
  return detail::matchByName(programCycles(base.compilation(), baseExecution),
                             programCycles(current.compilation(), currentExecution));
}

} // namespace pva
