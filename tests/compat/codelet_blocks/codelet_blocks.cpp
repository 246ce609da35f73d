// Times two Block programs with lightweight profiling and reads the block records back with
// libpva.
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/pva.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("block_codelets.cpp");

  Tensor t = graph.addVariable(INT, {8, 16}, "t");
  for (unsigned i = 0; i < 8; ++i)
    graph.setTileMapping(t[i], i);
  graph.setInitialValue(t, std::vector<int>(128, 2));
  ComputeSet add = graph.addComputeSet("addOne");
  ComputeSet square = graph.addComputeSet("square");
  for (unsigned i = 0; i < 8; ++i) {
    graph.setTileMapping(graph.addVertex(add, "AddOne", {{"data", t[i]}}), i);
    graph.setTileMapping(graph.addVertex(square, "Square", {{"data", t[i]}}), i);
  }
  graph.createHostRead("t", t);

  Sequence prog({Block(Execute(add), "increment"), Block(Execute(square), "square")});
  Engine engine(graph, prog,
                {{"profiler.blocks.filter", ".*"},
                 {"profiler.blocks.tile", "0"},
                 {"autoReport.outputExecutionProfile", "true"},
                 {"autoReport.directory", "report"}});
  engine.load(device);
  engine.run(0);
  std::vector<int> host(128);
  engine.readTensor("t", host.data(), host.data() + host.size());
  std::cout << "t[0] = " << host[0] << ", t[127] = " << host[127] << "\n";

  pva::Report report = engine.getReport();
  for (const pva::Block &b : report.execution().blocks(0)) {
    if (!b.isCommon())
      continue;
    std::cout << "block " << b.program()->name() << " on tile " << b.tile() << ": "
              << (b.cyclesTo() > b.cyclesFrom() ? "has cycles" : "EMPTY") << "\n";
  }
  return 0;
}
