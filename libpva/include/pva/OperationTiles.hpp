// An operation's figures tile by tile: where its code sits, where its compute sets' vertices
// are, where its cycles (estimated and executed) are spent and where its FLOPs are done. The
// Operations view's per-tile charts show these; their totals over tiles are OperationFigures'
// figures.
//
//   const pva::OperationAnalysis ops(report);
//   const pva::OperationTileFigures t = pva::operationTileFigures(report, ops.operations()[0]);
//   for (unsigned tile = 0; tile < t.codeBytes.size(); ++tile) ... t.cycles[tile] ...
#pragma once

#include <cstdint>
#include <pva/Analysis.hpp>
#include <vector>

namespace pva {

/// Per tile of one replica (Target::tilesPerReplica() entries in every vector, zeros included;
/// estimatedFlops is empty when the report has no FLOP estimates per tile).
struct OperationTileFigures {
  Scope scope; ///< all runs, one replica
  /// Control code and exchange code of its programs (each program once): summed over tiles,
  /// OperationFigures::codeBytes.
  std::vector<std::uint64_t> codeBytes;
  /// Vertices of the compute sets its programs run (each set once): summed over tiles,
  /// OperationFigures::vertices.
  std::vector<std::uint64_t> vertices;
  /// Compile-time cycles of one execution of each of its step programs, on each tile.
  std::vector<std::uint64_t> estimatedCycles;
  /// Executed over all runs: the cycles each tile spent in the steps that ran its programs
  /// (ExecutionStep::cyclesByTile summed). A tile's cycles in a step never exceed the step's
  /// slowest IPU, so no tile exceeds operationCycles(operation, allRuns).
  std::vector<std::uint64_t> cycles;
  /// Compile-time FLOPs of one execution of each compute set its programs run (each set once,
  /// as OperationFigures::estimatedFlops, to which they add up; vertices without a FLOP model
  /// count for nothing here, OperationFigures::verticesWithoutFlopEstimate counts them). Empty
  /// ("no estimate", never zeros) when the report has no FLOP estimates per tile: the engine
  /// option profiler.includeFlopEstimates was off, or the report is older than format 1.4.
  std::vector<std::uint64_t> estimatedFlops;
  std::uint64_t executedSteps = 0; ///< steps of all runs that ran one of its programs
  bool profiled = false;           ///< the report has an execution (else cycles are all 0)
};

/// Reads the operation's programs and, when the report has an execution, every executed step
/// once (streamed in chunks): costs about what analyseExecution costs.
OperationTileFigures operationTileFigures(const Report& report, const Operation& operation);

} // namespace pva
