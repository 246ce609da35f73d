// The thread-pool side of runInBackground: exceptions become messages, results are posted back
// to the requesting object's thread and dropped if it was destroyed or cancelled the task.
#include "core/Background.hpp"

#include <QCoreApplication>
#include <QMetaObject>
#include <QThreadPool>
#include <algorithm>
#include <cmath>

namespace tessera::viewer {

ProgressHub& ProgressHub::instance() {
  static ProgressHub* hub = new ProgressHub; // lives as long as the application
  return *hub;
}

int ProgressHub::pendingFor(const QObject* owner) const {
  int n = 0;
  for (const auto& entry : pending_) {
    const Pending& p = entry.second;
    if (p.cancelled->load()) continue;
    for (const QObject* o = p.context.data(); o; o = o->parent())
      if (o == owner) {
        ++n;
        break;
      }
  }
  return n;
}

QThreadPool* stepsPool() {
  static QThreadPool* pool = [] {
    auto* p = new QThreadPool; // lives as long as the application, as Qt's global pool does
    p->setMaxThreadCount(1);
    return p;
  }();
  return pool;
}

void Progress::report(double fraction) {
  const double whole = from_ + (to_ - from_) * std::clamp(fraction, 0.0, 1.0);
  const int percent = static_cast<int>(std::lround(whole * 100));
  if (percent == percent_) return;
  percent_ = percent;
  emit ProgressHub::instance().progress(task_, percent);
}

void TaskRunner::start(QObject* context, const QString& task,
                       std::shared_ptr<std::atomic<bool>> cancelled,
                       std::function<std::function<void()>(Progress&)> work,
                       std::function<void(const QString&)> fail, QThreadPool* pool) {
  ProgressHub& hub = ProgressHub::instance();
  hub.running_.fetch_add(1);
  const std::uint64_t number = hub.nextTask_++;
  hub.pending_[number] = {QPointer<QObject>(context), cancelled};
  emit hub.started(task);
  QPointer<QObject> target(context);
  (pool ? pool : QThreadPool::globalInstance())->start([=]() {
    Progress progress(task, cancelled);
    std::function<void()> deliver;
    QString error;
    try {
      deliver = work(progress);
    } catch (const Cancelled&) {
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    } catch (...) {
      error = task + QStringLiteral(": unknown error");
    }
    ProgressHub& h = ProgressHub::instance();
    h.running_.fetch_sub(1);
    emit h.finished(task);
    // Posted to the application object (the GUI thread, where every context lives), and the
    // context is checked there: reading a QPointer here would race with its deletion.
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [=]() {
          ProgressHub::instance().pending_.erase(number);
          if (!target || cancelled->load()) return;
          if (deliver)
            deliver();
          else if (!error.isEmpty() && fail)
            fail(error);
        },
        Qt::QueuedConnection);
  });
}

} // namespace tessera::viewer
