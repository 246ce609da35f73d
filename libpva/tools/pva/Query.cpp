// pva query: the common questions about one report, each a table (text, CSV or JSON).
//   tiles          tiles by memory, largest first
//   compute-sets   compute sets by cycles (the slowest IPU of each executed step, summed), with
//                  the compile-time estimate for the same executions
//   live-at-peak   variables live at the peak liveness step, largest first
//   programs       programs counted by type, or listed with --type
//   runs           runs with their cycles by kind
//   categories     memory by category over all tiles
#include "Common.hpp"
#include "Format.hpp"
#include "Names.hpp"
#include "Output.hpp"
#include "Progress.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

namespace pvacli {

namespace {

struct QueryOptions {
  std::string report, debug, what, format = "table", type;
  long top = -1; ///< -1: the query's default
};

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
    rows.push_back({t.number(), t.ipu(), m.total().includingGaps(), m.total().excludingGaps(), m.alwaysLiveBytes(),
                    m.notAlwaysLiveBytes()});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.incl > b.incl; });
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

Table computeSetsQuery(const pva::Report& report, const QueryOptions& o, const GlobalOptions& global) {
  const auto c = report.compilation();
  const auto computeSets = c.computeSets();
  // Program id -> compute set index, so each step costs one lookup.
  const auto programs = c.programs();
  std::vector<long> csOfProgram(programs.size(), -1);
  std::map<unsigned, std::size_t> csIndex;
  for (std::size_t i = 0; i < computeSets.size(); ++i) csIndex[computeSets[i].id()] = i;
  for (const auto& p : programs)
    if (p->type() == pva::Program::Type::OnTileExecute) {
      const auto& ote = static_cast<const pva::OnTileExecuteProgram&>(*p);
      const auto it = csIndex.find(ote.computeset().id());
      if (it != csIndex.end()) csOfProgram[p->_id()] = static_cast<long>(it->second);
    }
  std::vector<std::uint64_t> executions(computeSets.size(), 0), cycles(computeSets.size(), 0);
  std::uint64_t total = 0;
  const auto steps = report.execution().steps();
  {
    Progress progress("reading " + withCommas(steps.size()) + " steps", steps.size(), global.progress);
    std::uint64_t done = 0;
    for (const pva::ExecutionStep& step : steps) {
      std::uint64_t slowest = 0;
      for (const pva::IpuExecution& ipu : step.ipus()) slowest = std::max(slowest, ipu.cycles());
      total += slowest;
      const std::uint64_t id = step.program()->_id();
      if (id < csOfProgram.size() && csOfProgram[id] >= 0) {
        ++executions[csOfProgram[id]];
        cycles[csOfProgram[id]] += slowest;
      }
      progress.update(++done);
    }
  }
  // The estimate of one execution is its slowest tile's estimate; read for the rows shown only
  // (each is a per-tile array), unless there is no execution to rank by.
  auto estimate = [&](std::size_t i) {
    const auto byTile = computeSets[i].estimatedCyclesByTile();
    return byTile.empty() ? std::uint64_t{0} : *std::max_element(byTile.begin(), byTile.end());
  };
  std::vector<std::size_t> order(computeSets.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<std::uint64_t> estimates;
  if (steps.empty()) {
    for (std::size_t i = 0; i < computeSets.size(); ++i) estimates.push_back(estimate(i));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return estimates[a] > estimates[b]; });
  } else {
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cycles[a] > cycles[b]; });
  }
  Table table(steps.empty() ? "Compute sets by estimated cycles (no execution profile)"
                            : "Compute sets by cycles (slowest IPU per executed step, summed)",
              {{"computeSet", Column::Kind::Text},
               {"executions", Column::Kind::Count},
               {"cycles", Column::Kind::Count},
               {"estimatedCycles", Column::Kind::Count},
               {"shareOfTotal", Column::Kind::Percent},
               {"vertices", Column::Kind::Count}});
  table.meta["computeSets"] = computeSets.size();
  table.meta["totalStepCycles"] = total;
  for (std::size_t k = 0; k < order.size() && k < rowLimit(o, 10); ++k) {
    const std::size_t i = order[k];
    const std::uint64_t perExecution = steps.empty() ? estimates[i] : estimate(i);
    // Without an execution, the estimate of one execution; otherwise of all that happened.
    const std::uint64_t est = steps.empty() ? perExecution : perExecution * executions[i];
    table.add({computeSets[i].name(), executions[i], cycles[i], est,
               total ? Json(double(cycles[i]) / double(total)) : Json(nullptr), computeSets[i].numVertices()});
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
  auto peak = steps.begin();
  for (auto it = steps.begin(); it != steps.end(); ++it)
    if (it->notAlwaysLiveBytes() > peak->notAlwaysLiveBytes()) peak = it;
  std::uint64_t alwaysLive = 0;
  for (const pva::Tile& t : c.tiles()) alwaysLive += t.memory().alwaysLiveBytes();
  table.meta["step"] = peak->index();
  table.meta["program"] = peak->program() ? Json(peak->program()->name()) : Json(nullptr);
  table.meta["notAlwaysLiveBytes"] = peak->notAlwaysLiveBytes();
  table.meta["alwaysLiveBytes"] = alwaysLive;
  auto vars = peak->notAlwaysLiveMemory().variables();
  table.meta["variables"] = vars.size();
  std::stable_sort(vars.begin(), vars.end(), [](const pva::Variable& a, const pva::Variable& b) { return a.bytes() > b.bytes(); });
  for (std::size_t i = 0; i < vars.size() && i < rowLimit(o, 10); ++i) {
    const pva::Variable& v = vars[i];
    table.add({v.name(), v.bytes(), v.category(), v.elementType(), v.shape(), v.liveFrom(), v.liveTo()});
  }
  return table;
}

