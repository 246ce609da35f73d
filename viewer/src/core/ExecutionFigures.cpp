#include "core/ExecutionFigures.hpp"

namespace tessera::viewer {

const pva::SpanFigures* ExecutionFigures::span(const pva::ExecutionAnalysis& analysis, int run) {
  if (run < 0) return &analysis.allRuns;
  return std::size_t(run) < analysis.runs.size() ? &analysis.runs[std::size_t(run)] : nullptr;
}

QString ExecutionFigures::describe(const pva::SpanFigures& span) {
  if (span.scope.runs == pva::Scope::Runs::OneRun)
    return QStringLiteral("run '%1'").arg(QString::fromStdString(span.scope.runName));
  return QStringLiteral("all runs");
}

ExecutionFigures loadExecutionFigures(const Document& doc, Progress& progress) {
  ExecutionFigures out;
  const auto base = doc.base();
  // The base (when there is one) is the first half of the work.
  if (base) {
    progress.setStage(0, 0.5);
    out.base = base->session().execution(progress);
  }
  progress.setStage(base ? 0.5 : 0, 1);
  out.current = doc.session().execution(progress);
  return out;
}

} // namespace tessera::viewer
