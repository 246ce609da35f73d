// pva query: the common questions about one report, each a table (text, CSV or JSON).
//   tiles          tiles by memory, largest first
//   compute-sets   compute sets by cycles (the slowest IPU of each executed step, summed), with
//                  the compile-time estimate for the same executions
//   live-at-peak   variables live at the peak liveness step, largest first
//   programs       programs counted by type, or listed with --type
//   runs           runs with their cycles by kind
//   categories     memory by category over all tiles
#include "Commands.hpp"
#include "Common.hpp"
#include "Writers.hpp"
#include "output/Format.hpp"
#include "output/Output.hpp"
#include "output/Progress.hpp"

#include <algorithm>
#include <iostream>
#include <map>
#include <optional>

namespace pvacli {

namespace {

/// The number of rows to show: --top when given (0: all), else `byDefault`.
std::size_t rowLimit(const QueryOptions& o, std::size_t byDefault) {
  if (o.top < 0) return byDefault;
  return o.top == 0 ? SIZE_MAX : static_cast<std::size_t>(o.top);
}

Table tilesQuery(const pva::Report& report, const QueryOptions& o) {
  const auto c = report.compilation();
  const std::uint64_t capacity = c.target().bytesPerTile();
  struct Row {
    unsigned tile, ipu;
    std::uint64_t incl, excl, alwaysLive, notAlwaysLive;
  };
  std::vector<Row> rows;
  for (const pva::Tile& t : c.tiles()) {
    const pva::TileMemory m = t.memory();
    rows.push_back({t.number(), t.ipu(), m.total().includingGaps(), m.total().excludingGaps(),
                    m.alwaysLiveBytes(), m.notAlwaysLiveBytes()});
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& a, const Row& b) { return a.incl > b.incl; });
  Table table("Tiles by memory (including gaps), largest first",
              {{"tile", Column::Kind::Count},
               {"ipu", Column::Kind::Count},
               {"includingGaps", Column::Kind::Count},
               {"excludingGaps", Column::Kind::Count},
               {"alwaysLive", Column::Kind::Count},
               {"notAlwaysLivePeak", Column::Kind::Count},
               {"ofTile", Column::Kind::Percent}});
  table.meta["tiles"] = rows.size();
  table.meta["bytesPerTile"] = capacity;
  for (std::size_t i = 0; i < rows.size() && i < rowLimit(o, 10); ++i) {
    const Row& r = rows[i];
    table.add({r.tile, r.ipu, r.incl, r.excl, r.alwaysLive, r.notAlwaysLive,
               capacity ? double(r.incl) / double(capacity) : 0.0});
  }
  return table;
}

Table computeSetsQuery(const pva::Report& report, const QueryOptions& o,
                       const GlobalOptions& global) {
  const auto computeSets = report.compilation().computeSets();
  const std::uint64_t numSteps = report.execution().steps().size();
  pva::ExecutionAnalysis analysis;
  {
    Progress progress("reading " + withCommas(numSteps) + " steps", 1000, global.progress);
    analysis = pva::analyseExecution(
        report, [&](double done) { progress.update(std::uint64_t(done * 1000)); });
  }
  const pva::SpanFigures& all = analysis.allRuns;
  auto figures = [&](std::size_t i) {
    const unsigned id = computeSets[i].id();
    return id < all.computeSets.size() ? all.computeSets[id] : pva::ProgramFigures{};
  };
  // The estimate of one execution is its slowest tile's estimate; read for the rows shown only
  // (each is a per-tile array), unless there is no execution to rank by.
  auto estimate = [&](std::size_t i) {
    const auto byTile = computeSets[i].estimatedCyclesByTile();
    return byTile.empty() ? std::uint64_t{0} : *std::max_element(byTile.begin(), byTile.end());
  };
  std::vector<std::size_t> order(computeSets.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::vector<std::uint64_t> estimates;
  const bool executed = all.steps > 0;
  if (!executed) {
    for (std::size_t i = 0; i < computeSets.size(); ++i)
      estimates.push_back(estimate(i));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return estimates[a] > estimates[b]; });
  } else {
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return figures(a).cycles > figures(b).cycles;
    });
  }
  Table table(!executed ? "Compute sets by estimated cycles (no execution profile)"
                        : "Compute sets by cycles (slowest IPU per executed step, summed; " +
                              all.scope.describe() + "; share: of all steps' cycles)",
              {{"computeSet", Column::Kind::Text},
               {"executions", Column::Kind::Count},
               {"cycles", Column::Kind::Count},
               {"estimatedCycles", Column::Kind::Count},
               {"shareOfTotal", Column::Kind::Percent},
               {"tileBalance", Column::Kind::Percent},
               {"vertices", Column::Kind::Count},
               {"estimatedFlopsPerExecution", Column::Kind::Count}});
  table.meta["computeSets"] = computeSets.size();
  // estimatedFlopsPerExecution: FLOPs of one execution (null: the report has no FLOP estimates).
  table.meta["flopEstimates"] = report.hasFlopEstimates();
  table.meta["totalStepCycles"] = all.cycles;
  table.meta["scope"] = all.scope.describe();
  for (std::size_t k = 0; k < order.size() && k < rowLimit(o, 10); ++k) {
    const std::size_t i = order[k];
    const pva::ProgramFigures f = figures(i);
    const std::uint64_t perExecution = !executed ? estimates[i] : estimate(i);
    // Without an execution, the estimate of one execution; otherwise of all that happened.
    const std::uint64_t est = !executed ? perExecution : perExecution * f.executions;
    table.add(
        {computeSets[i].name(), f.executions, f.cycles, est,
         all.cycles ? Json(double(f.cycles) / double(all.cycles)) : Json(nullptr),
         f.executions ? Json(f.tileBalance) : Json(nullptr), computeSets[i].numVertices(),
         computeSets[i].estimatedFlops() ? Json(*computeSets[i].estimatedFlops()) : Json(nullptr)});
  }
  return table;
}

