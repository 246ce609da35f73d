// A batch-norm layer of a convolutional network in training: statistics over the batch and
// the field, normalisation with gamma and beta, the input gradient through the statistics and
// the parameter update, each checked against the same arithmetic on the host.
#include <cmath>
#include <iostream>
#include <tuple>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/Norms.hpp>
#include <poplin/codelets.hpp>
#include <popnn/BatchNorm.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 16;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);

  const std::size_t N = 4, C = 3, H = 3, W = 2, F = H * W;
  const float eps = 1e-5f, learningRate = 0.5f;
  Tensor acts = graph.addVariable(FLOAT, {N, C, H, W}, "acts");
  Tensor gradOut = graph.addVariable(FLOAT, {N, C, H, W}, "gradOut");
  poputil::mapTensorLinearly(graph, acts);
  poputil::mapTensorLinearly(graph, gradOut);
  Tensor gamma, beta;
  std::tie(gamma, beta) = poplin::createNormParams(graph, acts, "bn");

  Sequence prog;
  graph.createHostWrite("acts", acts);
  graph.createHostWrite("gradOut", gradOut);
  graph.createHostWrite("gammaIn", gamma);
  graph.createHostWrite("betaIn", beta);
  auto stats = popnn::bn::batchNormStatistics(graph, acts, eps, prog, false, false, FLOAT, "bn");
  auto normalised = popnn::bn::batchNormalise(graph, acts, gamma, beta, stats.first, stats.second,
                                              prog, "bn");
  Tensor gradIn = popnn::bn::batchNormGradients(graph, normalised.second, gradOut, stats.second,
                                                gamma, prog, FLOAT, "bnGrad");
  auto deltas = popnn::bn::batchNormParamGradients(graph, normalised.second, gradOut, prog,
                                                   FLOAT, "bnParamGrad");
  popnn::bn::batchNormParamUpdate(graph, deltas.first, deltas.second, -learningRate, gamma, beta,
                                  prog, "bnUpdate");
  graph.createHostRead("out", normalised.first);
  graph.createHostRead("gradIn", gradIn);
  graph.createHostRead("gamma", gamma);
  graph.createHostRead("beta", beta);

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> x(N * C * F), g(N * C * F), gm = {1.0f, 0.5f, 2.0f}, bt = {0.0f, 1.0f, -1.0f};
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = float((i * 29) % 23) / 7.0f + float(i % C);
    g[i] = float((i * 13) % 11) / 11.0f - 0.5f;
  }
  engine.writeTensor("acts", x.data(), x.data() + x.size());
  engine.writeTensor("gradOut", g.data(), g.data() + g.size());
  engine.writeTensor("gammaIn", gm.data(), gm.data() + C);
  engine.writeTensor("betaIn", bt.data(), bt.data() + C);
  engine.run(0);
  std::vector<float> out(x.size()), gradDev(x.size()), gamma1(C), beta1(C);
  engine.readTensor("out", out.data(), out.data() + out.size());
  engine.readTensor("gradIn", gradDev.data(), gradDev.data() + gradDev.size());
  engine.readTensor("gamma", gamma1.data(), gamma1.data() + C);
  engine.readTensor("beta", beta1.data(), beta1.data() + C);

  // The host: per channel statistics over the batch and the field.
  const double count = double(N * F);
  float errOut = 0, errGrad = 0, errParams = 0;
  for (std::size_t c = 0; c < C; ++c) {
    double mean = 0, var = 0, dBeta = 0, dGamma = 0, meanDw = 0, meanDwW = 0;
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t f = 0; f < F; ++f)
        mean += x[(n * C + c) * F + f];
    mean /= count;
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t f = 0; f < F; ++f)
        var += std::pow(x[(n * C + c) * F + f] - mean, 2);
    const double istd = 1.0 / std::sqrt(var / count + eps);
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t f = 0; f < F; ++f) {
        const std::size_t i = (n * C + c) * F + f;
        const double w = (x[i] - mean) * istd;
        errOut = std::max(errOut, float(std::fabs(gm[c] * w + bt[c] - out[i])));
        dBeta += g[i];
        dGamma += g[i] * w;
        meanDw += g[i] * gm[c] / count;
        meanDwW += g[i] * gm[c] * w / count;
      }
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t f = 0; f < F; ++f) {
        const std::size_t i = (n * C + c) * F + f;
        const double w = (x[i] - mean) * istd;
        const double dx = istd * (g[i] * gm[c] - meanDw - w * meanDwW);
        errGrad = std::max(errGrad, float(std::fabs(dx - gradDev[i])));
      }
    errParams = std::max(errParams, float(std::fabs(gm[c] - learningRate * dGamma - gamma1[c])));
    errParams = std::max(errParams, float(std::fabs(bt[c] - learningRate * dBeta - beta1[c])));
  }
  const bool ok = errOut < 1e-4f && errGrad < 1e-4f && errParams < 1e-4f;
  std::cout << "normalised activations " << (errOut < 1e-4f ? "match" : "DIFFER") << "\n"
            << "input gradient " << (errGrad < 1e-4f ? "matches" : "DIFFERS") << "\n"
            << "gamma and beta after the update " << (errParams < 1e-4f ? "match" : "DIFFER")
            << "\n";
  if (!ok)
    std::cerr << "errors: out " << errOut << ", gradient " << errGrad << ", params " << errParams
              << "\n";
  return ok ? 0 : 1;
}
