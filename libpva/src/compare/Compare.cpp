// compare(): two reports side by side. Reads each report once through the public API, so it is
// exactly what a client could compute, in one place for the CLI gate and the viewer.
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

/// Totals of one report that the comparison needs.
struct Summary {
  std::uint64_t incl = 0, excl = 0, maxTile = 0, alwaysLive = 0, peakNal = 0, peakStep = 0, cycles = 0;
  unsigned maxTileId = 0;
  std::map<std::string, std::uint64_t> categories, runs, computeSets, programs, kinds;
  std::vector<std::uint64_t> tiles, liveness;
  bool hasExecution = false;
};

Summary summarise(const Report& r) {
  Summary s;
  const auto c = r.compilation();
  std::vector<std::uint64_t> categories(MemoryCategories::size(), 0);
  for (const Tile& t : c.tiles()) {
    const TileMemory& m = t.memory();
    s.incl += m.total().includingGaps();
    s.excl += m.total().excludingGaps();
    s.alwaysLive += m.alwaysLiveBytes();
    s.tiles.push_back(m.total().includingGaps());
    if (m.total().includingGaps() > s.maxTile) {
      s.maxTile = m.total().includingGaps();
      s.maxTileId = t.number();
    }
    const MemoryCategories& cat = m.category();
    for (std::size_t i = 0; i < categories.size(); ++i) categories[i] += cat.at(i).total();
  }
  for (std::size_t i = 0; i < categories.size(); ++i) s.categories[MemoryCategories::names()[i]] = categories[i];
  for (const ProgramStep& step : c.livenessProgramSteps()) {
    s.liveness.push_back(s.alwaysLive + step.notAlwaysLiveBytes());
    if (step.notAlwaysLiveBytes() > s.peakNal) {
      s.peakNal = step.notAlwaysLiveBytes();
      s.peakStep = step.index();
    }
  }
  const auto e = r.execution();
  const auto runs = e.runs();
  s.hasExecution = !runs.empty();
  for (const Run& run : runs) {
    s.cycles += run.cycles();
    s.runs[run.name()] += run.cycles();
  }
  if (s.hasExecution) {
    const auto programs = c.programs();
    std::vector<std::string> csNames;
    for (const ComputeSet& cs : c.computeSets()) csNames.push_back(cs.name());
    for (const ExecutionStep& step : e.steps()) {
      std::uint64_t slowest = 0;
      for (const IpuExecution& ipu : step.ipus()) slowest = std::max(slowest, ipu.cycles());
      const Program& p = *programs.at(step.program()->_id());
      s.programs[p.name()] += slowest;
      if (p.type() == Program::Type::OnTileExecute)
        s.computeSets[static_cast<const OnTileExecuteProgram&>(p).computeset().name()] += slowest;
    }
    static const char* kKinds[] = {"compute", "internalExchange", "globalExchange", "streamCopy", "sync"};
    const TileCycleTotals totals = e.tileCycleTotals();
    for (std::size_t k = 0; k < TileCycleTotals::numKinds; ++k)
      s.kinds[kKinds[k]] = totals.total(static_cast<TileCycleTotals::Kind>(k));
  }
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
  const Summary a = summarise(base), b = summarise(current);
  ReportComparison c;
  auto& m = c.memory;
  m.totalIncludingGaps = {a.incl, b.incl};
  m.totalExcludingGaps = {a.excl, b.excl};
  m.maxTileIncludingGaps = {a.maxTile, b.maxTile};
  m.maxTileBase = a.maxTileId;
  m.maxTileCurrent = b.maxTileId;
  m.alwaysLive = {a.alwaysLive, b.alwaysLive};
  m.peakLiveness = {a.alwaysLive + a.peakNal, b.alwaysLive + b.peakNal};
  m.peakStepBase = a.peakStep;
  m.peakStepCurrent = b.peakStep;
  m.categories = match(a.categories, b.categories);
  for (std::size_t t = 0; t < std::max(a.tiles.size(), b.tiles.size()); ++t)
    m.tilesIncludingGaps.push_back({t < a.tiles.size() ? a.tiles[t] : 0, t < b.tiles.size() ? b.tiles[t] : 0});
  c.liveness.base = a.liveness;
  c.liveness.current = b.liveness;
  c.hasExecution = a.hasExecution && b.hasExecution;
  c.cycles.total = {a.cycles, b.cycles};
  c.cycles.runs = match(a.runs, b.runs);
  c.cycles.computeSets = match(a.computeSets, b.computeSets);
  c.cycles.programs = match(a.programs, b.programs);
  c.cycles.kinds = match(a.kinds, b.kinds);
  return c;
}

} // namespace pva
