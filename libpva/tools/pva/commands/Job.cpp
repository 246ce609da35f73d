// A poprun job folder (instance_0/, instance_1/ ...) read as one by `pva summary`: every
// instance's cycles, collectives and memory, the slowest instance and the spread, from
// pva::summarizeJob; and the gate on how much slower the slowest instance is than the others.
#include "Common.hpp"
#include "JobOutput.hpp"
#include "output/Format.hpp"

#include <ostream>

namespace pvacli {

Json jobSummaryJson(const pva::Job& job) {
  const pva::JobSummary s = pva::summarizeJob(job);
  Json j;
  j["job"] = {{"directory", job.directory()},
              {"numInstances", s.numInstances},
              {"totalReplicas", s.totalReplicas},
              {"slowestInstance", s.slowestInstance},
              {"fastestInstance", s.fastestInstance},
              {"maxCycles", s.maxCycles},
              {"minCycles", s.minCycles},
              {"meanCycles", s.meanCycles},
              {"spread", s.spread},
              {"slowdown", s.slowdown}};
  Json instances = Json::array();
  for (const pva::InstanceSummary& i : s.instances) {
    const pva::JobInstance& in = job.instances()[i.index];
    Json traces = Json::array();
    for (const std::string& t : in.traces)
      traces.push_back(t);
    instances.push_back({{"index", i.index},
                         {"directory", in.directory},
                         {"profile", in.report.profilePath()},
                         {"traces", traces},
                         {"replicaOffset", i.replicaOffset},
                         {"replicas", i.replicas},
                         {"profiled", i.profiled},
                         {"totalCycles", i.totalCycles},
                         {"collectiveCycles", i.collectiveCycles},
                         {"collectiveShare", i.collectiveShare},
                         {"memoryExcludingGaps", i.memoryBytes}});
  }
  j["instances"] = instances;
  return j;
}

void writeJobText(std::ostream& out, const Json& j) {
  const Json& job = j["job"];
  const auto n = job["numInstances"].get<unsigned>();
  out << "Job " << job["directory"].get<std::string>() << ": " << n << " instance"
      << (n == 1 ? "" : "s") << ", " << job["totalReplicas"].get<unsigned>() << " replicas\n\n";
  // Memory is summarize()'s, whose scope is every replica the instance drives.
  out << "  instance  replicas  total cycles      collectives (tile average)   memory (its "
         "replicas)\n";
  for (const Json& i : j["instances"]) {
    const auto first = i["replicaOffset"].get<unsigned>();
    const auto count = i["replicas"].get<unsigned>();
    const std::string replicas =
        count == 1 ? std::to_string(first)
                   : std::to_string(first) + "-" + std::to_string(first + count - 1);
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", 100.0 * i["collectiveShare"].get<double>());
    std::string cycles = i["profiled"].get<bool>()
                             ? withCommas(i["totalCycles"].get<std::uint64_t>())
                             : std::string("(no execution profile)");
    std::string coll =
        withCommas(std::uint64_t(i["collectiveCycles"].get<double>() + 0.5)) + " (" + share + ")";
    auto pad = [](std::string s, std::size_t w) {
      return s.size() < w ? s + std::string(w - s.size(), ' ') : s + " ";
    };
    out << "  " << pad(std::to_string(i["index"].get<unsigned>()), 10) << pad(replicas, 10)
        << pad(cycles, 18) << pad(coll, 29) << bytes(i["memoryExcludingGaps"].get<std::uint64_t>())
        << "\n";
  }
  char spread[64], slowdown[64];
  std::snprintf(spread, sizeof spread, "%.2f%%", 100.0 * job["spread"].get<double>());
  std::snprintf(slowdown, sizeof slowdown, "%.2f%%", 100.0 * job["slowdown"].get<double>());
  out << "\n  slowest instance " << job["slowestInstance"].get<unsigned>() << " ("
      << withCommas(job["maxCycles"].get<std::uint64_t>()) << " cycles), fastest "
      << job["fastestInstance"].get<unsigned>() << " ("
      << withCommas(job["minCycles"].get<std::uint64_t>()) << ")\n"
      << "  spread (slowest - fastest) / fastest: " << spread << "\n"
      << "  slowest against the others' mean: +" << slowdown << "\n";
}

} // namespace pvacli
