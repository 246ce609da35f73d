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
      .def_readonly("tilesIncludingGaps", &pva::MemoryComparison::tilesIncludingGaps);
  py::class_<pva::LivenessComparison>(m, "LivenessComparison")
      .def_readonly("base", &pva::LivenessComparison::base)
      .def_readonly("current", &pva::LivenessComparison::current);
  py::class_<pva::CycleComparison>(m, "CycleComparison")
      .def_readonly("total", &pva::CycleComparison::total)
      .def_readonly("runs", &pva::CycleComparison::runs)
      .def_readonly("computeSets", &pva::CycleComparison::computeSets)
      .def_readonly("programs", &pva::CycleComparison::programs)
      .def_readonly("kinds", &pva::CycleComparison::kinds);
  py::class_<pva::ReportComparison>(m, "ReportComparison")
      .def_readonly("memory", &pva::ReportComparison::memory)
      .def_readonly("liveness", &pva::ReportComparison::liveness)
      .def_readonly("cycles", &pva::ReportComparison::cycles)
      .def_readonly("hasExecution", &pva::ReportComparison::hasExecution);
  m.def("compare", &pva::compare, py::arg("base"), py::arg("current"),
        "Compares two reports: memory, liveness and cycles, matched by name.");
}

} // namespace pvapy
