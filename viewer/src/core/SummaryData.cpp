// Reading the Summary page's values from libpva.
#include "core/SummaryData.hpp"

#include <QDir>
#include <QFileInfo>

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

QString targetTypeName(int type) {
  switch (static_cast<pva::Target::Type>(type)) {
  case pva::Target::Type::Ipu: return QStringLiteral("IPU");
  case pva::Target::Type::IpuModel: return QStringLiteral("IPUModel");
  case pva::Target::Type::Cpu: return QStringLiteral("CPU");
  case pva::Target::Type::Unknown: break;
  }
  return QStringLiteral("unknown");
}

QString architectureName(int architecture) {
  switch (static_cast<pva::Target::Architecture>(architecture)) {
  case pva::Target::Architecture::Ipu1: return QStringLiteral("ipu1");
  case pva::Target::Architecture::Ipu2: return QStringLiteral("ipu2");
  case pva::Target::Architecture::Ipu21: return QStringLiteral("ipu21");
  case pva::Target::Architecture::Unknown: break;
  }
  return QStringLiteral("unknown");
}

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString computeLevelName(pva::InstrumentationSettings::ComputeInstrumentationLevel level) {
  using L = pva::InstrumentationSettings::ComputeInstrumentationLevel;
  switch (level) {
  case L::Off: return QStringLiteral("Off (estimates)");
  case L::Vertex: return QStringLiteral("Vertex");
  case L::Tile: return QStringLiteral("Tile");
  case L::Ipu: return QStringLiteral("IPU");
  case L::Device: return QStringLiteral("Device");
  case L::Unknown: break;
  }
  return QStringLiteral("unknown");
}

SummarySection reportSection(const Document& doc, const pva::Report& report) {
  SummarySection s{QStringLiteral("Report"), {}};
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
  s.rows.push_back({QStringLiteral("Format version"), SummaryValue::ofText(qs(report.version().string())), {}});
  s.rows.push_back({QStringLiteral("Written by"), SummaryValue::ofText(qs(report.poplarVersion().string())), {}});
  s.rows.push_back({QStringLiteral("Created"), SummaryValue::ofText(qs(report.timestamp())), {}});
  s.rows.push_back({QStringLiteral("Out of memory"),
                    SummaryValue::ofText(report.outOfMemory() ? QStringLiteral("yes") : QStringLiteral("no")), {}});
  return s;
}

SummarySection targetSection(const pva::Report& report) {
  const pva::Target t = report.compilation().target();
  SummarySection s{QStringLiteral("Target"), {}};
  s.rows.push_back({QStringLiteral("Type"), SummaryValue::ofText(targetTypeName(static_cast<int>(t.type()))), {}});
  s.rows.push_back({QStringLiteral("Architecture"),
                    SummaryValue::ofText(architectureName(static_cast<int>(t.architecture()))), {}});
  s.rows.push_back({QStringLiteral("IPUs"), SummaryValue::ofCount(t.numIPUs()), {}});
  if (t.numReplicas() > 1) {
    s.rows.push_back({QStringLiteral("Replicas"), SummaryValue::ofCount(t.numReplicas()), {}});
    s.rows.push_back({QStringLiteral("IPUs per replica"), SummaryValue::ofCount(t.ipusPerReplica()), {}});
  }
  s.rows.push_back({QStringLiteral("Tiles per IPU"), SummaryValue::ofCount(t.tilesPerIpu()), {}});
  s.rows.push_back({QStringLiteral("Tiles"), SummaryValue::ofCount(t.numTiles()), {}});
  s.rows.push_back({QStringLiteral("Memory per tile"), SummaryValue::ofBytes(t.bytesPerTile()), {}});
  s.rows.push_back({QStringLiteral("Memory per IPU"), SummaryValue::ofBytes(t.bytesPerIPU()), {}});
  s.rows.push_back({QStringLiteral("Total memory"), SummaryValue::ofBytes(t.totalMemory()), {}});
  s.rows.push_back({QStringLiteral("Clock"),
                    SummaryValue::ofText(QStringLiteral("%1 MHz").arg(t.clockFrequency() / 1e6, 0, 'f', 0)), {}});
  s.rows.push_back({QStringLiteral("Compute instrumentation"),
                    SummaryValue::ofText(computeLevelName(report.instrumentationSettings().compute())), {}});
  return s;
}

SummarySection graphSection(const pva::CompilationReport& c) {
  const pva::Graph g = c.graph();
  const auto programs = c.programs();
  std::uint64_t steps = 0;
  for (const auto& p : programs) steps += p->isStep() ? 1 : 0;
  SummarySection s{QStringLiteral("Graph"), {}};
  s.rows.push_back({QStringLiteral("Vertices"), SummaryValue::ofCount(g.numVertices()), {}});
  s.rows.push_back({QStringLiteral("Compute sets"), SummaryValue::ofCount(g.numComputeSets()), {}});
  s.rows.push_back({QStringLiteral("Variables"), SummaryValue::ofCount(g.numVariables()), {}});
  s.rows.push_back({QStringLiteral("Edges"), SummaryValue::ofCount(g.numEdges()), {}});
  s.rows.push_back({QStringLiteral("Programs"), SummaryValue::ofCount(programs.size()), {}});
  s.rows.push_back({QStringLiteral("Program steps"), SummaryValue::ofCount(steps), {}});
  return s;
}

