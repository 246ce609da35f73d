#include "Bind.hpp"

namespace pvapy {

void bindCompare(py::module_& m) {
  py::class_<pva::ComparedValue>(m, "ComparedValue")
      .def_readonly("base", &pva::ComparedValue::base)
      .def_readonly("current", &pva::ComparedValue::current)
      .def_property_readonly("delta", &pva::ComparedValue::delta)
      .def_property_readonly("relative", &pva::ComparedValue::relative);
  py::class_<pva::NamedComparison>(m, "NamedComparison")
      .def_readonly("name", &pva::NamedComparison::name)
      .def_readonly("inBase", &pva::NamedComparison::inBase)
      .def_readonly("inCurrent", &pva::NamedComparison::inCurrent)
      .def_readonly("value", &pva::NamedComparison::value);
  py::class_<pva::MemoryComparison>(m, "MemoryComparison")
      .def_readonly("totalIncludingGaps", &pva::MemoryComparison::totalIncludingGaps)
      .def_readonly("totalExcludingGaps", &pva::MemoryComparison::totalExcludingGaps)
      .def_readonly("maxTileIncludingGaps", &pva::MemoryComparison::maxTileIncludingGaps)
      .def_readonly("maxTileBase", &pva::MemoryComparison::maxTileBase)
      .def_readonly("maxTileCurrent", &pva::MemoryComparison::maxTileCurrent)
      .def_readonly("alwaysLive", &pva::MemoryComparison::alwaysLive)
      .def_readonly("peakLiveness", &pva::MemoryComparison::peakLiveness)
      .def_readonly("peakStepBase", &pva::MemoryComparison::peakStepBase)
      .def_readonly("peakStepCurrent", &pva::MemoryComparison::peakStepCurrent)
      .def_readonly("categories", &pva::MemoryComparison::categories)
      .def_readonly("tilesIncludingGaps", &pva::MemoryComparison::tilesIncludingGaps)
      .def_readonly("allocated", &pva::MemoryComparison::allocated);
  py::class_<pva::TargetComparison>(m, "TargetComparison")
      .def_readonly("base", &pva::TargetComparison::base)
      .def_readonly("current", &pva::TargetComparison::current)
      .def_readonly("ipus", &pva::TargetComparison::ipus)
      .def_readonly("tilesPerIpu", &pva::TargetComparison::tilesPerIpu)
      .def_readonly("bytesPerTile", &pva::TargetComparison::bytesPerTile)
      .def_readonly("replicas", &pva::TargetComparison::replicas)
      .def_readonly("clockHz", &pva::TargetComparison::clockHz)
      .def_readonly("sameType", &pva::TargetComparison::sameType)
      .def_readonly("sameArchitecture", &pva::TargetComparison::sameArchitecture)
      .def_readonly("differences", &pva::TargetComparison::differences)
      .def("same", &pva::TargetComparison::same);
  py::class_<pva::VariableComparison>(m, "VariableComparison")
      .def_readonly("alwaysLive", &pva::VariableComparison::alwaysLive)
      .def_readonly("alwaysLiveTotal", &pva::VariableComparison::alwaysLiveTotal)
      .def_readonly("atPeak", &pva::VariableComparison::atPeak)
      .def_readonly("atPeakTotal", &pva::VariableComparison::atPeakTotal);
  py::class_<pva::RunComparison> run(m, "RunComparison");
  py::enum_<pva::RunComparison::Match>(run, "Match")
      .value("ByName", pva::RunComparison::Match::ByName)
      .value("ByPosition", pva::RunComparison::Match::ByPosition)
      .value("OnlyInBase", pva::RunComparison::Match::OnlyInBase)
      .value("OnlyInCurrent", pva::RunComparison::Match::OnlyInCurrent);
  run.def_readonly("match", &pva::RunComparison::match)
      .def_readonly("baseName", &pva::RunComparison::baseName)
      .def_readonly("currentName", &pva::RunComparison::currentName)
      .def_readonly("baseIndex", &pva::RunComparison::baseIndex)
      .def_readonly("currentIndex", &pva::RunComparison::currentIndex)
      .def_readonly("cycles", &pva::RunComparison::cycles)
      .def_readonly("steps", &pva::RunComparison::steps)
      .def("inBase", &pva::RunComparison::inBase)
      .def("inCurrent", &pva::RunComparison::inCurrent)
      .def_static("matchName", &pva::RunComparison::matchName);
  py::class_<pva::ProgramsInCommon>(m, "ProgramsInCommon")
      .def_readonly("namesBase", &pva::ProgramsInCommon::namesBase)
      .def_readonly("namesCurrent", &pva::ProgramsInCommon::namesCurrent)
      .def_readonly("namesInCommon", &pva::ProgramsInCommon::namesInCommon)
      .def_readonly("share", &pva::ProgramsInCommon::share)
      .def_readonly("related", &pva::ProgramsInCommon::related)
      .def_readonly_static("relatedShare", &pva::ProgramsInCommon::relatedShare);
  py::class_<pva::OperationComparison>(m, "OperationComparison")
      .def_readonly("name", &pva::OperationComparison::name)
      .def_readonly("inBase", &pva::OperationComparison::inBase)
      .def_readonly("inCurrent", &pva::OperationComparison::inCurrent)
      .def_readonly("cycles", &pva::OperationComparison::cycles)
      .def_readonly("estimatedCycles", &pva::OperationComparison::estimatedCycles)
      .def_readonly("alwaysLiveBytes", &pva::OperationComparison::alwaysLiveBytes)
      .def_readonly("peakNotAlwaysLiveBytes", &pva::OperationComparison::peakNotAlwaysLiveBytes)
      .def_readonly("codeBytes", &pva::OperationComparison::codeBytes)
      .def_readonly("baseIndex", &pva::OperationComparison::baseIndex)
      .def_readonly("currentIndex", &pva::OperationComparison::currentIndex);
  py::class_<pva::OperationsComparison>(m, "OperationsComparison")
      .def_readonly("compared", &pva::OperationsComparison::compared)
      .def_readonly("operations", &pva::OperationsComparison::operations)
      .def_readonly("total", &pva::OperationsComparison::total);
  py::class_<pva::LivenessComparison>(m, "LivenessComparison")
      .def_readonly("base", &pva::LivenessComparison::base)
      .def_readonly("current", &pva::LivenessComparison::current);
  py::class_<pva::CycleComparison>(m, "CycleComparison")
      .def_readonly("total", &pva::CycleComparison::total)
      .def_readonly("runs", &pva::CycleComparison::runs)
      .def_readonly("computeSets", &pva::CycleComparison::computeSets)
      .def_readonly("programs", &pva::CycleComparison::programs)
      .def_readonly("kinds", &pva::CycleComparison::kinds)
      .def_readonly("matchedRuns", &pva::CycleComparison::matchedRuns)
      .def_readonly("runsTotal", &pva::CycleComparison::runsTotal)
      .def_readonly("computeSetsTotal", &pva::CycleComparison::computeSetsTotal)
      .def_readonly("programsTotal", &pva::CycleComparison::programsTotal)
      .def_readonly("kindsTotal", &pva::CycleComparison::kindsTotal)
      .def_readonly("streamCopies", &pva::CycleComparison::streamCopies,
                    "Stream-copy steps' cycles, all runs, by destination: host, remoteBuffer, "
                    "mixed, unknown.")
      .def_readonly("streamCopiesTotal", &pva::CycleComparison::streamCopiesTotal);
  py::class_<pva::ReportComparison>(m, "ReportComparison")
      .def_readonly("memory", &pva::ReportComparison::memory)
      .def_readonly("liveness", &pva::ReportComparison::liveness)
      .def_readonly("cycles", &pva::ReportComparison::cycles)
      .def_readonly("hasExecution", &pva::ReportComparison::hasExecution)
      .def_readonly("target", &pva::ReportComparison::target)
      .def_readonly("variables", &pva::ReportComparison::variables)
      .def_readonly("operations", &pva::ReportComparison::operations)
      .def_readonly("programsInCommon", &pva::ReportComparison::programsInCommon);
  m.def("compare", &pva::compare, py::arg("base"), py::arg("current"),
        "Compares two reports: targets, memory, variables, liveness, cycles and (with debug "
        "information) "
        "operations; rows matched by name, runs by name else by position.");
  m.def("compareOperations",
        py::overload_cast<const pva::Report&, const pva::Report&>(&pva::compareOperations),
        py::arg("base"), py::arg("current"),
        "compare(base, current).operations alone (reads both executions).");
  m.def("compareProgramCycles",
        py::overload_cast<const pva::Report&, const pva::Report&>(&pva::compareProgramCycles),
        py::arg("base"), py::arg("current"),
        "compare(base, current).cycles.programs alone (reads both executions).");
}

} // namespace pvapy
