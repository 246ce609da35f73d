// Reading the Summary page's values from libpva.
#include "core/SummaryData.hpp"

#include "core/Format.hpp"
#include "core/RunBasisText.hpp"

#include <QDir>
#include <QFileInfo>
#include <filesystem>
#include <pva/Analysis.hpp>
#include <pva/Application.hpp>
#include <pva/Compare.hpp>
#include <pva/Exception.hpp>

namespace tessera::viewer {

const SummarySection* SummaryData::section(const QString& title) const {
  for (const auto& s : sections)
    if (s.title == title) return &s;
  return nullptr;
}

const SummaryRow* SummaryData::row(const QString& sectionTitle, const QString& name) const {
  if (const SummarySection* s = section(sectionTitle))
    for (const auto& r : s->rows)
      if (r.name == name) return &r;
  return nullptr;
}

namespace {

/// The stream-copy section's title (its rows sum over all runs).
QString streamCopySectionTitle() {
  return QStringLiteral("Stream copies");
}

bool isNumber(const SummaryValue& v) {
  return v.kind != SummaryValue::Kind::Text;
}

} // namespace

std::int64_t SummaryRow::delta() const {
  if (!inBoth() || !isNumber(value) || !isNumber(baseValue)) return 0;
  return roundedDelta(basis, {baseValue.number, value.number});
}

double SummaryRow::relative() const {
  if (!inBoth() || !isNumber(value) || !isNumber(baseValue)) return 0;
  return basis.relative({baseValue.number, value.number});
}

bool SummaryRow::differs() const {
  if (!inBoth()) return false;
  if (isNumber(value) && isNumber(baseValue)) return value.number != baseValue.number;
  return value.kind != baseValue.kind || value.text != baseValue.text;
}

SummaryData compareSummaries(const SummaryData& base, const SummaryData& current) {
  SummaryData d;
  d.compared = true;
  auto onlyIn = [](SummaryRow r, bool inBase) {
    if (inBase) {
      r.baseValue = r.value;
      r.value = {};
    }
    r.inBase = inBase;
    r.inCurrent = !inBase;
    return r;
  };
  for (const SummarySection& c : current.sections) {
    SummarySection out{c.title, {}, c.scope};
    const SummarySection* b = base.section(c.title);
    for (const SummaryRow& row : c.rows) {
      const SummaryRow* other = b ? base.row(c.title, row.name) : nullptr;
      if (!other) {
        out.rows.push_back(onlyIn(row, false));
        continue;
      }
      SummaryRow r = row;
      r.baseValue = other->value;
      r.baseNote = other->note;
      out.rows.push_back(std::move(r));
    }
    if (b)
      for (const SummaryRow& row : b->rows)
        if (!current.row(c.title, row.name)) out.rows.push_back(onlyIn(row, true));
    d.sections.push_back(std::move(out));
  }
  // Runs not paired by name pair by run number, as pva::compare's matchedRuns does: the row
  // reads "0. train0 ↔ pipeline (matched by position)".
  for (SummarySection& s : d.sections) {
    if (s.title != QStringLiteral("Runs")) continue;
    auto runNumber = [](const QString& name) { return name.section(QLatin1Char('.'), 0, 0); };
    std::vector<SummaryRow> rows;
    std::vector<bool> used(s.rows.size(), false);
    for (std::size_t i = 0; i < s.rows.size(); ++i) {
      if (used[i]) continue;
      SummaryRow r = s.rows[i];
      // Current rows come first: a run only the current has takes the base's run of its number.
      if (r.inCurrent && !r.inBase)
        for (std::size_t j = i + 1; j < s.rows.size(); ++j)
          if (!used[j] && s.rows[j].inBase && !s.rows[j].inCurrent &&
              runNumber(s.rows[j].name) == runNumber(r.name)) {
            used[j] = true;
            const QString currentName = r.name.section(QLatin1Char('.'), 1).trimmed();
            r.name =
                QStringLiteral("%1 ↔ %2 (matched by position)").arg(s.rows[j].name, currentName);
            r.baseValue = s.rows[j].baseValue; // a base-only row keeps its value there
            r.inBase = true;
            break;
          }
      used[i] = true;
      rows.push_back(std::move(r));
    }
    s.rows = std::move(rows);
  }
  // Totals over all runs follow libpva's rule: per run when the run counts differ.
  const SummaryRow* runs = d.row(QStringLiteral("Execution"), QStringLiteral("Runs"));
  if (runs && runs->inBoth()) {
    const pva::RunBasis basis{runs->baseValue.number, runs->value.number};
    for (SummarySection& s : d.sections)
      if (s.title == QStringLiteral("Execution") || s.title == streamCopySectionTitle())
        for (SummaryRow& r : s.rows)
          if (r.name != QStringLiteral("Runs")) r.basis = basis;
  }
  for (const SummarySection& b : base.sections)
    if (!current.section(b.title)) {
      SummarySection out{b.title, {}, b.scope};
      for (const SummaryRow& row : b.rows)
        out.rows.push_back(onlyIn(row, true));
      d.sections.push_back(std::move(out));
    }
  return d;
}

namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

SummarySection reportSection(const Document& doc, const pva::Report& report) {
  SummarySection s{QStringLiteral("Report"), {}, {}};
  auto fileRow = [&](const QString& name, const QString& path) {
    if (path.isEmpty()) {
      s.rows.push_back({name, SummaryValue::ofText(QStringLiteral("(none)")), {}});
      return;
    }
    s.rows.push_back({name, SummaryValue::ofText(QDir::toNativeSeparators(path)),
                      QStringLiteral("%1 bytes").arg(QFileInfo(path).size())});
  };
  fileRow(QStringLiteral("Profile"), doc.profilePath());
  fileRow(QStringLiteral("Debug information"), doc.debugPath());
  s.rows.push_back(
      {QStringLiteral("Format version"), SummaryValue::ofText(qs(report.version().string())), {}});
  s.rows.push_back({QStringLiteral("Written by"),
                    SummaryValue::ofText(qs(report.poplarVersion().string())),
                    {}});
  s.rows.push_back({QStringLiteral("Created"), SummaryValue::ofText(qs(report.timestamp())), {}});
  s.rows.push_back(
      {QStringLiteral("Out of memory"),
       SummaryValue::ofText(report.outOfMemory() ? QStringLiteral("yes") : QStringLiteral("no")),
       {}});
  return s;
}

/// framework.json and app.json beside the report (pva::readApplicationInfo): a section each when
/// there, its members as libpva flattened them; a broken file is a section saying why, so the
/// rest of the Summary still shows.
void addApplicationSections(const Document& doc, std::vector<SummarySection>& sections) {
  const std::string profile = doc.profilePath().toStdString();
  const QString titles[2] = {QStringLiteral("Framework (framework.json)"),
                             QStringLiteral("Application (app.json)")};
  const char* names[2] = {"framework.json", "app.json"};
  for (int i = 0; i < 2; ++i) {
    const std::string path = (std::filesystem::path(profile).parent_path() / names[i]).string();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) continue;
    SummarySection s{titles[i], {}, {}};
    try {
      const pva::ApplicationFile f = pva::readApplicationFile(path);
      for (const auto& [name, value] : f.entries)
        s.rows.push_back({qs(name), SummaryValue::ofText(qs(value)), {}});
    } catch (const pva::Exception& e) {
      s.rows.push_back({QStringLiteral("Error"), SummaryValue::ofText(qs(e.what())), {}});
    }
    sections.push_back(std::move(s));
  }
}

