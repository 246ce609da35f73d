// Execution-based estimates (docs/profiling.md): a codelet-file vertex without a cycle estimate
// costs what its compute() executed, counted by popc's instrumentation, one thread cycle (six
// tile cycles on a six-context tile) per counted instruction. A data-dependent vertex then shows
// data-dependent cycles in Block programs; a .gp built without counting keeps the field-size
// default; the counts do not depend on how many host threads run the compute sets.
#include "CodeletFiles.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/pva.hpp>
#include <sstream>

using namespace poplar;
using namespace poplar::program;

namespace {

// The loop's body is a float recurrence, which the optimiser can neither vectorise nor replace
// by a closed form: it runs n times, n streamed in.
const char* const kLoopCodelet = R"(#include <poplar/Vertex.hpp>
class CountedLoop : public poplar::Vertex {
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
// Work that depends on the data: each element's value is how many times the inner loop runs.
class PositiveSum : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<float> out;
  bool compute() {
    float s = 0;
    for (unsigned i = 0; i < in.size(); ++i)
      for (unsigned k = 0; k < unsigned(in[i]); ++k) s = s * 0.5f + in[i];
    *out = s;
    return true;
  }
};
)";

struct CountedBlock {
  std::string function, block;
  std::uint64_t instructions;
};

std::vector<CountedBlock> readListing(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<CountedBlock> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    CountedBlock b;
    std::getline(fields, b.function, '\t');
    std::getline(fields, b.block, '\t');
    fields >> b.instructions;
    out.push_back(b);
  }
  return out;
}

/// Compiles the codelet with popc (its own options added); returns the .gp.
std::filesystem::path buildGp(const test::CodeletScratch& scratch,
                              const std::vector<std::string>& options, const std::string& name) {
  const auto source = scratch.write("loop_codelets.cpp", kLoopCodelet);
  std::string command = POPC;
  for (const auto& o : options)
    command += " '" + o + "'";
  const auto log = scratch / (name + ".log");
  command += " -o '" + (scratch / name).string() + "' '" + source.string() + "' > '" +
             log.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  INFO(test::readFile(log));
  REQUIRE(status == 0);
  return scratch / name;
}

struct LoopRuns {
  std::vector<std::uint64_t> blockCycles; ///< the "loop" Block on tile 0, per run (n = 1..5)
  std::vector<float> results;
  std::vector<pva::VertexCycleRule> rules;
};

/// Runs CountedLoop inside a Block for n = 1..5, each n streamed in by the run.
LoopRuns runLoop(const std::filesystem::path& gp, const test::ScratchDir& reports) {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets(gp.string());
  Tensor n = graph.addVariable(UNSIGNED_INT, {}, "n");
  Tensor x = graph.addVariable(FLOAT, {}, "x");
  Tensor out = graph.addVariable(FLOAT, {}, "out");
  for (const Tensor& t : {n, x, out})
    graph.setTileMapping(t, 0);
  graph.setInitialValue(x, 2.0f);
  ComputeSet cs = graph.addComputeSet("loop");
  graph.setTileMapping(graph.addVertex(cs, "CountedLoop", {{"n", n}, {"x", x}, {"out", out}}), 0);
  DataStream nStream = graph.addHostToDeviceFIFO("n", UNSIGNED_INT, 1);
  graph.createHostRead("out", out);
  Sequence prog{Copy(nStream, n), Block(Execute(cs), "loop")};
  LoopRuns r;
  {
    Engine engine(graph, prog,
                  {{"profiler.blocks.filter", "loop"},
                   {"profiler.blocks.tile", "0"},
                   {"autoReport.outputExecutionProfile", "true"},
                   {"autoReport.directory", reports.path().string()}});
    engine.load(device);
    unsigned value = 0;
    engine.connectStream("n", &value);
    for (value = 1; value <= 5; ++value) {
      engine.run(0);
      float result = 0;
      engine.readTensor("out", &result, &result + 1);
      r.results.push_back(result);
    }
  }
  const pva::Report report = pva::openReport((reports / "profile.pop").string());
  for (const pva::Block& b : report.execution().blocks(0))
    if (b.isCommon() && b.program()->name() == "loop")
      r.blockCycles.push_back(b.cyclesTo() - b.cyclesFrom());
  for (const auto& c : report.compilation().computeSets())
    if (c.name() == "loop") r.rules = c.vertices().at(0).cycleRules();
  return r;
}

float hostLoop(unsigned n) {
  float v = 2.0f;
  for (unsigned i = 0; i < n; ++i)
    v = v * 1.5f + 1.0f;
  return v;
}

} // namespace