Table liveAtPeakQuery(const pva::Report& report, const QueryOptions& o) {
  const auto c = report.compilation();
  const auto steps = c.livenessProgramSteps();
  Table table("Variables live at the peak liveness step, largest first",
              {{"variable", Column::Kind::Text},
               {"bytes", Column::Kind::Count},
               {"category", Column::Kind::Text},
               {"elementType", Column::Kind::Text},
               {"shape", Column::Kind::Text},
               {"liveFrom", Column::Kind::Count},
               {"liveTo", Column::Kind::Count}});
  if (steps.empty()) {
    table.meta["step"] = nullptr;
    return table;
  }
  const pva::MemorySummary memory = pva::summarize(report).memory;
  auto peak = steps.begin();
  while (peak != steps.end() && peak->index() != memory.peakLiveness.step)
    ++peak;
  if (peak == steps.end()) peak = steps.begin();
  const std::uint64_t alwaysLive = memory.alwaysLiveBytes;
  table.meta["step"] = peak->index();
  table.meta["program"] = peak->program() ? Json(peak->program()->name()) : Json(nullptr);
  table.meta["notAlwaysLiveBytes"] = peak->notAlwaysLiveBytes();
  table.meta["alwaysLiveBytes"] = alwaysLive;
  auto vars = peak->notAlwaysLiveMemory().variables();
  table.meta["variables"] = vars.size();
  std::stable_sort(vars.begin(), vars.end(), [](const pva::Variable& a, const pva::Variable& b) {
    return a.bytes() > b.bytes();
  });
  for (std::size_t i = 0; i < vars.size() && i < rowLimit(o, 10); ++i) {
    const pva::Variable& v = vars[i];
    table.add(
        {v.name(), v.bytes(), v.category(), v.elementType(), v.shape(), v.liveFrom(), v.liveTo()});
  }
  return table;
}

Table programsQuery(const pva::Report& report, const QueryOptions& o) {
  const auto programs = report.compilation().programs();
  if (o.type.empty()) {
    std::vector<std::uint64_t> counts(pva::Program::numTypes, 0);
    for (const auto& p : programs)
      ++counts[static_cast<std::size_t>(p->type())];
    Table table("Programs by type", {{"type", Column::Kind::Text},
                                     {"count", Column::Kind::Count},
                                     {"isStep", Column::Kind::Text}});
    table.meta["programs"] = programs.size();
    for (std::size_t t = 0; t < counts.size(); ++t) {
      if (counts[t] == 0) continue;
      bool step = false;
      for (const auto& p : programs)
        if (static_cast<std::size_t>(p->type()) == t) {
          step = p->isStep();
          break;
        }
      table.add({pva::Program::typeName(static_cast<pva::Program::Type>(t)), counts[t], step});
    }
    return table;
  }
  std::optional<pva::Program::Type> type;
  std::string known;
  for (std::size_t t = 0; t < pva::Program::numTypes; ++t) {
    const auto& name = pva::Program::typeName(static_cast<pva::Program::Type>(t));
    known += (t ? ", " : "") + name;
    if (name == o.type) type = static_cast<pva::Program::Type>(t);
  }
  if (!type)
    throw UsageError("--type: unknown program type '" + o.type + "' (one of " + known + ")");
  Table table(o.type + " programs", {{"id", Column::Kind::Count},
                                     {"name", Column::Kind::Text},
                                     {"estimatedCycles", Column::Kind::Count},
                                     {"dataBytes", Column::Kind::Count},
                                     {"children", Column::Kind::Count}});
  std::size_t shown = 0, matched = 0;
  for (const auto& p : programs) {
    if (p->type() != *type) continue;
    ++matched;
    if (shown >= rowLimit(o, SIZE_MAX)) continue;
    ++shown;
    const auto est = p->estimatedCyclesByTile();
    table.add({p->_id(), p->name(),
               !p->isStep() ? Json(nullptr) : Json(*std::max_element(est.begin(), est.end())),
               p->dataBytes(), p->children().size()});
  }
  table.meta["programs"] = matched;
  return table;
}

