// Turning pva::compare's result into the Compare page's sections.
#include "core/ComparisonData.hpp"

#include <algorithm>
#include <cstdlib>

namespace tessera::viewer {

const ComparisonRow* ComparisonData::row(const QString& section, const QString& name) const {
  for (const auto& s : sections)
    if (s.title == section)
      for (const auto& r : s.rows)
        if (r.name == name) return &r;
  return nullptr;
}

namespace {

ComparisonRow valueRow(const QString& name, const pva::ComparedValue& v) { return {name, v.base, v.current, true, true}; }

ComparisonSection namedSection(const QString& title, bool bytes, const std::vector<pva::NamedComparison>& named) {
  ComparisonSection s{title, bytes, {}};
  for (const auto& n : named)
    s.rows.push_back({QString::fromStdString(n.name), n.value.base, n.value.current, n.inBase, n.inCurrent});
  std::stable_sort(s.rows.begin(), s.rows.end(), [](const ComparisonRow& a, const ComparisonRow& b) {
    return std::llabs(a.delta()) > std::llabs(b.delta());
  });
  return s;
}

} // namespace

ComparisonData loadComparison(const Document& doc, Progress& progress) {
  if (!doc.base()) throw DocumentError("no base report to compare with");
  progress.report(0.05);
  const pva::ReportComparison c = pva::compare(doc.base()->openReport(), doc.openReport());
  progress.report(0.95);
  ComparisonData d;
  d.baseName = doc.base()->displayName();
  d.currentName = doc.displayName();
  const pva::MemoryComparison& m = c.memory;
  d.sections.push_back({QStringLiteral("Memory"), true,
                        {valueRow(QStringLiteral("Total (including gaps)"), m.totalIncludingGaps),
                         valueRow(QStringLiteral("Total (excluding gaps)"), m.totalExcludingGaps),
                         valueRow(QStringLiteral("Largest tile"), m.maxTileIncludingGaps),
                         valueRow(QStringLiteral("Always live"), m.alwaysLive),
                         valueRow(QStringLiteral("Peak liveness"), m.peakLiveness)}});
  d.sections.push_back(namedSection(QStringLiteral("Memory by category"), true, m.categories));
  d.sections.push_back({QStringLiteral("Cycles"), false, {valueRow(QStringLiteral("Total"), c.cycles.total)}});
  if (c.hasExecution) {
    d.sections.push_back(namedSection(QStringLiteral("Cycles by kind (tile cycles)"), false, c.cycles.kinds));
    d.sections.push_back(namedSection(QStringLiteral("Runs"), false, c.cycles.runs));
    d.sections.push_back(namedSection(QStringLiteral("Compute sets"), false, c.cycles.computeSets));
    d.sections.push_back(namedSection(QStringLiteral("Programs"), false, c.cycles.programs));
  }
  d.liveness = c.liveness;
  progress.report(1.0);
  return d;
}

} // namespace tessera::viewer
