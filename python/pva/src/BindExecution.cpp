#include "Bind.hpp"

namespace pvapy {

namespace {

/// One row of ExecutionSteps.ipuColumns: a step and one IPU's figures for it.
struct StepIpuRow {
  std::uint64_t index;
  std::uint32_t run;
  std::uint32_t activeTiles;
  std::uint64_t cycles, dataIn, dataOut;
  float tileBalance, activeTileBalance;
  /// activeCycles and allCycles: the cycle counters' ranges over tiles (cyclesFrom/cyclesTo,
  /// min/max), so that every per-step scalar of IpuExecution has a column.
  std::uint64_t activeFromMin, activeFromMax, activeToMin, activeToMax;
  std::uint64_t allFromMin, allFromMax, allToMin, allToMax;
};

/// The steps of `steps` as one numpy structured array (decoded in C++, no object per step):
/// what a loop over a long run wants, at the speed of reading the rows. A step in which `ipu`
/// took no part has zero figures.
py::array ipuColumns(const pva::ExecutionSteps& steps, unsigned ipu) {
  // Registered on first use, not at import: the module imports without numpy.
  static const bool registered = [] {
    PYBIND11_NUMPY_DTYPE(StepIpuRow, index, run, activeTiles, cycles, dataIn, dataOut, tileBalance,
                         activeTileBalance, activeFromMin, activeFromMax, activeToMin, activeToMax,
                         allFromMin, allFromMax, allToMin, allToMax);
    return true;
  }();
  (void)registered;
  py::array_t<StepIpuRow> out(static_cast<py::ssize_t>(steps.size()));
  StepIpuRow* rows = out.mutable_data();
  {
    py::gil_scoped_release noGil; // only C++ objects below
    std::size_t i = 0;
    for (const pva::ExecutionStep& step : steps) {
      StepIpuRow& r = rows[i++];
      r = StepIpuRow{step.index(), step.run(), 0, 0, 0, 0, 0.0f, 0.0f, 0, 0, 0, 0, 0, 0, 0, 0};
      const pva::IpuExecutions ipus = step.ipus();
      for (const pva::IpuExecution& e : ipus) {
        if (e.ipu() != ipu) continue;
        r.activeTiles = e.activeTiles();
        r.cycles = e.cycles();
        r.dataIn = e.dataIn();
        r.dataOut = e.dataOut();
        r.tileBalance = static_cast<float>(e.tileBalance());
        r.activeTileBalance = static_cast<float>(e.activeTileBalance());
        const pva::CycleInterval &active = e.activeCycles(), &all = e.allCycles();
        r.activeFromMin = active.from().min();
        r.activeFromMax = active.from().max();
        r.activeToMin = active.to().min();
        r.activeToMax = active.to().max();
        r.allFromMin = all.from().min();
        r.allFromMax = all.from().max();
        r.allToMin = all.to().min();
        r.allToMax = all.to().max();
        break;
      }
    }
  }
  return std::move(out);
}

} // namespace

void bindExecution(py::module_& m) {
  // Classes made once per step, and their scalar accessors, are bound for speed (a loop over a
  // million steps makes three objects and four calls per step): module-local classes, found by
  // pybind11 in one hash look-up instead of two when it makes an object (see CachedCaster.hpp),
  // and native slots and attributes (see NativeSlots.hpp). Only this module makes or takes them.
  const py::module_local perStep;
  py::class_<pva::CycleRange>(m, "CycleRange")
      .def_property_readonly("min", &pva::CycleRange::min)
      .def_property_readonly("max", &pva::CycleRange::max);
  py::class_<pva::CycleInterval>(
      m, "CycleInterval", "Start (cyclesFrom) and end (cyclesTo) counters, min/max over tiles.")
      .def_property_readonly("cyclesFrom", &pva::CycleInterval::from)
      .def_property_readonly("cyclesTo", &pva::CycleInterval::to);

  py::class_<pva::IpuExecution> ipu(m, "IpuExecution", "One IPU's part of a step.", perStep);
  native::property<&pva::IpuExecution::ipu>(ipu, "ipu", "The IPU's number.");
  native::property<&pva::IpuExecution::cycles>(
      ipu, "cycles", "Cycles the step took on this IPU, waiting for other IPUs included.");
  native::property<&pva::IpuExecution::activeTiles>(ipu, "activeTiles", "Tiles that did work.");
  native::property<&pva::IpuExecution::dataIn>(ipu, "dataIn", "Bytes into the IPU.");
  native::property<&pva::IpuExecution::dataOut>(ipu, "dataOut", "Bytes out of the IPU.");
  native::property<&pva::IpuExecution::tileBalance>(ipu, "tileBalance",
                                                    "Mean over max of the cycles of all tiles.");
  native::property<&pva::IpuExecution::activeTileBalance>(
      ipu, "activeTileBalance", "Mean over max of the cycles of the active tiles.");
  ipu.def_property_readonly("activeCycles", &pva::IpuExecution::activeCycles)
      .def_property_readonly("allCycles", &pva::IpuExecution::allCycles)
      .def("__repr__", [](const pva::IpuExecution& i) {
        return "<pva.IpuExecution IPU " + std::to_string(i.ipu()) + ": " +
               std::to_string(i.cycles()) + " cycles>";
      });

  py::class_<pva::IpuExecutions> ipus(
      m, "IpuExecutions", "The IPUs that took part in a step: a sequence decoded as it is read.",
      perStep);
  ipus.def("__len__", &pva::IpuExecutions::size)
      .def("__getitem__",
           [](const pva::IpuExecutions& l, std::int64_t i) {
             if (i < 0) i += static_cast<std::int64_t>(l.size());
             if (i < 0 || static_cast<std::size_t>(i) >= l.size())
               throw py::index_error("index out of range");
             return l[static_cast<std::size_t>(i)];
           })
      // Copies: the C++ iterator decodes each entry into the same place.
      .def(
          "__iter__",
          [](const pva::IpuExecutions& l) {
            return py::make_iterator<py::return_value_policy::copy>(l.begin(), l.end());
          },
          py::keep_alive<0, 1>())
      .def("__repr__", [](const pva::IpuExecutions& l) {
        return "<pva.IpuExecutions of " + std::to_string(l.size()) + " IPUs>";
      });
  native::subscriptSlot<&pva::IpuExecutions::operator[], &pva::IpuExecutions::size>(ipus);

  py::class_<pva::ComputeSetExecution>(m, "ComputeSetExecution")
      .def_property_readonly("name", &pva::ComputeSetExecution::name)
      .def_property_readonly(
          "cyclesByTile",
          [](const pva::ComputeSetExecution& c) { return toNumpy(c.cyclesByTile()); })
      .def_property_readonly("estimatedCyclesByTile", [](const pva::ComputeSetExecution& c) {
        return toNumpy(c.estimatedCyclesByTile());
      });

  py::class_<pva::ExecutionStep> step(m, "ExecutionStep", "One executed program step.", perStep);
  native::property<&pva::ExecutionStep::index>(step, "index", "The step's number over all runs.");
  native::property<&pva::ExecutionStep::run>(step, "run", "The run it belongs to.");
  native::property<&pva::ExecutionStep::ipus>(step, "ipus",
                                              "The IPUs that took part (IpuExecutions).");
  step.def_property_readonly(
          "program", [](const pva::ExecutionStep& s) { return mutableProgram(s.program()); })
      .def_property_readonly("cyclesByTile",
                             [](const pva::ExecutionStep& s) { return toNumpy(s.cyclesByTile()); })
      .def_property_readonly("computeSets", &pva::ExecutionStep::computeSets);

  py::class_<StepIterator> stepIterator(m, "ExecutionStepIterator", perStep);
  stepIterator.def("__iter__", [](py::object self) { return self; })
      .def("__next__", &StepIterator::next);
  native::iterNextSlot<&StepIterator::next>(stepIterator);

  py::class_<pva::ExecutionSteps>(m, "ExecutionSteps",
                                  "Steps, read from the report in chunks as they are iterated.")
      .def("__len__", &pva::ExecutionSteps::size)
      .def("ipuColumns", &ipuColumns, py::arg("ipu") = 0,
           "Every step's figures for one IPU as a numpy structured array (fields index, run, "
           "activeTiles, "
           "cycles, dataIn, dataOut, tileBalance, activeTileBalance, activeFromMin, activeFromMax, "
           "activeToMin, activeToMax, allFromMin, allFromMax, allToMin, allToMax), decoded "
           "without a Python "
           "object per step. "
           "Zeros where the IPU took no part.")
      .def("__getitem__",
           [](const pva::ExecutionSteps& s, std::int64_t i) {
             if (i < 0) i += static_cast<std::int64_t>(s.size());
             if (i < 0 || static_cast<std::size_t>(i) >= s.size())
               throw py::index_error("step index out of range");
             return s.at(static_cast<std::size_t>(i));
           })
      .def("__iter__", [](const pva::ExecutionSteps& s) { return StepIterator(s); })
      .def("__repr__", [](const pva::ExecutionSteps& s) {
        std::string r = "<pva.ExecutionSteps of " + std::to_string(s.size()) + " steps: [";
        std::size_t shown = 0;
        for (auto it = s.begin(); it != s.end() && shown < listPrintLength(); ++it, ++shown)
          r += (shown ? ", " : "") + it->program()->name();
        return r + (shown < s.size() ? ", ...]>" : "]>");
      });

  py::class_<pva::TileCycleTotals> totals(m, "TileCycleTotals",
                                          "Cycles per tile by what they were spent on.");
  py::enum_<pva::TileCycleTotals::Kind>(totals, "Kind")
      .value("Compute", pva::TileCycleTotals::Kind::Compute)
      .value("InternalExchange", pva::TileCycleTotals::Kind::InternalExchange)
      .value("GlobalExchange", pva::TileCycleTotals::Kind::GlobalExchange)
      .value("StreamCopy", pva::TileCycleTotals::Kind::StreamCopy)
      .value("Sync", pva::TileCycleTotals::Kind::Sync);
  totals
      .def("byTile",
           [](const pva::TileCycleTotals& t, pva::TileCycleTotals::Kind k) {
             return toNumpy(std::vector<std::uint64_t>(t.byTile(k)));
           })
      .def("total",
           py::overload_cast<pva::TileCycleTotals::Kind>(&pva::TileCycleTotals::total, py::const_))
      .def("total", py::overload_cast<>(&pva::TileCycleTotals::total, py::const_))
      .def_property_readonly("hasComputeExcludingIdleThreads",
                             &pva::TileCycleTotals::hasComputeExcludingIdleThreads)
      .def("computeExcludingIdleThreadsByTile",
           [](const pva::TileCycleTotals& t) {
             return toNumpy(std::vector<std::uint64_t>(t.computeExcludingIdleThreadsByTile()));
           })
      .def("totalComputeExcludingIdleThreads",
           &pva::TileCycleTotals::totalComputeExcludingIdleThreads);

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
  py::class_<pva::TotalCycles>(m, "TotalCycles")
      .def_property_readonly("total", &pva::TotalCycles::total);
  py::class_<pva::Block>(m, "Block", "A lightweight-profiling record.")
      .def_property_readonly("program",
                             [](const pva::Block& b) { return mutableProgram(b.program()); })
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
