// Turning pva::compare's result into the Compare page's sections (presentation only: which rows,
// in which order, with which labels).
#include "core/ComparisonData.hpp"

#include "core/RunBasisText.hpp"

#include <algorithm>
#include <cstdlib>

namespace tessera::viewer {

namespace sec = compare_sections;

std::int64_t ComparisonRow::delta() const {
  return roundedDelta(basis, {base, current});
}

const ComparisonSection* ComparisonData::section(const QString& title) const {
  for (const auto& s : sections)
    if (s.title == title) return &s;
  return nullptr;
}

const ComparisonRow* ComparisonData::row(const QString& title, const QString& name) const {
  if (const ComparisonSection* s = section(title))
    for (const auto& r : s->rows)
      if (r.name == name) return &r;
  return nullptr;
}

const ComparisonRow* ComparisonData::totalRow(const QString& title) const {
  const ComparisonSection* s = section(title);
  return s && !s->rows.empty() && s->rows.front().total ? &s->rows.front() : nullptr;
}

namespace {

using Unit = ComparisonRow::Unit;

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

ComparisonRow valueRow(const QString& name, const pva::ComparedValue& v, Unit unit) {
  ComparisonRow r;
  r.name = name;
  r.base = v.base;
  r.current = v.current;
  r.unit = unit;
  return r;
}

ComparisonRow totalRow(const QString& name, const pva::ComparedValue& v, Unit unit) {
  ComparisonRow r = valueRow(name, v, unit);
  r.total = true;
  return r;
}

ComparisonRow textRow(const QString& name, const QString& base, const QString& current) {
  ComparisonRow r;
  r.name = name;
  r.unit = Unit::Text;
  r.baseText = base;
  r.currentText = current;
  return r;
}

void sortByChange(std::vector<ComparisonRow>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const ComparisonRow& a, const ComparisonRow& b) {
    return std::llabs(a.delta()) > std::llabs(b.delta());
  });
}

/// A list with its totals row first; its named rows are left out (hideNamed) for unrelated reports.
ComparisonSection listSection(const QString& title, Unit unit, const QString& totalName,
                              const pva::ComparedValue& total,
                              const std::vector<pva::NamedComparison>& named, bool hideNamed) {
  ComparisonSection s{title, {totalRow(totalName, total, unit)}, hideNamed};
  if (hideNamed) return s;
  std::vector<ComparisonRow> rows;
  for (const auto& n : named) {
    ComparisonRow r = valueRow(qs(n.name), n.value, unit);
    r.inBase = n.inBase;
    r.inCurrent = n.inCurrent;
    rows.push_back(std::move(r));
  }
  sortByChange(rows);
  s.rows.insert(s.rows.end(), rows.begin(), rows.end());
  return s;
}

/// Stream-copy steps' cycles by destination (pva::CycleComparison::streamCopies, the Summary's
/// split of each report), in libpva's order and named as the Summary names them; the two rare
/// destinations only when a report has them.
ComparisonSection streamCopySection(const pva::CycleComparison& c) {
  ComparisonSection s{sec::streamCopies,
                      {totalRow(QStringLiteral("Total (Σ stream-copy steps, slowest IPU each)"),
                                c.streamCopiesTotal, Unit::Count)},
                      false};
  for (const pva::NamedComparison& n : c.streamCopies) {
    const bool rare = n.name == "mixed" || n.name == "unknown";
    if (rare && !n.value.base && !n.value.current) continue;
    const QString name = n.name == "host"           ? QStringLiteral("Host")
                         : n.name == "remoteBuffer" ? QStringLiteral("Remote buffers")
                         : n.name == "mixed"        ? QStringLiteral("Host and remote buffers")
                                                    : QStringLiteral("Destination unknown");
    s.rows.push_back(valueRow(name, n.value, Unit::Count));
  }
  return s;
}