Table runsQuery(const pva::Report& report, const QueryOptions& o) {
  std::vector<Column> columns = {{"index", Column::Kind::Count},
                                 {"name", Column::Kind::Text},
                                 {"steps", Column::Kind::Count},
                                 {"cycles", Column::Kind::Count},
                                 {"hostMicroseconds", Column::Kind::Count}};
  for (std::size_t k = 0; k < pva::TileCycleTotals::numKinds; ++k)
    columns.push_back({pva::TileCycleTotals::kindName(static_cast<pva::TileCycleTotals::Kind>(k)),
                       Column::Kind::Count});
  // Stream-copy steps' cycles by destination: the Summary's split run by run (stored with each
  // run since format 1.7; a pass over the steps for an older report).
  for (const char* name :
       {"streamCopyHost", "streamCopyRemoteBuffer", "streamCopyMixed", "streamCopyUnknown"})
    columns.push_back({name, Column::Kind::Count});
  const pva::ExecutionSummary execution = pva::summarize(report).execution;
  const pva::StreamCopySummary streamCopies = pva::summarizeStreamCopies(report);
  Table table("Runs (one replica; cycles of the slowest IPU; by kind: tile cycles summed over "
              "tiles; stream copy: "
              "stream-copy steps' cycles by destination, each step at its slowest IPU)",
              columns);
  table.meta["runs"] = execution.runs.size();
  for (std::size_t i = 0; i < execution.runs.size() && i < rowLimit(o, SIZE_MAX); ++i) {
    const pva::RunSummary& r = execution.runs[i];
    std::vector<Json> row = {r.index, r.name, r.steps, r.cycles, r.hostMicroseconds};
    for (std::size_t k = 0; k < pva::CycleKinds::numKinds; ++k)
      row.push_back(r.tileCycles.cycles[k]);
    const pva::StreamCopyCycles sc =
        i < streamCopies.runs.size() ? streamCopies.runs[i] : pva::StreamCopyCycles();
    for (const std::uint64_t v : {sc.host, sc.remoteBuffer, sc.mixed, sc.unknown})
      row.push_back(v);
    table.add(std::move(row));
  }
  return table;
}

Table categoriesQuery(const pva::Report& report, const QueryOptions& o) {
  const pva::MemorySummary memory = pva::summarize(report).memory;
  const std::vector<pva::AllocatedBytes>& categories = memory.categories;
  Table table(
      "Memory allocated by category, " + memory.scope.describe() +
          " (overlapped: bytes shared by variables whose lives do not meet, counted for each; "
          "share: of all allocated bytes)",
      {{"category", Column::Kind::Text},
       {"bytes", Column::Kind::Count},
       {"share", Column::Kind::Percent},
       {"nonInterleaved", Column::Kind::Count},
       {"interleaved", Column::Kind::Count},
       {"overflowed", Column::Kind::Count},
       {"overlapped", Column::Kind::Count}});
  const std::uint64_t all = memory.allocatedBytes;
  table.meta["totalBytes"] = all;
  table.meta["excludingGapsBytes"] = memory.excludingGapsBytes;
  std::vector<std::size_t> order(categories.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return categories[a].total() > categories[b].total();
  });
  for (std::size_t k = 0; k < order.size() && k < rowLimit(o, SIZE_MAX); ++k) {
    const pva::AllocatedBytes& c = categories[order[k]];
    table.add({c.name, c.total(), all ? Json(double(c.total()) / double(all)) : Json(nullptr),
               c.regionBytes[0], c.regionBytes[1], c.regionBytes[2], c.overlapped});
  }
  return table;
}

} // namespace

Table queryTable(const pva::Report& report, const std::string& what, long top,
                 const std::string& type, const GlobalOptions& global) {
  QueryOptions o;
  o.what = what;
  o.top = top;
  o.type = type;
  return what == "tiles"          ? tilesQuery(report, o)
         : what == "compute-sets" ? computeSetsQuery(report, o, global)
         : what == "live-at-peak" ? liveAtPeakQuery(report, o)
         : what == "programs"     ? programsQuery(report, o)
         : what == "runs"         ? runsQuery(report, o)
                                  : categoriesQuery(report, o);
}

int runQuery(const QueryOptions& o, const GlobalOptions& global) {
  if (!o.type.empty() && o.what != "programs")
    throw UsageError("--type applies to 'pva query REPORT programs' only");
  ReportFiles files = findReport(o.report, o.debug);
  const pva::Report report = openReportFiles(files);
  queryTable(report, o.what, o.top, o.type, global).write(std::cout, parseTableFormat(o.format));
  return kOk;
}

} // namespace pvacli
