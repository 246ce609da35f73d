// On-demand reads for the Execution page: a step's details, per-tile cycles, range summaries.
#include "core/ExecutionDetails.hpp"

#include <QCoreApplication>
#include <algorithm>
#include <limits>
#include <pva/Analysis.hpp>
#include <pva/Compilation.hpp>
#include <pva/Debug.hpp>
#include <pva/Exception.hpp>
#include <pva/Execution.hpp>
#include <pva/Report.hpp>

namespace tessera::viewer {

namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("Execution", text);
}

} // namespace

StepDetails loadStepDetails(const Document& doc, std::uint64_t stepIndex) {
  const pva::Report& report = doc.report();
  const pva::ExecutionReport execution = report.execution();
  const pva::ExecutionSteps steps = execution.steps();
  if (stepIndex >= steps.size())
    throw pva::Exception(doc.profilePath().toStdString() + ": no execution step " +
                         std::to_string(stepIndex) + " (the report has " +
                         std::to_string(steps.size()) + ")");
  const pva::ExecutionStep step = steps.at(std::size_t(stepIndex));
  StepDetails d;
  d.step = stepIndex;
  auto text = [&](const QString& name, const QString& value) {
    d.fields.push_back({name, value, StepDetails::Field::Text});
  };
  auto count = [&](const QString& name, std::uint64_t value) {
    d.fields.push_back({name, QVariant::fromValue(qulonglong(value)), StepDetails::Field::Count});
  };
  auto fraction = [&](const QString& name, double value) {
    d.fields.push_back({name, value, StepDetails::Field::Fraction});
  };
  auto bytes = [&](const QString& name, std::uint64_t value) {
    d.fields.push_back({name, QVariant::fromValue(qulonglong(value)), StepDetails::Field::Bytes});
  };

  const pva::ProgramPtr program = step.program();
  d.programName = program ? QString::fromStdString(program->name()) : tr("(unknown program)");
  text(tr("Program"), d.programName);
  count(tr("Step"), stepIndex);
  const std::vector<pva::Run> runs = execution.runs();
  text(tr("Run"), step.run() < runs.size() ? QString::fromStdString(runs[step.run()].name())
                                           : QString::number(step.run()));
  if (program) {
    text(tr("Type"), QString::fromStdString(pva::Program::typeName(program->type())));
    text(tr("Kind"), stepKindName(stepKindOf(program->type())));
    if (program->type() == pva::Program::Type::OnTileExecute)
      text(tr("Compute set"),
           QString::fromStdString(
               static_cast<const pva::OnTileExecuteProgram&>(*program).computeSet().name()));
    if (!program->syncType().empty())
      text(tr("Sync type"), QString::fromStdString(program->syncType()));
    if (program->dataBytes()) bytes(tr("Data moved"), program->dataBytes());
  }
  for (const pva::IpuExecution& x : step.ipus()) {
    const QString ipu = tr("IPU %1").arg(x.ipu());
    count(ipu + tr(": cycles"), x.cycles());
    count(ipu + tr(": active tiles"), x.activeTiles());
    fraction(ipu + tr(": tile balance"), x.tileBalance());
    fraction(ipu + tr(": active tile balance"), x.activeTileBalance());
    count(ipu + tr(": first tile start (cycle counter)"), x.allCycles().from().min());
    count(ipu + tr(": last tile end (cycle counter)"), x.allCycles().to().max());
    if (x.dataIn()) bytes(ipu + tr(": data in"), x.dataIn());
    if (x.dataOut()) bytes(ipu + tr(": data out"), x.dataOut());
  }
  if (program) {
    if (const auto ctx = program->debugContext()) {
      text(tr("Debug context"), QString::fromStdString(ctx->path()));
      if (!ctx->layerName().empty())
        text(tr("Debug layer"), QString::fromStdString(ctx->layerName()));
      if (!ctx->opType().empty()) text(tr("Operation type"), QString::fromStdString(ctx->opType()));
      const pva::SourceLocation& loc = ctx->location();
      if (!loc.fileName().empty())
        text(tr("Source"), QStringLiteral("%1:%2 (%3)")
                               .arg(QString::fromStdString(loc.fileName()))
                               .arg(loc.lineNumber())
                               .arg(QString::fromStdString(loc.functionName())));
    }
  }
  return d;
}

