#include "ProfileSummary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <pva/pva.hpp>
#include <string>
#include <vector>

namespace poplar::detail::report {
namespace {

// Poplar's number style: thousands separated by commas, binary sizes labelled kB and MB.
std::string withCommas(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
    s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

std::string withCommas(double v, int decimals) {
  char fraction[32];
  std::snprintf(fraction, sizeof fraction, "%.*f", decimals, v - std::floor(v));
  std::string whole = withCommas(static_cast<std::uint64_t>(std::floor(v)));
  if (fraction[0] == '1')
    whole = withCommas(static_cast<std::uint64_t>(std::floor(v)) + 1); // 0.95 -> 1.0
  return decimals ? whole + (fraction + 1) : whole;
}

std::string size(std::uint64_t bytes) {
  if (bytes >= 1024 * 1024) return withCommas(double(bytes) / (1024 * 1024), 1) + " MB";
  return withCommas(double(bytes) / 1024, 1) + " kB";
}

std::string bytes(std::uint64_t n) {
  return withCommas(n) + " B";
}

std::string percent(double part, double whole) {
  char s[32];
  std::snprintf(s, sizeof s, "%.1f%%", whole > 0 ? 100.0 * part / whole : 0.0);
  return s;
}

/// "  Label:" padded so that values start at `column`.
std::string label(const std::string& indent, const std::string& text, std::size_t column) {
  std::string s = indent + text + ":";
  s.append(s.size() < column ? column - s.size() : 1, ' ');
  return s;
}

/// A value right-aligned so the line ends at `end`.
std::string rightAligned(const std::string& labelText, const std::string& value, std::size_t end) {
  std::string s = labelText;
  const std::size_t used = s.size() + value.size();
  s.append(used < end ? end - used : 1, ' ');
  return s + value;
}

void target(std::ostream& out, const pva::Target& t) {
  const std::size_t c = 26;
  out << "Target:\n"
      << label("  ", "Number of IPUs", c) << withCommas(t.numIPUs()) << "\n"
      << label("  ", "Tiles per IPU", c) << withCommas(t.tilesPerIpu()) << "\n"
      << label("  ", "Total Tiles", c) << withCommas(t.numTiles()) << "\n"
      << label("  ", "Memory Per-Tile", c) << size(t.bytesPerTile()) << "\n"
      << label("  ", "Total Memory", c) << size(t.totalMemory()) << "\n"
      << label("  ", "Clock Speed (approx)", c) << withCommas(t.clockFrequency() / 1e6, 1)
      << " MHz\n"
      << label("  ", "Number of Replicas", c) << withCommas(t.numReplicas()) << "\n"
      << label("  ", "IPUs per Replica", c) << withCommas(t.ipusPerReplica()) << "\n"
      << label("  ", "Tiles per Replica", c) << withCommas(t.tilesPerReplica()) << "\n"
      << label("  ", "Memory per Replica", c) << size(t.memoryPerReplica()) << "\n\n";
}

void graph(std::ostream& out, const pva::Graph& g) {
  const std::size_t end = 38;
  out << "Graph:\n"
      << rightAligned("  Number of vertices:", withCommas(g.numVertices()), end) << "\n"
      << rightAligned("  Number of edges:", withCommas(g.numEdges()), end) << "\n"
      << rightAligned("  Number of variables:", withCommas(g.numVariables()), end) << "\n"
      << rightAligned("  Number of compute sets:", withCommas(g.numComputeSets()), end) << "\n\n";
}

// Poplar's names for the memory categories, in pva::MemoryCategories order.
const char* const kCategoryNames[] = {"Variables",
                                      "Constants",
                                      "Messages",
                                      "Vertex Code",
                                      "Vertex Instances",
                                      "Vertex Field Data",
                                      "VectorList Descriptors",
                                      "Copy Descriptors",
                                      "Control Code",
                                      "Control Ids",
                                      "Internal Exchange Code",
                                      "Host Exchange Code",
                                      "Global Exchange Code",
                                      "Stack",
                                      "Instrumentation Results"};
static_assert(sizeof kCategoryNames / sizeof *kCategoryNames == pva::MemoryCategories::size(),
              "one name per memory category");

/// "label:" then `value` right-aligned to end at `end`.
std::string row(const std::string& labelText, const std::string& value, std::size_t end = 48) {
  return rightAligned(labelText + ":", value, end);
}

// Not-always-live data whose lives do not meet share addresses, so "excluding gaps" (always-live
// bytes plus each tile's peak of not-always-live bytes) is less than the allocations summed:
// the allocation tables say so and show the overlapping part apart.
void memoryTotals(std::ostream& out, const std::string& title, const pva::MemorySummary& m) {
  out << "  " << title << ":\n"
      << row("    Including Gaps", bytes(m.includingGapsBytes)) << "\n"
      << row("    Excluding Gaps", bytes(m.excludingGapsBytes)) << "\n"
      << "    By Memory Region (allocations, overlapping ones each counted):\n";
  for (const pva::AllocatedBytes& region : m.regions)
    out << row("      " + region.name, bytes(region.total())) << "\n";
  out << "    By Data Type:\n";
  const char* overlapNames[2] = {"Not Overlapping",
                                 "Overlapping (sharing addresses at different steps)"};
  for (std::size_t overlapping = 0; overlapping < 2; ++overlapping) {
    auto part = [&](const pva::AllocatedBytes& c) {
      return overlapping ? c.overlapped : c.nonOverlapped;
    };
    std::uint64_t sum = 0;
    for (const pva::AllocatedBytes& c : m.categories)
      sum += part(c);
    if (overlapping && !sum) continue;
    out << "      " << overlapNames[overlapping] << ":\n";
    for (std::size_t i = 0; i < m.categories.size(); ++i)
      if (part(m.categories[i]))
        out << row(std::string("        ") + kCategoryNames[i], bytes(part(m.categories[i])))
            << "\n";
  }
}

/// Tiles in the summary's bins of memory excluding gaps, with bars of up to 40 stars.
void histogram(std::ostream& out, const pva::MemorySummary& m) {
  if (m.tilesPerBin.empty()) return;
  const std::uint64_t most = *std::max_element(m.tilesPerBin.begin(), m.tilesPerBin.end());
  out << "    Range (KB) Histogram (Excluding Gaps)               Count (tiles)\n";
  for (std::size_t i = 0; i < m.tilesPerBin.size(); ++i) {
    const std::uint64_t from = (m.binStartBytes + i * m.binWidthBytes) / 1024;
    const std::string range =
        std::to_string(from) + " - " + std::to_string(from + m.binWidthBytes / 1024);
    std::string line = rightAligned("    ", range, 14) + " ";
    const std::uint64_t count = m.tilesPerBin[i];
    line += std::string(count ? std::max<std::uint64_t>(1, count * 40 / most) : 0, '*');
    out << rightAligned(line, withCommas(count), 68) << "\n";
  }
}

void memory(std::ostream& out, const pva::Report& report, const pva::MemorySummary& m,
            const SummaryOptions& o) {
  out << "Memory Usage:\n";
  memoryTotals(out, "Total", m);
  if (o.showPerIpuMemoryUsage)
    for (const pva::Ipu& ipu : report.compilation().ipus())
      memoryTotals(out, "IPU " + std::to_string(ipu.id()),
                   pva::summarizeMemory(report, ipu.tiles()));

  out << "\n  By Tile (Excluding Gaps):\n";
  histogram(out, m);
  if (m.numTiles) {
    auto maximum = [&](const char* what, const pva::TileBytes& t) {
      out << "    Maximum (" << what << "): " << withCommas(t.bytes) << " ("
          << withCommas(double(t.bytes) / 1024, 1) << " K) on tile " << t.tile << "\n";
    };
    out << "\n";
    maximum("Including Gaps", m.largestTileIncludingGaps);
    maximum("Excluding Gaps", m.largestTileExcludingGaps);
  }
  out << "    " << m.tilesOutOfMemory << " tile(s) out of memory\n\n";
}

void variableStorage(std::ostream& out, const pva::CompilationReport& c,
                     const pva::MemorySummary& m) {
  const std::uint64_t peak = m.peakLiveness.notAlwaysLiveBytes;
  const std::uint64_t peakStep = m.peakLiveness.step, alwaysLive = m.alwaysLiveBytes;
  const std::string& peakProgram = m.peakLiveness.program;
  std::vector<pva::Variable> vars = c.alwaysLiveVariables();
  std::sort(vars.begin(), vars.end(),
            [](const pva::Variable& a, const pva::Variable& b) { return a.bytes() > b.bytes(); });
  out << "Variable Storage:\n"
      << row("  Always-live bytes", bytes(alwaysLive)) << "\n"
      << row("  Peak not-always-live bytes", bytes(peak));
  if (peak) out << " at step " << peakStep << (peakProgram.empty() ? "" : " (" + peakProgram + ")");
  out << "\n  Largest always-live variables:\n";
  for (std::size_t i = 0; i < vars.size() && i < 10; ++i)
    out << "    " << std::string(std::max<std::size_t>(1, 14 - bytes(vars[i].bytes()).size()), ' ')
        << bytes(vars[i].bytes()) << "  " << vars[i].name() << "\n";
  out << "\n";
}

/// Which rule costed the vertices, and each rule's share of the vertex cycles (Tessera's
/// addition: whose numbers these are, an IPU Model's declared estimates or the hardware's
/// measurements; docs/profiling.md). Figures from pva::ReportSummary::vertexCycles.
void vertexCycleRules(std::ostream& out, const pva::ReportSummary& s) {
  const pva::VertexCycleSummary& v = s.vertexCycles;
  if (v.rules.empty()) return;
  out << "Vertex cycles (" << v.policy << "; " << v.scope.describe() << "):\n";
  for (const pva::VertexCycleRuleFigures& r : v.rules) {
    out << label("  ", r.label, 56) << withCommas(r.vertices)
        << (r.vertices == 1 ? " vertex (" : " vertices (") << percent(r.shareOfVertices, 1.0)
        << ")";
    if (v.hasCycles)
      out << ", " << withCommas(r.cycles) << " cycles (" << percent(r.shareOfVertexCycles, 1.0)
          << " of vertex cycles)";
    out << "\n";
  }
  out << "\n";
}

void execution(std::ostream& out, const pva::Report& report, const pva::ReportSummary& summary,
               bool profiled, const SummaryOptions& o) {
  const pva::ExecutionSummary& x = summary.execution;
  out << "Execution:\n\n";
  if (!profiled) {
    out << "  No execution profile: set the engine option autoReport.outputExecutionProfile (or\n"
           "  autoReport.all, or debug.retainDebugInformation) to \"true\".\n";
    return;
  }
  const pva::CompilationReport& c = report.compilation();
  const std::vector<pva::ProgramPtr> entryPoints = c.entryPoints();
  std::vector<unsigned> executed;
  for (const pva::Run& r : report.execution().runs())
    if (std::find(executed.begin(), executed.end(), r.programIndex()) == executed.end())
      executed.push_back(r.programIndex());
  out << "Programs executed:\n\n";
  if (executed.empty()) out << "None.\n\n";
  for (std::size_t i = 0; i < executed.size(); ++i) {
    const unsigned p = executed[i];
    const std::string name =
        p < entryPoints.size() && entryPoints[p] && !entryPoints[p]->name().empty()
            ? entryPoints[p]->name()
            : "<anonymous>";
    out << name << (i + 1 == executed.size() ? ".\n\n" : ",\n");
  }

  const double clockMHz = c.target().clockFrequency() / 1e6;
  const std::size_t column = 56;
  out << label("  ", "Total cycles", column) << withCommas(x.totalCycles) << " (approx "
      << withCommas(clockMHz > 0 ? double(x.totalCycles) / clockMHz : 0.0, 1) << " microseconds)\n";
  using K = pva::TileCycleTotals::Kind;
  auto average = [&](const char* what, K kind) {
    out << label("  ", std::string("Tile average ") + what, column)
        << withCommas(x.tileAverageCycles(kind), 1) << " ("
        << percent(x.tileAverageShareOfTotal(kind), 1.0) << " of total)\n";
  };
  average("compute cycles (including idle threads)", K::Compute);
  if (x.hasComputeExcludingIdleThreads)
    out << label("  ", "Tile average compute cycles (excluding idle threads)", column)
        << withCommas(x.tileAverageComputeExcludingIdleThreads(), 1) << " ("
        << percent(x.tileAverageComputeExcludingIdleThreadsShareOfTotal(), 1.0) << " of total)\n";
  average("IPU exchange cycles", K::InternalExchange);
  average("global exchange cycles", K::GlobalExchange);
  average("host exchange cycles", K::StreamCopy);
  average("sync cycles", K::Sync);
  out << "\n";
  vertexCycleRules(out, summary);

  if (!o.showExecutionSteps) return;
  // The costliest programs of the schedule: slowest-IPU cycles over all runs, first run first
  // among equals.
  const pva::ExecutionAnalysis analysis = pva::analyseExecution(report);
  const std::vector<pva::ProgramFigures>& figures = analysis.allRuns.programs;
  std::vector<std::size_t> order;
  for (std::size_t id = 0; id < figures.size(); ++id)
    if (figures[id].executions) order.push_back(id);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return figures[a].cycles != figures[b].cycles ? figures[a].cycles > figures[b].cycles
                                                  : figures[a].firstStep < figures[b].firstStep;
  });
  const auto programs = c.programs();
  out << "Execution steps (the 20 costliest, cycles over all runs):\n";
  for (std::size_t i = 0; i < order.size() && i < 20; ++i) {
    const pva::ProgramFigures& f = figures[order[i]];
    const pva::Program& p = *programs.at(order[i]);
    std::string line =
        rightAligned("  ", withCommas(f.cycles), 14) + "  " + pva::Program::typeName(p.type());
    line.resize(std::max<std::size_t>(line.size() + 1, 32), ' ');
    out << line << p.name() << " (x" << f.executions << ")\n";
  }
  out << "\n";
}

} // namespace

void printProfileSummary(std::ostream& out, const pva::Report& report, bool executionProfiled,
                         const SummaryOptions& o) {
  const pva::CompilationReport c = report.compilation();
  const pva::ReportSummary summary = pva::summarize(report);
  target(out, summary.target);
  graph(out, c.graph());
  memory(out, report, summary.memory, o);
  if (o.showVarStorage) variableStorage(out, c, summary.memory);
  execution(out, report, summary, executionProfiled, o);
}

} // namespace poplar::detail::report
