// The Summary's job table: libpva's pva::summarizeJob of a poprun job folder (every instance's
// replicas, cycles, collectives and memory, the slowest and fastest, the spread and slowdown),
// plus the sentences that say what the job-wide figures measure. The viewer derives no figure:
// each number is summarizeJob's.
//
// Threads: built off the GUI thread by loadJobTable (it opens every instance's report), then
// immutable and shared.
#pragma once

#include "core/Background.hpp"

#include <QString>
#include <pva/Job.hpp>

namespace tessera::viewer {

struct JobTable {
  QString directory; ///< the job folder
  pva::JobSummary summary;
  /// "Spread 12.3 %: (slowest − fastest) / fastest of the instances' total cycles (all runs, each
  /// step at its slowest IPU)"; with one instance, says there is nothing to compare.
  QString spreadText() const;
  /// "Slowdown 4.5 %: instance 1's total cycles against the mean of the other instances'".
  QString slowdownText() const;
};

/// Opens the job in `directory` (pva::openJob: every instance, checked to be one job) and
/// summarizes it. Throws pva::Exception (naming the folder) and Cancelled.
JobTable loadJobTable(const QString& directory, Progress& progress);

} // namespace tessera::viewer