TEST_CASE("a data-dependent codelet's Block cycles grow by its loop body's counted instructions "
          "per iteration",
          "[codelets][profile][execution-estimates]") {
  test::CodeletScratch scratch;
  const auto gp = buildGp(scratch, {"--list-counts", (scratch / "counts.tsv").string()}, "loop.gp");

  // The loop body as the instrumentation counts it: the one for.body block of CountedLoop's
  // compute() (inlined into its registration's compute call, hence any function naming it).
  std::uint64_t body = 0;
  unsigned bodies = 0;
  for (const CountedBlock& b : readListing(scratch / "counts.tsv"))
    if (b.function.find("computeVertex") != std::string::npos &&
        b.function.find("CountedLoop") != std::string::npos && b.block.rfind("for.body", 0) == 0) {
      body = b.instructions;
      ++bodies;
    }
  REQUIRE(bodies == 1);
  REQUIRE(body >= 2); // at least the multiply-add and the loop's branch

  test::ScratchDir reports;
  const LoopRuns r = runLoop(gp, reports);
  for (unsigned n = 1; n <= 5; ++n)
    CHECK(r.results[n - 1] == hostLoop(n));
  REQUIRE(r.blockCycles.size() == 5);
  // The documented rule: one thread cycle per counted instruction, a worker context's thread
  // cycle taking six tile cycles (one instruction every six cycles in the barrel).
  const std::uint64_t slope = body * 1 * 6;
  for (unsigned n = 1; n < 5; ++n) {
    INFO("n = " << n << " -> " << n + 1);
    CHECK(r.blockCycles[n] - r.blockCycles[n - 1] == slope);
  }
  REQUIRE(r.rules.size() == 1);
  CHECK(r.rules[0].rule == "executed");
  CHECK(r.rules[0].count == 1);
}

TEST_CASE("a .gp built without execution counts keeps the field-size estimate",
          "[codelets][profile][execution-estimates]") {
  test::CodeletScratch scratch;
  const auto gp = buildGp(scratch, {"--no-execution-counts"}, "loop-plain.gp");
  test::ScratchDir reports;
  const LoopRuns r = runLoop(gp, reports);
  for (unsigned n = 1; n <= 5; ++n)
    CHECK(r.results[n - 1] == hostLoop(n));
  REQUIRE(r.blockCycles.size() == 5);
  // The field sizes do not change with n: neither do the cycles.
  for (std::uint64_t c : r.blockCycles)
    CHECK(c == r.blockCycles[0]);
  REQUIRE(r.rules.size() == 1);
  CHECK(r.rules[0].rule == "fieldSizes");
}

TEST_CASE("setPerfEstimate overrides execution counting, and the profile says so",
          "[codelets][profile][execution-estimates]") {
  test::CodeletScratch scratch;
  const auto gp = buildGp(scratch, {}, "loop.gp");
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets(gp.string());
  Tensor n = graph.addVariable(UNSIGNED_INT, {2}, "n");
  Tensor x = graph.addVariable(FLOAT, {2}, "x");
  Tensor out = graph.addVariable(FLOAT, {2}, "out");
  for (const Tensor& t : {n, x, out})
    graph.setTileMapping(t, 0);
  graph.setInitialValue(n, std::vector<unsigned>{3, 3});
  graph.setInitialValue(x, std::vector<float>{1, 1});
  ComputeSet cs = graph.addComputeSet("pair");
  for (unsigned i = 0; i < 2; ++i) {
    VertexRef v = graph.addVertex(cs, "CountedLoop", {{"n", n[i]}, {"x", x[i]}, {"out", out[i]}});
    graph.setTileMapping(v, 0);
    if (i == 1) graph.setPerfEstimate(v, 100);
  }
  test::ScratchDir reports;
  {
    Engine engine(graph, Execute(cs),
                  {{"autoReport.outputExecutionProfile", "true"},
                   {"autoReport.directory", reports.path().string()}});
    engine.load(device);
    engine.run(0);
  }
  const pva::Report report = pva::openReport((reports / "profile.pop").string());
  const auto rules = report.compilation().computeSets().at(0).vertices().at(0).cycleRules();
  REQUIRE(rules.size() == 2);
  // Ordered by name.
  CHECK(rules[0].rule == "executed");
  CHECK(rules[0].count == 1);
  CHECK(rules[1].rule == "setPerfEstimate");
  CHECK(rules[1].count == 1);
}

