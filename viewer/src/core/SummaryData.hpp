// The Summary page's content: sections of named values read from a report off the GUI thread.
// Values keep their kind (bytes, count, text) so the model formats them in the current units.
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <QString>
#include <cstdint>
#include <pva/Compare.hpp>
#include <vector>

namespace tessera::viewer {

struct SummaryValue {
  enum class Kind { Text, Bytes, Count };
  Kind kind = Kind::Text;
  QString text;
  std::uint64_t number = 0;
  /// A cycle count (a Count) and the report's clock: shown as cycles or as time, as the
  /// Preferences say (formatCycles); 0 for other counts.
  double clockHz = 0;

  static SummaryValue ofText(QString t) { return {Kind::Text, std::move(t), 0}; }
  static SummaryValue ofBytes(std::uint64_t b) { return {Kind::Bytes, {}, b}; }
  static SummaryValue ofCount(std::uint64_t n) { return {Kind::Count, {}, n}; }
  static SummaryValue ofCycles(std::uint64_t n, double clockHz) {
    return {Kind::Count, {}, n, clockHz};
  }
};

struct SummaryRow {
  QString name;
  SummaryValue value;
  QString note; ///< shown beside the value, e.g. "tile 17"
  /// Comparing (SummaryData::compared): the base report's value, and which reports have the row.
  /// `value` and `note` are the current report's (the base's note when only the base has it).
  SummaryValue baseValue{};
  bool inBase = true, inCurrent = true;
  /// False when the two values cover different things: the difference column says why
  /// (comparisonNote) instead of showing one.
  bool comparable = true;
  QString comparisonNote{};
  /// Comparing: the base report's note (its file's size, its largest tile...).
  QString baseNote{};
  /// Figures summed over all runs (the Execution and Stream copies sections): how they compare,
  /// pva::RunBasis (per run when the reports ran different numbers of runs).
  pva::RunBasis basis{};
  bool inBoth() const { return inBase && inCurrent; }
  /// Numbers: pva::ComparedValue's saturated current - base (0 for text or a row on one side);
  /// per run, rounded, when basis.perRun().
  std::int64_t delta() const;
  /// Numbers: basis.relative (0 for text or a row on one side).
  double relative() const;
  /// Both sides have the row and their values differ (texts compared as text).
  bool differs() const;
};

struct SummarySection {
  QString title;
  std::vector<SummaryRow> rows;
  QString
      scope; ///< what the figures cover ("all runs, one replica"), from pva::Scope; may be empty
};

struct SummaryData {
  std::vector<SummarySection> sections;
  /// Two reports side by side: each row has the base's value and the current's.
  bool compared = false;
  /// The section's rows, or null (for tests and other pages).
  const SummarySection* section(const QString& title) const;
  const SummaryRow* row(const QString& section, const QString& name) const;
};

/// Reads everything the Summary page shows, rendering pva::summarize (so its figures are those of
/// `pva summary` and Python). Cost: one pass over the tiles' memory columns and the liveness
/// steps; execution figures come from per-run totals, except the stream copies by destination
/// (pva::analyseExecution: one pass over the steps). A comparison (doc.base()) reads both
/// reports and pairs them (compareSummaries).
SummaryData loadSummary(const Document& doc, Progress& progress);

/// The two reports' summaries side by side: sections and rows paired by title and name, in the
/// current report's order, then what only the base has. Differences are pva::ComparedValue's;
/// those of figures summed over all runs follow pva::RunBasis of the two Execution "Runs" rows.
SummaryData compareSummaries(const SummaryData& base, const SummaryData& current);

} // namespace tessera::viewer
