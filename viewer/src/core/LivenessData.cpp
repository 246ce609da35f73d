// Reading the liveness curve of a scope, and what the selected steps hold.
#include "core/LivenessData.hpp"

#include <algorithm>
#include <map>

namespace tessera::viewer {

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

void checkScope(const pva::Report& report, const LivenessScope& scope) {
  const pva::Target t = report.compilation().target();
  if (scope.tile >= 0 && unsigned(scope.tile) >= t.numTiles())
    throw pva::InvalidArgumentError("no tile " + std::to_string(scope.tile) + " in " +
                                    report.profilePath() + " (" + std::to_string(t.numTiles()) +
                                    " tiles)");
  if (scope.tile < 0 && scope.ipu >= 0 && unsigned(scope.ipu) >= t.numIPUs())
    throw pva::InvalidArgumentError("no IPU " + std::to_string(scope.ipu) + " in " +
                                    report.profilePath());
}

/// The scope's tiles over the device: [first, last).
std::pair<unsigned, unsigned> scopeTiles(const pva::Target& t, const LivenessScope& scope) {
  if (scope.tile >= 0) return {unsigned(scope.tile), unsigned(scope.tile) + 1};
  if (scope.ipu >= 0)
    return {unsigned(scope.ipu) * t.tilesPerIpu(), unsigned(scope.ipu + 1) * t.tilesPerIpu()};
  return {0, t.tilesPerReplica()}; // per-step figures are per replica
}

pva::NotAlwaysLiveMemory stepMemory(const pva::ProgramStep& step, const LivenessScope& scope) {
  if (scope.tile >= 0) return step.notAlwaysLiveMemoryForTile(unsigned(scope.tile));
  if (scope.ipu >= 0) return step.notAlwaysLiveMemoryForIpu(unsigned(scope.ipu));
  return step.notAlwaysLiveMemory();
}

/// Not-always-live bytes of a tile range of one replica, [first, last), at every step: the figure
/// notAlwaysLiveMemoryForIpu/ForTile(...).bytes() gives (the tests check they agree), from one pass
/// over the lowered variables' live intervals instead of one query per step (3 s -> 0.2 s for an
/// IPU of the MLP sample).
std::vector<std::uint64_t> tilesCurve(const pva::CompilationReport& compilation, unsigned first,
                                      unsigned last, std::size_t steps, Progress& progress) {
  std::vector<std::int64_t> change(steps + 1, 0); // bytes starting minus bytes ending at each step
  const std::vector<pva::BriefVar> vars = compilation.loweredVariables().allBriefVars();
  for (std::size_t i = 0; i < vars.size(); ++i) {
    if ((i & 4095) == 0) {
      if (progress.cancelled()) throw Cancelled{};
      progress.report(0.8 * double(i) / double(vars.size()));
    }
    const pva::BriefVar& v = vars[i];
    if (v.tileId() < first || v.tileId() >= last) continue;
    for (const pva::BriefVar::Interval& live : v.equivalenceClass().steps) {
      if (live.start >= steps || live.end <= live.start) continue;
      change[live.start] += std::int64_t(v.bytes());
      change[std::min<std::uint64_t>(live.end, steps)] -= std::int64_t(v.bytes());
    }
  }
  std::vector<std::uint64_t> out(steps);
  std::int64_t sum = 0;
  for (std::size_t s = 0; s < steps; ++s)
    out[s] = std::uint64_t(std::max<std::int64_t>(0, sum += change[s]));
  return out;
}

/// The scope's tiles moved into the first replica (liveness is compiled per replica).
std::pair<unsigned, unsigned> replicaTiles(const pva::Target& t, const LivenessScope& scope) {
  const auto [first, last] = scopeTiles(t, scope);
  const unsigned perReplica = std::max(1u, t.tilesPerReplica());
  const unsigned offset = first / perReplica * perReplica;
  return {first - offset, last - offset};
}

} // namespace

QString LivenessScope::describe() const {
  if (tile >= 0) return QStringLiteral("tile %1").arg(tile);
  if (ipu >= 0) return QStringLiteral("IPU %1").arg(ipu);
  return QStringLiteral("all tiles");
}

std::size_t LivenessData::peakStep() const {
  if (notAlwaysLive.empty()) return 0;
  return std::size_t(std::max_element(notAlwaysLive.begin(), notAlwaysLive.end()) -
                     notAlwaysLive.begin());
}

QString LivenessData::programName(std::size_t step) const {
  if (step >= stepProgram.size()) return {};
  return programNames.value(int(stepProgram[step]));
}

QString LivenessData::programType(std::size_t step) const {
  if (step >= stepProgram.size() || stepProgram[step] >= programTypes.size()) return {};
  return qs(pva::Program::typeName(pva::Program::Type(programTypes[stepProgram[step]])));
}