TEST_CASE("execution-based cycles are the same with one host thread and several",
          "[codelets][profile][execution-estimates][threads]") {
  test::CodeletScratch scratch;
  const auto gp = buildGp(scratch, {}, "loop.gp");
  // Four tiles of 6000 elements each (enough work for the compute set to go to the pool): on
  // tile t every (4 - t)th element is 3, the others 1, so later tiles loop more.
  constexpr unsigned kTiles = 4, kPerTile = 6000;
  std::vector<float> data(kTiles * kPerTile);
  for (unsigned t = 0; t < kTiles; ++t)
    for (unsigned i = 0; i < kPerTile; ++i)
      data[t * kPerTile + i] = (i % (kTiles - t)) == 0 ? 3.0f : 1.0f;

  auto run = [&](unsigned threads) {
    IPUModel model;
    model.tilesPerIPU = kTiles;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets(gp.string());
    Tensor in = graph.addVariable(FLOAT, {kTiles, kPerTile}, "in");
    Tensor out = graph.addVariable(FLOAT, {kTiles}, "out");
    ComputeSet cs = graph.addComputeSet("sums");
    for (unsigned t = 0; t < kTiles; ++t) {
      graph.setTileMapping(in[t], t);
      graph.setTileMapping(out[t], t);
      graph.setTileMapping(graph.addVertex(cs, "PositiveSum", {{"in", in[t]}, {"out", out[t]}}), t);
    }
    graph.setInitialValue(in, data);
    test::ScratchDir reports;
    std::vector<std::uint64_t> cycles;
    {
      Engine engine(graph, Sequence{Execute(cs), Execute(cs)},
                    {{"tessera.threads", std::to_string(threads)},
                     {"autoReport.outputExecutionProfile", "true"},
                     {"autoReport.directory", reports.path().string()}});
      engine.load(device);
      engine.run(0);
    }
    const pva::Report report = pva::openReport((reports / "profile.pop").string());
    for (const auto& step : report.execution().steps())
      if (!step.computeSets().empty())
        for (std::uint64_t c : step.cyclesByTile())
          cycles.push_back(c);
    return cycles;
  };
  const auto one = run(1), four = run(4);
  REQUIRE(one.size() == 2 * kTiles);
  CHECK(one == four);
  // The data decides: the more 3s on a tile, the more cycles.
  for (unsigned t = 1; t < kTiles; ++t)
    CHECK(one[t] > one[t - 1]);
  // And the second execution of the compute set costs what the first did.
  for (unsigned t = 0; t < kTiles; ++t)
    CHECK(one[kTiles + t] == one[t]);
}

TEST_CASE("addCodelets of a source counts executions unless its flags say --no-execution-counts",
          "[codelets][profile][execution-estimates]") {
  test::CodeletScratch scratch;
  const auto source = scratch.write("loop_codelets.cpp", kLoopCodelet);
  // -O0 once made addCodelets overflow the stack: clang names the static counting function by
  // its mangled name there, so the instrumentation counted (and called) it inside itself.
  for (const std::string flags : {"", "-O0", "-O1", "--no-execution-counts"}) {
    INFO("compile flags '" << flags << "'");
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets(source.string(), CodeletFileType::Auto, flags);
    Tensor n = graph.addVariable(UNSIGNED_INT, {}, "n");
    Tensor x = graph.addVariable(FLOAT, {}, "x");
    Tensor out = graph.addVariable(FLOAT, {}, "out");
    for (const Tensor& t : {n, x, out})
      graph.setTileMapping(t, 0);
    graph.setInitialValue(n, 4u);
    graph.setInitialValue(x, 2.0f);
    ComputeSet cs = graph.addComputeSet("loop");
    graph.setTileMapping(graph.addVertex(cs, "CountedLoop", {{"n", n}, {"x", x}, {"out", out}}), 0);
    graph.createHostRead("out", out);
    test::ScratchDir reports;
    float result = 0;
    {
      Engine engine(graph, Execute(cs),
                    {{"autoReport.outputExecutionProfile", "true"},
                     {"autoReport.directory", reports.path().string()}});
      engine.load(device);
      engine.run(0);
      engine.readTensor("out", &result, &result + 1);
    }
    CHECK(result == hostLoop(4));
    const pva::Report report = pva::openReport((reports / "profile.pop").string());
    const auto rules = report.compilation().computeSets().at(0).vertices().at(0).cycleRules();
    REQUIRE(rules.size() == 1);
    CHECK(rules[0].rule == (flags == "--no-execution-counts" ? "fieldSizes" : "executed"));
  }
}
