// The Compare page's content: pva::compare of the base and current reports, as sections of rows
// (memory, memory by category, cycles, cycles by kind, runs, compute sets, programs), each row a
// value in both reports. Loaded off the GUI thread; reads every step of both executions once.
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <pva/Compare.hpp>

#include <QString>

#include <vector>

namespace tessera::viewer {

struct ComparisonRow {
  QString name;
  std::uint64_t base = 0, current = 0;
  bool inBase = true, inCurrent = true;
  std::int64_t delta() const { return std::int64_t(current) - std::int64_t(base); }
};

struct ComparisonSection {
  QString title;
  bool bytes = false; ///< values are bytes (else counts: cycles)
  std::vector<ComparisonRow> rows;
};

struct ComparisonData {
  QString baseName, currentName;
  std::vector<ComparisonSection> sections;
  pva::LivenessComparison liveness;
  const ComparisonRow* row(const QString& section, const QString& name) const;
};

/// Compares doc.base() with doc. Named rows (runs, compute sets, programs) are sorted by the
/// size of their change, largest first.
ComparisonData loadComparison(const Document& doc, Progress& progress);

} // namespace tessera::viewer
