// The Operations view's per-tile charts of the selected operation: libpva's
// pva::operationTileFigures (code, vertices, estimated cycles, estimated FLOPs and executed
// cycles on each tile of one replica), read for one operation at a time.
//
// Threads: loadOperationTiles() runs off the GUI thread with its own pva::Report; the result is
// immutable. Cost: the operation's programs, then every executed step once (as analyseExecution).
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <QString>
#include <cstdint>
#include <vector>

namespace tessera::viewer {

struct OperationTilesData {
  /// What a chart can show, in the figure box's order.
  enum Figure {
    CodeBytes = 0,
    Vertices,
    EstimatedCycles,
    EstimatedFlops,
    ExecutedCycles,
    FigureCount
  };
  static QString figureName(Figure f);
  static bool isBytes(Figure f) { return f == CodeBytes; }

  QString operation;        ///< the operation's name
  std::size_t index = 0;    ///< its position in pva::OperationAnalysis::operations()
  unsigned tilesPerIpu = 0; ///< to name a tile's IPU
  bool profiled = false;    ///< the report has an execution
  std::uint64_t executedSteps = 0;
  /// The report stores FLOP estimates per tile (format 1.4 with profiler.includeFlopEstimates);
  /// without them the EstimatedFlops values are empty ("no estimate", never zeros).
  bool hasFlops = false;
  /// Vertices of its compute sets whose codelet has no FLOP model (user codelets): not counted.
  std::uint64_t verticesWithoutFlopEstimate = 0;
  std::vector<std::uint64_t> values[FigureCount]; ///< per tile of one replica
  const std::vector<std::uint64_t>& of(Figure f) const { return values[f]; }
};

/// Reads operation `index` of pva::OperationAnalysis(report).operations(). Throws pva::Exception
/// (InvalidArgumentError for an index past the end); Cancelled when progress is cancelled.
OperationTilesData loadOperationTiles(const Document& doc, std::size_t index, Progress& progress);

} // namespace tessera::viewer
