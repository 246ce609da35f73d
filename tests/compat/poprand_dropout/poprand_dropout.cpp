// poprand as a training program uses it: a Glorot-uniform weight initialiser and a truncated
// normal bias initialiser seeded from the host, dropout on activations in the forward pass and
// the same mask recomputed for the backward pass (same seed and seed modifier), on a small IPU
// Model. Everything is checked on the host against what the distributions promise.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/codelets.hpp>
#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 16;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poprand::addCodelets(graph);

  const std::size_t inputs = 64, outputs = 32, batch = 40;
  Tensor seed = graph.addVariable(UNSIGNED_INT, {2}, "seed");
  graph.setTileMapping(seed, 0);
  Tensor weightsLayout = graph.addVariable(FLOAT, {inputs, outputs}, "weightsLayout");
  poputil::mapTensorLinearly(graph, weightsLayout);
  Tensor biasLayout = graph.addVariable(FLOAT, {outputs}, "biasLayout");
  poputil::mapTensorLinearly(graph, biasLayout);
  Tensor acts = graph.addVariable(FLOAT, {batch, outputs}, "activations");
  poputil::mapTensorLinearly(graph, acts);

  DataStream seedIn = graph.addHostToDeviceFIFO("seed", UNSIGNED_INT, 2);
  DataStream actsIn = graph.addHostToDeviceFIFO("acts", FLOAT, batch * outputs);
  DataStream weightsOut = graph.addDeviceToHostFIFO("weights", FLOAT, inputs * outputs);
  DataStream biasOut = graph.addDeviceToHostFIFO("bias", FLOAT, outputs);
  DataStream dropOut = graph.addDeviceToHostFIFO("dropped", FLOAT, batch * outputs);
  DataStream gradOut = graph.addDeviceToHostFIFO("gradMask", FLOAT, batch * outputs);

  const double limit = std::sqrt(6.0 / double(inputs + outputs));
  const double keep = 0.9, scale = 1.0 / keep;
  Sequence prog;
  prog.add(Copy(seedIn, seed));
  prog.add(Copy(actsIn, acts));
  Tensor weights =
      poprand::uniform(graph, &seed, 0, weightsLayout, FLOAT, -limit, limit, prog, "initWeights");
  Tensor bias =
      poprand::truncatedNormal(graph, &seed, 1, biasLayout, FLOAT, 0.0, 0.1, 2.0, prog, "initBias");
  Tensor dropped = poprand::dropout(graph, &seed, 2, acts, acts, keep, scale, prog, "fwd/dropout");
  // The backward pass recomputes the mask: dropout of ones with the same seed and modifier.
  Tensor ones = graph.addConstant(FLOAT, {batch, outputs}, 1.0f, "ones");
  poputil::mapTensorLinearly(graph, ones);
  Tensor gradMask =
      poprand::dropout(graph, &seed, 2, ones, acts, keep, scale, prog, "bwd/dropoutMask");
  prog.add(Copy(weights, weightsOut));
  prog.add(Copy(bias, biasOut));
  prog.add(Copy(dropped, dropOut));
  prog.add(Copy(gradMask, gradOut));

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<unsigned> hostSeed = {2024, 7};
  std::vector<float> hostActs(batch * outputs), hostWeights(inputs * outputs), hostBias(outputs),
      hostDropped(batch * outputs), hostGrad(batch * outputs);
  for (std::size_t i = 0; i < hostActs.size(); ++i)
    hostActs[i] = 0.5f + static_cast<float>(i % 13) * 0.25f;
  engine.connectStream("seed", hostSeed.data());
  engine.connectStream("acts", hostActs.data());
  engine.connectStream("weights", hostWeights.data());
  engine.connectStream("bias", hostBias.data());
  engine.connectStream("dropped", hostDropped.data());
  engine.connectStream("gradMask", hostGrad.data());
  engine.run(0);

  bool ok = true;
  auto report = [&](const char* what, bool good) {
    std::cout << what << ": " << (good ? "yes" : "NO") << "\n";
    ok = ok && good;
  };
  double sum = 0, sumSq = 0;
  bool inRange = true;
  for (float w : hostWeights) {
    inRange = inRange && w >= -limit && w <= limit;
    sum += w;
    sumSq += double(w) * w;
  }
  const double n = double(hostWeights.size()), mean = sum / n, var = sumSq / n - mean * mean;
  report("weights within the Glorot limit", inRange);
  report("weights' mean near 0", std::fabs(mean) < 4 * limit / std::sqrt(3.0 * n));
  report("weights' variance near limit^2/3", std::fabs(var / (limit * limit / 3.0) - 1.0) < 0.1);
  report("bias within 2 standard deviations",
         std::all_of(hostBias.begin(), hostBias.end(),
                     [](float b) { return std::fabs(b) <= 0.2f + 1e-6f; }));

  std::size_t kept = 0;
  bool scaled = true, sameMask = true;
  for (std::size_t i = 0; i < hostActs.size(); ++i) {
    const bool k = hostDropped[i] != 0.0f;
    kept += k;
    if (k) scaled = scaled && std::fabs(hostDropped[i] - hostActs[i] * float(scale)) < 1e-5f;
    sameMask = sameMask && k == (hostGrad[i] != 0.0f);
  }
  const double rate = double(kept) / double(hostActs.size());
  report("kept activations scaled by 1/keep", scaled);
  report("keep rate near 0.9",
         std::fabs(rate - keep) < 4 * std::sqrt(keep * (1 - keep) / double(hostActs.size())));
  report("backward mask repeats the forward mask", sameMask);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
