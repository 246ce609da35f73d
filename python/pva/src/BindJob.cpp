// pva.openJob: a poprun job folder read as one (pva/Job.hpp), and its summary.
#include "Bind.hpp"

namespace pvapy {

void bindJob(py::module_& m) {
  py::class_<pva::JobPlacement>(m, "JobPlacement",
                                "A report's place in a poprun job (Report.jobPlacement)")
      .def_readonly("instanceIndex", &pva::JobPlacement::instanceIndex)
      .def_readonly("numInstances", &pva::JobPlacement::numInstances)
      .def_readonly("replicaOffset", &pva::JobPlacement::replicaOffset)
      .def_readonly("totalReplicas", &pva::JobPlacement::totalReplicas);
  py::class_<pva::JobInstance>(m, "JobInstance", "One instance of a job: its folder and report")
      .def_readonly("index", &pva::JobInstance::index)
      .def_readonly("directory", &pva::JobInstance::directory)
      .def_readonly("report", &pva::JobInstance::report)
      .def_readonly("traces", &pva::JobInstance::traces);
  py::class_<pva::Job>(m, "Job", "The reports of every instance of a poprun job")
      .def_property_readonly("directory", &pva::Job::directory)
      .def_property_readonly("instances", &pva::Job::instances)
      .def_property_readonly("totalReplicas", &pva::Job::totalReplicas);
  py::class_<pva::InstanceSummary>(m, "InstanceSummary")
      .def_readonly("index", &pva::InstanceSummary::index)
      .def_readonly("replicaOffset", &pva::InstanceSummary::replicaOffset)
      .def_readonly("replicas", &pva::InstanceSummary::replicas)
      .def_readonly("profiled", &pva::InstanceSummary::profiled)
      .def_readonly("totalCycles", &pva::InstanceSummary::totalCycles)
      .def_readonly("collectiveCycles", &pva::InstanceSummary::collectiveCycles)
      .def_readonly("collectiveShare", &pva::InstanceSummary::collectiveShare)
      .def_readonly("memoryBytes", &pva::InstanceSummary::memoryBytes);
  py::class_<pva::JobSummary>(m, "JobSummary")
      .def_readonly("numInstances", &pva::JobSummary::numInstances)
      .def_readonly("totalReplicas", &pva::JobSummary::totalReplicas)
      .def_readonly("instances", &pva::JobSummary::instances)
      .def_readonly("slowestInstance", &pva::JobSummary::slowestInstance)
      .def_readonly("fastestInstance", &pva::JobSummary::fastestInstance)
      .def_readonly("maxCycles", &pva::JobSummary::maxCycles)
      .def_readonly("minCycles", &pva::JobSummary::minCycles)
      .def_readonly("meanCycles", &pva::JobSummary::meanCycles)
      .def_readonly("spread", &pva::JobSummary::spread)
      .def_readonly("slowdown", &pva::JobSummary::slowdown);
  m.def("openJob", &pva::openJob, py::arg("directory"),
        "Opens every instance's report of a poprun job folder (instance_0/, instance_1/ ...)");
  m.def("isJobDirectory", &pva::isJobDirectory, py::arg("path"));
  py::class_<pva::JobInstanceFiles>(m, "JobInstanceFiles",
                                    "One instance's files in a job folder (no report opened)")
      .def_readonly("index", &pva::JobInstanceFiles::index)
      .def_readonly("directory", &pva::JobInstanceFiles::directory)
      .def_readonly("profile", &pva::JobInstanceFiles::profile)
      .def_readonly("debug", &pva::JobInstanceFiles::debug)
      .def_readonly("traces", &pva::JobInstanceFiles::traces);
  m.def("listJobInstances", &pva::listJobInstances, py::arg("directory"),
        "Every instance folder of a job and its files, in order, without opening a report");
  m.def("validateJob", &pva::validateJob, py::arg("directory"),
        "listJobInstances, checking that the instances' reports belong to one job (indices, "
        "instance count, replica offsets); raises naming the folder and the mismatch");
  py::class_<pva::JobPairing>(m, "JobPairing", "Two jobs compared instance by instance (i with i)")
      .def_readonly("baseInstances", &pva::JobPairing::baseInstances)
      .def_readonly("currentInstances", &pva::JobPairing::currentInstances)
      .def("paired", &pva::JobPairing::paired)
      .def("sameShape", &pva::JobPairing::sameShape)
      .def("mismatch", &pva::JobPairing::mismatch);
  m.def("pairJobInstances", &pva::pairJobInstances, py::arg("baseInstances"),
        py::arg("currentInstances"));
  m.def("pairJobs", &pva::pairJobs, py::arg("base"), py::arg("current"),
        "Instance i of the base job with instance i of the current, for every i both have");
  m.def("summarizeJob", &pva::summarizeJob, py::arg("job"),
        "Every instance's cycles, collectives and memory, the slowest and the spread");
}

} // namespace pvapy