Table programsQuery(const pva::Report& report, const QueryOptions& o) {
  const auto programs = report.compilation().programs();
  if (o.type.empty()) {
    std::vector<std::uint64_t> counts(pva::Program::numTypes, 0);
    for (const auto& p : programs) ++counts[static_cast<std::size_t>(p->type())];
    Table table("Programs by type", {{"type", Column::Kind::Text}, {"count", Column::Kind::Count}, {"isStep", Column::Kind::Text}});
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
  if (!type) throw UsageError("--type: unknown program type '" + o.type + "' (one of " + known + ")");
  Table table(o.type + " programs",
              {{"id", Column::Kind::Count},
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
    table.add({p->_id(), p->name(), !p->isStep() ? Json(nullptr) : Json(*std::max_element(est.begin(), est.end())),
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
    columns.push_back({cycleKindName(static_cast<pva::TileCycleTotals::Kind>(k)), Column::Kind::Count});
  Table table("Runs (cycles of the slowest IPU; by kind: tile cycles summed over tiles)", columns);
  const auto runs = report.execution().runs();
  table.meta["runs"] = runs.size();
  for (std::size_t i = 0; i < runs.size() && i < rowLimit(o, SIZE_MAX); ++i) {
    const pva::Run& r = runs[i];
    std::vector<Json> row = {r.index(), r.name(), r.steps().size(), r.cycles(),
                             r.microseconds().end() - r.microseconds().start()};
    const pva::TileCycleTotals totals = r.tileCycleTotals();
    for (std::size_t k = 0; k < pva::TileCycleTotals::numKinds; ++k)
      row.push_back(totals.total(static_cast<pva::TileCycleTotals::Kind>(k)));
    table.add(std::move(row));
  }
  return table;
}

Table categoriesQuery(const pva::Report& report, const QueryOptions& o) {
  constexpr std::size_t n = pva::MemoryCategories::size();
  std::vector<std::uint64_t> total(n), nonInterleaved(n), interleaved(n), overflowed(n), overlapped(n);
  std::uint64_t all = 0;
  for (const pva::Tile& t : report.compilation().tiles()) {
    const pva::MemoryCategories& cat = t.memory().category();
    for (std::size_t i = 0; i < n; ++i) {
      const pva::CategoryMemory& m = cat.at(i);
      total[i] += m.total();
      nonInterleaved[i] += m.nonInterleaved().total();
      interleaved[i] += m.interleaved().total();
      overflowed[i] += m.overflowed().total();
      overlapped[i] += m.nonInterleaved().overlapped() + m.interleaved().overlapped() + m.overflowed().overlapped();
      all += m.total();
    }
  }
  Table table("Memory by category, all tiles (overlapped: bytes sharing addresses with other variables)",
              {{"category", Column::Kind::Text},
               {"bytes", Column::Kind::Count},
               {"share", Column::Kind::Percent},
               {"nonInterleaved", Column::Kind::Count},
               {"interleaved", Column::Kind::Count},
               {"overflowed", Column::Kind::Count},
               {"overlapped", Column::Kind::Count}});
  table.meta["totalBytes"] = all;
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return total[a] > total[b]; });
  for (std::size_t k = 0; k < n && k < rowLimit(o, SIZE_MAX); ++k) {
    const std::size_t i = order[k];
    table.add({pva::MemoryCategories::names()[i], total[i], all ? Json(double(total[i]) / double(all)) : Json(nullptr),
               nonInterleaved[i], interleaved[i], overflowed[i], overlapped[i]});
  }
  return table;
}

} // namespace

Command addQueryCommand(CLI::App& app, const GlobalOptions& global) {
  auto opt = std::make_shared<QueryOptions>();
  CLI::App* sub = app.add_subcommand("query", "Tables of one report: tiles, compute sets, live variables, programs, runs");
  sub->footer(R"(WHAT:
  tiles          tiles by memory including gaps, largest first (default top 10)
  compute-sets   compute sets by cycles: the slowest IPU of each executed step, summed, with the
                 compile-time estimate of the same executions (default top 10)
  live-at-peak   variables live at the peak liveness step, largest first (default top 10)
  programs       programs counted by type; with --type T, the programs of that type
  runs           runs: steps, cycles, host time, tile cycles by kind
  categories     memory by category over all tiles

examples:
  pva query reports/mlp tiles --top 5
  pva query reports/mlp compute-sets --format csv > compute-sets.csv
  pva query reports/mlp live-at-peak --top 0 --format json
  pva query reports/mlp programs --type DoExchange)");
  sub->add_option("REPORT", opt->report, "profile.pop or a directory containing it")->required();
  sub->add_option("WHAT", opt->what, "tiles, compute-sets, live-at-peak, programs, runs or categories")
      ->required()
      ->check(CLI::IsMember({"tiles", "compute-sets", "live-at-peak", "programs", "runs", "categories"}));
  sub->add_option("--top", opt->top, "Rows to show (0: all)")->check(CLI::NonNegativeNumber);
  sub->add_option("--format", opt->format, "table, csv or json")->check(CLI::IsMember({"table", "csv", "json"}));
  sub->add_option("--type", opt->type, "programs: list the programs of this type (OnTileExecute, DoExchange, ...)");
  sub->add_option("--debug", opt->debug, "debug.cbor to use (default: the one beside the profile)");
  const GlobalOptions* g = &global;
  return {sub, [opt, g]() {
            if (!opt->type.empty() && opt->what != "programs")
              throw UsageError("--type applies to 'pva query REPORT programs' only");
            ReportFiles files = findReport(opt->report, opt->debug);
            const pva::Report report = openReportFiles(files);
            const std::string& w = opt->what;
            const Table table = w == "tiles"          ? tilesQuery(report, *opt)
                                : w == "compute-sets" ? computeSetsQuery(report, *opt, *g)
                                : w == "live-at-peak" ? liveAtPeakQuery(report, *opt)
                                : w == "programs"     ? programsQuery(report, *opt)
                                : w == "runs"         ? runsQuery(report, *opt)
                                                      : categoriesQuery(report, *opt);
            table.write(std::cout, parseTableFormat(opt->format));
            return int(kOk);
          }};
}

} // namespace pvacli