QString clockText(const pva::Target& t) {
  return QStringLiteral("%1 MHz").arg(t.clockFrequency() / 1e6, 0, 'f', 0);
}

ComparisonSection targetSection(const pva::TargetComparison& t) {
  ComparisonSection s{sec::targets, {}, false};
  s.rows.push_back(textRow(QStringLiteral("Type"), qs(pva::Target::typeName(t.base.type())),
                           qs(pva::Target::typeName(t.current.type()))));
  s.rows.push_back(textRow(QStringLiteral("Architecture"),
                           qs(pva::Target::architectureName(t.base.architecture())),
                           qs(pva::Target::architectureName(t.current.architecture()))));
  s.rows.push_back(valueRow(QStringLiteral("IPUs"), t.ipus, Unit::Count));
  s.rows.push_back(valueRow(QStringLiteral("Tiles per IPU"), t.tilesPerIpu, Unit::Count));
  s.rows.push_back(valueRow(QStringLiteral("Memory per tile"), t.bytesPerTile, Unit::Bytes));
  s.rows.push_back(valueRow(QStringLiteral("Replicas"), t.replicas, Unit::Count));
  ComparisonRow clock = textRow(QStringLiteral("Clock"), clockText(t.base), clockText(t.current));
  // Two clocks that round to the same MHz still differ: say so rather than show two equal texts.
  if (t.clockHz.delta() != 0 && clock.baseText == clock.currentText)
    clock.currentText += QStringLiteral(" (%1 Hz)").arg(t.clockHz.current);
  s.rows.push_back(clock);
  return s;
}

QString runName(const pva::RunComparison& r) {
  using M = pva::RunComparison::Match;
  switch (r.match) {
  case M::ByName:
    return qs(r.baseName);
  case M::ByPosition:
    return QStringLiteral("%1 ↔ %2 (run %3, matched by position)")
        .arg(qs(r.baseName), qs(r.currentName))
        .arg(r.baseIndex);
  case M::OnlyInBase:
    return qs(r.baseName) + QStringLiteral(" (only in base)");
  case M::OnlyInCurrent:
    return qs(r.currentName) + QStringLiteral(" (only in current)");
  }
  return {};
}

/// A total over all runs compares by the reports' run basis (per run when their counts differ).
void overRuns(ComparisonRow& r, const pva::RunBasis& basis) {
  r.basis = basis;
}

ComparisonSection runSection(const pva::CycleComparison& c) {
  ComparisonSection s{
      sec::runs,
      {totalRow(QStringLiteral("Total (Σ runs = total cycles)"), c.runsTotal, Unit::Count)},
      false};
  overRuns(s.rows.front(), c.basis);
  for (const auto& run : c.matchedRuns) { // in run order: runs are few
    ComparisonRow r = valueRow(runName(run), run.cycles, Unit::Count);
    r.inBase = run.inBase();
    r.inCurrent = run.inCurrent();
    s.rows.push_back(std::move(r));
  }
  return s;
}

/// One section per operation figure: each row is one value, as in every other section.
void addOperationSections(ComparisonData& d, const pva::OperationsComparison& o, bool hide,
                          bool withCycles) {
  struct Figure {
    QString title;
    pva::ComparedValue pva::OperationComparison::*value;
    Unit unit;
    QString total;
  };
  const Figure figures[] = {
      {sec::opCycles, &pva::OperationComparison::cycles, Unit::Count,
       QStringLiteral("Total (Σ operations)")},
      {sec::opEstimated, &pva::OperationComparison::estimatedCycles, Unit::Count,
       QStringLiteral("Total (Σ operations)")},
      {sec::opAlwaysLive, &pva::OperationComparison::alwaysLiveBytes, Unit::Bytes,
       QStringLiteral("Total (Σ operations)")},
      {sec::opPeakLive, &pva::OperationComparison::peakNotAlwaysLiveBytes, Unit::Bytes,
       QStringLiteral("Total (all operations' variables live at one step, at most)")},
      {sec::opCode, &pva::OperationComparison::codeBytes, Unit::Bytes,
       QStringLiteral("Total (Σ operations)")},
  };
  for (const Figure& f : figures) {
    if (!withCycles && f.title == sec::opCycles)
      continue; // a report that did not run has no cycles
    ComparisonSection s{f.title, {totalRow(f.total, o.total.*f.value, f.unit)}, hide};
    if (!hide) {
      std::vector<ComparisonRow> rows;
      for (const auto& op : o.operations) {
        ComparisonRow r = valueRow(qs(op.name), op.*f.value, f.unit);
        r.inBase = op.inBase;
        r.inCurrent = op.inCurrent;
        rows.push_back(std::move(r));
      }
      sortByChange(rows);
      s.rows.insert(s.rows.end(), rows.begin(), rows.end());
    }
    d.sections.push_back(std::move(s));
  }
}

