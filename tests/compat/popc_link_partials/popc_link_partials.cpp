// Loads the .gp linked from partial .gp files and runs a vertex from each of them.
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("codelets.gp");

  Tensor data = graph.addVariable(FLOAT, {6}, "data");
  Tensor total = graph.addVariable(FLOAT, {}, "total");
  graph.setTileMapping(data, 0);
  graph.setTileMapping(total, 1);
  graph.setInitialValue(data, std::vector<float>{1, 2, 3, 4, 5, 6});

  ComputeSet scale = graph.addComputeSet("scale");
  VertexRef v = graph.addVertex(scale, "Scale", {{"data", data}});
  graph.setInitialValue(v["factor"], 3.0f);
  graph.setTileMapping(v, 0);
  ComputeSet fast = graph.addComputeSet("scaleFast");
  graph.setTileMapping(graph.addVertex(fast, "ScaleFast", {{"data", data}}), 0);
  ComputeSet reduce = graph.addComputeSet("reduce");
  graph.setTileMapping(graph.addVertex(reduce, "Total<float>", {{"in", data}, {"out", total}}), 1);
  graph.createHostRead("total", total);

  Engine engine(graph, Sequence{Execute(scale), Execute(fast), Execute(reduce)});
  engine.load(device);
  engine.run(0);
  float result = 0;
  engine.readTensor("total", &result, &result + 1);
  std::cout << "total of (1..6) * 3 * 2: " << result << "\n";
  return result == 126.0f ? 0 : 1;
}
