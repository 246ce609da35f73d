#include "scaled_sum_op.hpp"

#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

int main() {
  poplar::IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  poplar::Device device = ipuModel.createDevice();
  poplar::Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplar::Tensor a = graph.addVariable(poplar::FLOAT, {8}, "a");
  poplar::Tensor b = graph.addVariable(poplar::FLOAT, {8}, "b");
  poputil::mapTensorLinearly(graph, a);
  poputil::mapTensorLinearly(graph, b);
  std::vector<float> ha(8), hb(8);
  for (unsigned i = 0; i < 8; ++i) {
    ha[i] = float(i);
    hb[i] = 0.5f * float(i);
  }
  graph.setInitialValue(a, ha);
  graph.setInitialValue(b, hb);
  poplar::program::Sequence prog;
  poplar::Tensor out = scaledSum(graph, a, b, prog, "scaledSum");
  graph.createHostRead("out", out);
  poplar::Engine engine(graph, prog);
  engine.load(device);
  engine.run();
  std::vector<float> result(8);
  engine.readTensor("out", result.data(), result.data() + result.size());
  bool ok = true;
  for (unsigned i = 0; i < 8; ++i)
    ok = ok && result[i] == 2 * ha[i] + hb[i];
  std::cout << "scaledSum: " << (ok ? "matches the host" : "MISMATCH") << "\n";
  return ok ? 0 : 1;
}
