// What the Execution page reads on demand, beside the index: one clicked step's details, the
// per-tile cycles of the visible steps (BSP view, capped), and the figures of the Summary tab
// for a visible time range (computed from the index's prefix sums, no report access).
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"
#include "core/ExecutionIndex.hpp"

#include <QString>
#include <QVariant>
#include <array>
#include <cstdint>
#include <pva/Analysis.hpp>
#include <vector>

namespace tessera::viewer {

/// One executed step as the Details tab shows it. Values keep their type; the model formats.
struct StepDetails {
  struct Field {
    QString name;
    QVariant value; ///< qulonglong (cycles, counts), double (a fraction), or QString
    enum Kind { Text, Count, Fraction, Bytes } kind = Text;
  };
  std::uint64_t step = 0;
  QString programName;
  std::vector<Field> fields;
};

/// Reads step `step` (one row). Throws pva errors; an index past the end is an error naming it.
StepDetails loadStepDetails(const Document& doc, std::uint64_t step);

/// A block of the flame view (an operation path level, or a program of the tree, over
/// consecutive steps of one IPU), as the page asks for its details.
struct FlameBlockQuery {
  bool operations = true; ///< `path` is an operation path level; else `program` is a program id
  QString path;           ///< "fwd/layer1": the operations whose path is it or under it
  std::uint32_t program = 0;
  unsigned ipu = 0;
  std::uint64_t firstStep = 0, lastStep = 0; ///< the block's first and last steps (both included)
  std::uint64_t ipuSteps = 0;                ///< its steps on that IPU
};

/// The Details tab for a flame block, every cycle figure from libpva: the block's cycles are
/// pva::operationExecution of the operations under the path over pva::analyseSteps of the
/// block's steps (a program-tree block: all those steps); `scope`, when given (the run shown
/// or all runs, from pva::analyseExecution), adds the same operations' cycles there. Throws pva
/// errors.
StepDetails loadBlockDetails(const Document& doc, const FlameBlockQuery& block,
                             const pva::SpanFigures* scope);

/// Per-tile cycles of steps [firstStep, lastStep) of one replica, for the BSP view.
struct TileCycles {
  std::uint64_t firstStep = 0, lastStep = 0;
  unsigned numTiles = 0;
  std::vector<std::uint32_t> cycles; ///< [(step - firstStep) * numTiles + tile]
  std::uint32_t at(std::uint64_t step, unsigned tile) const {
    return cycles[std::size_t(step - firstStep) * numTiles + tile];
  }
};
/// At most this many (step, tile) values are read at once (64 MiB): more visible steps than
/// that and the BSP view asks to zoom in.
constexpr std::uint64_t kMaxTileCells = std::uint64_t(16) << 20;
/// Throws pva errors; Cancelled when progress is cancelled.
TileCycles loadTileCycles(const Document& doc, std::uint64_t firstStep, std::uint64_t lastStep,
                          Progress& progress);

/// The Summary tab's figures for a time range of one report.
struct ExecutionRangeSummary {
  double from = 0, to = 0;
  std::array<std::uint64_t, kStepKinds> cycles{}; ///< summed over IPUs
  std::uint64_t steps = 0;                        ///< steps with a part in the range
  std::uint64_t ipuSteps = 0;                     ///< (step, IPU) pairs in the range
  std::uint64_t total() const;
};
/// O(lanes * log n): from the index's prefix sums. Entries count when they begin in [from, to).
ExecutionRangeSummary summarizeRange(const ExecutionIndex& index, double from, double to);

} // namespace tessera::viewer
