// pva.summarize, pva.summarizeMemory, pva.analyseExecution, pva.operationTileFigures and
// pva.peakLiveBytes: the analysis
// layer's values, read-only, exactly as the C++ API gives them.
#include "Bind.hpp"

#include <pva/Analysis.hpp>
#include <pva/OperationTiles.hpp>

namespace pvapy {

namespace {

template <class T, class M> void readonly(py::class_<T>& c, const char* name, M T::*member) {
  c.def_readonly(name, member);
}

} // namespace

void bindAnalysis(py::module_& m) {
  py::class_<pva::Scope> scope(m, "Scope",
                               "What a group of figures covers: which runs, which replicas.");
  py::enum_<pva::Scope::Runs>(scope, "Runs")
      .value("NotApplicable", pva::Scope::Runs::NotApplicable)
      .value("OneRun", pva::Scope::Runs::OneRun)
      .value("AllRuns", pva::Scope::Runs::AllRuns);
  py::enum_<pva::Scope::Replicas>(scope, "Replicas")
      .value("OneReplica", pva::Scope::Replicas::OneReplica)
      .value("AllReplicas", pva::Scope::Replicas::AllReplicas);
  readonly(scope, "runs", &pva::Scope::runs);
  readonly(scope, "replicas", &pva::Scope::replicas);
  readonly(scope, "runName", &pva::Scope::runName);
  scope.def("describe", &pva::Scope::describe).def("__str__", &pva::Scope::describe);

  py::class_<pva::GraphCounts> graph(m, "GraphCounts");
  readonly(graph, "vertices", &pva::GraphCounts::vertices);
  readonly(graph, "computeSets", &pva::GraphCounts::computeSets);
  readonly(graph, "variables", &pva::GraphCounts::variables);
  readonly(graph, "edges", &pva::GraphCounts::edges);
  readonly(graph, "programs", &pva::GraphCounts::programs);
  readonly(graph, "programSteps", &pva::GraphCounts::programSteps);
  readonly(graph, "livenessSteps", &pva::GraphCounts::livenessSteps);

  py::class_<pva::TileBytes> tile(m, "TileBytes");
  readonly(tile, "tile", &pva::TileBytes::tile);
  readonly(tile, "ipu", &pva::TileBytes::ipu);
  readonly(tile, "bytes", &pva::TileBytes::bytes);

  py::class_<pva::AllocatedBytes> allocated(m, "AllocatedBytes");
  readonly(allocated, "name", &pva::AllocatedBytes::name);
  readonly(allocated, "nonOverlapped", &pva::AllocatedBytes::nonOverlapped);
  readonly(allocated, "overlapped", &pva::AllocatedBytes::overlapped);
  allocated.def_property_readonly("total", &pva::AllocatedBytes::total);
  allocated.def_property_readonly("regionBytes", [](const pva::AllocatedBytes& a) {
    return std::vector<std::uint64_t>(std::begin(a.regionBytes), std::end(a.regionBytes));
  });

  py::class_<pva::PeakLiveness> peak(m, "PeakLiveness");
  readonly(peak, "known", &pva::PeakLiveness::known);
  readonly(peak, "bytes", &pva::PeakLiveness::bytes);
  readonly(peak, "notAlwaysLiveBytes", &pva::PeakLiveness::notAlwaysLiveBytes);
  readonly(peak, "step", &pva::PeakLiveness::step);
  readonly(peak, "program", &pva::PeakLiveness::program);

  py::class_<pva::MemorySummary> memory(m, "MemorySummary");
  readonly(memory, "scope", &pva::MemorySummary::scope);
  readonly(memory, "numTiles", &pva::MemorySummary::numTiles);
  readonly(memory, "tilesUsed", &pva::MemorySummary::tilesUsed);
  readonly(memory, "tilesOutOfMemory", &pva::MemorySummary::tilesOutOfMemory);
  readonly(memory, "capacityBytes", &pva::MemorySummary::capacityBytes);
  readonly(memory, "includingGapsBytes", &pva::MemorySummary::includingGapsBytes);
  readonly(memory, "excludingGapsBytes", &pva::MemorySummary::excludingGapsBytes);
  readonly(memory, "allocatedBytes", &pva::MemorySummary::allocatedBytes);
  readonly(memory, "overflowedBytes", &pva::MemorySummary::overflowedBytes);
  readonly(memory, "largestTileIncludingGaps", &pva::MemorySummary::largestTileIncludingGaps);
  readonly(memory, "largestTileExcludingGaps", &pva::MemorySummary::largestTileExcludingGaps);
  readonly(memory, "alwaysLiveBytes", &pva::MemorySummary::alwaysLiveBytes);
  readonly(memory, "peakLiveness", &pva::MemorySummary::peakLiveness);
  readonly(memory, "categories", &pva::MemorySummary::categories);
  readonly(memory, "regions", &pva::MemorySummary::regions);
  readonly(memory, "binStartBytes", &pva::MemorySummary::binStartBytes);
  readonly(memory, "binWidthBytes", &pva::MemorySummary::binWidthBytes);
  readonly(memory, "tilesPerBin", &pva::MemorySummary::tilesPerBin);

  using Kind = pva::TileCycleTotals::Kind;
  py::class_<pva::CycleKinds> kinds(m, "CycleKinds",
                                    "Tile cycles by kind, summed over the tiles of one replica.");
  kinds.def("of", &pva::CycleKinds::of, py::arg("kind"))
      .def("shareOfTileCycles", &pva::CycleKinds::shareOfTileCycles, py::arg("kind"))
      .def_property_readonly("total", &pva::CycleKinds::total)
      .def_static("label", &pva::CycleKinds::label, py::arg("kind"))
      .def("asDict", [](const pva::CycleKinds& k) {
        py::dict d;
        for (std::size_t i = 0; i < pva::CycleKinds::numKinds; ++i)
          d[py::str(pva::TileCycleTotals::kindName(static_cast<Kind>(i)))] = k.cycles[i];
        return d;
      });

  py::class_<pva::RunSummary> run(m, "RunSummary");
  readonly(run, "scope", &pva::RunSummary::scope);
  readonly(run, "index", &pva::RunSummary::index);
  readonly(run, "name", &pva::RunSummary::name);
  readonly(run, "steps", &pva::RunSummary::steps);
  readonly(run, "cycles", &pva::RunSummary::cycles);
  readonly(run, "hostMicroseconds", &pva::RunSummary::hostMicroseconds);
  readonly(run, "tileCycles", &pva::RunSummary::tileCycles);
  readonly(run, "streamCopyCycles", &pva::RunSummary::streamCopyCycles);

  py::class_<pva::ExecutionSummary> execution(m, "ExecutionSummary");
  readonly(execution, "scope", &pva::ExecutionSummary::scope);
  readonly(execution, "profiled", &pva::ExecutionSummary::profiled);
  readonly(execution, "steps", &pva::ExecutionSummary::steps);
  readonly(execution, "totalCycles", &pva::ExecutionSummary::totalCycles);
  readonly(execution, "tileCycles", &pva::ExecutionSummary::tileCycles);
  readonly(execution, "runs", &pva::ExecutionSummary::runs);
  readonly(execution, "tilesPerReplica", &pva::ExecutionSummary::tilesPerReplica);
  readonly(execution, "hasComputeExcludingIdleThreads",
           &pva::ExecutionSummary::hasComputeExcludingIdleThreads);
  readonly(execution, "computeExcludingIdleThreads",
           &pva::ExecutionSummary::computeExcludingIdleThreads);
  readonly(execution, "hasStreamCopyCycles", &pva::ExecutionSummary::hasStreamCopyCycles);
  readonly(execution, "streamCopyCycles", &pva::ExecutionSummary::streamCopyCycles);
  execution.def("tileAverageCycles", &pva::ExecutionSummary::tileAverageCycles, py::arg("kind"))
      .def("tileAverageShareOfTotal", &pva::ExecutionSummary::tileAverageShareOfTotal,
           py::arg("kind"))
      .def("tileAverageComputeExcludingIdleThreads",
           &pva::ExecutionSummary::tileAverageComputeExcludingIdleThreads)
      .def("tileAverageComputeExcludingIdleThreadsShareOfTotal",
           &pva::ExecutionSummary::tileAverageComputeExcludingIdleThreadsShareOfTotal);

  py::class_<pva::VertexCycleRuleFigures> ruleFigures(
      m, "VertexCycleRuleFigures",
      "What one cycle rule costed: its vertices and vertex cycles, and their shares.");
  readonly(ruleFigures, "rule", &pva::VertexCycleRuleFigures::rule);
  readonly(ruleFigures, "label", &pva::VertexCycleRuleFigures::label);
  readonly(ruleFigures, "vertices", &pva::VertexCycleRuleFigures::vertices);
  readonly(ruleFigures, "shareOfVertices", &pva::VertexCycleRuleFigures::shareOfVertices);
  readonly(ruleFigures, "cycles", &pva::VertexCycleRuleFigures::cycles);
  readonly(ruleFigures, "shareOfVertexCycles", &pva::VertexCycleRuleFigures::shareOfVertexCycles);
  ruleFigures.def("__repr__", [](const pva::VertexCycleRuleFigures& f) {
    return "<pva.VertexCycleRuleFigures " + f.rule + ": " + std::to_string(f.vertices) +
           " vertices, " + std::to_string(f.cycles) + " cycles>";
  });
  py::class_<pva::VertexCycleSummary> vertexCycles(
      m, "VertexCycleSummary",
      "Which rule costed the vertices, all runs, one replica (docs/profiling.md).");
  readonly(vertexCycles, "scope", &pva::VertexCycleSummary::scope);
  readonly(vertexCycles, "policy", &pva::VertexCycleSummary::policy);
  readonly(vertexCycles, "hasRules", &pva::VertexCycleSummary::hasRules);
  readonly(vertexCycles, "hasCycles", &pva::VertexCycleSummary::hasCycles);
  readonly(vertexCycles, "vertices", &pva::VertexCycleSummary::vertices);
  readonly(vertexCycles, "cycles", &pva::VertexCycleSummary::cycles);
  readonly(vertexCycles, "rules", &pva::VertexCycleSummary::rules);
  m.def("vertexCycleRuleLabel", &pva::vertexCycleRuleLabel, py::arg("rule"),
        "A cycle rule's stored name for people.");

  py::class_<pva::ReportSummary> summary(m, "ReportSummary");
  readonly(summary, "target", &pva::ReportSummary::target);
  readonly(summary, "graph", &pva::ReportSummary::graph);
  readonly(summary, "memory", &pva::ReportSummary::memory);
  readonly(summary, "execution", &pva::ReportSummary::execution);
  readonly(summary, "vertexCycleRules", &pva::ReportSummary::vertexCycleRules);
  readonly(summary, "vertexCycles", &pva::ReportSummary::vertexCycles);

  py::class_<pva::ProgramFigures> program(m, "ProgramFigures");
  readonly(program, "cycles", &pva::ProgramFigures::cycles);
  readonly(program, "executions", &pva::ProgramFigures::executions);
  readonly(program, "firstStep", &pva::ProgramFigures::firstStep);
  readonly(program, "tileBalance", &pva::ProgramFigures::tileBalance);
  readonly(program, "parallelEfficiency", &pva::ProgramFigures::parallelEfficiency);

  py::class_<pva::IpuTraffic> traffic(m, "IpuTraffic");
  readonly(traffic, "ipu", &pva::IpuTraffic::ipu);
  readonly(traffic, "streamCopyInBytes", &pva::IpuTraffic::streamCopyInBytes);
  readonly(traffic, "streamCopyOutBytes", &pva::IpuTraffic::streamCopyOutBytes);
  readonly(traffic, "globalExchangeInBytes", &pva::IpuTraffic::globalExchangeInBytes);
  readonly(traffic, "globalExchangeOutBytes", &pva::IpuTraffic::globalExchangeOutBytes);

  py::class_<pva::StreamCopyCycles> streamCopy(m, "StreamCopyCycles");
  readonly(streamCopy, "host", &pva::StreamCopyCycles::host);
  readonly(streamCopy, "remoteBuffer", &pva::StreamCopyCycles::remoteBuffer);
  readonly(streamCopy, "mixed", &pva::StreamCopyCycles::mixed);
  readonly(streamCopy, "unknown", &pva::StreamCopyCycles::unknown);
  streamCopy.def_property_readonly("total", &pva::StreamCopyCycles::total);

  py::class_<pva::StreamCopySummary> streamCopies(m, "StreamCopySummary");
  readonly(streamCopies, "runs", &pva::StreamCopySummary::runs);
  readonly(streamCopies, "allRuns", &pva::StreamCopySummary::allRuns);
  readonly(streamCopies, "stored", &pva::StreamCopySummary::stored);

  py::class_<pva::SpanFigures> span(m, "SpanFigures");
  readonly(span, "scope", &pva::SpanFigures::scope);
  readonly(span, "steps", &pva::SpanFigures::steps);
  readonly(span, "cycles", &pva::SpanFigures::cycles);
  readonly(span, "lengthCycles", &pva::SpanFigures::lengthCycles);
  readonly(span, "cyclesByIpu", &pva::SpanFigures::cyclesByIpu);
  readonly(span, "tileBalance", &pva::SpanFigures::tileBalance);
  readonly(span, "parallelEfficiency", &pva::SpanFigures::parallelEfficiency);
  readonly(span, "programs", &pva::SpanFigures::programs);
  readonly(span, "computeSets", &pva::SpanFigures::computeSets);
  readonly(span, "ipus", &pva::SpanFigures::ipus);
  readonly(span, "streamCopyCycles", &pva::SpanFigures::streamCopyCycles);
  readonly(span, "tileCyclesByIpu", &pva::SpanFigures::tileCyclesByIpu);

  py::class_<pva::ExecutionAnalysis> analysis(m, "ExecutionAnalysis");
  readonly(analysis, "runs", &pva::ExecutionAnalysis::runs);
  readonly(analysis, "allRuns", &pva::ExecutionAnalysis::allRuns);

  py::class_<pva::OperationFigures> operation(m, "OperationFigures");
  readonly(operation, "codeBytes", &pva::OperationFigures::codeBytes);
  readonly(operation, "vertices", &pva::OperationFigures::vertices);
  readonly(operation, "computeSets", &pva::OperationFigures::computeSets);
  readonly(operation, "exchangeBytes", &pva::OperationFigures::exchangeBytes);
  readonly(operation, "alwaysLiveBytes", &pva::OperationFigures::alwaysLiveBytes);
  readonly(operation, "peakNotAlwaysLiveBytes", &pva::OperationFigures::peakNotAlwaysLiveBytes);
  readonly(operation, "estimatedFlops", &pva::OperationFigures::estimatedFlops);
  readonly(operation, "verticesWithoutFlopEstimate",
           &pva::OperationFigures::verticesWithoutFlopEstimate);

  // Per-tile figures as numpy arrays (copied: the struct is a value); estimatedFlops is None,
  // not an empty array, when the report has no FLOP estimates per tile.
  py::class_<pva::OperationTileFigures> opTiles(m, "OperationTileFigures");
  readonly(opTiles, "scope", &pva::OperationTileFigures::scope);
  opTiles
      .def_property_readonly("codeBytes",
                             [](const pva::OperationTileFigures& f) {
                               return toNumpy(std::vector<std::uint64_t>(f.codeBytes));
                             })
      .def_property_readonly("vertices",
                             [](const pva::OperationTileFigures& f) {
                               return toNumpy(std::vector<std::uint64_t>(f.vertices));
                             })
      .def_property_readonly("estimatedCycles",
                             [](const pva::OperationTileFigures& f) {
                               return toNumpy(std::vector<std::uint64_t>(f.estimatedCycles));
                             })
      .def_property_readonly("cycles",
                             [](const pva::OperationTileFigures& f) {
                               return toNumpy(std::vector<std::uint64_t>(f.cycles));
                             })
      .def_property_readonly("estimatedFlops",
                             [](const pva::OperationTileFigures& f) -> py::object {
                               if (f.estimatedFlops.empty()) return py::none();
                               return toNumpy(std::vector<std::uint64_t>(f.estimatedFlops));
                             });
  readonly(opTiles, "executedSteps", &pva::OperationTileFigures::executedSteps);
  readonly(opTiles, "profiled", &pva::OperationTileFigures::profiled);

  py::class_<pva::OperationExecution> opExecution(m, "OperationExecution");
  readonly(opExecution, "cycles", &pva::OperationExecution::cycles);
  readonly(opExecution, "steps", &pva::OperationExecution::steps);

  py::class_<pva::LiveRange> range(m, "LiveRange");
  range.def(py::init([](std::uint64_t from, std::uint64_t to, std::uint64_t bytes) {
              return pva::LiveRange{from, to, bytes};
            }),
            py::arg("from_"), py::arg("to"), py::arg("bytes"));
  readonly(range, "from_", &pva::LiveRange::from);
  readonly(range, "to", &pva::LiveRange::to);
  readonly(range, "bytes", &pva::LiveRange::bytes);

  m.def("summarize", &pva::summarize, py::arg("report"), py::call_guard<py::gil_scoped_release>(),
        "The report's headline figures: target, graph counts, memory, liveness peak, cycles by "
        "kind, runs.");
  m.def("vertexCyclePolicy", &pva::vertexCyclePolicy, py::arg("target"),
        "How the target's type decides a vertex's cycles: an IPU Model's declared estimates "
        "first, or the hardware's measurements.");
  m.def(
      "summarizeMemory",
      [](const pva::Report& r, const pva::Ipu& ipu) {
        return pva::summarizeMemory(r, ipu.tiles());
      },
      py::arg("report"), py::arg("ipu"), py::call_guard<py::gil_scoped_release>(),
      "The memory figures of one IPU's tiles.");
  m.def(
      "analyseExecution", [](const pva::Report& r) { return pva::analyseExecution(r); },
      py::arg("report"), py::call_guard<py::gil_scoped_release>(),
      "Per-program and per-compute-set cycles, tile balance and IPU traffic, per run and over all "
      "runs.");
  m.def("summarizeStreamCopies", &pva::summarizeStreamCopies, py::arg("report"),
        py::call_guard<py::gil_scoped_release>(),
        "Stream-copy steps' cycles by destination per run and over all runs: stored with each run "
        "(format 1.7 on), else from analyseExecution's pass over the steps.");
  m.def("analyseSteps", &pva::analyseSteps, py::arg("report"), py::arg("firstStep"),
        py::arg("count"), py::call_guard<py::gil_scoped_release>(),
        "The figures of a stretch of steps (indices over all runs), counted as analyseExecution "
        "counts a run's.");
  m.def("operationExecution", &pva::operationExecution, py::arg("operations"), py::arg("span"),
        "Cycles and steps of a group of operations in a span, each program once.");
  m.def("operationFigures", &pva::operationFigures, py::arg("operation"),
        "Code, vertices, compute sets and exchanged bytes of an operation's programs, and its live "
        "bytes.");
  m.def("operationTileFigures", &pva::operationTileFigures, py::arg("report"), py::arg("operation"),
        py::call_guard<py::gil_scoped_release>(),
        "An operation's code, vertices, estimated and executed cycles and estimated FLOPs on each "
        "tile of one replica.");
  m.def("operationCycles", &pva::operationCycles, py::arg("operation"), py::arg("span"),
        "An operation's executed cycles in a span (ExecutionAnalysis.allRuns or one of .runs).");
  m.def("peakLiveBytes", &pva::peakLiveBytes, py::arg("ranges"),
        "The most bytes of the ranges live at one step.");
  m.def("peakNotAlwaysLiveBytes", &pva::peakNotAlwaysLiveBytes, py::arg("variables"),
        "The most bytes of these not-always-live variables live at one step.");
}

} // namespace pvapy
