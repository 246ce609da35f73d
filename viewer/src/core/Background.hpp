// Loading off the GUI thread. A page hands a function to runInBackground(); it runs on Qt's
// thread pool with its own pva::Report (see Document), reports progress through ProgressHub, and
// its result (or error message) comes back on the GUI thread, unless the page is gone or has
// dropped the task's handle by then (a newer document replaced it).
//
//   task_ = runInBackground<MemoryData>(this, tr("Reading tile memory"),
//       [doc](Progress& p) { return loadMemory(*doc, p); },
//       [this](std::shared_ptr<const MemoryData> d) { show(d); },
//       [this](const QString& error) { emit errorOccurred(error); });
//
// A page whose task streams for long (the execution index) may pass its own QThreadPool, so it
// neither waits behind other pages' loads nor holds one of the shared threads for its duration.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>

class QThreadPool;

namespace tessera::viewer {

/// Progress of every background task, for the status bar. Lives on the GUI thread; safe to emit
/// from any thread (connections are queued).
class ProgressHub : public QObject {
  Q_OBJECT
public:
  static ProgressHub& instance();
  /// Tasks running now.
  int running() const { return running_.load(); }
  /// Tasks started for `owner` or an object under it (the runInBackground context) whose result
  /// has not reached the GUI thread yet, cancelled ones left out: what a page still has to show.
  /// GUI thread only. A page that says it is ready while this is not 0 would be captured (by
  /// --screenshot, or a user's eye) with part of its data missing.
  int pendingFor(const QObject* owner) const;

signals:
  void started(const QString& task);
  void progress(const QString& task, int percent);
  void finished(const QString& task);

private:
  friend class Progress;
  friend struct TaskRunner;
  std::atomic<int> running_{0};
  struct Pending {
    QPointer<QObject> context;
    std::shared_ptr<std::atomic<bool>> cancelled;
  };
  std::map<std::uint64_t, Pending> pending_; ///< by task number; GUI thread only
  std::uint64_t nextTask_ = 0;
};

/// Given to a background function: report how far it is, and stop early when cancelled.
class Progress {
public:
  Progress(QString task, std::shared_ptr<std::atomic<bool>> cancelled)
      : task_(std::move(task)), cancelled_(std::move(cancelled)) {}
  /// For loading on the calling thread (tests, benchmarks, tools): no task handle can cancel it,
  /// so it is cancelled from the start or never.
  static Progress standalone(QString task, bool cancelled = false) {
    return Progress(std::move(task), std::make_shared<std::atomic<bool>>(cancelled));
  }
  /// fraction in [0, 1] (of the current stage); emits only when the whole percent changes.
  void report(double fraction);
  /// For work done in stages: later reports of [0, 1] show as [from, to] of the task.
  void setStage(double from, double to) {
    from_ = from;
    to_ = to;
  }
  bool cancelled() const { return cancelled_->load(std::memory_order_relaxed); }
  const QString& task() const { return task_; }

private:
  QString task_;
  std::shared_ptr<std::atomic<bool>> cancelled_;
  int percent_ = -1;
  double from_ = 0.0, to_ = 1.0;
};

/// Owning a task: destroying or resetting the handle cancels it and drops its result.
class TaskHandle {
public:
  TaskHandle() = default;
  explicit TaskHandle(std::shared_ptr<std::atomic<bool>> cancelled)
      : cancelled_(std::move(cancelled)) {}
  TaskHandle(TaskHandle&&) = default;
  TaskHandle& operator=(TaskHandle&& o) noexcept {
    cancel();
    cancelled_ = std::move(o.cancelled_);
    return *this;
  }
  ~TaskHandle() { cancel(); }
  void cancel() {
    if (cancelled_) cancelled_->store(true);
  }
  bool active() const { return cancelled_ && !cancelled_->load(); }

private:
  std::shared_ptr<std::atomic<bool>> cancelled_;
};

/// The pool for work that needs the whole-steps pass (Session::execution(), and what derives
/// from it: a program's executed cycles, the operations' figures): one thread of its own. On Qt's
/// shared pool (two threads on a two-core machine) one such task derived the pass while another
/// waited for it, so both shared threads were held for the pass's seconds and the cheap pages'
/// loads (Insights, Memory, Tile map) queued behind them: on the bench's 1 M-step report,
/// Insights was ready only when the pass ended. Queued here, they wait without holding a thread
/// anyone else needs, and the passes they ask for never run beside each other.
QThreadPool* stepsPool();

/// Thrown by a background function that saw Progress::cancelled(); not reported as an error.
struct Cancelled {};

struct TaskRunner {
  /// Runs `work` on the thread pool (`pool`, or Qt's global one when null); calls its closure
  /// or `fail` on the GUI thread while `context` (a GUI-thread object) lives.
  static void start(QObject* context, const QString& task,
                    std::shared_ptr<std::atomic<bool>> cancelled,
                    std::function<std::function<void()>(Progress&)> work,
                    std::function<void(const QString&)> fail, QThreadPool* pool = nullptr);
};

template <class T>
TaskHandle runInBackground(QObject* context, const QString& task, std::function<T(Progress&)> work,
                           std::function<void(std::shared_ptr<const T>)> done,
                           std::function<void(const QString&)> failed,
                           QThreadPool* pool = nullptr) {
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  // The work returns a closure that hands its result to `done`; the runner only sees closures.
  TaskRunner::start(
      context, task, cancelled,
      [work = std::move(work), done = std::move(done)](Progress& p) -> std::function<void()> {
        auto result = std::make_shared<const T>(work(p));
        return [done, result] { done(result); };
      },
      std::move(failed), pool);
  return TaskHandle(cancelled);
}

/// The same for work that returns a value published elsewhere (a Session stage): the page gets
/// that very value, not a copy.
template <class T>
TaskHandle runShared(QObject* context, const QString& task,
                     std::function<std::shared_ptr<const T>(Progress&)> work,
                     std::function<void(std::shared_ptr<const T>)> done,
                     std::function<void(const QString&)> failed, QThreadPool* pool = nullptr) {
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  TaskRunner::start(
      context, task, cancelled,
      [work = std::move(work), done = std::move(done)](Progress& p) -> std::function<void()> {
        std::shared_ptr<const T> result = work(p);
        return [done, result] { done(result); };
      },
      std::move(failed), pool);
  return TaskHandle(cancelled);
}

} // namespace tessera::viewer
