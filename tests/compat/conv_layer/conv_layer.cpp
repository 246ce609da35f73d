// A convolution layer as a training program builds it with PopLibs: a 3x3 convolution with
// padding 1 and stride 2 over a batch of images, its input gradient (the backward pass) and a
// weight update with SGD, each checked against a direct convolution on the host.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

const std::size_t B = 2, Ci = 3, Co = 4, H = 8, W = 7, K = 3, S = 2, P = 1;
const std::size_t OH = (H + 2 * P - K) / S + 1, OW = (W + 2 * P - K) / S + 1;

std::size_t inAt(std::size_t b, std::size_t c, std::size_t y, std::size_t x) {
  return ((b * Ci + c) * H + y) * W + x;
}
std::size_t outAt(std::size_t b, std::size_t c, std::size_t y, std::size_t x) {
  return ((b * Co + c) * OH + y) * OW + x;
}
std::size_t wAt(std::size_t o, std::size_t i, std::size_t ky, std::size_t kx) {
  return ((o * Ci + i) * K + ky) * K + kx;
}

/// Calls f(input index, weight index, output index) for every multiply-add of the convolution.
template <typename F> void forEachMac(F f) {
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t o = 0; o < Co; ++o)
      for (std::size_t i = 0; i < Ci; ++i)
        for (std::size_t oy = 0; oy < OH; ++oy)
          for (std::size_t ox = 0; ox < OW; ++ox)
            for (std::size_t ky = 0; ky < K; ++ky)
              for (std::size_t kx = 0; kx < K; ++kx) {
                const long y = long(oy * S + ky) - long(P), x = long(ox * S + kx) - long(P);
                if (y < 0 || x < 0 || y >= long(H) || x >= long(W)) continue;
                f(inAt(b, i, std::size_t(y), std::size_t(x)), wAt(o, i, ky, kx),
                  outAt(b, o, oy, ox));
              }
}

float maxError(const std::vector<float>& a, const std::vector<float>& b) {
  float e = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    e = std::max(e, std::fabs(a[i] - b[i]));
  return e;
}

} // namespace

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 32;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);

  poplin::ConvParams params(FLOAT, B, {H, W}, {K, K}, Ci, Co, 1);
  params.inputTransform.paddingLower = {P, P};
  params.inputTransform.paddingUpper = {P, P};
  params.outputTransform.stride = {S, S};
  const OptionFlags fwdOptions{{"pass", "TRAINING_FWD"}};
  poplin::PlanningCache cache;

  Tensor in = poplin::createInput(graph, params, "in", fwdOptions, &cache);
  Tensor weights = poplin::createWeights(graph, params, "weights", fwdOptions, &cache);
  const poplin::ConvParams bwdParams = poplin::getGradientParams(params);
  Tensor zDeltas = poplin::createInput(graph, bwdParams, "zDeltas", {{"pass", "TRAINING_BWD"}},
                                       &cache);

  DataStream inStream = graph.addHostToDeviceFIFO("in", FLOAT, in.numElements());
  DataStream wStream = graph.addHostToDeviceFIFO("weights", FLOAT, weights.numElements());
  DataStream zStream = graph.addHostToDeviceFIFO("zDeltas", FLOAT, zDeltas.numElements());

  Sequence prog;
  prog.add(Copy(inStream, in));
  prog.add(Copy(wStream, weights));
  prog.add(Copy(zStream, zDeltas));
  Tensor out = poplin::convolution(graph, in, weights, params, false, prog, "fwd", fwdOptions,
                                   &cache);
  Tensor inGrad = poplin::convolution(graph, zDeltas, weights, bwdParams, true, prog, "bwd",
                                      {{"pass", "TRAINING_BWD"}}, &cache);
  const float learningRate = 0.25f;
  poplin::convolutionWeightUpdate(graph, zDeltas, weights, in, params, -learningRate, prog, "wu",
                                  {{"pass", "TRAINING_WU"}}, &cache);

  DataStream outStream = graph.addDeviceToHostFIFO("out", FLOAT, out.numElements());
  DataStream gradStream = graph.addDeviceToHostFIFO("inGrad", FLOAT, inGrad.numElements());
  DataStream newWStream = graph.addDeviceToHostFIFO("newWeights", FLOAT, weights.numElements());
  prog.add(Copy(out, outStream));
  prog.add(Copy(inGrad, gradStream));
  prog.add(Copy(weights, newWStream));

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> hostIn(B * Ci * H * W), hostW(Co * Ci * K * K), hostZ(B * Co * OH * OW);
  for (std::size_t i = 0; i < hostIn.size(); ++i)
    hostIn[i] = float((i * 37) % 19) / 19.0f - 0.5f;
  for (std::size_t i = 0; i < hostW.size(); ++i)
    hostW[i] = float((i * 11) % 13) / 13.0f - 0.5f;
  for (std::size_t i = 0; i < hostZ.size(); ++i)
    hostZ[i] = float((i * 7) % 17) / 17.0f - 0.5f;
  std::vector<float> devOut(hostZ.size()), devGrad(hostIn.size()), devW(hostW.size());
  engine.connectStream("in", hostIn.data());
  engine.connectStream("weights", hostW.data());
  engine.connectStream("zDeltas", hostZ.data());
  engine.connectStream("out", devOut.data());
  engine.connectStream("inGrad", devGrad.data());
  engine.connectStream("newWeights", devW.data());
  engine.run(0);

  // The same three passes on the host.
  std::vector<float> out_(devOut.size()), grad_(devGrad.size()), wDelta(hostW.size());
  forEachMac([&](std::size_t i, std::size_t k, std::size_t o) {
    out_[o] += hostIn[i] * hostW[k];
    grad_[i] += hostZ[o] * hostW[k];
    wDelta[k] += hostZ[o] * hostIn[i];
  });
  std::vector<float> newW(hostW);
  for (std::size_t k = 0; k < newW.size(); ++k)
    newW[k] -= learningRate * wDelta[k];

  std::cout << "output " << B << "x" << Co << "x" << OH << "x" << OW << "\n";
  bool ok = true;
  const struct {
    const char* name;
    const std::vector<float>& device;
    const std::vector<float>& host;
  } checks[] = {{"forward", devOut, out_}, {"input gradient", devGrad, grad_},
                {"updated weights", devW, newW}};
  for (const auto& c : checks) {
    const float e = maxError(c.device, c.host);
    std::cout << c.name << (e < 1e-4f ? ": matches the host" : ": DIFFERS from the host") << "\n";
    if (!(e < 1e-4f)) {
      std::cerr << c.name << ": max error " << e << "\n";
      ok = false;
    }
  }
  std::cout << "plans cached: " << cache.size() << "\n";
  return ok ? 0 : 1;
}
