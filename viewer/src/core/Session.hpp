// One open report's session: the pva::Report every page of the document reads (one per report,
// not one per page), and the derivations pages share, each run once and then published as an
// immutable value (std::shared_ptr<const T>) that any page's background task takes. libpva's own
// derivations (the summary, the pass over the steps) are kept by libpva with the open report
// (analysis/AnalysisCache.hpp), so the session hands out libpva's values, not copies of its own;
// it publishes only what the viewer itself makes of them (the pages' rows).
//
// A page asks for a stage from its background task: the first to ask runs the derivation (with
// its own progress and cancellation); a page asking meanwhile waits for that result instead of
// deriving it again; every later one gets it at once. A derivation that is cancelled (its page
// moved on) publishes nothing, so the next page to ask runs it afresh. In compare mode each side
// (Document::base() and the current document) has its own session.
//
// Stages, in the order opening a report needs them:
//   summary      pva::sharedSummary (no execution step read; kept by libpva)
//   programs     ProgramTreeData: the program tree as the Program tree page shows it
//   execution    pva::sharedExecutionAnalysis: the one pass over every step (kept by libpva);
//                the Execution page's index rides on it (a pva::StepObserver)
//   operations   OperationsData of this report alone (Operations page; compare adds the base's)
// and one thing that is not derived: the document's selection, shared by its pages.
#pragma once

#include "core/SelectionModel.hpp"

#include <QString>
#include <functional>
#include <memory>
#include <mutex>
#include <pva/Analysis.hpp>
#include <pva/Report.hpp>

namespace tessera::viewer {

class Progress;
struct ProgramTreeData;
struct OperationsData;

/// A value derived once and then shared read-only. Thread-safe.
template <class T> class Published {
public:
  /// The value, deriving it with `derive` when it has not been published yet. A call while
  /// another thread derives it waits for that. `derive` may throw (Cancelled, errors): nothing is
  /// published, and the exception goes to the caller.
  std::shared_ptr<const T> get(const std::function<T()>& derive) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!value_) value_ = std::make_shared<const T>(derive());
    return value_;
  }
  /// The value if published, else null; never waits for a derivation in progress.
  std::shared_ptr<const T> peek() const {
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    return lock.owns_lock() ? value_ : nullptr;
  }

private:
  mutable std::mutex mutex_;
  std::shared_ptr<const T> value_;
};

class Session {
public:
  /// Opens the report (throws pva::Exception naming the file, as pva::openReport).
  Session(const QString& profilePath, const QString& debugPath);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  /// The document's one reader; pva::Report is thread-safe, so every page's task shares it.
  const pva::Report& report() const { return report_; }

  std::shared_ptr<const pva::ReportSummary> summary() const;
  std::shared_ptr<const ProgramTreeData> programs(Progress& progress) const;
  std::shared_ptr<const pva::ExecutionAnalysis> execution(Progress& progress) const;
  /// The same, handing every step to `observer` as it is read (pva::sharedExecutionAnalysis
  /// with a StepObserver): the pass that derives the figures feeds the observer too, or, when
  /// the figures are kept already, the steps are read again for the observer alone.
  std::shared_ptr<const pva::ExecutionAnalysis> execution(Progress& progress,
                                                          pva::StepObserver& observer) const;
  std::shared_ptr<const OperationsData> operations(Progress& progress) const;

  /// What is selected in this document, shared by its pages (core/SelectionModel.hpp). Not a
  /// derivation: the one mutable thing of a session, used on the GUI thread only.
  SelectionModel& selection() const { return *selection_; }

private:
  std::unique_ptr<SelectionModel> selection_ = std::make_unique<SelectionModel>();
  pva::Report report_;
  mutable Published<ProgramTreeData> programs_;
  mutable Published<OperationsData> operations_;
};

} // namespace tessera::viewer
