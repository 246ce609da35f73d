// The viewer's poprun-job costs (docs/benchmarks.md, "A job in the viewer"), medians of --reps:
//   open    a job folder as the viewer resolves it: pva::listJobInstances (what it did before)
//           against pva::validateJob (which also reads each instance's place in the job)
//   table   the Summary's job table: pva::openJob + pva::summarizeJob (loadJobTable)
//   traces  the Host trace view's index of several traces: each trace read and indexed alone,
//           summed, against loadTraceIndices (the same plus pva::alignTraces and the join)
// Thread-CPU ms and wall ms, with the load average beside them.
//
//   bench_job_view [--job DIR] [--reps N] [a.pvti b.pvti ...]
#include "common/Timing.hpp"
#include "core/JobTable.hpp"
#include "core/TraceMerge.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <pva/Job.hpp>
#include <string>
#include <vector>

using namespace tessera;
using namespace tessera::viewer;

namespace {

void row(const char* what, double wall, double cpu) {
  std::printf("  %-44s %9.2f ms wall %9.2f ms CPU   (load %.2f)\n", what, wall, cpu,
              bench::loadAverage());
}

} // namespace

int main(int argc, char** argv) {
  std::string job;
  int reps = 5;
  std::vector<HostTrace> traces;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--job" && i + 1 < argc)
      job = argv[++i];
    else if (a == "--reps" && i + 1 < argc)
      reps = std::max(1, std::atoi(argv[++i]));
    else if (a.size() > 5 && a.substr(a.size() - 5) == ".pvti")
      traces.push_back({QString::fromStdString(a), QString::fromStdString(a)});
    else {
      std::fprintf(stderr, "usage: bench_job_view [--job DIR] [--reps N] [a.pvti b.pvti ...]\n");
      return 2;
    }
  }
  double cpu = 0;
  if (!job.empty()) {
    std::printf("job %s\n", job.c_str());
    double wall = bench::timeMedian(
        reps, [&] { pva::listJobInstances(job); }, &cpu);
    row("open: listJobInstances (before)", wall, cpu);
    wall = bench::timeMedian(
        reps, [&] { pva::validateJob(job); }, &cpu);
    row("open: validateJob (now)", wall, cpu);
    wall = bench::timeMedian(
        reps,
        [&] {
          Progress p = Progress::standalone(QStringLiteral("bench"));
          loadJobTable(QString::fromStdString(job), p);
        },
        &cpu);
    row("Summary's job table: openJob + summarizeJob", wall, cpu);
    if (traces.empty())
      for (const pva::JobInstanceFiles& in : pva::listJobInstances(job))
        for (const std::string& t : in.traces)
          traces.push_back({QString::fromStdString(t), QString::fromStdString(t)});
  }
  if (traces.size() > 1) {
    std::size_t events = 0;
    double wall = bench::timeMedian(
        reps,
        [&] {
          events = 0;
          for (const HostTrace& t : traces) {
            Progress p = Progress::standalone(QStringLiteral("bench"));
            events += loadTraceIndex(t.path, p).eventCount;
          }
        },
        &cpu);
    std::printf("%zu traces, %zu events\n", traces.size(), events);
    row("traces: each read and indexed alone, summed", wall, cpu);
    wall = bench::timeMedian(
        reps,
        [&] {
          Progress p = Progress::standalone(QStringLiteral("bench"));
          loadTraceIndices(traces, p);
        },
        &cpu);
    row("traces: loadTraceIndices (aligned and joined)", wall, cpu);
  }
  return 0;
}
