#include "Bind.hpp"

#include <pybind11/functional.h>
#include <sstream>

namespace pvapy {

void bindTrace(py::module_& m) {
  py::class_<pva::Event>(m, "Event", "A duration event of a host trace.")
      .def_property_readonly("label", &pva::Event::label)
      .def_property_readonly("channel", &pva::Event::channel)
      .def_property_readonly("timestamp", &pva::Event::timestamp, "Start, µs since the Unix epoch.")
      .def_property_readonly("duration", &pva::Event::duration, "Microseconds.")
      .def_property_readonly("finished", &pva::Event::finished)
      .def_property_readonly("depth", &pva::Event::depth)
      .def_property_readonly("metadata", &pva::Event::metadata)
      .def("children", &pva::Event::children, "Nested events.")
      .def("__repr__", [](const pva::Event& e) {
        return "<pva.Event " + e.label() + " " + std::to_string(e.duration()) + " us>";
      });
  py::class_<pva::InstantEvent> instant(m, "InstantEvent");
  py::enum_<pva::InstantEvent::Kind>(instant, "Kind")
      .value("Instant", pva::InstantEvent::Kind::Instant)
      .value("UnmatchedEnd", pva::InstantEvent::Kind::UnmatchedEnd)
      .value("MismatchedEnd", pva::InstantEvent::Kind::MismatchedEnd);
  instant.def_property_readonly("label", &pva::InstantEvent::label)
      .def_property_readonly("channel", &pva::InstantEvent::channel)
      .def_property_readonly("timestamp", &pva::InstantEvent::timestamp)
      .def_property_readonly("kind", &pva::InstantEvent::kind)
      .def_property_readonly("metadata", &pva::InstantEvent::metadata);
  py::class_<pva::Thread>(m, "Thread")
      .def_property_readonly("tid", &pva::Thread::tid)
      .def_property_readonly("name", &pva::Thread::name)
      .def_property_readonly("events", &pva::Thread::events)
      .def_property_readonly("instantEvents", &pva::Thread::instantEvents);
  py::class_<pva::SeriesSample>(m, "SeriesSample")
      .def_readonly("timestamp", &pva::SeriesSample::timestamp)
      .def_readonly("value", &pva::SeriesSample::value);
  py::class_<pva::TraceSeries>(m, "TraceSeries")
      .def_property_readonly("name", &pva::TraceSeries::name)
      .def_property_readonly("samples", &pva::TraceSeries::samples);
  py::class_<pva::TraceGraph>(m, "TraceGraph")
      .def_property_readonly("name", &pva::TraceGraph::name)
      .def_property_readonly("unit", &pva::TraceGraph::unit)
      .def_property_readonly("series", &pva::TraceGraph::series);
  py::class_<pva::HeatmapSample>(m, "HeatmapSample")
      .def_readonly("timestamp", &pva::HeatmapSample::timestamp)
      .def_readonly("bins", &pva::HeatmapSample::bins);
  py::class_<pva::TraceHeatmap>(m, "TraceHeatmap")
      .def_property_readonly("name", &pva::TraceHeatmap::name)
      .def_property_readonly("unit", &pva::TraceHeatmap::unit)
      .def_property_readonly("binEdges", &pva::TraceHeatmap::binEdges)
      .def_property_readonly("samples", &pva::TraceHeatmap::samples);
  py::class_<pva::Process>(m, "Process")
      .def_property_readonly("pid", &pva::Process::pid)
      .def_property_readonly("name", &pva::Process::name)
      .def_property_readonly("threads", &pva::Process::threads)
      .def("thread", &pva::Process::thread, py::arg("tid"))
      .def_property_readonly("graphs", &pva::Process::graphs)
      .def_property_readonly("heatmaps", &pva::Process::heatmaps);
  py::class_<pva::Trace>(m, "Trace", "A host trace (.pvti), read with pva.openTrace.")
      .def_property_readonly("processes", &pva::Trace::processes)
      .def("process", &pva::Trace::process, py::arg("pid"))
      .def_property_readonly("path", &pva::Trace::path)
      .def(
          "exportChromeTrace",
          [](const pva::Trace& t) {
            std::ostringstream out;
            pva::exportChromeTrace(t, out);
            return out.str();
          },
          "The trace as Chrome/Perfetto Trace Event Format JSON text.");
  m.def("openTrace", py::overload_cast<const std::string&>(&pva::openTrace), py::arg("path"),
        "Opens a .pvti host trace.");
  m.def("openTrace",
        py::overload_cast<const std::string&, const pva::LoadProgress&>(&pva::openTrace),
        py::arg("path"), py::arg("progress"),
        "Opens a .pvti host trace, calling progress(fractionDone) as it loads; progress returning "
        "False stops the load with pva.CancelledError.");
}

} // namespace pvapy
