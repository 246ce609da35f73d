// The default cycle estimate of a codelet-file vertex without getCycleEstimate (documented in
// docs/profiling.md): 20 cycles, plus for every connected edge 4 cycles and one per 32-bit word
// of its data; a MultiVertex's data part is shared by its 6 workers. It shows in the profile.
#include "CodeletFiles.hpp"
#include "common/ReportFiles.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/pva.hpp>

using namespace poplar;

namespace {

const char* const kCodelets = R"(#include <poplar/Vertex.hpp>
// No getCycleEstimate: the default applies.
class Copy : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<poplar::Vector<float>> out;
  void compute() { for (unsigned i = 0; i < in.size(); ++i) out[i] = in[i]; }
};
class Spread : public poplar::MultiVertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<poplar::Vector<float>> out;
  void compute(unsigned w) { for (unsigned i = w; i < in.size(); i += numWorkers()) out[i] = in[i]; }
};
)";

/// Compute set name -> its estimated cycles on tile 0, from the report on disk.
std::map<std::string, std::uint64_t> tile0Cycles(const std::filesystem::path& dir) {
  std::map<std::string, std::uint64_t> out;
  const pva::Report report = pva::openReport((dir / "profile.pop").string());
  for (const auto& cs : report.compilation().computeSets())
    out[cs.name()] = cs.estimatedCyclesByTile().at(0);
  return out;
}

} // namespace

TEST_CASE("a codelet-file vertex without an estimator gets the default estimate in the profile",
          "[codelets][profile]") {
  test::CodeletScratch scratch;
  const auto file = scratch.write("copy_codelets.cpp", kCodelets);
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets(file.string());
  Tensor a = graph.addVariable(FLOAT, {60}, "a");
  Tensor b = graph.addVariable(FLOAT, {60}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 0);
  graph.setInitialValue(a, std::vector<float>(60, 1.0f));
  // One worker vertex per compute set: its estimate is spread over nothing, so the tile's
  // cycles are the compute set launch plus 6 worker slots of that estimate.
  auto oneVertex = [&](const std::string& name, const std::string& type, std::size_t n,
                       long explicitCycles) {
    ComputeSet cs = graph.addComputeSet(name);
    VertexRef v = graph.addVertex(cs, type, {{"in", a.slice(0, n)}, {"out", b.slice(0, n)}});
    graph.setTileMapping(v, 0);
    if (explicitCycles >= 0) graph.setPerfEstimate(v, static_cast<std::uint64_t>(explicitCycles));
    return cs;
  };
  // 20 + (4 + 10) + (4 + 10) = 48 and 20 + (4 + 60) + (4 + 60) = 148.
  const ComputeSet small = oneVertex("small", "Copy", 10, -1);
  const ComputeSet large = oneVertex("large", "Copy", 60, -1);
  const ComputeSet given = oneVertex("given", "Copy", 10, 48);
  // A MultiVertex: 20 + ceil(128 / 6) = 42 on each of the six workers.
  const ComputeSet multi = oneVertex("multi", "Spread", 60, -1);
  const ComputeSet multiGiven = oneVertex("multiGiven", "Spread", 60, 42);

  test::ScratchDir reports;
  {
    Engine engine(graph,
                  program::Sequence{program::Execute(small), program::Execute(large),
                                    program::Execute(given), program::Execute(multi),
                                    program::Execute(multiGiven)},
                  test::reportOptions(reports.path()));
    engine.load(device);
    engine.run(0);
  } // the report is complete when the engine goes

  const auto cycles = tile0Cycles(reports.path());
  REQUIRE(cycles.size() == 5);
  CHECK(cycles.at("small") == cycles.at("given"));
  CHECK(cycles.at("large") - cycles.at("small") == 6 * (148 - 48));
  CHECK(cycles.at("multi") == cycles.at("multiGiven"));
  CHECK(cycles.at("multi") > 0);
}