SummarySection targetSection(const pva::Report& report) {
  const pva::Target t = report.compilation().target();
  SummarySection s{QStringLiteral("Target"), {}, {}};
  s.rows.push_back(
      {QStringLiteral("Type"), SummaryValue::ofText(qs(pva::Target::typeName(t.type()))), {}});
  s.rows.push_back({QStringLiteral("Architecture"),
                    SummaryValue::ofText(qs(pva::Target::architectureName(t.architecture()))),
                    {}});
  s.rows.push_back({QStringLiteral("IPUs"), SummaryValue::ofCount(t.numIPUs()), {}});
  if (t.numReplicas() > 1) {
    s.rows.push_back({QStringLiteral("Replicas"), SummaryValue::ofCount(t.numReplicas()), {}});
    s.rows.push_back(
        {QStringLiteral("IPUs per replica"), SummaryValue::ofCount(t.ipusPerReplica()), {}});
  }
  s.rows.push_back({QStringLiteral("Tiles per IPU"), SummaryValue::ofCount(t.tilesPerIpu()), {}});
  s.rows.push_back({QStringLiteral("Tiles"), SummaryValue::ofCount(t.numTiles()), {}});
  s.rows.push_back(
      {QStringLiteral("Memory per tile"), SummaryValue::ofBytes(t.bytesPerTile()), {}});
  s.rows.push_back({QStringLiteral("Memory per IPU"), SummaryValue::ofBytes(t.bytesPerIPU()), {}});
  s.rows.push_back({QStringLiteral("Total memory"), SummaryValue::ofBytes(t.totalMemory()), {}});
  s.rows.push_back(
      {QStringLiteral("Clock"),
       SummaryValue::ofText(QStringLiteral("%1 MHz").arg(t.clockFrequency() / 1e6, 0, 'f', 0)),
       {}});
  s.rows.push_back({QStringLiteral("Compute instrumentation"),
                    SummaryValue::ofText(qs(pva::InstrumentationSettings::computeName(
                        report.instrumentationSettings().compute()))),
                    {}});
  return s;
}

