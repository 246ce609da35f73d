#include "ProfileSummary.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace poplar::detail::report {
namespace {

std::string bytes(std::uint64_t b) {
  std::ostringstream s;
  if (b >= 1024 * 1024) s << std::fixed << std::setprecision(2) << double(b) / (1024 * 1024) << " MiB";
  else if (b >= 1024) s << std::fixed << std::setprecision(1) << double(b) / 1024 << " KiB";
  else s << b << " B";
  return s.str();
}

std::string thousands(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

} // namespace

void printProfileSummary(std::ostream& out, const CompiledGraph& g, const CompilationProfile& p,
                         const std::vector<profile::RunSummary>* runs, const std::string& reportDirectory,
                         const SummaryOptions& o) {
  const Target& t = g.target;
  const auto& mem = p.memory;
  out << "Target\n"
      << "  " << t.getNumIPUs() << " IPU(s) (" << t.getTargetArchString() << ") x " << t.getTilesPerIPU()
      << " tiles, " << bytes(t.getBytesPerTile()) << " per tile, " << t.getTileClockFrequency() / 1e9 << " GHz";
  if (g.replicationFactor > 1) out << ", " << g.replicationFactor << " replicas";
  out << "\n\nGraph\n";
  std::size_t vertices = 0;
  for (const auto& cs : g.computeSets) vertices += cs.vertices.size();
  out << "  variables " << g.variables.size() << ", compute sets " << g.computeSets.size() << ", vertices "
      << vertices << ", programs " << p.model.programs.size() << ", program steps " << p.model.schedule.size() << "\n";

  std::uint64_t incl = 0, excl = 0, alwaysLive = 0, maxTile = 0;
  unsigned maxTileId = 0, used = 0;
  for (unsigned i = 0; i < mem.tiles.size(); ++i) {
    const auto& tm = mem.tiles[i];
    incl += tm.includingGaps;
    excl += tm.excludingGaps;
    alwaysLive += tm.alwaysLive;
    if (tm.includingGaps) ++used;
    if (tm.includingGaps > maxTile) {
      maxTile = tm.includingGaps;
      maxTileId = i;
    }
  }
  std::uint64_t peak = 0;
  unsigned peakStep = 0;
  for (unsigned s = 0; s < mem.notAlwaysLiveByStep.size(); ++s)
    if (mem.notAlwaysLiveByStep[s] > peak) {
      peak = mem.notAlwaysLiveByStep[s];
      peakStep = s;
    }
  out << "\nMemory (one replica)\n"
      << "  total including gaps   " << bytes(incl) << " of " << bytes(mem.bytesPerTile * mem.tiles.size()) << " ("
      << used << " tiles used)\n"
      << "  total excluding gaps   " << bytes(excl) << "\n"
      << "  largest tile           " << bytes(maxTile) << " on tile " << maxTileId << " ("
      << std::fixed << std::setprecision(1) << 100.0 * double(maxTile) / double(mem.bytesPerTile) << "%)\n"
      << "  always live            " << bytes(alwaysLive) << "\n"
      << "  peak liveness          " << bytes(alwaysLive + peak);
  if (!p.model.schedule.empty())
    out << " at step " << peakStep << " (" << p.model.programs[p.model.schedule[peakStep]].name << ")";
  out << "\n";
  if (mem.outOfMemory())
    out << "  OUT OF MEMORY on " << mem.overflowingTiles.size() << " tile(s); worst: tile " << mem.overflowingTiles[0]
        << " needs " << bytes(mem.tiles[mem.overflowingTiles[0]].includingGaps) << "\n";

  if (o.showVarStorage) {
    std::vector<std::pair<std::uint64_t, std::size_t>> vars;
    for (std::size_t i = 0; i < g.variables.size(); ++i)
      vars.push_back({g.variables[i].numElements * g.variables[i].type.size(), i});
    std::sort(vars.rbegin(), vars.rend());
    out << "\nLargest variables\n";
    for (std::size_t i = 0; i < vars.size() && i < 10; ++i) {
      const auto& v = g.variables[vars[i].second];
      out << "  " << std::setw(12) << bytes(vars[i].first) << "  " << (p.liveness[vars[i].second].alwaysLive ? "always live  " : "             ")
          << v.name << "\n";
    }
  }

  out << "\nExecution\n";
  if (!runs) {
    out << "  Execution profiling not enabled (set autoReport.outputExecutionProfile or autoReport.all)\n";
  } else if (runs->empty()) {
    out << "  no runs yet\n";
  } else {
    std::uint64_t total = 0;
    std::array<std::uint64_t, 5> kinds{};
    for (const auto& r : *runs) {
      total += r.cycles;
      for (std::size_t k = 0; k < kinds.size(); ++k) kinds[k] += r.cyclesByKind[k];
    }
    out << "  runs " << runs->size() << ", total cycles " << thousands(total) << " ("
        << std::setprecision(3) << double(total) / t.getTileClockFrequency() * 1e3 << " ms at "
        << t.getTileClockFrequency() / 1e9 << " GHz)\n";
    for (std::size_t i = 0; i < runs->size() && i < 5; ++i)
      out << "    " << (*runs)[i].name << ": " << thousands((*runs)[i].cycles) << " cycles, " << (*runs)[i].steps << " steps\n";
    if (runs->size() > 5) out << "    ... and " << runs->size() - 5 << " more\n";
    std::uint64_t tileTotal = 0;
    for (auto k : kinds) tileTotal += k;
    out << "  tile cycles by kind:";
    for (std::size_t k = 0; k < kinds.size(); ++k)
      out << " " << tessera::profiler::schema::kCycleKindNames[k] << " " << std::setprecision(1)
          << (tileTotal ? 100.0 * double(kinds[k]) / double(tileTotal) : 0.0) << "%";
    out << "\n";
  }
  if (o.showExecutionSteps) {
    std::vector<std::pair<std::uint64_t, unsigned>> steps;
    for (unsigned id = 0; id < p.model.programs.size(); ++id) {
      const auto& pr = p.model.programs[id];
      if (!pr.isStep()) continue;
      std::uint64_t c = pr.ipuCycles;
      for (const auto& tv : pr.cycles) c = std::max(c, tv.value);
      steps.push_back({c, id});
    }
    std::sort(steps.rbegin(), steps.rend());
    out << "\nCostliest program steps (cycles per execution)\n";
    for (std::size_t i = 0; i < steps.size() && i < 10; ++i) {
      const auto& pr = p.model.programs[steps[i].second];
      out << "  " << std::setw(10) << thousands(steps[i].first) << "  " << std::setw(15) << std::left
          << tessera::profiler::schema::name(pr.type) << std::right << " " << pr.name << "\n";
    }
  }
  if (!reportDirectory.empty()) out << "\nReport files in " << reportDirectory << "\n";
}

} // namespace poplar::detail::report
