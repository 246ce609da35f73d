// Runs the STREAM-style kernels of stream_kernels.cpp in float and in half, scalar and
// vectorised, as BabelStream's Poplar port does, and prints the sums the host expects.
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

const unsigned kItems = 64;
const float kA = 0.25f, kB = 0.5f, kC = 1.5f, kAlpha = 0.75f;

float run(Type type, const std::string &vectorType, float *maxAbs) {
  IPUModel model;
  model.tilesPerIPU = 2;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("stream_kernels.cpp", CodeletFileType::Auto, "-O3");

  const std::string t = type == FLOAT ? "float" : "half";
  Tensor a = graph.addVariable(type, {kItems}, "a");
  Tensor b = graph.addVariable(type, {kItems}, "b");
  Tensor c = graph.addVariable(type, {kItems}, "c");
  for (const Tensor &x : {a, b, c})
    graph.setTileMapping(x, 0);
  Tensor sum = graph.addVariable(FLOAT, {}, "sum");
  Tensor largest = graph.addVariable(FLOAT, {}, "maxAbs");
  graph.setTileMapping(sum, 1);
  graph.setTileMapping(largest, 1);
  Tensor inits = graph.addConstant(FLOAT, {3}, std::vector<float>{kA, kB, kC}, "inits");
  graph.setTileMapping(inits, 0);

  ComputeSet init = graph.addComputeSet("init");
  VertexRef v = graph.addVertex(init, "Init<" + t + ">",
                                {{"a", a}, {"b", b}, {"c", c}, {"initA", inits[0]},
                                 {"initB", inits[1]}, {"initC", inits[2]}});
  graph.setInitialValue(v["size"], kItems);
  graph.setTileMapping(v, 0);

  ComputeSet triad = graph.addComputeSet("triad");
  v = graph.addVertex(triad, "Triad<" + t + "," + vectorType + ">", {{"a", a}, {"b", b}, {"c", c}});
  graph.setInitialValue(v["size"], kItems);
  graph.setInitialValue(v["alpha"], kAlpha);
  graph.setTileMapping(v, 0);

  ComputeSet norms = graph.addComputeSet("norms");
  v = graph.addVertex(norms, "Norms<" + t + ">", {{"in", a}, {"sum", sum}, {"maxAbs", largest}});
  graph.setTileMapping(v, 1);
  graph.createHostRead("sum", sum);
  graph.createHostRead("maxAbs", largest);

  Engine engine(graph, Sequence{Execute(init), Execute(triad), Execute(norms)});
  engine.load(device);
  engine.run(0);
  float s = 0;
  engine.readTensor("sum", &s, &s + 1);
  engine.readTensor("maxAbs", maxAbs, maxAbs + 1);
  return s;
}

} // namespace

int main() {
  const float expected = kItems * (kB + kAlpha * kC); // a = b + alpha * c, summed
  bool ok = true;
  for (Type type : {FLOAT, HALF}) {
    const std::string scalar = type == FLOAT ? "float" : "half";
    for (const std::string &vector : {scalar, std::string(type == FLOAT ? "float2" : "half4")}) {
      float maxAbs = 0;
      const float sum = run(type, vector, &maxAbs);
      const bool right = std::fabs(sum - expected) < 1e-3f * expected &&
                         std::fabs(maxAbs - (kB + kAlpha * kC)) < 1e-3f;
      ok = ok && right;
      std::cout << scalar << " elements, " << vector << " at a time: sum " << sum << ", max "
                << maxAbs << (right ? " (as on the host)" : " (WRONG)") << "\n";
    }
  }
  return ok ? 0 : 1;
}