SummarySection graphSection(const pva::GraphCounts& g) {
  SummarySection s{QStringLiteral("Graph"), {}, {}};
  s.rows.push_back({QStringLiteral("Vertices"), SummaryValue::ofCount(g.vertices), {}});
  s.rows.push_back({QStringLiteral("Compute sets"), SummaryValue::ofCount(g.computeSets), {}});
  s.rows.push_back({QStringLiteral("Variables"), SummaryValue::ofCount(g.variables), {}});
  s.rows.push_back({QStringLiteral("Edges"), SummaryValue::ofCount(g.edges), {}});
  s.rows.push_back({QStringLiteral("Programs"), SummaryValue::ofCount(g.programs), {}});
  // Two different counts, named apart: distinct programs that are steps, and the places of the
  // schedule that run one (the Liveness view's steps; a program can run at several).
  s.rows.push_back({QStringLiteral("Programs run as steps"), SummaryValue::ofCount(g.programSteps),
                    QStringLiteral("distinct programs")});
  s.rows.push_back({QStringLiteral("Liveness steps"), SummaryValue::ofCount(g.livenessSteps),
                    QStringLiteral("steps of the schedule, as in the Liveness view")});
  return s;
}

QString scopeText(const pva::Scope& scope) {
  return qs(scope.describe());
}

SummarySection memorySection(const pva::MemorySummary& m, std::uint64_t bytesPerTile) {
  SummarySection s{QStringLiteral("Memory"), {}, scopeText(m.scope)};
  // The verdict first: an out-of-memory user opens the Summary to learn this.
  if (m.tilesOutOfMemory > 0)
    s.rows.push_back(
        {QStringLiteral("Verdict"), SummaryValue::ofText(QStringLiteral("does not fit")),
         QStringLiteral("%1 of %2 tiles need more than their memory; %3 bytes beyond it in all")
             .arg(m.tilesOutOfMemory)
             .arg(m.numTiles)
             .arg(formatCount(m.overflowedBytes))});
  else if (bytesPerTile > 0)
    s.rows.push_back(
        {QStringLiteral("Verdict"), SummaryValue::ofText(QStringLiteral("fits")),
         QStringLiteral("at most %1 % of a tile's memory used")
             .arg(100.0 * double(m.largestTileIncludingGaps.bytes) / double(bytesPerTile), 0, 'f',
                  1)});
  s.rows.push_back(
      {QStringLiteral("Total (including gaps)"), SummaryValue::ofBytes(m.includingGapsBytes), {}});
  s.rows.push_back(
      {QStringLiteral("Total (excluding gaps)"), SummaryValue::ofBytes(m.excludingGapsBytes), {}});
  s.rows.push_back({QStringLiteral("Largest tile"),
                    SummaryValue::ofBytes(m.largestTileIncludingGaps.bytes),
                    QStringLiteral("tile %1").arg(m.largestTileIncludingGaps.tile)});
  s.rows.push_back({QStringLiteral("Tiles used"), SummaryValue::ofCount(m.tilesUsed),
                    QStringLiteral("of %1").arg(m.numTiles)});
  s.rows.push_back({QStringLiteral("Always live"), SummaryValue::ofBytes(m.alwaysLiveBytes), {}});
  const pva::PeakLiveness& peak = m.peakLiveness;
  s.rows.push_back(
      {QStringLiteral("Peak liveness"), SummaryValue::ofBytes(peak.bytes),
       peak.known ? QStringLiteral("step %1 %2").arg(peak.step).arg(qs(peak.program)) : QString()});
  s.rows.push_back({QStringLiteral("Overflowed"), SummaryValue::ofBytes(m.overflowedBytes), {}});
  return s;
}

