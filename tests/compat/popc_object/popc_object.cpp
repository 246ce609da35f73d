// Loads codelets compiled ahead of time with popc into a .gp file.
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("codelets.gp");

  Tensor x = graph.addVariable(FLOAT, {6}, "x");
  graph.setTileMapping(x, 0);
  graph.setInitialValue(x, std::vector<float>{-9, -2, 0, 1.5f, 2.5f, 40});
  ComputeSet cs = graph.addComputeSet("clamp");
  graph.setTileMapping(graph.addVertex(cs, "Clamp", {{"x", x}}), 0);

  Engine engine(graph, Sequence({Execute(cs), PrintTensor("x", x)}));
  engine.load(device);
  engine.run(0);
  std::cout << "clamped\n";
  return 0;
}
