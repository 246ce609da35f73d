#include "Bind.hpp"

namespace pvapy {

void bindExecution(py::module_& m) {
  py::class_<pva::CycleRange>(m, "CycleRange")
      .def_property_readonly("min", &pva::CycleRange::min)
      .def_property_readonly("max", &pva::CycleRange::max);
  py::class_<pva::CycleInterval>(m, "CycleInterval", "Start (cyclesFrom) and end (cyclesTo) counters, min/max over tiles.")
      .def_property_readonly("cyclesFrom", &pva::CycleInterval::from)
      .def_property_readonly("cyclesTo", &pva::CycleInterval::to);
  py::class_<pva::IpuExecution>(m, "IpuExecution", "One IPU's part of a step.")
      .def_property_readonly("ipu", &pva::IpuExecution::ipu)
      .def_property_readonly("cycles", &pva::IpuExecution::cycles)
      .def_property_readonly("activeCycles", &pva::IpuExecution::activeCycles)
      .def_property_readonly("allCycles", &pva::IpuExecution::allCycles)
      .def_property_readonly("activeTiles", &pva::IpuExecution::activeTiles)
      .def_property_readonly("dataIn", &pva::IpuExecution::dataIn)
      .def_property_readonly("dataOut", &pva::IpuExecution::dataOut)
      .def_property_readonly("tileBalance", &pva::IpuExecution::tileBalance)
      .def_property_readonly("activeTileBalance", &pva::IpuExecution::activeTileBalance);
  py::class_<pva::ComputeSetExecution>(m, "ComputeSetExecution")
      .def_property_readonly("name", &pva::ComputeSetExecution::name)
      .def_property_readonly("cyclesByTile", [](const pva::ComputeSetExecution& c) { return toNumpy(c.cyclesByTile()); })
      .def_property_readonly("estimatedCyclesByTile",
                             [](const pva::ComputeSetExecution& c) { return toNumpy(c.estimatedCyclesByTile()); });
  py::class_<pva::ExecutionStep>(m, "ExecutionStep", "One executed program step.")
      .def_property_readonly("index", &pva::ExecutionStep::index)
      .def_property_readonly("run", &pva::ExecutionStep::run)
      .def_property_readonly("program", [](const pva::ExecutionStep& s) { return mutableProgram(s.program()); })
      .def_property_readonly("ipus", &pva::ExecutionStep::ipus)
      .def_property_readonly("cyclesByTile", [](const pva::ExecutionStep& s) { return toNumpy(s.cyclesByTile()); })
      .def_property_readonly("computeSets", &pva::ExecutionStep::computeSets);
  py::class_<pva::ExecutionSteps>(m, "ExecutionSteps", "Steps, read from the report in chunks as they are iterated.")
      .def("__len__", &pva::ExecutionSteps::size)
      .def("__getitem__",
           [](const pva::ExecutionSteps& s, std::int64_t i) {
             if (i < 0) i += static_cast<std::int64_t>(s.size());
             if (i < 0 || static_cast<std::size_t>(i) >= s.size()) throw py::index_error("step index out of range");
             return s.at(static_cast<std::size_t>(i));
           })
      // Copies: a step handed to Python must outlive the chunk the iterator reads next.
      .def("__iter__", [](const pva::ExecutionSteps& s) { return py::make_iterator<py::return_value_policy::copy>(s.begin(), s.end()); },
           py::keep_alive<0, 1>())
      .def("__repr__", [](const pva::ExecutionSteps& s) {
        std::string r = "<pva.ExecutionSteps of " + std::to_string(s.size()) + " steps: [";
        std::size_t shown = 0;
        for (auto it = s.begin(); it != s.end() && shown < listPrintLength(); ++it, ++shown)
          r += (shown ? ", " : "") + it->program()->name();
        return r + (shown < s.size() ? ", ...]>" : "]>");
      });

  py::class_<pva::TileCycleTotals> totals(m, "TileCycleTotals", "Cycles per tile by what they were spent on.");
  py::enum_<pva::TileCycleTotals::Kind>(totals, "Kind")
      .value("Compute", pva::TileCycleTotals::Kind::Compute)
      .value("InternalExchange", pva::TileCycleTotals::Kind::InternalExchange)
      .value("GlobalExchange", pva::TileCycleTotals::Kind::GlobalExchange)
      .value("StreamCopy", pva::TileCycleTotals::Kind::StreamCopy)
      .value("Sync", pva::TileCycleTotals::Kind::Sync);
  totals.def("byTile", [](const pva::TileCycleTotals& t, pva::TileCycleTotals::Kind k) { return toNumpy(std::vector<std::uint64_t>(t.byTile(k))); })
      .def("total", py::overload_cast<pva::TileCycleTotals::Kind>(&pva::TileCycleTotals::total, py::const_))
      .def("total", py::overload_cast<>(&pva::TileCycleTotals::total, py::const_));

  py::class_<pva::MicrosecondInterval>(m, "MicrosecondInterval")
      .def_property_readonly("start", &pva::MicrosecondInterval::start)
      .def_property_readonly("end", &pva::MicrosecondInterval::end);
  py::class_<pva::Run>(m, "Run", "One profiled Engine::run.")
      .def_property_readonly("index", &pva::Run::index)
      .def_property_readonly("name", &pva::Run::name)
      .def_property_readonly("programIndex", &pva::Run::programIndex)
      .def_property_readonly("steps", &pva::Run::steps)
      .def_property_readonly("microseconds", &pva::Run::microseconds)
      .def_property_readonly("cycles", &pva::Run::cycles)
      .def_property_readonly("tileCycleTotals", &pva::Run::tileCycleTotals)
      .def("__repr__", [](const pva::Run& r) { return "<pva.Run " + r.name() + ">"; });
  py::class_<pva::TotalCycles>(m, "TotalCycles").def_property_readonly("total", &pva::TotalCycles::total);
  py::class_<pva::Block>(m, "Block", "A lightweight-profiling record.")
      .def_property_readonly("program", [](const pva::Block& b) { return mutableProgram(b.program()); })
      .def_property_readonly("tile", &pva::Block::tile)
      .def_property_readonly("cyclesFrom", &pva::Block::cyclesFrom)
      .def_property_readonly("cyclesTo", &pva::Block::cyclesTo)
      .def_property_readonly("isCommon", &pva::Block::isCommon)
      .def_property_readonly("isStreamCopy", &pva::Block::isStreamCopy)
      .def_property_readonly("isBlockFlush", &pva::Block::isBlockFlush)
      .def_property_readonly("isOverflow", &pva::Block::isOverflow)
      .def_property_readonly("run", &pva::Block::run);
  py::class_<pva::ExecutionReport>(m, "ExecutionReport", "What happened when the engine ran.")
      .def_property_readonly("runs", &pva::ExecutionReport::runs)
      .def_property_readonly("steps", &pva::ExecutionReport::steps)
      .def_property_readonly("totalCycles", &pva::ExecutionReport::totalCycles)
      .def_property_readonly("tileCycleTotals", &pva::ExecutionReport::tileCycleTotals)
      .def("blocks", &pva::ExecutionReport::blocks, py::arg("tile"));
}

} // namespace pvapy
