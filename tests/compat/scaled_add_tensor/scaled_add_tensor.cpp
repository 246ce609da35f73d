// A weight update with a learning rate held on the device, as training loops write it: the
// rate is a one-element tensor written from the host before each step, and
// popops::scaledAddTo(w, grad, negRate) applies w += negRate * grad. A momentum form uses
// two tensor scales: v = momentum * v + grad. Three steps with different rates are checked
// against the same arithmetic on the host.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  const std::size_t n = 300;
  Tensor w = graph.addVariable(FLOAT, {n}, "weights");
  Tensor v = graph.addVariable(FLOAT, {n}, "velocity");
  Tensor grad = graph.addVariable(FLOAT, {n}, "grad");
  Tensor negRate = graph.addVariable(FLOAT, {}, "negRate");
  Tensor momentum = graph.addVariable(FLOAT, {}, "momentum");
  Tensor one = graph.addConstant(FLOAT, {}, 1.0f, "one");
  poputil::mapTensorLinearly(graph, w);
  poputil::mapTensorLinearly(graph, v);
  poputil::mapTensorLinearly(graph, grad);
  graph.setTileMapping(negRate, 0);
  graph.setTileMapping(momentum, 0);
  graph.setTileMapping(one, 0);
  graph.createHostWrite("weights", w);
  graph.createHostWrite("velocity", v);
  graph.createHostWrite("grad", grad);
  graph.createHostWrite("negRate", negRate);
  graph.createHostWrite("momentum", momentum);
  graph.createHostRead("weightsOut", w);

  Sequence step;
  popops::scaledAddTo(graph, v, momentum, grad, one, step, "momentum");
  popops::scaledAddTo(graph, w, v, negRate, step, "update");

  Engine engine(graph, step);
  engine.load(device);
  std::vector<float> hostW(n), hostV(n, 0.0f), hostG(n), deviceW(n);
  for (std::size_t i = 0; i < n; ++i) {
    hostW[i] = std::cos(0.1f * float(i));
    hostG[i] = std::sin(0.05f * float(i)) - 0.25f;
  }
  const float mom = 0.9f;
  engine.writeTensor("weights", hostW.data(), hostW.data() + n);
  engine.writeTensor("velocity", hostV.data(), hostV.data() + n);
  engine.writeTensor("grad", hostG.data(), hostG.data() + n);
  engine.writeTensor("momentum", &mom, &mom + 1);
  const float rates[] = {0.1f, 0.05f, 0.01f};
  for (float rate : rates) {
    const float neg = -rate;
    engine.writeTensor("negRate", &neg, &neg + 1);
    engine.run(0);
    for (std::size_t i = 0; i < n; ++i) {
      hostV[i] = mom * hostV[i] + hostG[i];
      hostW[i] += neg * hostV[i];
    }
  }
  engine.readTensor("weightsOut", deviceW.data(), deviceW.data() + n);
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i)
    worst = std::max(worst, double(std::fabs(deviceW[i] - hostW[i])));
  const bool ok = worst < 1e-5;
  std::cout << (ok ? "three updates match the host" : "updates differ from the host") << "\n";
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
