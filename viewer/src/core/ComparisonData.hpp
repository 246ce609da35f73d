// The Compare page's content: pva::compare of the base and current reports as sections of rows,
// each row a value in both reports: targets first, then memory, memory by category, variables
// (always live, live at each report's peak), cycles, cycles by kind, runs, compute sets, programs
// and operations. Lists have a totals row (first, marked `total`) saying what it sums. Every
// value is pva::compare's; nothing is derived here. Loaded off the GUI thread; reads every step
// of both executions once.
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <QString>
#include <QStringList>
#include <pva/Compare.hpp>
#include <vector>

namespace tessera::viewer {

struct ComparisonRow {
  enum class Unit {
    Bytes,
    Count,
    Text
  }; ///< Count: cycles and other numbers; Text: baseText/currentText
  QString name;
  std::uint64_t base = 0, current = 0;
  bool inBase = true, inCurrent = true;
  Unit unit = Unit::Count;
  bool total = false; ///< the section's totals row
  /// False when the two values cover different things: no difference is shown, the row says
  /// why (comparisonNote).
  bool comparable = true;
  QString comparisonNote; ///< shown instead of a difference when !comparable
  /// Figures summed over all runs: how they compare (pva::RunBasis; per run when the reports ran
  /// different numbers of runs). Default: as they are.
  pva::RunBasis basis;
  /// Both sides have the row: a row missing from one side is "missing", not a change.
  bool inBoth() const { return inBase && inCurrent; }
  QString baseText, currentText; ///< Unit::Text: the values as shown (a target's architecture)
  /// Saturated as pva::ComparedValue::delta (values of 2^63 and more must not overflow); per run
  /// (rounded) when basis.perRun().
  std::int64_t delta() const;
  /// basis.relative: per run when basis.perRun().
  double relative() const { return basis.relative({base, current}); }
  /// Text rows differ when their texts do; others when their values do.
  bool differs() const { return unit == Unit::Text ? baseText != currentText : base != current; }
};

struct ComparisonSection {
  QString title;
  std::vector<ComparisonRow> rows;
  /// Rows matched by name were left out because the reports are unrelated: only totals remain.
  bool rowsHidden = false;
};

struct ComparisonData {
  QString baseName, currentName;
  /// Two jobs: which instance is compared ("Instance 1 of both jobs (2 paired)"), else empty.
  QString instance;
  /// What the page says before any table: the targets differ; the reports are unrelated.
  QStringList warnings;
  bool targetsDiffer = false, unrelated = false, operationsCompared = false;
  std::vector<ComparisonSection> sections;
  pva::LivenessComparison liveness;
  const ComparisonSection* section(const QString& title) const;
  const ComparisonRow* row(const QString& section, const QString& name) const;
  /// The totals row of a section (null when it has none).
  const ComparisonRow* totalRow(const QString& section) const;
};

/// Section titles, for tests and the page.
namespace compare_sections {
inline const QString targets = QStringLiteral("Targets");
inline const QString memory = QStringLiteral("Memory (all tiles)");
inline const QString categories = QStringLiteral("Memory by category (all tiles)");
inline const QString alwaysLive = QStringLiteral("Always-live variables (one replica)");
inline const QString atPeak = QStringLiteral("Variables live at the peak step (one replica)");
inline const QString cycles = QStringLiteral("Cycles");
inline const QString kinds = QStringLiteral("Cycles by kind (tile cycles, one replica)");
inline const QString streamCopies =
    QStringLiteral("Stream copies by destination (cycles, all runs)");
inline const QString runs = QStringLiteral("Runs (cycles)");
inline const QString computeSets = QStringLiteral("Compute sets (cycles, all runs)");
inline const QString programs = QStringLiteral("Programs (cycles, all runs)");
inline const QString opCycles = QStringLiteral("Operations: cycles (all runs)");
inline const QString opEstimated = QStringLiteral("Operations: estimated cycles (each step once)");
inline const QString opAlwaysLive = QStringLiteral("Operations: always-live bytes");
inline const QString opPeakLive = QStringLiteral("Operations: peak not-always-live bytes");
inline const QString opCode = QStringLiteral("Operations: code bytes");
} // namespace compare_sections

/// Turns a comparison into the page's sections. Named rows (variables, runs matched by name,
/// compute sets, programs, operations) are sorted by the size of their change, largest first.
ComparisonData comparisonData(const pva::ReportComparison& c, const QString& baseName,
                              const QString& currentName);

/// Compares doc.base() with doc (comparisonData of pva::compare).
ComparisonData loadComparison(const Document& doc, Progress& progress);

} // namespace tessera::viewer
