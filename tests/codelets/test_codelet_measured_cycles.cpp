// Cycles measured by execution in every context, and on both kinds of device (docs/profiling.md,
// "Execution-based estimates" and "Two kinds of device"): a worker's and a supervisor's counted
// instructions each cost six tile cycles (the barrel issues one instruction of a context every
// six cycles); an IPU Model takes a vertex's declared estimate first, simulated hardware
// (TargetType::IPU) measures the vertex whatever it declares, and the report says which rule
// costed it.
#include "CodeletFiles.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/pva.hpp>
#include <sstream>

using namespace poplar;
using namespace poplar::program;

namespace {

// One loop of a float recurrence (the optimiser can neither vectorise it nor find a closed
// form), n times with n streamed in, in a worker vertex and in a supervisor vertex; and the same
// worker loop with a hand-written estimate, as tutorials write them.
const char* const kContextCodelets = R"(#include <poplar/Vertex.hpp>
class WorkerLoop : public poplar::Vertex {
public:
  poplar::Input<unsigned> n;
  poplar::Input<float> x;
  poplar::Output<float> out;
  bool compute() {
    float v = x;
    for (unsigned i = 0; i < n; ++i) v = v * 1.5f + 1.0f;
    *out = v;
    return true;
  }
};
class SupervisorLoop : public poplar::SupervisorVertex {
public:
  poplar::Input<unsigned> n;
  poplar::Input<float> x;
  poplar::Output<float> out;
  bool compute() {
    float v = x;
    for (unsigned i = 0; i < n; ++i) v = v * 1.5f + 1.0f;
    *out = v;
    return true;
  }
};
class EstimatedLoop : public poplar::Vertex {
public:
  poplar::Input<unsigned> n;
  poplar::Input<float> x;
  poplar::Output<float> out;
  bool compute() {
    float v = x;
    for (unsigned i = 0; i < n; ++i) v = v * 1.5f + 1.0f;
    *out = v;
    return true;
  }
  static std::uint64_t getCycleEstimate(const poplar::VertexIntrospector&,
                                        const poplar::Target&) {
    return 7;
  }
};
)";

/// The instructions popc counts for one iteration of `vertex`'s loop: its for.body block.
std::uint64_t loopBody(const std::filesystem::path& listing, const std::string& vertex) {
  std::ifstream in(listing);
  std::uint64_t body = 0;
  unsigned found = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string function, block;
    std::uint64_t count = 0;
    std::getline(fields, function, '\t');
    std::getline(fields, block, '\t');
    fields >> count;
    if (function.find("computeVertex") != std::string::npos &&
        function.find(vertex) != std::string::npos && block.rfind("for.body", 0) == 0) {
      body = count;
      ++found;
    }
  }
  REQUIRE(found == 1);
  return body;
}

std::filesystem::path buildGp(const test::CodeletScratch& scratch) {
  const auto source = scratch.write("context_codelets.cpp", kContextCodelets);
  const auto log = scratch / "popc.log";
  const std::string command = std::string(POPC) + " --list-counts '" +
                              (scratch / "counts.tsv").string() + "' -o '" +
                              (scratch / "contexts.gp").string() + "' '" + source.string() +
                              "' > '" + log.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  INFO(test::readFile(log));
  REQUIRE(status == 0);
  return scratch / "contexts.gp";
}

struct LoopRuns {
  std::vector<std::uint64_t> cycles; ///< the compute step's cycles on tile 0, per run
  std::vector<float> results;
  std::vector<pva::VertexCycleRule> rules;
  std::string summary; ///< printProfileSummary
};

/// Runs `vertex` alone on tile 0 of `device` for n = first..last (n streamed in by each run).
LoopRuns runLoop(Device& device, const std::filesystem::path& gp, const std::string& vertex,
                 unsigned first, unsigned last, std::optional<unsigned> perfEstimate = {}) {
  Graph graph(device.getTarget());
  graph.addCodelets(gp.string());
  Tensor n = graph.addVariable(UNSIGNED_INT, {}, "n");
  Tensor x = graph.addVariable(FLOAT, {}, "x");
  Tensor out = graph.addVariable(FLOAT, {}, "out");
  for (const Tensor& t : {n, x, out})
    graph.setTileMapping(t, 0);
  graph.setInitialValue(x, 2.0f);
  ComputeSet cs = graph.addComputeSet("loop");
  VertexRef v = graph.addVertex(cs, vertex, {{"n", n}, {"x", x}, {"out", out}});
  graph.setTileMapping(v, 0);
  if (perfEstimate) graph.setPerfEstimate(v, *perfEstimate);
  DataStream nStream = graph.addHostToDeviceFIFO("n", UNSIGNED_INT, 1);
  graph.createHostRead("out", out);
  test::ScratchDir reports;
  LoopRuns r;
  {
    Engine engine(graph, Sequence{Copy(nStream, n), Execute(cs)},
                  {{"autoReport.outputExecutionProfile", "true"},
                   {"autoReport.directory", reports.path().string()}});
    engine.load(device);
    unsigned value = 0;
    engine.connectStream("n", &value);
    for (value = first; value <= last; ++value) {
      engine.run(0);
      float result = 0;
      engine.readTensor("out", &result, &result + 1);
      r.results.push_back(result);
    }
    std::ostringstream summary;
    engine.printProfileSummary(summary);
    r.summary = summary.str();
  }
  const pva::Report report = pva::openReport((reports / "profile.pop").string());
  for (const auto& step : report.execution().steps())
    if (!step.computeSets().empty()) r.cycles.push_back(step.cyclesByTile().at(0));
  r.rules = report.compilation().computeSets().at(0).vertices().at(0).cycleRules();
  return r;
}

