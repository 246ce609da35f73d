// openJob: the instance_<i> folders of a poprun job, each one report, checked to agree.
#include <algorithm>
#include <filesystem>
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
  for (JobInstanceFiles& f : listJobInstances(directory)) {
    JobInstance in;
    in.index = f.index;
    in.directory = std::move(f.directory);
    in.report = f.debug.empty() ? openReport(f.profile) : openReport(f.profile, f.debug);
    in.traces = std::move(f.traces);
    job.instances_.push_back(std::move(in));
  }
  // The reports must describe one job: as many instances as folders, each in its place.
  const JobPlacement first = job.instances_[0].report.jobPlacement();
  job.totalReplicas_ = first.totalReplicas;
  unsigned nextReplica = 0;
  for (const JobInstance& in : job.instances_) {
    const JobPlacement p = in.report.jobPlacement();
    const unsigned replicas = in.report.compilation().target().numReplicas();
    if (p.numInstances != job.instances_.size() || p.instanceIndex != in.index ||
        p.totalReplicas != first.totalReplicas || p.replicaOffset != nextReplica)
      throw InvalidReportError(
          in.directory + ": its report is instance " + std::to_string(p.instanceIndex) + " of " +
          std::to_string(p.numInstances) + " (replicas from " + std::to_string(p.replicaOffset) +
          " of " + std::to_string(p.totalReplicas) + "), which does not fit a job folder of " +
          std::to_string(job.instances_.size()) + " instances" +
          (p.replicaOffset != nextReplica ? " whose next replica is " + std::to_string(nextReplica)
                                          : std::string()) +
          ": are reports of different jobs mixed?");
    nextReplica += replicas;
  }
  if (nextReplica != job.totalReplicas_)
    throw InvalidReportError(directory + ": the instances hold " + std::to_string(nextReplica) +
                             " replicas but the job has " + std::to_string(job.totalReplicas_));
  return job;
}

} // namespace pva