QStringList warningsOf(const pva::ReportComparison& c) {
  QStringList w;
  if (!c.target.same()) {
    QStringList what;
    for (const auto& d : c.target.differences)
      what << qs(d);
    w << QStringLiteral("The targets differ (%1): memory and cycles depend on the device, so their "
                        "differences "
                        "are not the program's alone.")
             .arg(what.join(QStringLiteral(", ")));
  }
  if (c.hasExecution && c.cycles.basis.perRun())
    w << QStringLiteral(
             "The base has %1 runs and the current %2: figures summed over all runs (cycles, "
             "steps, stream copies, compute sets, programs, operations) are compared per run, "
             "each report's total divided by its runs, in every view.")
             .arg(c.cycles.basis.baseRuns)
             .arg(c.cycles.basis.currentRuns);
  const pva::ProgramsInCommon& p = c.programsInCommon;
  if (!p.related)
    w << QStringLiteral(
             "Unrelated reports: only %1 of %2 program names in common. Rows matched by name "
             "(variables, compute sets, programs, operations) are left out; totals remain, and "
             "runs "
             "are matched by position.")
             .arg(p.namesInCommon)
             .arg(std::min(p.namesBase, p.namesCurrent));
  return w;
}

} // namespace

ComparisonData comparisonData(const pva::ReportComparison& c, const QString& baseName,
                              const QString& currentName) {
  ComparisonData d;
  d.baseName = baseName;
  d.currentName = currentName;
  d.targetsDiffer = !c.target.same();
  d.unrelated = !c.programsInCommon.related;
  d.operationsCompared = c.operations.compared;
  d.warnings = warningsOf(c);
  const bool hide = d.unrelated;
  d.sections.push_back(targetSection(c.target));
  const pva::MemoryComparison& m = c.memory;
  d.sections.push_back(
      {sec::memory,
       {valueRow(QStringLiteral("Total (including gaps)"), m.totalIncludingGaps, Unit::Bytes),
        valueRow(QStringLiteral("Total (excluding gaps)"), m.totalExcludingGaps, Unit::Bytes),
        valueRow(QStringLiteral("Largest tile"), m.maxTileIncludingGaps, Unit::Bytes),
        valueRow(QStringLiteral("Always live"), m.alwaysLive, Unit::Bytes),
        valueRow(QStringLiteral("Peak liveness"), m.peakLiveness, Unit::Bytes)},
       false});
  d.sections.push_back(listSection(
      sec::categories, Unit::Bytes,
      QStringLiteral("Total allocated (Σ categories; shared bytes count once per variable)"),
      m.allocated, m.categories, false));
  d.sections.push_back(listSection(sec::alwaysLive, Unit::Bytes,
                                   QStringLiteral("Total (= always live, one replica)"),
                                   c.variables.alwaysLiveTotal, c.variables.alwaysLive, hide));
  const QString peakSteps = m.peakStepBase == m.peakStepCurrent
                                ? QStringLiteral("step %1").arg(m.peakStepBase)
                                : QStringLiteral("step %1 (base), step %2 (current)")
                                      .arg(m.peakStepBase)
                                      .arg(m.peakStepCurrent);
  d.sections.push_back(
      listSection(sec::atPeak, Unit::Bytes,
                  QStringLiteral("Total (= not-always-live bytes at the peak, %1)").arg(peakSteps),
                  c.variables.atPeakTotal, c.variables.atPeak, hide));
  d.sections.push_back(
      {sec::cycles,
       {valueRow(c.hasExecution
                     ? QStringLiteral("Total")
                     : QStringLiteral("Total (not compared: a report has no execution profile)"),
                 c.cycles.total, Unit::Count)},
       false});
  const pva::RunBasis runBasis = c.hasExecution ? c.cycles.basis : pva::RunBasis();
  overRuns(d.sections.back().rows.front(), runBasis);
  if (c.hasExecution) {
    d.sections.push_back(listSection(sec::kinds, Unit::Count,
                                     QStringLiteral("Total (Σ kinds: busy tile cycles)"),
                                     c.cycles.kindsTotal, c.cycles.kinds, false));
    d.sections.push_back(streamCopySection(c.cycles));
    d.sections.push_back(runSection(c.cycles));
    d.sections.push_back(
        listSection(sec::computeSets, Unit::Count,
                    QStringLiteral("Total (Σ compute sets: steps that run vertices)"),
                    c.cycles.computeSetsTotal, c.cycles.computeSets, hide));
    d.sections.push_back(listSection(sec::programs, Unit::Count,
                                     QStringLiteral("Total (Σ programs: every step, slowest IPU)"),
                                     c.cycles.programsTotal, c.cycles.programs, hide));
  }
  if (c.operations.compared) addOperationSections(d, c.operations, hide, c.hasExecution);
  // Cycles summed over all runs (kinds, compute sets, programs, operations' cycles): with
  // different numbers of runs on the two sides, they compare per run.
  for (ComparisonSection& s : d.sections)
    if (s.title == sec::kinds || s.title == sec::streamCopies || s.title == sec::computeSets ||
        s.title == sec::programs || s.title == sec::opCycles) {
      for (ComparisonRow& r : s.rows)
        overRuns(r, runBasis);
      // Lists sorted by change: by the change as compared (per run), not by run count. The
      // stream copies keep libpva's fixed order; the totals row stays first.
      if (runBasis.perRun() && s.title != sec::streamCopies && s.rows.size() > 1) {
        std::vector<ComparisonRow> named(s.rows.begin() + 1, s.rows.end());
        sortByChange(named);
        std::copy(named.begin(), named.end(), s.rows.begin() + 1);
      }
    }
  d.liveness = c.liveness;
  return d;
}

ComparisonData loadComparison(const Document& doc, Progress& progress) {
  if (!doc.base()) throw DocumentError("no base report to compare with");
  progress.report(0.05);
  const pva::ReportComparison c = pva::compare(doc.base()->report(), doc.report());
  progress.report(0.95);
  ComparisonData d = comparisonData(c, doc.base()->displayName(), doc.displayName());
  if (doc.isJob()) {
    // Two jobs: the page says which instance of each is compared, and first of all what
    // libpva's pairing leaves out when the jobs have different instance counts.
    d.instance = doc.instanceText();
    d.baseName += QStringLiteral(" (instance %1 of %2)")
                      .arg(doc.base()->instanceIndex())
                      .arg(doc.base()->instanceTotal());
    d.currentName +=
        QStringLiteral(" (instance %1 of %2)").arg(doc.instanceIndex()).arg(doc.instanceTotal());
    if (!doc.instanceMismatch().isEmpty())
      d.warnings.prepend(QStringLiteral("The jobs differ in instance count: ") +
                         doc.instanceMismatch() + QLatin1Char('.'));
  }
  progress.report(1.0);
  return d;
}

} // namespace tessera::viewer
