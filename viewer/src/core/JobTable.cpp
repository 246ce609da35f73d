// Loading a job's per-instance summary for the Summary page, and the words for its job-wide
// figures.
#include "core/JobTable.hpp"

#include "core/Format.hpp"

#include <QObject>

namespace tessera::viewer {

QString JobTable::spreadText() const {
  if (summary.numInstances < 2) return QObject::tr("Spread: - (one instance, nothing to compare)");
  if (summary.maxCycles == summary.minCycles)
    return QObject::tr("Spread %1: every instance ran %2 cycles (total, all runs, each step at its "
                       "slowest IPU)")
        .arg(formatPercent(0.0, 2))
        .arg(formatCount(summary.maxCycles));
  return QObject::tr("Spread %1: (slowest − fastest) / fastest of the instances' total cycles "
                     "(all runs, each step at its slowest IPU): instance %2 %3, instance %4 %5 "
                     "cycles")
      .arg(formatPercent(summary.spread, 2))
      .arg(summary.slowestInstance)
      .arg(formatCount(summary.maxCycles))
      .arg(summary.fastestInstance)
      .arg(formatCount(summary.minCycles));
}

QString JobTable::slowdownText() const {
  if (summary.numInstances < 2) return QObject::tr("Slowdown: - (one instance)");
  if (summary.maxCycles == summary.minCycles)
    return QObject::tr("Slowdown %1: no instance is slower than the others")
        .arg(formatPercent(0.0, 2));
  return QObject::tr("Slowdown %1: the slowest instance's (%2) total cycles against the mean of "
                     "the other instances' (the figure pva summary --max-instance-slowdown gates)")
      .arg(formatPercent(summary.slowdown, 2))
      .arg(summary.slowestInstance);
}

JobTable loadJobTable(const QString& directory, Progress& progress) {
  JobTable t;
  t.directory = directory;
  progress.report(0.1);
  const pva::Job job = pva::openJob(directory.toStdString());
  if (progress.cancelled()) throw Cancelled{};
  progress.report(0.5);
  t.summary = pva::summarizeJob(job);
  progress.report(1.0);
  return t;
}

} // namespace tessera::viewer