SummarySection memorySection(const pva::CompilationReport& c, Progress& progress) {
  std::uint64_t incl = 0, excl = 0, alwaysLive = 0, overflowed = 0, maxTile = 0;
  unsigned maxTileNumber = 0, used = 0;
  const auto tiles = c.tiles();
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    const pva::TileMemory m = tiles[i].memory();
    const std::uint64_t total = m.total().includingGaps();
    incl += total;
    excl += m.total().excludingGaps();
    alwaysLive += m.alwaysLiveBytes();
    overflowed += m.overflowed().includingGaps();
    used += total > 0 ? 1 : 0;
    if (total > maxTile) {
      maxTile = total;
      maxTileNumber = tiles[i].number();
    }
    if (i % 4096 == 0) {
      if (progress.cancelled()) throw Cancelled{};
      progress.report(0.2 + 0.5 * double(i) / double(tiles.size()));
    }
  }
  // Peak liveness as pva::compare and `pva summary` count it: always live + the largest step.
  std::uint64_t peak = 0, peakStep = 0;
  QString peakProgram;
  bool first = true;
  for (const pva::ProgramStep& step : c.livenessProgramSteps())
    if (first || step.notAlwaysLiveBytes() > peak) {
      first = false;
      peak = step.notAlwaysLiveBytes();
      peakStep = step.index();
      const auto program = step.program();
      peakProgram = program ? qs(program->name()) : QString();
    }
  SummarySection s{QStringLiteral("Memory"), {}};
  s.rows.push_back({QStringLiteral("Total (including gaps)"), SummaryValue::ofBytes(incl), {}});
  s.rows.push_back({QStringLiteral("Total (excluding gaps)"), SummaryValue::ofBytes(excl), {}});
  s.rows.push_back({QStringLiteral("Largest tile"), SummaryValue::ofBytes(maxTile),
                    QStringLiteral("tile %1").arg(maxTileNumber)});
  s.rows.push_back({QStringLiteral("Tiles used"), SummaryValue::ofCount(used),
                    QStringLiteral("of %1").arg(tiles.size())});
  s.rows.push_back({QStringLiteral("Always live"), SummaryValue::ofBytes(alwaysLive), {}});
  s.rows.push_back({QStringLiteral("Peak liveness"), SummaryValue::ofBytes(alwaysLive + peak),
                    first ? QString() : QStringLiteral("step %1 %2").arg(peakStep).arg(peakProgram)});
  s.rows.push_back({QStringLiteral("Overflowed"), SummaryValue::ofBytes(overflowed), {}});
  return s;
}

SummarySection executionSection(const pva::ExecutionReport& e) {
  SummarySection s{QStringLiteral("Execution"), {}};
  const auto runs = e.runs();
  s.rows.push_back({QStringLiteral("Runs"), SummaryValue::ofCount(runs.size()), {}});
  s.rows.push_back({QStringLiteral("Total cycles"), SummaryValue::ofCount(e.totalCycles().total()), {}});
  s.rows.push_back({QStringLiteral("Steps"), SummaryValue::ofCount(e.steps().size()), {}});
  if (runs.empty()) return s;
  const pva::TileCycleTotals totals = e.tileCycleTotals();
  static const std::pair<pva::TileCycleTotals::Kind, const char*> kinds[] = {
      {pva::TileCycleTotals::Kind::Compute, "Compute (tile cycles)"},
      {pva::TileCycleTotals::Kind::InternalExchange, "Internal exchange (tile cycles)"},
      {pva::TileCycleTotals::Kind::GlobalExchange, "Global exchange (tile cycles)"},
      {pva::TileCycleTotals::Kind::StreamCopy, "Stream copy (tile cycles)"},
      {pva::TileCycleTotals::Kind::Sync, "Sync (tile cycles)"}};
  const double all = static_cast<double>(totals.total());
  for (const auto& [kind, name] : kinds) {
    const std::uint64_t v = totals.total(kind);
    s.rows.push_back({QString::fromLatin1(name), SummaryValue::ofCount(v),
                      all > 0 ? QStringLiteral("%1 %").arg(100.0 * double(v) / all, 0, 'f', 1) : QString()});
  }
  return s;
}

SummarySection runsSection(const pva::ExecutionReport& e) {
  SummarySection s{QStringLiteral("Runs"), {}};
  for (const pva::Run& r : e.runs()) {
    const double ms = double(r.microseconds().end() - r.microseconds().start()) / 1000.0;
    s.rows.push_back({QStringLiteral("%1. %2").arg(r.index()).arg(qs(r.name())), SummaryValue::ofCount(r.cycles()),
                      QStringLiteral("cycles, %1 steps, %2 ms on the host").arg(r.steps().size()).arg(ms, 0, 'f', 2)});
  }
  return s;
}

} // namespace

SummaryData loadSummary(const Document& doc, Progress& progress) {
  const pva::Report report = doc.openReport();
  const pva::CompilationReport c = report.compilation();
  SummaryData d;
  d.sections.push_back(reportSection(doc, report));
  d.sections.push_back(targetSection(report));
  progress.report(0.1);
  d.sections.push_back(graphSection(c));
  progress.report(0.2);
  d.sections.push_back(memorySection(c, progress));
  progress.report(0.8);
  const pva::ExecutionReport e = report.execution();
  d.sections.push_back(executionSection(e));
  d.sections.push_back(runsSection(e));
  SummarySection options{QStringLiteral("Engine options"), {}};
  for (const auto& [key, value] : report.engineOptions())
    options.rows.push_back({qs(key), SummaryValue::ofText(qs(value)), {}});
  d.sections.push_back(std::move(options));
  progress.report(1.0);
  return d;
}

} // namespace tessera::viewer
