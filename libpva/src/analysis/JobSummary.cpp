// summarizeJob: every instance's summary and how far apart the instances are, derived once here
// for the CLI, Python and the viewer.
#include <algorithm>
#include <pva/Analysis.hpp>
#include <pva/Job.hpp>

namespace pva {

JobSummary summarizeJob(const Job& job) {
  JobSummary s;
  s.numInstances = static_cast<unsigned>(job.instances().size());
  s.totalReplicas = job.totalReplicas();
  for (const JobInstance& in : job.instances()) {
    const ReportSummary r = summarize(in.report);
    const JobPlacement p = in.report.jobPlacement();
    InstanceSummary i;
    i.index = in.index;
    i.replicaOffset = p.replicaOffset;
    i.replicas = r.target.numReplicas();
    i.profiled = r.execution.profiled;
    i.totalCycles = r.execution.totalCycles;
    i.collectiveCycles = r.execution.tileAverageCycles(TileCycleTotals::Kind::GlobalExchange);
    i.collectiveShare = r.execution.tileAverageShareOfTotal(TileCycleTotals::Kind::GlobalExchange);
    i.memoryBytes = r.memory.excludingGapsBytes;
    s.instances.push_back(i);
  }
  if (s.instances.empty()) return s;
  double sum = 0;
  for (const InstanceSummary& i : s.instances) {
    sum += double(i.totalCycles);
    if (i.totalCycles > s.instances[s.slowestInstance].totalCycles) s.slowestInstance = i.index;
    if (i.totalCycles < s.instances[s.fastestInstance].totalCycles) s.fastestInstance = i.index;
  }
  s.maxCycles = s.instances[s.slowestInstance].totalCycles;
  s.minCycles = s.instances[s.fastestInstance].totalCycles;
  s.meanCycles = sum / double(s.instances.size());
  if (s.instances.size() > 1) {
    if (s.minCycles) s.spread = double(s.maxCycles - s.minCycles) / double(s.minCycles);
    const double othersMean = (sum - double(s.maxCycles)) / double(s.instances.size() - 1);
    if (othersMean > 0) s.slowdown = double(s.maxCycles) / othersMean - 1.0;
  }
  return s;
}

} // namespace pva
