// Vertices connected the ways public stencil and particle codes connect them: addVertex with
// plain values and tensor lists in its connection list, a 2-D tensor connected to a list of
// edges row by row, a state member set from an integer of another type, setCycleEstimate, and
// the graph drawn with outputVertexGraph / outputComputeGraph.
#include <fstream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("stencil_codelets.cpp");

  Tensor x = graph.addVariable(FLOAT, {4}, "x");
  Tensor y = graph.addVariable(FLOAT, {4}, "y");
  Tensor grid = graph.addVariable(FLOAT, {3, 4}, "grid");
  Tensor smooth = graph.addVariable(FLOAT, {3, 4}, "smooth");
  for (const Tensor &t : {x, y, grid, smooth})
    graph.setTileMapping(t, 0);
  graph.setInitialValue(x, std::vector<float>{1, 2, 3, 4});
  std::vector<float> cells(12);
  for (std::size_t i = 0; i < cells.size(); ++i)
    cells[i] = float(i * i % 7);
  graph.setInitialValue(grid, cells);

  ComputeSet cs = graph.addComputeSet("stencil");
  VertexRef axpb = graph.addVertex(cs, "Axpb", {{"in", x}, {"factor", 2.5f}, {"offset", -1.0f},
                                                {"out", y}});
  graph.setTileMapping(axpb, 0);
  graph.setCycleEstimate(axpb, 40);

  std::vector<Tensor> outRows;
  for (unsigned r = 0; r < 3; ++r)
    outRows.push_back(smooth[r]);
  VertexRef st = graph.addVertex(cs, "RowStencil", {{"smoothed", outRows}});
  graph.connect(st["rows"], grid); // 2-D: one edge per row
  const std::size_t steps = 2;
  graph.setInitialValue(st["steps"], steps); // std::size_t into an unsigned member
  graph.setTileMapping(st, 1);
  graph.setCycleEstimate(st, 100);

  Sequence prog{Execute(cs)};
  graph.createHostRead("y", y);
  graph.createHostRead("smooth", smooth);
  std::ofstream vertexGraph("vertexgraph.dot"), computeGraph("computegraph.dot");
  graph.outputVertexGraph(vertexGraph, {prog});
  graph.outputComputeGraph(computeGraph, {prog});

  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  std::vector<float> hostY(4), hostSmooth(12);
  engine.readTensor("y", hostY.data(), hostY.data() + hostY.size());
  engine.readTensor("smooth", hostSmooth.data(), hostSmooth.data() + hostSmooth.size());
  std::cout << "2.5 * x - 1:";
  for (float v : hostY)
    std::cout << " " << v;
  std::cout << "\nsmoothed rows:\n";
  for (unsigned r = 0; r < 3; ++r) {
    for (unsigned c = 0; c < 4; ++c)
      std::cout << " " << hostSmooth[r * 4 + c];
    std::cout << "\n";
  }
  return 0;
}