SummarySection executionSection(const pva::ExecutionSummary& x, double clockHz) {
  SummarySection s{QStringLiteral("Execution"), {}, scopeText(x.scope)};
  if (!x.profiled) {
    // Not "0 runs, 0 cycles": there is nothing to count.
    s.rows.push_back({QStringLiteral("Not run"),
                      SummaryValue::ofText(QStringLiteral("no execution profile")),
                      QStringLiteral("the program was compiled but did not run")});
    return s;
  }
  s.rows.push_back({QStringLiteral("Runs"), SummaryValue::ofCount(x.runs.size()), {}});
  s.rows.push_back(
      {QStringLiteral("Total cycles"), SummaryValue::ofCycles(x.totalCycles, clockHz), {}});
  s.rows.push_back({QStringLiteral("Steps"), SummaryValue::ofCount(x.steps), {}});
  // Tile cycles summed over the tiles; the note is the share of all tile cycles (busy or
  // waiting), which is not the share of the run time (the Execution view's figure).
  for (std::size_t k = 0; k < pva::CycleKinds::numKinds; ++k) {
    const auto kind = static_cast<pva::TileCycleTotals::Kind>(k);
    const std::uint64_t v = x.tileCycles.of(kind);
    s.rows.push_back({QStringLiteral("%1 (tile cycles)").arg(qs(pva::CycleKinds::label(kind))),
                      SummaryValue::ofCycles(v, clockHz),
                      x.tileCycles.total()
                          ? QStringLiteral("%1 % of tile cycles")
                                .arg(100.0 * x.tileCycles.shareOfTileCycles(kind), 0, 'f', 1)
                          : QString()});
  }
  return s;
}

SummarySection runsSection(const pva::ExecutionSummary& x, double clockHz) {
  SummarySection s{QStringLiteral("Runs"), {}, QStringLiteral("one replica")};
  for (const pva::RunSummary& r : x.runs) {
    const double ms = double(r.hostMicroseconds) / 1000.0;
    s.rows.push_back(
        {QStringLiteral("%1. %2").arg(r.index).arg(qs(r.name)),
         SummaryValue::ofCycles(r.cycles, clockHz),
         QStringLiteral("cycles, %1 steps, %2 ms on the host").arg(r.steps).arg(ms, 0, 'f', 2)});
  }
  return s;
}

/// Which rule costed the vertices, and the target's policy (pva::vertexCyclePolicy): whether the
/// cycles are an IPU Model's declared estimates or the hardware's measurements.
SummarySection vertexCyclesSection(const pva::ReportSummary& summary) {
  SummarySection s{
      QStringLiteral("Vertex cycles"), {}, QStringLiteral("instances, all compute sets")};
  s.rows.push_back({QStringLiteral("Rule"),
                    SummaryValue::ofText(qs(pva::vertexCyclePolicy(summary.target))),
                    {}});
  // Each rule's vertices and, where the report records them, its share of the vertex cycles
  // (pva::ReportSummary::vertexCycles: all runs, one replica).
  const pva::VertexCycleSummary& v = summary.vertexCycles;
  for (const pva::VertexCycleRuleFigures& r : v.rules)
    s.rows.push_back({qs(r.label), SummaryValue::ofCount(r.vertices),
                      v.hasCycles ? QStringLiteral("vertices; %1 cycles, %2% of vertex cycles (%3)")
                                        .arg(r.cycles)
                                        .arg(100.0 * r.shareOfVertexCycles, 0, 'f', 1)
                                        .arg(qs(v.scope.describe()))
                                  : QStringLiteral("vertices")});
  return s;
}