float hostLoop(unsigned n) {
  float v = 2.0f;
  for (unsigned i = 0; i < n; ++i)
    v = v * 1.5f + 1.0f;
  return v;
}

Device modelDevice() {
  IPUModel model;
  model.tilesPerIPU = 4;
  return model.createDevice();
}

Device hardwareDevice() {
  auto devices = DeviceManager::createDeviceManager().getDevices(TargetType::IPU, 1);
  REQUIRE(!devices.empty());
  Device d = std::move(devices[0]);
  REQUIRE(d.attach());
  return d;
}

/// Launch cycles of a compute set on a tile (CycleModel::kComputeSetLaunchCycles).
constexpr std::uint64_t kLaunch = 30;

} // namespace

TEST_CASE("a worker's and a supervisor's counted loop each cost six tile cycles per instruction",
          "[codelets][profile][execution-estimates]") {
  test::CodeletScratch scratch;
  const auto gp = buildGp(scratch);
  Device device = modelDevice();
  for (const std::string vertex : {"WorkerLoop", "SupervisorLoop"}) {
    INFO(vertex);
    const std::uint64_t body = loopBody(scratch / "counts.tsv", vertex);
    REQUIRE(body >= 2); // the multiply-add and the loop's branch at least
    const LoopRuns r = runLoop(device, gp, vertex, 1, 5);
    for (unsigned n = 1; n <= 5; ++n)
      CHECK(r.results[n - 1] == hostLoop(n));
    REQUIRE(r.cycles.size() == 5);
    for (unsigned n = 1; n < 5; ++n) {
      INFO("n = " << n << " -> " << n + 1);
      CHECK(r.cycles[n] - r.cycles[n - 1] == 6 * body);
    }
    // Every cycle past the launch is an instruction's six.
    for (std::uint64_t c : r.cycles)
      CHECK((c - kLaunch) % 6 == 0);
    REQUIRE(r.rules.size() == 1);
    CHECK(r.rules[0].rule == "executed");
  }
  // A 100-iteration supervisor loop, as issue 35 found it costed at one cycle per instruction.
  const std::uint64_t body = loopBody(scratch / "counts.tsv", "SupervisorLoop");
  const LoopRuns hundred = runLoop(device, gp, "SupervisorLoop", 100, 100);
  CHECK(hundred.cycles.at(0) >= kLaunch + 6 * 100 * body);
}

TEST_CASE("an IPU Model takes a declared estimate first; simulated hardware measures the vertex",
          "[codelets][profile][execution-estimates][device]") {
  test::CodeletScratch scratch;
  const auto gp = buildGp(scratch);
  Device model = modelDevice();
  Device hardware = hardwareDevice();
  const unsigned n = 20;

  // No declared estimate: both measure, the same count on both.
  const LoopRuns modelPlain = runLoop(model, gp, "WorkerLoop", n, n);
  const LoopRuns hwPlain = runLoop(hardware, gp, "WorkerLoop", n, n);
  CHECK(modelPlain.results.at(0) == hostLoop(n));
  CHECK(hwPlain.results.at(0) == hostLoop(n));
  CHECK(modelPlain.rules.at(0).rule == "executed");
  CHECK(hwPlain.rules.at(0).rule == "executed");
  CHECK(hwPlain.cycles.at(0) == modelPlain.cycles.at(0));
  const std::uint64_t measured = modelPlain.cycles.at(0);
  CHECK(measured >= kLaunch + 6 * 2 * n); // at least the multiply-add and branch a turn

  // setPerfEstimate: the IPU Model's cycles are the estimate's, the hardware's the measurement.
  const LoopRuns modelSet = runLoop(model, gp, "WorkerLoop", n, n, 100u);
  const LoopRuns hwSet = runLoop(hardware, gp, "WorkerLoop", n, n, 100u);
  CHECK(modelSet.cycles.at(0) == kLaunch + 6 * 100);
  CHECK(modelSet.rules.at(0).rule == "setPerfEstimate");
  CHECK(hwSet.cycles.at(0) == measured);
  CHECK(measured != modelSet.cycles.at(0));
  CHECK(hwSet.rules.at(0).rule == "executed");

  // The class's own getCycleEstimate: the same.
  const LoopRuns modelOwn = runLoop(model, gp, "EstimatedLoop", n, n);
  const LoopRuns hwOwn = runLoop(hardware, gp, "EstimatedLoop", n, n);
  CHECK(modelOwn.cycles.at(0) == kLaunch + 6 * 7);
  CHECK(modelOwn.rules.at(0).rule == "getCycleEstimate");
  CHECK(hwOwn.cycles.at(0) == measured);
  CHECK(hwOwn.rules.at(0).rule == "executed");
  CHECK(hwOwn.results.at(0) == hostLoop(n));

  // printProfileSummary says which rule costed the vertices.
  CHECK_THAT(modelSet.summary, Catch::Contains("setPerfEstimate"));
  CHECK_THAT(hwSet.summary, Catch::Contains("executed"));
}
