// The Operations page's table: the operations of debug.cbor (PopLibs calls and the user contexts
// that own programs), with their memory and cycles. Loaded off the GUI thread; executed cycles
// are libpva's pva::operationCycles over pva::analyseExecution (every step read once).
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <QString>
#include <cstdint>
#include <optional>
#include <pva/Analysis.hpp>
#include <pva/Compare.hpp>
#include <vector>

namespace tessera::viewer {

struct OperationVariable {
  QString name;
  std::uint64_t id = 0, bytes = 0;
  bool alwaysLive = false;
  std::uint64_t liveFrom = 0, liveTo = 0; ///< liveness steps [from, to) when not always live
};

struct OperationProgram {
  QString name, type;
  std::uint64_t executedCycles = 0;
  std::uint64_t id = 0; ///< the program's id (execution steps name it: the trace highlights them)
};

struct OperationInfo {
  std::size_t index = 0; ///< position in pva::OperationAnalysis::operations() (loadOperationTiles)
  QString name, type, layer, debugPath, location, json;
  std::int64_t firstStep = -1, lastStep = -1;
  std::uint64_t estimatedCycles = 0; ///< compile-time, slowest tile per step, summed
  std::uint64_t executedCycles = 0;  ///< slowest IPU per executed step, summed
  std::uint64_t alwaysLiveBytes = 0;
  /// The most bytes of its not-always-live variables live at one step (pva::peakLiveBytes):
  /// never more than the report's liveness peak.
  std::uint64_t notAlwaysLiveBytes = 0;
  std::uint64_t codeBytes = 0, vertices = 0, exchangeBytes = 0; ///< pva::OperationFigures
  /// pva::OperationFigures::estimatedFlops (nullopt: the report has no FLOP estimates) and the
  /// vertices not in it (user codelets).
  std::optional<std::uint64_t> estimatedFlops;
  std::uint64_t verticesWithoutFlopEstimate = 0;
  std::vector<OperationProgram> programs;
  std::vector<OperationVariable> variables;
  /// Comparing (OperationsData::compared): the operation's figures in the base report, from
  /// pva::compareOperations (matched by debug path). An operation only the base has is a row of
  /// its own with inCurrent false and no current figures.
  struct Change {
    bool inBase = false, inCurrent = true;
    std::uint64_t executedCycles = 0, estimatedCycles = 0, alwaysLiveBytes = 0,
                  notAlwaysLiveBytes = 0, codeBytes = 0;
  };
  std::optional<Change> change;
  bool onlyInBase() const { return change && !change->inCurrent; }
};

/// The operations of one layer, totalled (OperationsModel::layerTotals).
struct LayerTotals {
  QString layer;
  std::uint64_t operations = 0;
  OperationInfo totals;
};

struct OperationsData {
  bool hasDebugInfo = false;
  bool hasFlopEstimates = false; ///< pva::Report::hasFlopEstimates
  std::vector<OperationInfo> operations;
  QStringList layers; ///< distinct layer names, sorted
  /// Two reports: every operation has its `change`; operations only the base has follow the
  /// current report's.
  bool compared = false;
  /// Comparing: how executed cycles (all runs) compare, libpva's pva::RunBasis (per run when the
  /// reports ran different numbers of runs); the other figures are compile-time ones.
  pva::RunBasis basis;
  /// The current report's steps over all runs (pva::ExecutionAnalysis::allRuns): their
  /// slowest-IPU cycles summed (SpanFigures::cycles, what operations' executed cycles add up to)
  /// and the runs' length (SpanFigures::lengthCycles). A pipeline's IPUs run steps at the same
  /// time, so the first can exceed the second.
  std::uint64_t stepCycles = 0, lengthCycles = 0;
  /// Executed cycles as the Operations summary reads them: the number, and when it is more than
  /// the runs' length, by how much and why (IPUs that ran steps at the same time count each).
  QString executedCyclesText(std::uint64_t executed) const;
};

/// The same figure for a group of operations: their variables (each once) live at one step.
std::uint64_t peakNotAlwaysLiveBytes(const std::vector<const OperationInfo*>& operations);

/// The current report's operations; comparing (doc.base() with debug information), each with
/// the base's figures and the base's own operations after them.
OperationsData loadOperations(const Document& doc, Progress& progress);
/// One report's operations with their cycles in `execution`: what Session::operations runs once.
OperationsData deriveOperations(const pva::Report& report, const pva::ExecutionAnalysis& execution,
                                Progress& progress);

} // namespace tessera::viewer
