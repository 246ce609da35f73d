// The libpvti Python module (libpvti.libpvti_core): declarations only. Context managers and the
// instrumentation decorators are plain Python in libpvti/__init__.py.
#include <cstring>
#include <pvti/pvti.hpp>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

namespace {

/// Channels live for the whole process, like the C++ globals they mirror: the session keeps a
/// pointer to each, so a channel made from Python is never deleted.
pvti::TraceChannel* createTraceChannel(const std::string& name, bool enabled) {
  char* owned = new char[name.size() + 1];
  std::memcpy(owned, name.c_str(), name.size() + 1);
  return new pvti::TraceChannel(owned, enabled);
}

} // namespace

PYBIND11_MODULE(libpvti_core, m) {
  m.doc() = "Tessera's libpvti: record host trace events, series and heatmaps into .pvti files.";
  py::class_<pvti::TraceChannel, std::unique_ptr<pvti::TraceChannel, py::nodelete>>(m,
                                                                                    "TraceChannel")
      .def_property_readonly("name",
                             [](const pvti::TraceChannel& c) { return std::string(c.name); })
      .def_property_readonly("enabled", [](const pvti::TraceChannel& c) { return c.enabled; })
      .def("__repr__", [](const pvti::TraceChannel& c) {
        return "<libpvti.TraceChannel " + std::string(c.name) + ">";
      });
  m.def("createTraceChannel", &createTraceChannel, py::arg("name"), py::arg("enabled") = true,
        py::return_value_policy::reference,
        "Makes and registers a channel (it lives until the process ends).");
  m.attr("traceDrivers") = py::cast(&pvti::traceDrivers, py::return_value_policy::reference);
  m.attr("tracePoplar") = py::cast(&pvti::tracePoplar, py::return_value_policy::reference);
  m.attr("traceFramework") = py::cast(&pvti::traceFramework, py::return_value_policy::reference);

  m.def("_begin",
        [](pvti::TraceChannel* c, const std::string& label) { pvti::Tracepoint::begin(c, label); });
  m.def("_end",
        [](pvti::TraceChannel* c, const std::string& label) { pvti::Tracepoint::end(c, label); });
  m.def("_event",
        [](pvti::TraceChannel* c, const std::string& label) { pvti::Tracepoint::event(c, label); });
  m.def("_beginWithMetadata",
        [](pvti::TraceChannel* c, const std::string& label, const std::string& json) {
          pvti::Metadata md = pvti::createJsonMetadata(json);
          pvti::Tracepoint::begin(c, label.data(), label.size(), &md);
        });
  m.def("_eventWithMetadata",
        [](pvti::TraceChannel* c, const std::string& label, const std::string& json) {
          pvti::Metadata md = pvti::createJsonMetadata(json);
          pvti::Tracepoint::event(c, label.data(), label.size(), &md);
        });

  py::class_<pvti::Series>(m, "Series")
      .def("add", &pvti::Series::add, py::arg("value"), "Adds a value at the current time.");
  py::class_<pvti::Graph>(m, "Graph", "A line graph of values over time.")
      .def(py::init<const std::string&, const std::string&, bool>(), py::arg("name"),
           py::arg("unit") = "", py::arg("enable") = true)
      .def("addSeries", &pvti::Graph::addSeries, py::arg("name"));
  py::class_<pvti::HeatmapDouble>(m, "HeatmapDouble",
                                  "A histogram over time with the given bin edges.")
      .def(py::init<const std::string&, const std::vector<double>&, const std::string&>(),
           py::arg("name"), py::arg("bin_edges"), py::arg("unit") = "")
      .def("add", py::overload_cast<const std::vector<double>&>(&pvti::HeatmapDouble::add),
           py::arg("values"));
  py::class_<pvti::HeatmapInt64>(m, "HeatmapInt64")
      .def(py::init<const std::string&, const std::vector<std::int64_t>&, const std::string&>(),
           py::arg("name"), py::arg("bin_edges"), py::arg("unit") = "")
      .def("add", py::overload_cast<const std::vector<std::int64_t>&>(&pvti::HeatmapInt64::add),
           py::arg("values"));

  m.def("enableTraceChannel", &pvti::enableTraceChannel, py::arg("channel"));
  m.def("disableTraceChannel", &pvti::disableTraceChannel, py::arg("channel"));
  m.def("checkTraceChannel", &pvti::checkTraceChannel, py::arg("channel"));
  m.def(
      "listTraceChannel",
      [] {
        std::vector<py::list> out;
        for (auto* c : pvti::listTraceChannel()) {
          py::list pair;
          pair.append(std::string(c->name));
          pair.append(c->enabled);
          out.push_back(pair);
        }
        return out;
      },
      "Every channel as [name, enabled].");
  m.def("getCurrentTraceFilename", &pvti::getCurrentTraceFilename);
  m.def("closeTrace", &pvti::closeTrace);
  m.def(
      "setThreadName", [](const std::string& name) { pvti::ThreadName n(name); }, py::arg("name"));
}
