// Overflow detection as mixed-precision training loops do it: after computing half-precision
// gradients, popops::hasNaNOrInf tells the host whether to skip the step (and lower the loss
// scale), popops::hasNaN whether something worse than an overflow happened. Three gradient
// sets - finite, one infinity, one NaN - are checked against the host's own test.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/NaN.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  const Target& target = device.getTarget();
  Graph graph(target);
  popops::addCodelets(graph);

  const std::size_t rows = 16, cols = 40;
  Tensor grads = graph.addVariable(HALF, {rows, cols}, "grads");
  poputil::mapTensorLinearly(graph, grads);
  graph.createHostWrite("grads", grads);

  Sequence check;
  Tensor overflow = popops::hasNaNOrInf(graph, grads, check, "overflow");
  Tensor invalid = popops::hasNaN(graph, grads, check, "invalid");
  graph.createHostRead("overflow", overflow);
  graph.createHostRead("invalid", invalid);

  Engine engine(graph, check);
  engine.load(device);

  const char* names[] = {"finite", "one infinity", "one NaN"};
  bool allMatch = true;
  for (int c = 0; c < 3; ++c) {
    std::vector<float> host(rows * cols);
    for (std::size_t i = 0; i < host.size(); ++i)
      host[i] = 0.01f * std::sin(0.3f * float(i)) * 1000.0f;
    if (c == 1) host[7 * cols + 13] = std::numeric_limits<float>::infinity();
    if (c == 2) host[rows * cols - 1] = std::numeric_limits<float>::quiet_NaN();
    std::vector<std::uint16_t> device16(host.size());
    copyFloatToDeviceHalf(target, host.data(), device16.data(), host.size());
    engine.writeTensor("grads", device16.data(), device16.data() + device16.size());
    engine.run(0);
    bool deviceOverflow = false, deviceInvalid = false;
    engine.readTensor("overflow", &deviceOverflow, &deviceOverflow + 1);
    engine.readTensor("invalid", &deviceInvalid, &deviceInvalid + 1);
    bool hostOverflow = false, hostInvalid = false;
    for (float x : host) {
      hostOverflow = hostOverflow || std::isnan(x) || std::isinf(x);
      hostInvalid = hostInvalid || std::isnan(x);
    }
    allMatch = allMatch && deviceOverflow == hostOverflow && deviceInvalid == hostInvalid;
    std::cout << names[c] << ": hasNaNOrInf " << deviceOverflow << ", hasNaN " << deviceInvalid
              << "\n";
  }
  std::cout << (allMatch ? "all checks match the host" : "checks differ from the host") << "\n";
  return allMatch ? EXIT_SUCCESS : EXIT_FAILURE;
}
