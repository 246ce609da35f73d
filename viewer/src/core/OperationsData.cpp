// Reading operations from libpva's OperationAnalysis.
#include "core/OperationsData.hpp"

#include "core/Format.hpp"

#include <QObject>
#include <pva/Analysis.hpp>
#include <pva/Compare.hpp>
#include <pva/Debug.hpp>
#include <set>

namespace tessera::viewer {

std::uint64_t peakNotAlwaysLiveBytes(const std::vector<const OperationInfo*>& operations) {
  std::set<std::uint64_t> seen;
  std::vector<pva::LiveRange> ranges;
  for (const OperationInfo* op : operations)
    for (const OperationVariable& v : op->variables)
      if (!v.alwaysLive && seen.insert(v.id).second)
        ranges.push_back({v.liveFrom, v.liveTo, v.bytes});
  return pva::peakLiveBytes(std::move(ranges));
}

namespace {

/// An operation whose debug context has no name: where it was made ("(unnamed, Mlp.cpp:106
/// main)"), else as pva::compareOperations calls it ("(unnamed) " and its first program's name).
QString unnamedOperation(const pva::Operation& op) {
  const pva::SourceLocation& loc = op.debugContext()->location();
  if (!loc.fileName().empty()) {
    const QString file = QString::fromStdString(loc.fileName()).section(QLatin1Char('/'), -1);
    QString where = QStringLiteral("%1:%2").arg(file).arg(loc.lineNumber());
    if (!loc.functionName().empty())
      where += QLatin1Char(' ') + QString::fromStdString(loc.functionName());
    return QStringLiteral("(unnamed, %1)").arg(where);
  }
  const auto programs = op.programs();
  return QStringLiteral("(unnamed) ") +
         (programs.empty() ? QString() : QString::fromStdString(programs.front()->name()));
}

/// The base report's figures of each operation (pva::compareOperations), and the operations only
/// the base has as rows of their own.
void addComparison(const Document& baseDoc, const pva::Report& current,
                   const pva::ExecutionAnalysis& currentExecution, OperationsData& d,
                   std::set<QString>& layers, Progress& progress) {
  const pva::Report& base = baseDoc.report();
  if (!base.hasDebugInfo()) return;
  const pva::ExecutionAnalysis& baseExecution = *baseDoc.session().execution(progress);
  const pva::OperationsComparison c =
      pva::compareOperations(base, baseExecution, current, currentExecution);
  if (!c.compared) return;
  d.compared = true;
  d.basis = c.basis;
  for (OperationInfo& op : d.operations)
    op.change = OperationInfo::Change{};
  const auto baseOps = pva::OperationAnalysis(base).operations();
  for (const pva::OperationComparison& o : c.operations) {
    OperationInfo::Change change;
    change.inBase = o.inBase;
    change.inCurrent = o.inCurrent;
    change.executedCycles = o.cycles.base;
    change.estimatedCycles = o.estimatedCycles.base;
    change.alwaysLiveBytes = o.alwaysLiveBytes.base;
    change.notAlwaysLiveBytes = o.peakNotAlwaysLiveBytes.base;
    change.codeBytes = o.codeBytes.base;
    if (o.inCurrent) {
      if (o.currentIndex < d.operations.size()) d.operations[o.currentIndex].change = change;
      continue;
    }
    if (o.baseIndex >= baseOps.size()) continue;
    const pva::Operation& op = baseOps[o.baseIndex];
    OperationInfo info;
    info.name = QString::fromStdString(op.name());
    if (info.name.isEmpty()) info.name = unnamedOperation(op);
    info.type = QString::fromStdString(op.type());
    info.layer = QString::fromStdString(op.debugContext()->layerName());
    info.debugPath = QString::fromStdString(op.debugContext()->path());
    info.change = change;
    layers.insert(info.layer);
    d.operations.push_back(std::move(info));
  }
}

} // namespace

QString OperationsData::executedCyclesText(std::uint64_t executed) const {
  QString text = formatCount(executed);
  if (executed <= lengthCycles) return text;
  // Operations own their programs, so their cycles never exceed the steps' (stepCycles); beyond
  // the runs' length only when the IPUs' timelines overlap, which libpva's two sums tell.
  text += QObject::tr(" (%1 more than the runs' length, %2 cycles")
              .arg(formatCount(executed - lengthCycles), formatCount(lengthCycles));
  if (stepCycles > lengthCycles)
    text += QObject::tr(": IPUs ran different steps at the same time and each step counts its "
                        "slowest IPU, so %1 overlapping cycles count again")
                .arg(formatCount(stepCycles - lengthCycles));
  return text + QLatin1Char(')');
}

OperationsData deriveOperations(const pva::Report& report, const pva::ExecutionAnalysis& execution,
                                Progress& progress) {
  OperationsData d;
  if (!report.hasDebugInfo()) return d;
  d.hasDebugInfo = true;
  d.hasFlopEstimates = report.hasFlopEstimates();
  d.stepCycles = execution.allRuns.cycles;
  d.lengthCycles = execution.allRuns.lengthCycles;
  const std::vector<pva::ProgramFigures>& programCycles = execution.allRuns.programs;
  const auto ops = pva::OperationAnalysis(report).operations();
  std::set<QString> layers;
  d.operations.reserve(ops.size());
  for (const pva::Operation& op : ops) {
    if (progress.cancelled()) throw Cancelled{};
    OperationInfo info;
    info.index = d.operations.size();
    info.name = QString::fromStdString(op.name());
    const auto ctx = op.debugContext();
    info.type = QString::fromStdString(op.type());
    info.layer = QString::fromStdString(ctx->layerName());
    info.debugPath = QString::fromStdString(ctx->path());
    info.json = QString::fromStdString(ctx->json());
    const pva::SourceLocation& loc = ctx->location();
    if (!loc.fileName().empty())
      info.location = QStringLiteral("%1:%2 (%3)")
                          .arg(QString::fromStdString(loc.fileName()))
                          .arg(loc.lineNumber())
                          .arg(QString::fromStdString(loc.functionName()));
    if (info.name.isEmpty()) info.name = unnamedOperation(op);
    info.firstStep =
        op.firstStepIndex() ? std::int64_t(*op.firstStepIndex()) : -1; // -1: the model's "no step"
    info.lastStep = op.lastStepIndex() ? std::int64_t(*op.lastStepIndex()) : -1;
    info.estimatedCycles = op.estimatedCycles();
    info.executedCycles = pva::operationCycles(op, execution.allRuns);
    for (const auto& program : op.programs()) {
      const std::uint64_t id = program->_id();
      const std::uint64_t executed = id < programCycles.size() ? programCycles[id].cycles : 0;
      info.programs.push_back({QString::fromStdString(program->name()),
                               QString::fromStdString(pva::Program::typeName(program->type())),
                               executed, id});
    }
    for (const pva::Variable& v : op.vars())
      info.variables.push_back({QString::fromStdString(v.name()), v.id(), v.bytes(), v.alwaysLive(),
                                v.liveFrom(), v.liveTo()});
    const pva::OperationFigures figures = pva::operationFigures(op);
    info.alwaysLiveBytes = figures.alwaysLiveBytes;
    info.notAlwaysLiveBytes = figures.peakNotAlwaysLiveBytes;
    info.codeBytes = figures.codeBytes;
    info.vertices = figures.vertices;
    info.exchangeBytes = figures.exchangeBytes;
    if (figures.estimatedFlops) info.estimatedFlops = *figures.estimatedFlops;
    info.verticesWithoutFlopEstimate = figures.verticesWithoutFlopEstimate;
    layers.insert(info.layer);
    d.operations.push_back(std::move(info));
  }
  for (const QString& l : layers)
    d.layers << l;
  return d;
}

OperationsData loadOperations(const Document& doc, Progress& progress) {
  const auto base = doc.base();
  if (base) progress.setStage(0, 0.5);
  const auto own = doc.session().operations(progress);
  if (!base || !own->hasDebugInfo) return *own;
  // Comparing: this report's rows (a copy: the session's stay as they are) with the base's.
  progress.setStage(0.5, 1);
  OperationsData d = *own;
  std::set<QString> layers(d.layers.begin(), d.layers.end());
  addComparison(*base, doc.report(), *doc.session().execution(progress), d, layers, progress);
  d.layers.clear();
  for (const QString& l : layers)
    d.layers << l;
  return d;
}

} // namespace tessera::viewer
