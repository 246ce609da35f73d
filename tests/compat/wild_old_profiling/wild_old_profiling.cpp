// Profiling as programs written for SDK 1.x still do it: the engine options of the UoB-HPC IPU
// cookbook (debug.loweredVarDumpFile and friends), enableExecutionProfiling after load,
// getGraphProfile / getExecutionProfile saved with poplar::serializeToJSON, and the summary
// printed from the two ProfileValues.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 16;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  Tensor a = graph.addVariable(FLOAT, {1024}, "a");
  Tensor b = graph.addVariable(FLOAT, {1024}, "b");
  poputil::mapTensorLinearly(graph, a);
  poputil::mapTensorLinearly(graph, b);
  graph.setInitialValue(a, std::vector<float>(1024, 1.5f));
  graph.setInitialValue(b, std::vector<float>(1024, 2.0f));
  Sequence prog;
  popops::mulInPlace(graph, a, b, prog, "triad");
  popops::addInPlace(graph, a, b, prog, "triad");
  graph.createHostRead("a", a);

  const OptionFlags ENGINE_OPTIONS{
      {"target.saveArchive", "archive.a"},
      {"debug.instrument", "true"},
      {"debug.instrumentCompute", "true"},
      {"debug.loweredVarDumpFile", "vars.capnp"},
      {"debug.instrumentControlFlow", "true"},
      {"debug.computeInstrumentationLevel", "tile"},
      {"debug.outputAllSymbols", "true"},
      {"autoReport.all", "true"},
      {"autoReport.directory", "./report"},
      {"debug.retainDebugInformation", "true"},
  };
  Engine engine(graph, prog, ENGINE_OPTIONS);
  engine.load(device);
  engine.enableExecutionProfiling();
  engine.run(0, "profiled");
  engine.disableExecutionProfiling();
  engine.run(0, "not profiled");
  engine.enableExecutionProfiling();
  engine.run(0, "profiled again");

  std::vector<float> host(1024);
  engine.readTensor("a", host.data(), host.data() + host.size());
  std::cout << "a[0] after three runs of a = a * b + b: " << host[0] << "\n";

  ProfileValue graphProfile = engine.getGraphProfile();
  ProfileValue execProfile = engine.getExecutionProfile();
  std::ofstream graphReport("graph.json"), execReport("execution.json");
  poplar::serializeToJSON(graphReport, graphProfile);
  poplar::serializeToJSON(execReport, execProfile, true);

  std::cout << "graph profile: " << graphProfile["target"]["numTiles"].asUint() << " tiles, "
            << graphProfile["graph"]["numComputeSets"].asUint() << " compute sets\n";
  auto steps = execProfile["simulation"]["steps"].asVector();
  auto onTile = std::count_if(steps.begin(), steps.end(), [](const ProfileValue &step) {
    return step["type"].asString() == "OnTileExecute";
  });
  std::cout << "execution profile: " << execProfile["runs"].size() << " runs, " << onTile
            << " OnTileExecute steps\n";
  std::cout << "memory by tile sums to the total: "
            << (graphProfile["memory"]["byTile"]["total"].sumUint() > 0) << "\n";
  // Indexing as public code writes it: a literal 0, loop indices of every integer type, string
  // literals, and a comparison with a string literal (PopLibs' own test harness does this).
  const ProfileValue &runs = execProfile["runs"];
  const std::string firstRun = runs[0]["name"].asString();
  std::uint64_t cyclesByInt = 0, cyclesByUnsigned = 0, cyclesBySize = 0;
  for (int i = 0; i < int(runs.size()); ++i)
    cyclesByInt += runs[i]["cycles"].asUint();
  for (unsigned i = 0; i < runs.size(); ++i)
    cyclesByUnsigned += runs[i]["cycles"].asUint();
  for (std::size_t i = 0; i < runs.size(); ++i)
    cyclesBySize += runs[i]["cycles"].asUint();
  std::uint64_t onTileCycles = 0;
  for (auto s : execProfile["simulation"]["steps"].asVector())
    if (s["type"] == "OnTileExecute")
      onTileCycles += s["cycles"].asUint();
  std::cout << "first profiled run: " << firstRun << "\n";
  std::cout << "run cycles agree whatever the index type: "
            << (cyclesByInt == cyclesByUnsigned && cyclesBySize == cyclesByInt &&
                cyclesByInt == execProfile["simulation"]["cycles"].asUint())
            << "\n";
  std::cout << "OnTileExecute steps have cycles: " << (onTileCycles > 0) << "\n";
  try {
    runs[runs.size()];
    std::cout << "an index past the end was accepted\n";
  } catch (const poplar::poplar_error &e) {
    std::cout << "an index past the end throws poplar_error\n";
  }
  engine.resetExecutionProfile();
  std::cout << "after resetExecutionProfile: "
            << engine.getExecutionProfile()["runs"].size() << " runs\n";

  poplar::printProfileSummary(std::cout, graphProfile, execProfile,
                              {{"showExecutionSteps", "true"}});
  return 0;
}
