// pva::Job: the reports of every instance of a job launched by poprun, opened as one
// (docs/distributed.md). Under poprun each instance writes its profile.pop, debug.cbor and .pvti
// into <report directory>/instance_<i>/; openJob reads that folder.
//
//   pva::Job job = pva::openJob("reports/cnn");
//   pva::JobSummary s = pva::summarizeJob(job);
//   std::cout << "slowest: instance " << s.slowestInstance << ", " << s.slowdown * 100 << "%\n";
#pragma once

#include <cstdint>
#include <pva/Report.hpp>
#include <string>
#include <vector>

namespace pva {

struct JobInstance {
  unsigned index = 0;
  std::string directory;           ///< <job>/instance_<index>
  Report report;                   ///< with its debug.cbor when there is one
  std::vector<std::string> traces; ///< the .pvti files in its directory, sorted
};

class Job {
public:
  const std::string& directory() const { return directory_; }
  /// In instance order: instances()[i].index == i.
  const std::vector<JobInstance>& instances() const { return instances_; }
  unsigned totalReplicas() const { return totalReplicas_; }

private:
  friend Job openJob(const std::string& directory);
  std::string directory_;
  std::vector<JobInstance> instances_;
  unsigned totalReplicas_ = 0;
};

/// True when `path` is a directory holding instance_0/ (a job folder).
bool isJobDirectory(const std::string& path);

/// One instance's files in a job folder, found without opening its report.
struct JobInstanceFiles {
  unsigned index = 0;
  std::string directory;           ///< <job>/instance_<index>
  std::string profile;             ///< its profile.pop (in the folder or its one engine folder)
  std::string debug;               ///< the debug.cbor beside it, or empty
  std::vector<std::string> traces; ///< the .pvti files in its directory, sorted
};

/// The instance folders of the job in `directory`, in instance order, with their files. Opens no
/// report (a client showing one instance at a time opens only that one; openJob opens them all
/// and checks they agree). Throws as openJob does for a folder that is not a job, a missing
/// instance or an instance folder without exactly one profile.pop.
std::vector<JobInstanceFiles> listJobInstances(const std::string& directory);

/// listJobInstances, then checks that the folder's reports belong to one job, as openJob does:
/// each instance_<i>/'s report records instance i (so 0 .. n-1, each once) of as many instances
/// as the folder holds, every report the same total replicas, and each instance's replicas
/// following on from the previous one's ([offset, offset + replicas), from 0, adding up to the
/// total). Opens each profile.pop only to read its place in the job (no debug.cbor, no step),
/// so a client showing one instance at a time still refuses a folder of mixed jobs at once.
/// Throws InvalidReportError naming the folder, the instance folder and the mismatch, and what
/// listJobInstances and openReport throw.
std::vector<JobInstanceFiles> validateJob(const std::string& directory);

/// Two jobs compared instance by instance: instance i of the base with instance i of the current,
/// for every i both have (as `pva compare`, Python and the viewer pair them).
struct JobPairing {
  unsigned baseInstances = 0, currentInstances = 0;
  /// How many pairs: instances 0 .. paired() - 1 of each side.
  unsigned paired() const {
    return baseInstances < currentInstances ? baseInstances : currentInstances;
  }
  bool sameShape() const { return baseInstances == currentInstances; }
  /// Empty for jobs of the same shape, else what is and is not compared: "the base job has 2
  /// instances and the current job 4: instances 0-1 are compared, instances 2-3 of the current
  /// job have no counterpart".
  std::string mismatch() const;
};
/// Throws InvalidArgumentError when either job has no instance.
JobPairing pairJobInstances(unsigned baseInstances, unsigned currentInstances);
JobPairing pairJobs(const Job& base, const Job& current);

/// Opens every instance's report of the job in `directory`. Each instance_<i> holds a
/// profile.pop directly or in exactly one sub-directory (an engine with a debug name). Throws
/// FileNotFoundError when it is not a job folder, InvalidReportError naming the directory when
/// an instance is missing or the reports disagree about the job (instance counts, replicas),
/// and whatever openReport throws for a bad report.
Job openJob(const std::string& directory);

/// One instance's figures (from pva::summarize of its report).
struct InstanceSummary {
  unsigned index = 0;
  unsigned replicaOffset = 0, replicas = 0; ///< its replicas: [offset, offset + replicas)
  bool profiled = false;                    ///< it has an execution profile
  std::uint64_t totalCycles = 0;            ///< all runs, each at its slowest IPU
  /// What its collectives cost: the average tile's global-exchange cycles, all runs (gcl
  /// collectives are the job's global exchanges), and their share of totalCycles.
  double collectiveCycles = 0, collectiveShare = 0;
  /// Tile memory excluding gaps over every tile of its replicas: summarize(report).memory
  /// .excludingGapsBytes, whose scope is all replicas.
  std::uint64_t memoryBytes = 0;
};

/// The job at a glance: every instance, the slowest, and how far apart they are.
struct JobSummary {
  unsigned numInstances = 0, totalReplicas = 0;
  std::vector<InstanceSummary> instances;
  unsigned slowestInstance = 0, fastestInstance = 0; ///< by totalCycles (lowest index on ties)
  std::uint64_t maxCycles = 0, minCycles = 0;
  double meanCycles = 0;
  /// (max - min) / min: the spread of cycles between instances (0 with one instance).
  double spread = 0;
  /// How much slower the slowest instance is than the mean of the others: max / mean(others)
  /// - 1 (0 with one instance). The CI gate's figure (pva summary --max-instance-slowdown).
  double slowdown = 0;
};

JobSummary summarizeJob(const Job& job);

} // namespace pva
