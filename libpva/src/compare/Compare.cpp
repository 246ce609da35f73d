// compare(): two reports side by side, from each report's pva::summarize and analyseExecution, so
// a compared figure is the figure `pva summary`, the viewer and Python show for that report.
#include <pva/Analysis.hpp>
#include <pva/Compare.hpp>

#include <algorithm>
#include <limits>
#include <map>

namespace pva {

double ComparedValue::relative() const {
  if (base == 0) return current == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return double(delta()) / double(base);
}

namespace {

/// What the comparison needs of one report: its summary, and its program cycles when it ran.
struct Side {
  ReportSummary summary;
  std::map<std::string, std::uint64_t> categories, runs, computeSets, programs, kinds;
  std::vector<std::uint64_t> tiles, liveness;
};

Side read(const Report& r) {
  Side s;
  s.summary = summarize(r);
  for (const AllocatedBytes& category : s.summary.memory.categories) s.categories[category.name] = category.total();
  const auto c = r.compilation();
  for (const Tile& t : c.tiles()) s.tiles.push_back(t.memory().total().includingGaps());
  for (const ProgramStep& step : c.livenessProgramSteps())
    s.liveness.push_back(s.summary.memory.alwaysLiveBytes + step.notAlwaysLiveBytes());
  const ExecutionSummary& x = s.summary.execution;
  if (!x.profiled) return s;
  for (const RunSummary& run : x.runs) s.runs[run.name] += run.cycles;
  for (std::size_t k = 0; k < CycleKinds::numKinds; ++k) {
    const auto kind = static_cast<TileCycleTotals::Kind>(k);
    s.kinds[TileCycleTotals::kindName(kind)] = x.tileCycles.of(kind);
  }
  // Named figures: programs (and compute sets) sharing a name add up.
  const ExecutionAnalysis e = analyseExecution(r);
  const auto programs = c.programs();
  for (std::size_t i = 0; i < programs.size() && i < e.allRuns.programs.size(); ++i)
    if (e.allRuns.programs[i].executions) s.programs[programs[i]->name()] += e.allRuns.programs[i].cycles;
  const auto computeSets = c.computeSets();
  for (std::size_t i = 0; i < computeSets.size() && i < e.allRuns.computeSets.size(); ++i)
    if (e.allRuns.computeSets[i].executions) s.computeSets[computeSets[i].name()] += e.allRuns.computeSets[i].cycles;
  return s;
}

std::vector<NamedComparison> match(const std::map<std::string, std::uint64_t>& base,
                                   const std::map<std::string, std::uint64_t>& current) {
  std::map<std::string, NamedComparison> all;
  for (const auto& [name, v] : base) {
    auto& n = all[name];
    n.name = name;
    n.inBase = true;
    n.value.base = v;
  }
  for (const auto& [name, v] : current) {
    auto& n = all[name];
    n.name = name;
    n.inCurrent = true;
    n.value.current = v;
  }
  std::vector<NamedComparison> out;
  for (auto& [name, n] : all) out.push_back(std::move(n));
  return out;
}

} // namespace

ReportComparison compare(const Report& base, const Report& current) {
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
  m.categories = match(a.categories, b.categories);
  for (std::size_t t = 0; t < std::max(a.tiles.size(), b.tiles.size()); ++t)
    m.tilesIncludingGaps.push_back({t < a.tiles.size() ? a.tiles[t] : 0, t < b.tiles.size() ? b.tiles[t] : 0});
  c.liveness.base = a.liveness;
  c.liveness.current = b.liveness;
  c.hasExecution = a.summary.execution.profiled && b.summary.execution.profiled;
  c.cycles.total = {a.summary.execution.totalCycles, b.summary.execution.totalCycles};
  c.cycles.runs = match(a.runs, b.runs);
  c.cycles.computeSets = match(a.computeSets, b.computeSets);
  c.cycles.programs = match(a.programs, b.programs);
  c.cycles.kinds = match(a.kinds, b.kinds);
  return c;
}

} // namespace pva
