// The session's stages: each derivation once per open report.
#include "core/Session.hpp"

#include "core/Background.hpp"
#include "core/OperationsData.hpp"
#include "core/ProgramTreeData.hpp"

namespace tessera::viewer {

namespace {
pva::Report open(const QString& profile, const QString& debug) {
  return debug.isEmpty() ? pva::openReport(profile.toStdString())
                         : pva::openReport(profile.toStdString(), debug.toStdString());
}
} // namespace

Session::Session(const QString& profilePath, const QString& debugPath)
    : report_(open(profilePath, debugPath)) {}

std::shared_ptr<const pva::ReportSummary> Session::summary() const {
  return pva::sharedSummary(report_);
}

std::shared_ptr<const ProgramTreeData> Session::programs(Progress& progress) const {
  return programs_.get([&] { return deriveProgramTree(report_, progress); });
}

std::shared_ptr<const pva::ExecutionAnalysis> Session::execution(Progress& progress) const {
  return pva::sharedExecutionAnalysis(report_, [&progress](double done) {
    if (progress.cancelled()) throw Cancelled{};
    progress.report(done);
  });
}

std::shared_ptr<const pva::ExecutionAnalysis>
Session::execution(Progress& progress, pva::StepObserver& observer) const {
  return pva::sharedExecutionAnalysis(report_, observer, [&progress](double done) {
    if (progress.cancelled()) throw Cancelled{};
    progress.report(done);
  });
}

std::shared_ptr<const OperationsData> Session::operations(Progress& progress) const {
  return operations_.get([&] {
    // Without debug.cbor there are no operations: say so without reading every step (on the
    // bench's 1 M-step report the Operations view took the whole pass to show that message).
    if (!report_.hasDebugInfo()) return OperationsData{};
    // The execution first (the costly part: every step); operations' cycles come from it.
    progress.setStage(0, 0.9);
    const auto execution = this->execution(progress);
    progress.setStage(0.9, 1);
    return deriveOperations(report_, *execution, progress);
  });
}

} // namespace tessera::viewer
