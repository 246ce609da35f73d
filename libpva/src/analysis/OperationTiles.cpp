// pva::operationTileFigures: an operation's code, vertices, cycles and FLOPs on each tile.
#include "../model/Saturating.hpp"

#include <pva/Execution.hpp>
#include <pva/OperationTiles.hpp>
#include <pva/Program.hpp>
#include <pva/Report.hpp>
#include <set>

namespace pva {

namespace {

void addTiles(std::vector<std::uint64_t>& into, const std::vector<std::uint64_t>& add) {
  // Every ...ByTile vector has tilesPerReplica entries; a shorter one (a damaged report) adds
  // what it has rather than reading past its end.
  for (std::size_t t = 0; t < into.size() && t < add.size(); ++t)
    detail::addTo(into[t], add[t]);
}

} // namespace

OperationTileFigures operationTileFigures(const Report& report, const Operation& operation) {
  OperationTileFigures f;
  f.scope.runs = Scope::Runs::AllRuns;
  const std::size_t tiles = report.compilation().target().tilesPerReplica();
  f.codeBytes.assign(tiles, 0);
  f.vertices.assign(tiles, 0);
  f.estimatedCycles.assign(tiles, 0);
  f.cycles.assign(tiles, 0);

  // FLOPs per tile: only in a report that stores them (format 1.4 with estimates); any other
  // leaves the figure empty, never zeros.
  bool flopsByTile = report.hasFlopEstimatesByTile();
  std::vector<std::uint64_t> flops(flopsByTile ? tiles : 0, 0);

  std::set<std::uint64_t> programs;
  std::set<unsigned> computeSets;
  for (const ProgramPtr& p : operation.programs()) {
    if (!programs.insert(p->_id()).second) continue;
    addTiles(f.codeBytes, p->controlCodeByTile());
    addTiles(f.codeBytes, p->codeBytesByTile());
    if (p->isStep()) addTiles(f.estimatedCycles, p->estimatedCyclesByTile());
    if (p->type() == Program::Type::OnTileExecute) {
      const ComputeSet cs = static_cast<const OnTileExecuteProgram&>(*p).computeSet();
      if (computeSets.insert(cs.id()).second) {
        for (const ComputeSetVertices& v : cs.vertices())
          addTiles(f.vertices, v.countByTile());
        if (flopsByTile) {
          const std::vector<std::uint64_t> csFlops = cs.estimatedFlopsByTile();
          if (csFlops.empty())
            flopsByTile = false;
          else
            addTiles(flops, csFlops);
        }
      }
    }
  }

  if (flopsByTile) f.estimatedFlops = std::move(flops);

  const ExecutionReport execution = report.execution();
  const ExecutionSteps steps = execution.steps();
  f.profiled = !steps.empty();
  // The steps of the runs, as analyseExecution reads them (operationExecution's steps are the
  // same quantity): a step that no run holds (a damaged report whose run row is gone) counts in
  // neither. Runs hold disjoint spans (checked when they are read), so no step counts twice.
  for (const Run& run : execution.runs())
    for (const ExecutionStep& step : run.steps()) {
      if (!programs.count(step.program()->_id())) continue;
      ++f.executedSteps;
      addTiles(f.cycles, step.cyclesByTile());
    }
  return f;
}

} // namespace pva
