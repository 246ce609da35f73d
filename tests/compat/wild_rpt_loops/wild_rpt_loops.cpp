// Runs one Normalize step over six graph vertices, three of them reached, one of those reached
// before, and prints the distances, the new frontier and the stop flag.
#include <climits>
#include <cstdio>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 1;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("codelets.gp");

  Tensor dist = graph.addVariable(UNSIGNED_INT, {6}, "dist");
  Tensor vec = graph.addVariable(FLOAT, {6}, "vec");
  Tensor iteration = graph.addConstant(UNSIGNED_INT, {}, 3u, "iteration");
  Tensor stop = graph.addVariable(BOOL, {}, "stop");
  for (const Tensor &t : {dist, vec, iteration, stop})
    graph.setTileMapping(t, 0);
  graph.setInitialValue(dist, std::vector<unsigned>{UINT_MAX, 1, UINT_MAX, UINT_MAX, 0, UINT_MAX});
  graph.setInitialValue(vec, std::vector<float>{2, 1, 0, 1, 0, 0.5f});

  ComputeSet cs = graph.addComputeSet("normalize");
  VertexRef v = graph.addVertex(
      cs, "Normalize", {{"dist", dist}, {"vec", vec}, {"iteration", iteration}, {"stop", stop}});
  graph.setTileMapping(v, 0);
  graph.createHostRead("dist", dist);
  graph.createHostRead("vec", vec);
  graph.createHostRead("stop", stop);

  Engine engine(graph, Execute(cs));
  engine.load(device);
  engine.run(0);
  std::vector<unsigned> d(6);
  std::vector<float> f(6);
  bool s = true;
  engine.readTensor("dist", d.data(), d.data() + 6);
  engine.readTensor("vec", f.data(), f.data() + 6);
  engine.readTensor("stop", &s, &s + 1);
  std::printf("dist:");
  for (unsigned x : d)
    std::printf(x == UINT_MAX ? " -" : " %u", x);
  std::printf("\nfrontier:");
  for (float x : f)
    std::printf(" %g", x);
  std::printf("\nstop: %s\n", s ? "true" : "false");
  return 0;
}
