#include "Bind.hpp"

namespace pvapy {

void bindReport(py::module_& m) {
  py::class_<pva::PoplarVersion>(m, "PoplarVersion", "Version of the tool that wrote the report.")
      .def_property_readonly("string", &pva::PoplarVersion::string)
      .def_property_readonly("major", &pva::PoplarVersion::majorVer)
      .def_property_readonly("minor", &pva::PoplarVersion::minorVer)
      .def_property_readonly("point", &pva::PoplarVersion::pointVer)
      .def_property_readonly("packageHash", &pva::PoplarVersion::packageHash)
      .def("__repr__", &pva::PoplarVersion::string);

  py::class_<pva::ProfileReportVersion>(m, "ProfileReportVersion", "The report's format version.")
      .def_property_readonly("major", &pva::ProfileReportVersion::majorVer)
      .def_property_readonly("minor", &pva::ProfileReportVersion::minorVer)
      .def_property_readonly("point", &pva::ProfileReportVersion::pointVer)
      .def_property_readonly("isUnstableFormat", &pva::ProfileReportVersion::isUnstableFormat)
      .def("__repr__", &pva::ProfileReportVersion::string);

  py::class_<pva::InstrumentationSettings> settings(m, "InstrumentationSettings");
  py::enum_<pva::InstrumentationSettings::ComputeInstrumentationLevel>(
      settings, "ComputeInstrumentationLevel")
      .value("Off", pva::InstrumentationSettings::ComputeInstrumentationLevel::Off)
      .value("Vertex", pva::InstrumentationSettings::ComputeInstrumentationLevel::Vertex)
      .value("Tile", pva::InstrumentationSettings::ComputeInstrumentationLevel::Tile)
      .value("Ipu", pva::InstrumentationSettings::ComputeInstrumentationLevel::Ipu)
      .value("Device", pva::InstrumentationSettings::ComputeInstrumentationLevel::Device)
      .value("Unknown", pva::InstrumentationSettings::ComputeInstrumentationLevel::Unknown);
  py::enum_<pva::InstrumentationSettings::ExternalExchangeInstrumentationLevel>(
      settings, "ExternalExchangeInstrumentationLevel")
      .value("Off", pva::InstrumentationSettings::ExternalExchangeInstrumentationLevel::Off)
      .value("Tile", pva::InstrumentationSettings::ExternalExchangeInstrumentationLevel::Tile)
      .value("Unknown",
             pva::InstrumentationSettings::ExternalExchangeInstrumentationLevel::Unknown);
  settings.def_property_readonly("compute", &pva::InstrumentationSettings::compute)
      .def_property_readonly("externalExchange", &pva::InstrumentationSettings::externalExchange);

  py::class_<pva::Report>(m, "Report",
                          "A profile report, opened lazily and read-only (pva.openReport).")
      .def_property_readonly("compilation", &pva::Report::compilation)
      .def_property_readonly("execution", &pva::Report::execution)
      .def_property_readonly("poplarVersion", &pva::Report::poplarVersion)
      .def_property_readonly("version", &pva::Report::version)
      .def_property_readonly("instrumentationSettings", &pva::Report::instrumentationSettings)
      .def_property_readonly("timestamp", &pva::Report::timestamp, "Creation time, ISO 8601 UTC.")
      .def_property_readonly("timestampMicroseconds", &pva::Report::timestampMicroseconds)
      .def_property_readonly("engineOptions", &pva::Report::engineOptions)
      .def_property_readonly("outOfMemory", &pva::Report::outOfMemory)
      .def_property_readonly("hasFlopEstimates", &pva::Report::hasFlopEstimates)
      .def_property_readonly("hasFlopEstimatesByTile", &pva::Report::hasFlopEstimatesByTile)
      .def_property_readonly("profilePath", &pva::Report::profilePath)
      .def_property_readonly("debugPath", &pva::Report::debugPath)
      .def_property_readonly("hasDebugInfo", &pva::Report::hasDebugInfo)
      .def_property_readonly("jobPlacement", &pva::Report::jobPlacement,
                             "Its place in a poprun job (instance 0 of 1 outside poprun)")
      .def(
          "listPrintLength", [](const pva::Report&, std::size_t n) { listPrintLength() = n; },
          py::arg("newLength"), "How many items the repr of long lists (steps) shows.")
      .def("__repr__", [](const pva::Report& r) { return "<pva.Report " + r.profilePath() + ">"; });

  m.def("openReport", py::overload_cast<const std::string&>(&pva::openReport),
        py::arg("profileFilename"),
        "Opens profile.pop. Raises pva.FileNotFoundError, InvalidReportError or "
        "UnsupportedVersionError.");
  m.def("openReport", py::overload_cast<const std::string&, const std::string&>(&pva::openReport),
        py::arg("profileFilename"), py::arg("debugInfoFilename"),
        "Opens profile.pop with its debug.cbor (needed by OperationAnalysis).");
  m.def("supportedFormatVersion", &pva::supportedFormatVersion);
}

} // namespace pvapy