/// Stream-copy steps' cycles by what they copy to or from, all runs: the report's stored totals
/// (pva::ExecutionSummary::streamCopyCycles), or for a report before format 1.7 libpva's pass
/// over the steps (pva::SpanFigures::streamCopyCycles). The same numbers either way.
SummarySection streamCopySection(const pva::StreamCopyCycles& sc, double clockHz) {
  SummarySection s{streamCopySectionTitle(),
                   {},
                   QStringLiteral("all runs, one replica; each step at its slowest IPU")};
  const std::uint64_t total = sc.total();
  auto add = [&](const QString& name, std::uint64_t v, bool always) {
    if (!always && v == 0) return;
    s.rows.push_back({name, SummaryValue::ofCycles(v, clockHz),
                      total ? QStringLiteral("%1 % of stream-copy cycles")
                                  .arg(100.0 * double(v) / double(total), 0, 'f', 1)
                            : QString()});
  };
  add(QStringLiteral("Host (cycles)"), sc.host, true);
  add(QStringLiteral("Remote buffers (cycles)"), sc.remoteBuffer, true);
  add(QStringLiteral("Host and remote buffers (cycles)"), sc.mixed, false);
  // A report before format 1.3 did not record the destination.
  add(QStringLiteral("Destination unknown (cycles)"), sc.unknown, false);
  return s;
}

} // namespace

namespace {

SummaryData loadOneSummary(const Document& doc, Progress& progress) {
  const pva::Report& report = doc.report();
  SummaryData d;
  d.sections.push_back(reportSection(doc, report));
  addApplicationSections(doc, d.sections);
  d.sections.push_back(targetSection(report));
  progress.report(0.1);
  if (progress.cancelled()) throw Cancelled{};
  const pva::ReportSummary& summary = *doc.session().summary();
  progress.report(0.8);
  d.sections.push_back(graphSection(summary.graph));
  d.sections.push_back(memorySection(summary.memory, summary.target.bytesPerTile()));
  const double clockHz = report.compilation().target().clockFrequency();
  d.sections.push_back(executionSection(summary.execution, clockHz));
  d.sections.push_back(runsSection(summary.execution, clockHz));
  // A report older than format 1.3 did not record the rules.
  if (!summary.vertexCycles.rules.empty()) d.sections.push_back(vertexCyclesSection(summary));
  if (summary.execution.hasStreamCopyCycles) {
    // Format 1.7 on stores each run's stream-copy totals (run_stream_copy_cycles): the Summary
    // reads them as pva summary does, and opening a report reads no step for its first page.
    d.sections.push_back(streamCopySection(summary.execution.streamCopyCycles, clockHz));
  } else if (summary.execution.profiled) {
    // An older report: only libpva's pass over the steps (kept with the open report) has them.
    progress.setStage(0.8, 0.95);
    const auto a = doc.session().execution(progress);
    progress.setStage(0, 1);
    d.sections.push_back(streamCopySection(a->allRuns.streamCopyCycles, clockHz));
  }
  SummarySection options{QStringLiteral("Engine options"), {}, {}};
  for (const auto& [key, value] : report.engineOptions())
    options.rows.push_back({qs(key), SummaryValue::ofText(qs(value)), {}});
  d.sections.push_back(std::move(options));
  progress.report(1.0);
  return d;
}

} // namespace

SummaryData loadSummary(const Document& doc, Progress& progress) {
  if (!doc.base()) return loadOneSummary(doc, progress);
  const SummaryData base =
      loadOneSummary(*doc.base(), progress); // progress runs twice: base, then current
  return compareSummaries(base, loadOneSummary(doc, progress));
}

} // namespace tessera::viewer
