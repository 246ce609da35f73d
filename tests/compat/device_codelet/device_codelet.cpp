// Runs codelets that use the IPU's device headers (print.h, ipudef.h, ipu_builtins.h,
// ipu_vector_math, ipu_memory_intrinsics), `half` and pointer-like fields; checks the results
// against the same computation on the host.
#include <cmath>
#include <cstdio>
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
  graph.addCodelets("device_codelets.cpp");

  const std::vector<float> host = {-1.5f, 2.0f, -0.25f, 4.0f, 9.0f, -16.0f};
  Tensor x = graph.addVariable(HALF, {6}, "x");
  Tensor y = graph.addVariable(HALF, {6}, "y");
  Tensor f = graph.addVariable(FLOAT, {4}, "f");
  Tensor s = graph.addVariable(FLOAT, {}, "s");
  graph.setTileMapping(x, 2);
  graph.setTileMapping(y, 2);
  graph.setTileMapping(f, 3);
  graph.setTileMapping(s, 3);
  graph.setInitialValue(x, host);
  graph.setInitialValue(f, std::vector<float>{1, 4, 9, 16});

  ComputeSet cs = graph.addComputeSet("device");
  VertexRef v = graph.addVertex(cs, "ScaleAbsHalf", {{"in", x}, {"out", y}});
  graph.connect(v["scale"], 0.5f);
  graph.setTileMapping(v, 2);
  VertexRef w = graph.addVertex(cs, "SqrtPairs", {{"in", f}, {"sum", s}});
  graph.setTileMapping(w, 3);
  graph.createHostRead("y", y);
  graph.createHostRead("s", s);

  Engine engine(graph, Execute(cs));
  engine.load(device);
  engine.run();
  std::fflush(stdout); // the vertices' printf and this program's std::cout share stdout

  std::vector<half> halves(6); // the device's half values, converted below
  float sum = 0;
  engine.readTensor("y", halves.data(), halves.data() + halves.size());
  std::vector<float> result(halves.begin(), halves.end());
  engine.readTensor("s", &sum, &sum + 1);
  bool ok = true;
  for (unsigned i = 0; i < host.size(); ++i)
    ok = ok && result[i] == std::fabs(host[i]) * 0.5f;
  ok = ok && sum == 1 + 2 + 3 + 4;
  std::cout << "y = [";
  for (unsigned i = 0; i < result.size(); ++i)
    std::cout << (i ? ", " : "") << result[i];
  std::cout << "]\nsum = " << sum << "\n" << (ok ? "results match the host" : "MISMATCH") << "\n";
  return ok ? 0 : 1;
}
