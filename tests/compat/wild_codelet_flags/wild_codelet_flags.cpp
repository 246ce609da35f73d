// Runs a relaxation loop until a vertex's plain-assigned `converged` flag says so (a
// RepeatWhileFalse over the flag), then reads the flag, the last step and the count back.
#include <cstdio>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Program.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 1;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("codelets.gp");

  Tensor x = graph.addVariable(FLOAT, {4}, "x");
  Tensor target = graph.addConstant(FLOAT, {4}, std::vector<float>{1, 2, 4, 8}.data(), "target");
  Tensor converged = graph.addVariable(UNSIGNED_INT, {}, "converged");
  Tensor maxDelta = graph.addVariable(FLOAT, {}, "maxDelta");
  Tensor iterations = graph.addVariable(UNSIGNED_INT, {}, "iterations");
  for (const Tensor &t : {x, target, converged, maxDelta, iterations})
    graph.setTileMapping(t, 0);
  graph.setInitialValue(x, std::vector<float>{0, 0, 0, 0});
  graph.setInitialValue(iterations, 0u);

  ComputeSet cs = graph.addComputeSet("relax");
  VertexRef v = graph.addVertex(cs, "RelaxStep",
                                {{"x", x}, {"target", target}, {"converged", converged},
                                 {"maxDelta", maxDelta}, {"iterations", iterations}});
  graph.setInitialValue(v["rate"], 0.5f);
  graph.setInitialValue(v["tolerance"], 0.01f);
  graph.setTileMapping(v, 0);

  // The loop stops once the vertex has set its flag: the predicate is the unsigned flag itself.
  Sequence prog{RepeatWhileFalse(Sequence{}, converged, Sequence{Execute(cs)})};

  graph.createHostRead("x", x);
  graph.createHostRead("converged", converged);
  graph.createHostRead("maxDelta", maxDelta);
  graph.createHostRead("iterations", iterations);
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);

  float hx[4], hd;
  unsigned hc, hi;
  engine.readTensor("x", hx, hx + 4);
  engine.readTensor("converged", &hc, &hc + 1);
  engine.readTensor("maxDelta", &hd, &hd + 1);
  engine.readTensor("iterations", &hi, &hi + 1);
  std::printf("converged %u after %u iterations, last step %.5f\n", hc, hi, hd);
  std::printf("x: %.3f %.3f %.3f %.3f\n", hx[0], hx[1], hx[2], hx[3]);
  return 0;
}
