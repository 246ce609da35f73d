// pva summary: one report at a glance, rendered from pva::summarize (the figures the viewer,
// Python and pva::compare show). The JSON object is built first and the text is written from it,
// so the two forms can never disagree.
#include "Commands.hpp"
#include "Common.hpp"
#include "Gate.hpp"
#include "JobOutput.hpp"
#include "Writers.hpp"
#include "output/Format.hpp"
#include "output/Output.hpp"

#include <cstdio>
#include <iostream>
#include <optional>

namespace pvacli {

namespace {

/// `pva summary JOB`: every instance of a poprun job, and the gate on the slowest one.
int summariseJob(const SummaryOptions& o) {
  if (!o.debug.empty())
    throw UsageError("--debug names one report's debug.cbor; a job folder (" + o.report +
                     ") has one per instance, found beside each profile");
  // The gate's percentage; negative: no gate ("off" or not given).
  double limit = -1;
  if (!o.maxInstanceSlowdown.empty())
    if (const auto p = parsePercent(o.maxInstanceSlowdown, "--max-instance-slowdown")) limit = *p;
  const pva::Job job = pva::openJob(o.report);
  const Json j = jobSummaryJson(job);
  if (o.json)
    writeJson(std::cout, j);
  else
    writeJobText(std::cout, j);
  const double slowdown = j["job"]["slowdown"].get<double>();
  if (limit >= 0 && slowdown > limit + 1e-12) { // parsePercent gives a fraction
    std::cerr << "pva: instance " << j["job"]["slowestInstance"].get<unsigned>() << " is "
              << slowdown * 100.0 << "% slower than the others' mean, over the " << limit * 100.0
              << "% allowed by --max-instance-slowdown\n";
    return kOverThreshold;
  }
  return kOk;
}

Json summarise(const pva::Report& report, const ReportFiles& files) {
  const auto c = report.compilation();
  const pva::Target target = c.target();
  Json j;
  j["report"] = {{"profile", files.profile},
                 {"debug", files.debug.empty() ? Json(nullptr) : Json(files.debug)},
                 {"formatVersion", report.version().string()},
                 {"poplarVersion", report.poplarVersion().string()},
                 {"timestamp", report.timestamp()},
                 {"outOfMemory", report.outOfMemory()}};
  j["target"] = {{"type", pva::Target::typeName(target.type())},
                 {"architecture", pva::Target::architectureName(target.architecture())},
                 {"numIPUs", target.numIPUs()},
                 {"tilesPerIpu", target.tilesPerIpu()},
                 {"numTiles", target.numTiles()},
                 {"bytesPerTile", target.bytesPerTile()},
                 {"totalMemory", target.totalMemory()},
                 {"clockFrequency", target.clockFrequency()},
                 {"numReplicas", target.numReplicas()}};
  const pva::ReportSummary summary = pva::summarize(report);
  const pva::GraphCounts& graph = summary.graph;
  j["graph"] = {{"numVertices", graph.vertices},          {"numComputeSets", graph.computeSets},
                {"numVariables", graph.variables},        {"numEdges", graph.edges},
                {"numPrograms", graph.programs},          {"numProgramSteps", graph.programSteps},
                {"numLivenessSteps", graph.livenessSteps}};

  const pva::MemorySummary& memory = summary.memory;
  Json m;
  m["scope"] = memory.scope.describe();
  m["totalIncludingGaps"] = memory.includingGapsBytes;
  m["totalExcludingGaps"] = memory.excludingGapsBytes;
  m["tilesUsed"] = memory.tilesUsed;
  if (memory.numTiles) {
    const pva::TileBytes& largest = memory.largestTileIncludingGaps;
    m["maxTile"] = {{"tile", largest.tile},
                    {"ipu", largest.ipu},
                    {"includingGaps", largest.bytes},
                    {"excludingGaps", c.tile(largest.tile).memory().total().excludingGaps()},
                    {"fraction", target.bytesPerTile()
                                     ? double(largest.bytes) / double(target.bytesPerTile())
                                     : 0.0}};
  }
  m["alwaysLive"] = memory.alwaysLiveBytes;
  const pva::PeakLiveness& peak = memory.peakLiveness;
  m["peakLiveness"] = {
      {"bytes", peak.bytes},
      {"notAlwaysLive", peak.notAlwaysLiveBytes},
      {"step", peak.step},
      {"program", peak.known && !peak.program.empty() ? Json(peak.program) : Json(nullptr)}};
  m["overflowed"] = memory.overflowedBytes;
  m["allocated"] = memory.allocatedBytes;
  Json cats = Json::object();
  for (const pva::AllocatedBytes& category : memory.categories)
    cats[category.name] = category.total();
  m["categories"] = cats;
  j["memory"] = m;

  const pva::ExecutionSummary& x = summary.execution;
  Json runs = Json::array();
  for (const pva::RunSummary& r : x.runs)
    runs.push_back(
        {{"index", r.index}, {"name", r.name}, {"steps", r.steps}, {"cycles", r.cycles}});
  Json kinds = Json::object();
  for (std::size_t k = 0; k < pva::CycleKinds::numKinds; ++k) {
    const auto kind = static_cast<pva::TileCycleTotals::Kind>(k);
    kinds[pva::TileCycleTotals::kindName(kind)] = x.tileCycles.of(kind);
  }
  j["execution"] = {
      {"scope", x.scope.describe()},  {"numRuns", runs.size()}, {"numSteps", x.steps},
      {"totalCycles", x.totalCycles}, {"runs", runs},           {"tileCyclesByKind", kinds}};
  // Stream-copy steps' cycles by what they copy to or from: stored with each run since format
  // 1.7; an older report needs a pass over its steps for them (pva::summarizeStreamCopies).
  if (x.profiled) {
    const pva::StreamCopyCycles sc = pva::summarizeStreamCopies(report).allRuns;
    j["execution"]["streamCopyCyclesByDestination"] = {{"host", sc.host},
                                                       {"remoteBuffer", sc.remoteBuffer},
                                                       {"mixed", sc.mixed},
                                                       {"unknown", sc.unknown},
                                                       {"total", sc.total()}};
  }
  // Which rule costed the vertices and each one's share of the vertex cycles, as
  // pva::summarize derives them (reports of format 1.3 on; cycles from 1.6 on, with runs).
  const pva::VertexCycleSummary& vc = summary.vertexCycles;
  if (vc.hasRules) {
    Json rules = Json::array();
    for (const pva::VertexCycleRuleFigures& f : vc.rules) {
      Json rule = {{"rule", f.rule},
                   {"label", f.label},
                   {"vertices", f.vertices},
                   {"shareOfVertices", f.shareOfVertices}};
      if (vc.hasCycles) {
        rule["cycles"] = f.cycles;
        rule["shareOfVertexCycles"] = f.shareOfVertexCycles;
      }
      rules.push_back(rule);
    }
    j["vertexCycles"] = {{"scope", vc.scope.describe()}, {"policy", vc.policy},
                         {"vertices", vc.vertices},      {"hasCycles", vc.hasCycles},
                         {"cycles", vc.cycles},          {"rules", rules}};
  }
  return j;
}

/// A fraction in [0, 1] as "12.3%".
std::string fractionPercent(double fraction) {
  char s[32];
  std::snprintf(s, sizeof s, "%.1f%%", 100.0 * fraction);
  return s;
}

/// Which rule costed the vertices: "Vertex cycles" of pva::ReportSummary::vertexCycles.
void writeVertexCycles(std::ostream& out, const Json& j) {
  if (!j.contains("vertexCycles")) return;
  const Json& v = j["vertexCycles"];
  const auto u = [](const Json& x) { return x.get<std::uint64_t>(); };
  const bool cycles = v["hasCycles"].get<bool>();
  out << "\nVertex cycles by rule (" << v["scope"].get<std::string>() << ")\n  "
      << v["policy"].get<std::string>() << "\n";
  if (v["rules"].empty()) out << "  no vertices\n";
  for (const Json& r : v["rules"]) {
    const std::string label = r["label"].get<std::string>();
    out << "    " << label << std::string(label.size() < 46 ? 46 - label.size() : 1, ' ')
        << withCommas(u(r["vertices"])) << (u(r["vertices"]) == 1 ? " vertex (" : " vertices (")
        << fractionPercent(r["shareOfVertices"].get<double>()) << ")";
    if (cycles)
      out << ", " << withCommas(u(r["cycles"])) << " cycles ("
          << fractionPercent(r["shareOfVertexCycles"].get<double>()) << " of vertex cycles)";
    out << "\n";
  }
  if (cycles)
    out << "  vertex cycles: what each vertex execution kept its tile's contexts busy, summed "
           "over the tiles (compute excluding idle threads, without the compute sets' launch)\n";
}

void writeText(std::ostream& out, const Json& j) {
  const Json& r = j["report"];
  out << "Report\n  " << r["profile"].get<std::string>();
  if (!r["debug"].is_null()) out << " with " << r["debug"].get<std::string>();
  out << "\n  format " << r["formatVersion"].get<std::string>() << ", written by Tessera "
      << r["poplarVersion"].get<std::string>() << " at " << r["timestamp"].get<std::string>()
      << "\n";
  if (r["outOfMemory"].get<bool>())
    out << "  OUT OF MEMORY: some tiles need more than their memory\n";

  const Json& t = j["target"];
  const double clock = t["clockFrequency"].get<double>();
  char ghz[32];
  std::snprintf(ghz, sizeof ghz, "%.2f GHz", clock / 1e9);
  out << "\nTarget\n  " << t["numIPUs"].get<unsigned>() << " IPU(s) ("
      << t["architecture"].get<std::string>() << ", " << t["type"].get<std::string>() << ") x "
      << t["tilesPerIpu"].get<unsigned>() << " tiles, "
      << bytes(t["bytesPerTile"].get<std::uint64_t>()) << " per tile, " << ghz << ", "
      << t["numReplicas"].get<unsigned>() << " replica(s)\n";

  const Json& g = j["graph"];
  out << "\nGraph\n  variables " << withCommas(g["numVariables"].get<std::uint64_t>())
      << ", compute sets " << withCommas(g["numComputeSets"].get<std::uint64_t>()) << ", vertices "
      << withCommas(g["numVertices"].get<std::uint64_t>()) << ", edges "
      << withCommas(g["numEdges"].get<std::uint64_t>()) << ", programs "
      << withCommas(g["numPrograms"].get<std::uint64_t>()) << " ("
      << withCommas(g["numProgramSteps"].get<std::uint64_t>()) << " run as steps, at "
      << withCommas(g["numLivenessSteps"].get<std::uint64_t>())
      << " liveness steps of the schedule)\n";

  const Json& m = j["memory"];
  const auto u = [](const Json& v) { return v.get<std::uint64_t>(); };
  out << "\nMemory (" << m["scope"].get<std::string>() << ", every tile)\n";
  out << "  total including gaps   " << bytes(u(m["totalIncludingGaps"])) << " of "
      << bytes(u(t["totalMemory"])) << " (" << u(m["tilesUsed"]) << " tiles used)\n";
  out << "  total excluding gaps   " << bytes(u(m["totalExcludingGaps"])) << "\n";
  if (m.contains("maxTile")) {
    const Json& mt = m["maxTile"];
    out << "  largest tile           " << bytes(u(mt["includingGaps"])) << " on tile "
        << u(mt["tile"]) << " (IPU " << u(mt["ipu"]) << ", "
        << percentOf(u(mt["includingGaps"]), u(t["bytesPerTile"])) << " of the tile)\n";
  }
  out << "  always live            " << bytes(u(m["alwaysLive"])) << "\n";
  const Json& pl = m["peakLiveness"];
  out << "  peak liveness          " << bytes(u(pl["bytes"])) << " at step " << u(pl["step"]);
  if (!pl["program"].is_null()) out << " (" << pl["program"].get<std::string>() << ")";
  out << "\n";
  if (u(m["overflowed"]) > 0)
    out << "  overflowed             " << bytes(u(m["overflowed"])) << "\n";
  const std::uint64_t categoriesTotal = u(m["allocated"]);
  out << "  allocated by category  " << bytes(categoriesTotal)
      << " (bytes shared by variables whose lives do not meet count once for each)\n";
  for (const auto& [name, value] : m["categories"].items())
    if (u(value) > 0)
      out << "    " << name << std::string(name.size() < 24 ? 24 - name.size() : 1, ' ')
          << bytes(u(value)) << " (" << percentOf(u(value), categoriesTotal) << ")\n";

  const Json& e = j["execution"];
  out << "\nExecution (" << e["scope"].get<std::string>() << ")\n";
  if (e["runs"].empty()) {
    out << "  no runs (the report has no execution profile)\n";
    writeVertexCycles(out, j);
    return;
  }
  out << "  runs " << e["numRuns"].get<std::size_t>() << ", steps " << withCommas(u(e["numSteps"]))
      << ", total cycles " << withCommas(u(e["totalCycles"])) << " ("
      << cyclesAsTime(u(e["totalCycles"]), clock) << ")\n";
  for (const Json& run : e["runs"])
    out << "    " << run["name"].get<std::string>() << ": " << withCommas(u(run["cycles"]))
        << " cycles, " << withCommas(u(run["steps"])) << " steps\n";
  std::uint64_t all = 0;
  for (const auto& [name, value] : e["tileCyclesByKind"].items())
    all += u(value);
  out << "  tile cycles by kind (summed over the tiles; shares of all tile cycles)\n";
  for (const auto& [name, value] : e["tileCyclesByKind"].items())
    out << "    " << name << std::string(name.size() < 24 ? 24 - name.size() : 1, ' ')
        << withCommas(u(value)) << " (" << percentOf(u(value), all) << ")\n";
  if (e.contains("streamCopyCyclesByDestination")) {
    const Json& sc = e["streamCopyCyclesByDestination"];
    const std::uint64_t total = u(sc["total"]);
    out << "  stream-copy steps by destination (slowest IPU per step; shares of all stream-copy "
           "steps' "
        << withCommas(total) << " cycles)\n";
    for (const char* name : {"host", "remoteBuffer", "mixed", "unknown"}) {
      const std::uint64_t v = u(sc[name]);
      if (v == 0 && std::string(name) != "host" && std::string(name) != "remoteBuffer") continue;
      out << "    " << name << std::string(24 - std::char_traits<char>::length(name), ' ')
          << withCommas(v) << " (" << percentOf(v, total) << ")\n";
    }
  }
  writeVertexCycles(out, j);
}

} // namespace

Json summaryJson(const pva::Report& report, const ReportFiles& files) {
  return summarise(report, files);
}

int runSummary(const SummaryOptions& o, const GlobalOptions&) {
  if (pva::isJobDirectory(o.report)) return summariseJob(o);
  if (!o.maxInstanceSlowdown.empty())
    throw UsageError("--max-instance-slowdown needs a job folder (instance_0/ ...); " + o.report +
                     " is one report");
  ReportFiles files = findReport(o.report, o.debug);
  const pva::Report report = openReportFiles(files);
  const Json j = summaryJson(report, files);
  if (o.json)
    writeJson(std::cout, j);
  else
    writeText(std::cout, j);
  return kOk;
}

} // namespace pvacli
