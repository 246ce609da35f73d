#include "ProfileSummary.hpp"

#include <pva/pva.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

namespace poplar::detail::report {
namespace {

// Poplar's number style: thousands separated by commas, binary sizes labelled kB and MB.
std::string withCommas(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

std::string withCommas(double v, int decimals) {
  char fraction[32];
  std::snprintf(fraction, sizeof fraction, "%.*f", decimals, v - std::floor(v));
  std::string whole = withCommas(static_cast<std::uint64_t>(std::floor(v)));
  if (fraction[0] == '1') whole = withCommas(static_cast<std::uint64_t>(std::floor(v)) + 1); // 0.95 -> 1.0
  return decimals ? whole + (fraction + 1) : whole;
}

std::string size(std::uint64_t bytes) {
  if (bytes >= 1024 * 1024) return withCommas(double(bytes) / (1024 * 1024), 1) + " MB";
  return withCommas(double(bytes) / 1024, 1) + " kB";
}

std::string bytes(std::uint64_t n) { return withCommas(n) + " B"; }

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
      << label("  ", "Clock Speed (approx)", c) << withCommas(t.clockFrequency() / 1e6, 1) << " MHz\n"
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
const char* const kCategoryNames[] = {
    "Variables", "Constants", "Messages", "Vertex Code", "Vertex Instances", "Vertex Field Data",
    "VectorList Descriptors", "Copy Descriptors", "Control Code", "Control Ids",
    "Internal Exchange Code", "Host Exchange Code", "Global Exchange Code", "Stack",
    "Instrumentation Results"};
static_assert(sizeof kCategoryNames / sizeof *kCategoryNames == pva::MemoryCategories::size(),
              "one name per memory category");

/// "label:" then `value` right-aligned to end at `end`.
std::string row(const std::string& labelText, const std::string& value, std::size_t end = 48) {
  return rightAligned(labelText + ":", value, end);
}

struct MemoryTotals {
  std::uint64_t including = 0, excluding = 0;
  /// Allocated bytes by [region][overlapping]: regions non-interleaved, interleaved, overflowed.
  std::uint64_t regions[3][2] = {};
  std::uint64_t categories[pva::MemoryCategories::size()][2] = {}; ///< [category][overlapping]
};

MemoryTotals totalsOf(const pva::Tiles& tiles) {
  MemoryTotals m;
  for (const pva::Tile& tile : tiles) {
    const pva::TileMemory& memory = tile.memory();
    m.including += memory.total().includingGaps();
    m.excluding += memory.total().excludingGaps();
    const pva::MemoryCategories& c = memory.category();
    for (std::size_t i = 0; i < pva::MemoryCategories::size(); ++i) {
      const pva::OverlapBytes* byRegion[3] = {&c.at(i).nonInterleaved(), &c.at(i).interleaved(), &c.at(i).overflowed()};
      for (std::size_t r = 0; r < 3; ++r) {
        m.regions[r][0] += byRegion[r]->nonOverlapped();
        m.regions[r][1] += byRegion[r]->overlapped();
        m.categories[i][0] += byRegion[r]->nonOverlapped();
        m.categories[i][1] += byRegion[r]->overlapped();
      }
    }
  }
  return m;
}

// Not-always-live data whose lives do not meet share addresses, so "excluding gaps" (always-live
// bytes plus each tile's peak of not-always-live bytes) is less than the allocations summed:
// the allocation tables say so and show the overlapping part apart.
void memoryTotals(std::ostream& out, const std::string& title, const MemoryTotals& m) {
  out << "  " << title << ":\n"
      << row("    Including Gaps", bytes(m.including)) << "\n"
      << row("    Excluding Gaps", bytes(m.excluding)) << "\n"
      << "    By Memory Region (allocations, overlapping ones each counted):\n";
  const char* regionNames[3] = {"Non-interleaved", "Interleaved", "Overflowed"};
  for (std::size_t r = 0; r < 3; ++r)
    out << row(std::string("      ") + regionNames[r], bytes(m.regions[r][0] + m.regions[r][1])) << "\n";
  out << "    By Data Type:\n";
  const char* overlapNames[2] = {"Not Overlapping", "Overlapping (sharing addresses at different steps)"};
  for (std::size_t overlapping = 0; overlapping < 2; ++overlapping) {
    std::uint64_t sum = 0;
    for (const auto& c : m.categories) sum += c[overlapping];
    if (overlapping && !sum) continue;
    out << "      " << overlapNames[overlapping] << ":\n";
    for (std::size_t i = 0; i < pva::MemoryCategories::size(); ++i)
      if (m.categories[i][overlapping])
        out << row(std::string("        ") + kCategoryNames[i], bytes(m.categories[i][overlapping])) << "\n";
  }
}

/// Tiles bucketed by memory excluding gaps, with bars of up to 40 stars.
void histogram(std::ostream& out, const pva::Tiles& tiles) {
  if (tiles.empty()) return;
  std::uint64_t lo = UINT64_MAX, hi = 0;
  for (const pva::Tile& t : tiles) {
    lo = std::min(lo, t.memory().total().excludingGaps());
    hi = std::max(hi, t.memory().total().excludingGaps());
  }
  // Whole kilobytes per bucket, a 1-2-5 step giving at most 20 buckets.
  std::uint64_t width = 1;
  const std::uint64_t span = hi / 1024 - lo / 1024 + 1;
  for (std::uint64_t scale = 1;; scale *= 10) {
    if (span <= 20 * scale) { width = scale; break; }
    if (span <= 40 * scale) { width = 2 * scale; break; }
    if (span <= 100 * scale) { width = 5 * scale; break; }
  }
  const std::uint64_t first = lo / 1024 / width, last = hi / 1024 / width;
  std::vector<std::uint64_t> counts(last - first + 1, 0);
  for (const pva::Tile& t : tiles) ++counts[t.memory().total().excludingGaps() / 1024 / width - first];
  const std::uint64_t most = *std::max_element(counts.begin(), counts.end());
  out << "    Range (KB) Histogram (Excluding Gaps)               Count (tiles)\n";
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const std::uint64_t from = (first + i) * width;
    const std::string range = std::to_string(from) + " - " + std::to_string(from + width);
    std::string line = rightAligned("    ", range, 14) + " ";
    line += std::string(counts[i] ? std::max<std::uint64_t>(1, counts[i] * 40 / most) : 0, '*');
    out << rightAligned(line, withCommas(counts[i]), 68) << "\n";
  }
}

void memory(std::ostream& out, const pva::CompilationReport& c, const SummaryOptions& o) {
  const pva::Tiles tiles = c.tiles();
  out << "Memory Usage:\n";
  memoryTotals(out, "Total", totalsOf(tiles));
  if (o.showPerIpuMemoryUsage)
    for (const pva::Ipu& ipu : c.ipus()) memoryTotals(out, "IPU " + std::to_string(ipu.id()), totalsOf(ipu.tiles()));

  out << "\n  By Tile (Excluding Gaps):\n";
  histogram(out, tiles);
  const pva::Tile* maxIncluding = nullptr;
  const pva::Tile* maxExcluding = nullptr;
  std::size_t outOfMemory = 0;
  const std::uint64_t capacity = c.target().bytesPerTile();
  for (const pva::Tile& t : tiles) {
    if (!maxIncluding || t.memory().total().includingGaps() > maxIncluding->memory().total().includingGaps())
      maxIncluding = &t;
    if (!maxExcluding || t.memory().total().excludingGaps() > maxExcluding->memory().total().excludingGaps())
      maxExcluding = &t;
    if (t.memory().total().includingGaps() > capacity) ++outOfMemory;
  }
  if (maxIncluding) {
    auto maximum = [&](const char* what, std::uint64_t n, unsigned tile) {
      out << "    Maximum (" << what << "): " << withCommas(n) << " (" << withCommas(double(n) / 1024, 1)
          << " K) on tile " << tile << "\n";
    };
    out << "\n";
    maximum("Including Gaps", maxIncluding->memory().total().includingGaps(), maxIncluding->number());
    maximum("Excluding Gaps", maxExcluding->memory().total().excludingGaps(), maxExcluding->number());
  }
  out << "    " << outOfMemory << " tile(s) out of memory\n\n";
}

void variableStorage(std::ostream& out, const pva::CompilationReport& c) {
  std::uint64_t alwaysLive = 0;
  for (const pva::Tile& t : c.tiles()) alwaysLive += t.memory().alwaysLiveBytes();
  std::uint64_t peak = 0, peakStep = 0;
  std::string peakProgram;
  for (const pva::ProgramStep& step : c.livenessProgramSteps())
    if (step.notAlwaysLiveBytes() > peak) {
      peak = step.notAlwaysLiveBytes();
      peakStep = step.index();
      peakProgram = step.program() ? step.program()->name() : std::string();
    }
  std::vector<pva::Variable> vars = c.alwaysLiveVariables();
  std::sort(vars.begin(), vars.end(), [](const pva::Variable& a, const pva::Variable& b) { return a.bytes() > b.bytes(); });
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

void execution(std::ostream& out, const pva::Report& report, bool profiled, const SummaryOptions& o) {
  out << "Execution:\n\n";
  if (!profiled) {
    out << "  No execution profile: set the engine option autoReport.outputExecutionProfile (or\n"
           "  autoReport.all, or debug.retainDebugInformation) to \"true\".\n";
    return;
  }
  const pva::ExecutionReport e = report.execution();
  const std::vector<pva::Run> runs = e.runs();
  const pva::CompilationReport& c = report.compilation();
  const std::vector<pva::ProgramPtr> entryPoints = c.entryPoints();
  std::vector<unsigned> executed;
  for (const pva::Run& r : runs)
    if (std::find(executed.begin(), executed.end(), r.programIndex()) == executed.end())
      executed.push_back(r.programIndex());
  out << "Programs executed:\n\n";
  if (executed.empty()) out << "None.\n\n";
  for (std::size_t i = 0; i < executed.size(); ++i) {
    const unsigned p = executed[i];
    const std::string name = p < entryPoints.size() && entryPoints[p] && !entryPoints[p]->name().empty()
                                 ? entryPoints[p]->name() : "<anonymous>";
    out << name << (i + 1 == executed.size() ? ".\n\n" : ",\n");
  }

  const std::uint64_t total = e.totalCycles().total();
  const pva::TileCycleTotals tc = e.tileCycleTotals();
  const double tiles = std::max<double>(1, c.target().tilesPerReplica());
  const double clockMHz = c.target().clockFrequency() / 1e6;
  const std::size_t column = 56;
  out << label("  ", "Total cycles", column) << withCommas(total) << " (approx "
      << withCommas(clockMHz > 0 ? double(total) / clockMHz : 0.0, 1) << " microseconds)\n";
  using K = pva::TileCycleTotals::Kind;
  auto average = [&](const char* what, K kind) {
    const double mean = double(tc.total(kind)) / tiles;
    out << label("  ", std::string("Tile average ") + what, column) << withCommas(mean, 1) << " ("
        << percent(mean, double(total)) << " of total)\n";
  };
  average("compute cycles (including idle threads)", K::Compute);
  average("IPU exchange cycles", K::InternalExchange);
  average("global exchange cycles", K::GlobalExchange);
  average("host exchange cycles", K::StreamCopy);
  average("sync cycles", K::Sync);
  out << "\n";

  if (!o.showExecutionSteps) return;
  // The costliest steps of the compiled schedule: cycles of one execution, slowest IPU.
  struct Step { std::uint64_t cycles, executions; std::string type, name; };
  std::vector<Step> steps;
  std::vector<std::size_t> byProgram;
  for (const pva::ExecutionStep& s : e.steps()) {
    const pva::ProgramPtr p = s.program();
    if (!p) continue;
    std::uint64_t cycles = 0;
    for (const pva::IpuExecution& ipu : s.ipus()) cycles = std::max(cycles, ipu.cycles());
    const std::size_t id = static_cast<std::size_t>(p->_id());
    if (byProgram.size() <= id) byProgram.resize(id + 1, SIZE_MAX);
    if (byProgram[id] == SIZE_MAX) {
      byProgram[id] = steps.size();
      steps.push_back({0, 0, pva::Program::typeName(p->type()), p->name()});
    }
    steps[byProgram[id]].cycles += cycles;
    ++steps[byProgram[id]].executions;
  }
  std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.cycles > b.cycles; });
  out << "Execution steps (the 20 costliest, cycles over all runs):\n";
  for (std::size_t i = 0; i < steps.size() && i < 20; ++i) {
    const Step& s = steps[i];
    std::string line = rightAligned("  ", withCommas(s.cycles), 14) + "  " + s.type;
    line.resize(std::max<std::size_t>(line.size() + 1, 32), ' ');
    out << line << s.name << " (x" << s.executions << ")\n";
  }
  out << "\n";
}

} // namespace

void printProfileSummary(std::ostream& out, const pva::Report& report, bool executionProfiled,
                         const SummaryOptions& o) {
  const pva::CompilationReport c = report.compilation();
  target(out, c.target());
  graph(out, c.graph());
  memory(out, c, o);
  if (o.showVarStorage) variableStorage(out, c);
  execution(out, report, executionProfiled, o);
}

} // namespace poplar::detail::report
