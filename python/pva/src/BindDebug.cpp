#include "Bind.hpp"

namespace pvapy {

namespace {
/// pva::StepIndex as Python's optional: an int, or None.
py::object stepIndex(const pva::StepIndex& i) {
  return i ? py::object(py::int_(*i)) : py::object(py::none());
}
} // namespace

void bindDebug(py::module_& m) {
  py::class_<pva::SourceLocation>(m, "SourceLocation")
      .def_property_readonly("fileName", &pva::SourceLocation::fileName)
      .def_property_readonly("functionName", &pva::SourceLocation::functionName)
      .def_property_readonly("lineNumber", &pva::SourceLocation::lineNumber);
  py::class_<pva::DebugContext, std::shared_ptr<pva::DebugContext>>(
      m, "DebugContext", "Where something came from (debug.cbor).")
      .def_property_readonly("id", &pva::DebugContext::id)
      .def_property_readonly("name", &pva::DebugContext::name)
      .def_property_readonly("path", &pva::DebugContext::path)
      .def_property_readonly("json", &pva::DebugContext::json)
      .def_property_readonly("layer", &pva::DebugContext::layer, "JSON text: {\"layer\": ...}")
      .def_property_readonly("layerName", &pva::DebugContext::layerName)
      .def_property_readonly("opType", &pva::DebugContext::opType)
      .def_property_readonly("location", &pva::DebugContext::location)
      .def_property_readonly("parents", [](const pva::DebugContext& c) {
        std::vector<std::shared_ptr<pva::DebugContext>> out;
        for (const auto& p : c.parents())
          out.push_back(mutableContext(p));
        return out;
      });
  py::class_<pva::Operation>(m, "Operation")
      .def_property_readonly("name", &pva::Operation::name)
      .def_property_readonly("type", &pva::Operation::type)
      .def_property_readonly(
          "debugContext", [](const pva::Operation& o) { return mutableContext(o.debugContext()); })
      .def_property_readonly(
          "replacedDebugContext", [](const pva::Operation&) { return py::list(); },
          "Always empty: Tessera's ops replace nothing.")
      .def("programs", [](const pva::Operation& o) { return mutablePrograms(o.programs()); })
      .def_property_readonly("vars", &pva::Operation::vars)
      .def_property_readonly(
          "firstStepIndex", [](const pva::Operation& o) { return stepIndex(o.firstStepIndex()); },
          "First liveness step of its programs; None when none is in the schedule.")
      .def_property_readonly(
          "lastStepIndex", [](const pva::Operation& o) { return stepIndex(o.lastStepIndex()); },
          "Last liveness step of its programs (included); None when none is in the schedule.")
      .def_property_readonly("estimatedCycles", &pva::Operation::estimatedCycles)
      .def_property_readonly("variableBytes", &pva::Operation::variableBytes);
  py::class_<pva::OperationAnalysis>(m, "OperationAnalysis",
                                     "Operations of a report opened with its debug.cbor.")
      .def(py::init<const pva::Report&>(), py::arg("report"))
      .def_property_readonly("operations", &pva::OperationAnalysis::operations)
      .def_property_readonly(
          "operationOfProgram", &pva::OperationAnalysis::operationOfProgram,
          "By program id: the index in operations of the operation owning it, or -1.");
}

} // namespace pvapy
