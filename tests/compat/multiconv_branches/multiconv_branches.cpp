// Two branches of an inception-style block built as one multi-convolution, the way frameworks
// call PopLibs' multiconv API: a 1x1 and a same-padded 3x3 convolution of one input, their
// tensors created through the multi-convolution, run together, then both weight updates (SGD)
// in one call. Each result is checked against a direct convolution on the host.
#include <cmath>
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MultiConvolution.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

const std::size_t B = 2, Ci = 3, H = 6, W = 5;
const std::size_t Co[2] = {4, 2}, K[2] = {1, 3};
const unsigned P[2] = {0, 1};

/// out[b][o][y][x] (and the weight gradient from zDeltas) of branch `n` on the host.
void hostBranch(std::size_t n, const std::vector<float>& in, const std::vector<float>& w,
                const std::vector<float>& z, std::vector<float>& out, std::vector<float>& dW) {
  const std::size_t co = Co[n], k = K[n], p = P[n];
  out.assign(B * co * H * W, 0.0f);
  dW.assign(co * Ci * k * k, 0.0f);
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t o = 0; o < co; ++o)
      for (std::size_t i = 0; i < Ci; ++i)
        for (std::size_t y = 0; y < H; ++y)
          for (std::size_t x = 0; x < W; ++x)
            for (std::size_t ky = 0; ky < k; ++ky)
              for (std::size_t kx = 0; kx < k; ++kx) {
                const long iy = long(y + ky) - long(p), ix = long(x + kx) - long(p);
                if (iy < 0 || ix < 0 || iy >= long(H) || ix >= long(W)) continue;
                const std::size_t inAt = ((b * Ci + i) * H + std::size_t(iy)) * W + std::size_t(ix);
                const std::size_t wAt = ((o * Ci + i) * k + ky) * k + kx;
                const std::size_t outAt = ((b * co + o) * H + y) * W + x;
                out[outAt] += in[inAt] * w[wAt];
                dW[wAt] += z[outAt] * in[inAt];
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
  ipuModel.tilesPerIPU = 16;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);

  std::vector<poplin::ConvParams> params;
  for (std::size_t n = 0; n < 2; ++n) {
    poplin::ConvParams p(FLOAT, B, {H, W}, {K[n], K[n]}, Ci, Co[n], 1);
    p.inputTransform.paddingLower = {P[n], P[n]};
    p.inputTransform.paddingUpper = {P[n], P[n]};
    params.push_back(p);
  }
  const OptionFlags fwd{{"pass", "TRAINING_FWD"}}, wu{{"pass", "TRAINING_WU"}};
  const OptionFlags multiOptions{{"planType", "parallel"}};
  poplin::PlanningCache cache;

  std::vector<poplin::multiconv::CreateTensorArgs> createArgs;
  createArgs.push_back({params[0], fwd, "branch1x1"});
  createArgs.push_back({params[1], fwd, "branch3x3"});
  Tensor in = poplin::multiconv::createInput(graph, createArgs, 0, multiOptions, &cache);
  std::vector<Tensor> weights;
  for (unsigned n = 0; n < 2; ++n)
    weights.push_back(
        poplin::multiconv::createWeights(graph, createArgs, n, multiOptions, &cache));

  Sequence prog;
  DataStream inStream = graph.addHostToDeviceFIFO("in", FLOAT, in.numElements());
  prog.add(Copy(inStream, in));
  std::vector<poplin::multiconv::ConvolutionArgs> convArgs;
  for (unsigned n = 0; n < 2; ++n) {
    DataStream ws = graph.addHostToDeviceFIFO("w" + std::to_string(n), FLOAT,
                                              weights[n].numElements());
    prog.add(Copy(ws, weights[n]));
    convArgs.push_back({in, weights[n], params[n], fwd});
  }
  std::vector<Tensor> outs =
      poplin::multiconv::convolution(graph, convArgs, false, prog, "block", multiOptions, &cache);

  // The loss gradient of each branch (from the host), and both SGD updates in one call.
  const float learningRate = 0.125f;
  std::vector<poplin::multiconv::ConvWeightUpdateArgsScalar> wuArgs;
  for (unsigned n = 0; n < 2; ++n) {
    Tensor z = graph.clone(outs[n], "zDeltas" + std::to_string(n));
    DataStream zs = graph.addHostToDeviceFIFO("z" + std::to_string(n), FLOAT, z.numElements());
    prog.add(Copy(zs, z));
    poplin::multiconv::ConvWeightUpdateArgsScalar a;
    a.zDeltas = z;
    a.weights = weights[n];
    a.activations = in;
    a.scale = -learningRate;
    a.params = params[n];
    a.options = wu;
    wuArgs.push_back(a);
  }
  for (unsigned n = 0; n < 2; ++n) {
    DataStream os = graph.addDeviceToHostFIFO("out" + std::to_string(n), FLOAT,
                                              outs[n].numElements());
    prog.add(Copy(outs[n], os));
  }
  poplin::multiconv::convolutionWeightUpdate(graph, wuArgs, prog, "update", multiOptions, &cache);
  for (unsigned n = 0; n < 2; ++n) {
    DataStream ws = graph.addDeviceToHostFIFO("newW" + std::to_string(n), FLOAT,
                                              weights[n].numElements());
    prog.add(Copy(weights[n], ws));
  }

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> hostIn(in.numElements());
  for (std::size_t i = 0; i < hostIn.size(); ++i)
    hostIn[i] = float((i * 37) % 19) / 19.0f - 0.5f;
  std::vector<std::vector<float>> hostW(2), hostZ(2), devOut(2), devW(2);
  engine.connectStream("in", hostIn.data());
  for (unsigned n = 0; n < 2; ++n) {
    hostW[n].resize(weights[n].numElements());
    for (std::size_t i = 0; i < hostW[n].size(); ++i)
      hostW[n][i] = float((i * 11 + n) % 13) / 13.0f - 0.5f;
    hostZ[n].resize(outs[n].numElements());
    for (std::size_t i = 0; i < hostZ[n].size(); ++i)
      hostZ[n][i] = float((i * 7 + n) % 17) / 17.0f - 0.5f;
    devOut[n].resize(outs[n].numElements());
    devW[n].resize(hostW[n].size());
    engine.connectStream("w" + std::to_string(n), hostW[n].data());
    engine.connectStream("z" + std::to_string(n), hostZ[n].data());
    engine.connectStream("out" + std::to_string(n), devOut[n].data());
    engine.connectStream("newW" + std::to_string(n), devW[n].data());
  }
  engine.run(0);

  bool ok = true;
  for (unsigned n = 0; n < 2; ++n) {
    std::vector<float> out, dW;
    hostBranch(n, hostIn, hostW[n], hostZ[n], out, dW);
    std::vector<float> newW(hostW[n]);
    for (std::size_t i = 0; i < newW.size(); ++i)
      newW[i] -= learningRate * dW[i];
    const float eOut = maxError(devOut[n], out), eW = maxError(devW[n], newW);
    std::cout << "branch " << K[n] << "x" << K[n] << ": output " << outs[n].shape()[0] << "x"
              << outs[n].shape()[1] << "x" << outs[n].shape()[2] << "x" << outs[n].shape()[3]
              << (eOut < 1e-4f ? ", matches the host" : ", DIFFERS from the host")
              << (eW < 1e-4f ? "; updated weights match the host\n"
                             : "; updated weights DIFFER from the host\n");
    if (!(eOut < 1e-4f && eW < 1e-4f)) {
      std::cerr << "branch " << n << ": max errors " << eOut << ", " << eW << "\n";
      ok = false;
    }
  }
  std::cout << "plans cached: " << cache.size() << "\n";
  return ok ? 0 : 1;
}