LivenessData loadLiveness(const Document& doc, LivenessScope scope, Progress& progress) {
  const pva::Report& report = doc.report();
  checkScope(report, scope);
  const pva::CompilationReport compilation = report.compilation();
  const pva::Target target = compilation.target();
  LivenessData d;
  d.scope = scope;
  d.numIpus = target.numIPUs();
  d.numTiles = target.numTiles();
  for (const pva::ProgramPtr& p : compilation.programs()) {
    d.programNames << qs(p->name());
    d.programTypes.push_back(std::uint8_t(p->type()));
  }
  const std::vector<pva::ProgramStep> steps = compilation.livenessProgramSteps();
  d.notAlwaysLive.reserve(steps.size());
  d.stepProgram.reserve(steps.size());
  const bool whole = scope.tile < 0 && scope.ipu < 0;
  if (!whole) {
    const auto [first, last] = replicaTiles(target, scope);
    d.notAlwaysLive = tilesCurve(compilation, first, last, steps.size(), progress);
  }
  for (const pva::ProgramStep& step : steps) {
    if (whole) d.notAlwaysLive.push_back(step.notAlwaysLiveBytes());
    d.stepProgram.push_back(std::uint32_t(step.program()->_id()));
  }
  // The floor and the always-live variables of the scope.
  const auto [first, last] = scopeTiles(target, scope);
  if (whole) {
    // Per replica, like the per-step figures.
    const std::vector<pva::Tile> tiles = compilation.tiles();
    for (unsigned t = first; t < last && t < tiles.size(); ++t)
      d.alwaysLive += tiles[t].memory().alwaysLiveBytes();
    for (const pva::Variable& v : compilation.alwaysLiveVariables())
      d.alwaysLiveVariables.push_back({qs(v.name()), qs(v.category()), v.bytes()});
  } else {
    std::map<std::pair<std::string, std::string>, std::uint64_t> sums; // (name, category) -> bytes
    for (unsigned t = first; t < last && t < target.numTiles(); ++t) {
      if ((t & 63) == 0 && progress.cancelled()) throw Cancelled{};
      d.alwaysLive += compilation.tile(t).memory().alwaysLiveBytes();
      for (const pva::Variable& v : compilation.alwaysLiveVariablesForTile(t))
        sums[{v.name(), v.category()}] += v.bytes();
    }
    for (const auto& [key, bytes] : sums)
      d.alwaysLiveVariables.push_back({qs(key.first), qs(key.second), bytes});
  }
  progress.report(1.0);
  return d;
}

StepDetailsData loadStepDetails(const Document& doc, LivenessScope scope,
                                std::vector<std::size_t> steps, Progress& progress) {
  const pva::Report& report = doc.report();
  checkScope(report, scope);
  const pva::CompilationReport compilation = report.compilation();
  const pva::Target target = compilation.target();
  const std::vector<pva::ProgramStep> all = compilation.livenessProgramSteps();
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  for (std::size_t s : steps)
    if (s >= all.size())
      throw pva::InvalidArgumentError("no liveness step " + std::to_string(s) + " in " +
                                      report.profilePath());
  StepDetailsData d;
  d.steps = steps;
  const unsigned perReplica = std::max(1u, target.tilesPerReplica());
  const auto [first, last] = scopeTiles(target, scope);

  // Variables live at each selected step, one column per step.
  std::map<std::pair<std::string, std::string>, std::size_t> rowOf;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    if (progress.cancelled()) throw Cancelled{};
    progress.report(0.7 * double(k) / double(steps.size()));
    d.stepLabels << QStringLiteral("Step %1").arg(steps[k]);
    for (const pva::Variable& v : stepMemory(all[steps[k]], scope).variables()) {
      auto [it, added] = rowOf.try_emplace({v.name(), v.category()}, d.liveVariables.size());
      if (added)
        d.liveVariables.push_back(
            {qs(v.name()), qs(v.category()), std::vector<std::uint64_t>(steps.size(), 0)});
      d.liveVariables[it->second].bytes[k] += v.bytes();
    }
  }

  for (std::size_t k = 0; k < steps.size(); ++k) {
    const pva::ProgramPtr program = all[steps[k]].program();
    StepCyclesRow row;
    row.step = steps[k];
    row.program = qs(program->name());
    row.type = qs(pva::Program::typeName(program->type()));
    const std::vector<std::uint64_t> cycles = program->estimatedCyclesByTile();
    row.hasEstimate = program->isStep(); // control programs' arrays are all zeros, not empty
    unsigned tiles = 0;
    for (unsigned t = first; t < last; ++t) {
      const unsigned rt = t % perReplica;
      if (rt >= cycles.size()) continue;
      ++tiles;
      row.maxCycles = std::max(row.maxCycles, cycles[rt]);
      row.totalCycles += cycles[rt];
      row.activeTiles += cycles[rt] > 0 ? 1 : 0;
    }
    row.meanCycles = tiles ? double(row.totalCycles) / tiles : 0.0;
    d.cycles.push_back(row);
  }

  // Vertices of the first selected step's compute set, on the scope's tiles.
  if (!steps.empty()) {
    const pva::ProgramPtr program = all[steps.front()].program();
    if (program->type() == pva::Program::Type::OnTileExecute) {
      const pva::ComputeSet cs =
          static_cast<const pva::OnTileExecuteProgram&>(*program).computeSet();
      d.computeSet = qs(cs.name());
      for (const pva::ComputeSetVertices& cv : cs.vertices()) {
        if (progress.cancelled()) throw Cancelled{};
        const std::vector<std::uint64_t> counts = cv.countByTile();
        TileVertexRow row;
        row.name = qs(cv.type().name());
        for (unsigned t = first; t < last; ++t) {
          const unsigned rt = t % perReplica;
          if (rt >= counts.size() || counts[rt] == 0) continue;
          row.count += counts[rt];
          ++row.tiles;
        }
        if (row.count == 0) continue;
        row.stateBytes = row.count * cv.type().size();
        row.codeBytes = std::uint64_t(row.tiles) * cv.type().codeBytes();
        d.vertices.push_back(row);
      }
    }
  }
  progress.report(1.0);
  return d;
}

} // namespace tessera::viewer
