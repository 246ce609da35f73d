// openJob: the instance_<i> folders of a poprun job, each one report, checked to agree.
#include <algorithm>
#include <filesystem>
#include <pva/Compilation.hpp>
#include <pva/Exception.hpp>
#include <pva/Job.hpp>
#include <system_error>

namespace pva {
namespace fs = std::filesystem;

namespace {

constexpr const char* kInstancePrefix = "instance_";

/// The directory's profile.pop: directly in it or in its one sub-directory that has one.
std::string findProfile(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_regular_file(dir / "profile.pop", ec)) return (dir / "profile.pop").string();
  std::vector<fs::path> found;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_directory(ec) && fs::is_regular_file(e.path() / "profile.pop", ec))
      found.push_back(e.path() / "profile.pop");
  if (found.size() == 1) return found[0].string();
  throw FileNotFoundError(dir.string() + ": " +
                          (found.empty() ? std::string("no profile.pop in this instance's folder")
                                         : "several engines' profile.pop; open them one by one"));
}

/// What one instance's report says about its place in the job.
struct InstancePlace {
  std::string directory; ///< <job>/instance_<i>
  JobPlacement placement;
  unsigned replicas = 0; ///< the replicas its report holds
};

InstancePlace placeOf(const std::string& directory, const Report& report) {
  return {directory, report.jobPlacement(), report.compilation().target().numReplicas()};
}

std::string folderName(const std::string& directory) {
  return fs::path(directory).filename().string() + "/";
}

/// Checks that the reports of a job folder's instances (in folder order: places[i] is
/// instance_<i>/) describe one job; returns its total replicas. Each mismatch is named with the
/// instance folder that shows it, as the reports say it, so the user sees which file is foreign.
unsigned checkOneJob(const std::string& directory, const std::vector<InstancePlace>& places) {
  const auto n = static_cast<unsigned>(places.size());
  const JobPlacement& first = places[0].placement;
  unsigned nextReplica = 0;
  for (unsigned i = 0; i < n; ++i) {
    const InstancePlace& in = places[i];
    const JobPlacement& p = in.placement;
    std::string reason;
    if (p.numInstances != n) {
      reason = "the report's job has " + std::to_string(p.numInstances) +
               " instance(s) but the folder holds " + std::to_string(n);
    } else if (p.instanceIndex != i) {
      reason = "it is the report of instance " + std::to_string(p.instanceIndex) +
               ", not of instance " + std::to_string(i);
      for (unsigned j = 0; j < i; ++j)
        if (places[j].placement.instanceIndex == p.instanceIndex)
          reason += " (" + folderName(places[j].directory) + " holds instance " +
                    std::to_string(p.instanceIndex) + " too: each index 0-" +
                    std::to_string(n - 1) + " must be in its own folder)";
    } else if (p.totalReplicas != first.totalReplicas) {
      reason = "its job has " + std::to_string(p.totalReplicas) + " replicas but " +
               folderName(places[0].directory) + "'s has " + std::to_string(first.totalReplicas);
    } else if (p.replicaOffset != nextReplica) {
      reason = "its replicas start at " + std::to_string(p.replicaOffset) +
               " where the instances before it end at " + std::to_string(nextReplica) +
               " (the replica offsets are not consecutive)";
    }
    if (!reason.empty())
      throw InvalidReportError(
          in.directory + ": its report is instance " + std::to_string(p.instanceIndex) + " of " +
          std::to_string(p.numInstances) + " (replicas from " + std::to_string(p.replicaOffset) +
          " of " + std::to_string(p.totalReplicas) + "), which does not fit a job folder of " +
          std::to_string(n) + " instances in " + directory + ": " + reason +
          "; are reports of different jobs mixed?");
    nextReplica += in.replicas;
  }
  if (nextReplica != first.totalReplicas)
    throw InvalidReportError(directory + ": the instances hold " + std::to_string(nextReplica) +
                             " replicas but the job has " + std::to_string(first.totalReplicas) +
                             " (its reports record " + std::to_string(first.totalReplicas) +
                             " in all)");
  return first.totalReplicas;
}

} // namespace

bool isJobDirectory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(fs::path(path) / (std::string(kInstancePrefix) + "0"), ec);
}

std::vector<JobInstanceFiles> listJobInstances(const std::string& directory) {
  const fs::path root(directory);
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    throw FileNotFoundError(directory + ": not a directory (a job folder holds instance_0/, "
                                        "instance_1/ ... written under poprun)");
  // Every instance_<n> present, by index.
  std::vector<unsigned> present;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory(ec) || name.rfind(kInstancePrefix, 0) != 0) continue;
    const std::string digits = name.substr(std::string(kInstancePrefix).size());
    if (digits.empty() || digits.size() > 6 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      continue;
    present.push_back(static_cast<unsigned>(std::stoul(digits)));
  }
  std::sort(present.begin(), present.end());
  if (present.empty() || present[0] != 0)
    throw FileNotFoundError(directory + ": not a job folder (no instance_0/; poprun's instances "
                                        "write their reports into instance_<i>/)");
  std::vector<JobInstanceFiles> files;
  for (unsigned i = 0; i < present.size(); ++i) {
    if (present[i] != i)
      throw InvalidReportError(directory + ": instance_" + std::to_string(i) +
                               "/ is missing (the folder has instance_" +
                               std::to_string(present[i]) + "/)");
    JobInstanceFiles in;
    in.index = i;
    const fs::path dir = root / (kInstancePrefix + std::to_string(i));
    in.directory = dir.string();
    in.profile = findProfile(dir);
    const fs::path debug = fs::path(in.profile).parent_path() / "debug.cbor";
    if (fs::is_regular_file(debug, ec)) in.debug = debug.string();
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".pvti") in.traces.push_back(e.path().string());
    std::sort(in.traces.begin(), in.traces.end());
    files.push_back(std::move(in));
  }
  return files;
}

Job openJob(const std::string& directory) {
  Job job;
  job.directory_ = directory;
  std::vector<InstancePlace> places;
  for (JobInstanceFiles& f : listJobInstances(directory)) {
    JobInstance in;
    in.index = f.index;
    in.directory = std::move(f.directory);
    in.report = f.debug.empty() ? openReport(f.profile) : openReport(f.profile, f.debug);
    in.traces = std::move(f.traces);
    places.push_back(placeOf(in.directory, in.report));
    job.instances_.push_back(std::move(in));
  }
  job.totalReplicas_ = checkOneJob(directory, places);
  return job;
}

std::vector<JobInstanceFiles> validateJob(const std::string& directory) {
  std::vector<JobInstanceFiles> files = listJobInstances(directory);
  std::vector<InstancePlace> places;
  places.reserve(files.size());
  // The profile alone: its meta says where the instance sits, its target how many replicas.
  for (const JobInstanceFiles& f : files)
    places.push_back(placeOf(f.directory, openReport(f.profile)));
  checkOneJob(directory, places);
  return files;
}

} // namespace pva