StepDetails loadBlockDetails(const Document& doc, const FlameBlockQuery& block,
                             const pva::SpanFigures* scope) {
  const pva::Report& report = doc.report();
  StepDetails d;
  d.step = block.firstStep;
  auto text = [&](const QString& name, const QString& value) {
    d.fields.push_back({name, value, StepDetails::Field::Text});
  };
  auto count = [&](const QString& name, std::uint64_t value) {
    d.fields.push_back({name, QVariant::fromValue(qulonglong(value)), StepDetails::Field::Count});
  };
  if (block.lastStep < block.firstStep) throw pva::Exception("a flame block ends before it begins");
  const pva::SpanFigures steps =
      pva::analyseSteps(report, block.firstStep, block.lastStep - block.firstStep + 1);
  auto where = [&] {
    text(tr("IPU"), QString::number(block.ipu));
    text(tr("Steps"), block.firstStep == block.lastStep
                          ? QString::number(block.firstStep)
                          : QStringLiteral("%1 – %2").arg(block.firstStep).arg(block.lastStep));
    count(tr("Steps on this IPU"), block.ipuSteps);
    if (steps.scope.runs == pva::Scope::Runs::OneRun)
      text(tr("Run"), QString::fromStdString(steps.scope.runName));
  };
  if (!block.operations) {
    const auto programs = report.compilation().programs();
    const pva::ProgramPtr program =
        block.program < programs.size() ? programs[block.program] : nullptr;
    d.programName = program ? QString::fromStdString(program->name()) : tr("(unknown program)");
    text(tr("Program"), d.programName);
    if (program) text(tr("Type"), QString::fromStdString(pva::Program::typeName(program->type())));
    where();
    count(tr("Cycles of the block's steps"), steps.cycles);
    return d;
  }
  // The operations the block stands for: the path itself and every operation under it.
  const std::string path = block.path.toStdString();
  std::vector<pva::Operation> group;
  for (const pva::Operation& op : pva::OperationAnalysis(report).operations())
    if (op.name() == path ||
        (op.name().size() > path.size() && op.name().compare(0, path.size(), path) == 0 &&
         op.name()[path.size()] == '/'))
      group.push_back(op);
  d.programName = block.path;
  const pva::Operation* exact = nullptr;
  for (const pva::Operation& op : group)
    if (op.name() == path) exact = &op;
  text(exact ? tr("Operation") : tr("Operations under"), block.path);
  if (exact) {
    text(tr("Layer"), QString::fromStdString(exact->debugContext()->layerName()));
    if (!exact->type().empty()) text(tr("Type"), QString::fromStdString(exact->type()));
  }
  if (group.size() > 1 || !exact) count(tr("Operations"), group.size());
  where();
  const pva::OperationExecution inBlock = pva::operationExecution(group, steps);
  count(tr("Cycles in this block"), inBlock.cycles);
  count(tr("Its steps in this block"), inBlock.steps);
  if (scope) {
    const pva::OperationExecution inScope = pva::operationExecution(group, *scope);
    const QString what = QString::fromStdString(scope->scope.runs == pva::Scope::Runs::OneRun
                                                    ? "run '" + scope->scope.runName + "'"
                                                    : std::string("all runs"));
    count(tr("Cycles in %1").arg(what), inScope.cycles);
    count(tr("Its steps in %1").arg(what), inScope.steps);
  }
  if (exact) {
    const pva::SourceLocation& loc = exact->debugContext()->location();
    if (!loc.fileName().empty())
      text(tr("Source"), QStringLiteral("%1:%2 (%3)")
                             .arg(QString::fromStdString(loc.fileName()))
                             .arg(loc.lineNumber())
                             .arg(QString::fromStdString(loc.functionName())));
  }
  return d;
}

TileCycles loadTileCycles(const Document& doc, std::uint64_t firstStep, std::uint64_t lastStep,
                          Progress& progress) {
  TileCycles t;
  t.firstStep = firstStep;
  t.lastStep = firstStep;
  const pva::Report& report = doc.report();
  const pva::ExecutionSteps steps = report.execution().steps();
  lastStep = std::min<std::uint64_t>(lastStep, steps.size());
  if (lastStep <= firstStep) return t;
  for (std::uint64_t s = firstStep; s < lastStep; ++s) {
    if (progress.cancelled()) throw Cancelled{};
    progress.report(double(s - firstStep) / double(lastStep - firstStep));
    const std::vector<std::uint64_t> byTile = steps.at(std::size_t(s)).cyclesByTile();
    if (s == firstStep) {
      t.numTiles = unsigned(byTile.size());
      if (t.numTiles == 0) return t;
      if ((lastStep - firstStep) * t.numTiles > kMaxTileCells)
        lastStep = firstStep + std::max<std::uint64_t>(1, kMaxTileCells / t.numTiles);
      t.cycles.reserve(std::size_t((lastStep - firstStep) * t.numTiles));
    }
    for (unsigned tile = 0; tile < t.numTiles; ++tile)
      t.cycles.push_back(tile < byTile.size()
                             ? std::uint32_t(std::min<std::uint64_t>(
                                   byTile[tile], std::numeric_limits<std::uint32_t>::max()))
                             : 0);
    t.lastStep = s + 1;
  }
  return t;
}

std::uint64_t ExecutionRangeSummary::total() const {
  std::uint64_t sum = 0;
  for (auto c : cycles)
    sum += c;
  return sum;
}

ExecutionRangeSummary summarizeRange(const ExecutionIndex& index, double from, double to) {
  ExecutionRangeSummary s;
  s.from = from;
  s.to = to;
  std::uint64_t firstStep = std::numeric_limits<std::uint64_t>::max(), lastStep = 0;
  for (unsigned lane = 0; lane < index.numLanes(); ++lane) {
    const std::size_t n = index.entries(lane);
    const std::size_t a = index.lowerBound(lane, n, from), b = index.lowerBound(lane, n, to);
    if (b <= a) continue;
    const LaneTotals t = index.totals(lane, a, b);
    for (int k = 0; k < kStepKinds; ++k)
      s.cycles[std::size_t(k)] += t.cycles[std::size_t(k)];
    s.ipuSteps += t.count;
    firstStep = std::min<std::uint64_t>(firstStep, index.step(lane, a));
    lastStep = std::max<std::uint64_t>(lastStep, index.step(lane, b - 1));
  }
  if (s.ipuSteps) s.steps = lastStep - firstStep + 1;
  return s;
}

} // namespace tessera::viewer
