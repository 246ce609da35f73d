// A GRU trained a few SGD steps, written the way public Poplar code uses popnn::gru: the
// layer's tensors from createWeights/createInitialState/createInput, gruFwd over the sequence,
// the loss gradient with popops, gruBwdWithWU and scaledSubtractFrom. It regresses the last
// output of a short sequence onto a target. The host trains the same network on its own: the
// forward pass in double precision and gradients by central finite differences.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Gru.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;
namespace gru = popnn::gru;

namespace {

const std::size_t T = 5, B = 2, I = 3, H = 4;
const float learningRate = 0.5f;

// The host's network: weights [3,I,H], [3,H,H], biases [3,H] (reset, update, candidate).
struct Net {
  std::vector<double> wIn, wOut, bias;
};

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// 0.5 * sum over batch and units of (last output - target)^2.
double hostLoss(const Net& n, const std::vector<float>& x, const std::vector<float>& target) {
  double loss = 0;
  for (std::size_t b = 0; b < B; ++b) {
    std::vector<double> h(H, 0);
    for (std::size_t t = 0; t < T; ++t) {
      const float* xt = &x[(t * B + b) * I];
      auto inPart = [&](std::size_t u, std::size_t j) {
        double s = n.bias[u * H + j];
        for (std::size_t k = 0; k < I; ++k)
          s += xt[k] * n.wIn[(u * I + k) * H + j];
        return s;
      };
      auto recPart = [&](std::size_t u, std::size_t j, const std::vector<double>& v) {
        double s = 0;
        for (std::size_t k = 0; k < H; ++k)
          s += v[k] * n.wOut[(u * H + k) * H + j];
        return s;
      };
      std::vector<double> r(H), z(H), rh(H), next(H);
      for (std::size_t j = 0; j < H; ++j) {
        r[j] = sigmoid(inPart(0, j) + recPart(0, j, h));
        z[j] = sigmoid(inPart(1, j) + recPart(1, j, h));
        rh[j] = r[j] * h[j];
      }
      for (std::size_t j = 0; j < H; ++j) {
        const double c = std::tanh(inPart(2, j) + recPart(2, j, rh));
        next[j] = z[j] * h[j] + (1 - z[j]) * c;
      }
      h = next;
    }
    for (std::size_t j = 0; j < H; ++j)
      loss += 0.5 * (h[j] - target[b * H + j]) * (h[j] - target[b * H + j]);
  }
  return loss;
}

void hostStep(Net& n, const std::vector<float>& x, const std::vector<float>& target) {
  Net grad = n;
  std::vector<double>* params[] = {&n.wIn, &n.wOut, &n.bias};
  std::vector<double>* grads[] = {&grad.wIn, &grad.wOut, &grad.bias};
  const double eps = 1e-5;
  for (int p = 0; p < 3; ++p)
    for (std::size_t i = 0; i < params[p]->size(); ++i) {
      const double keep = (*params[p])[i];
      (*params[p])[i] = keep + eps;
      const double up = hostLoss(n, x, target);
      (*params[p])[i] = keep - eps;
      const double down = hostLoss(n, x, target);
      (*params[p])[i] = keep;
      (*grads[p])[i] = (up - down) / (2 * eps);
    }
  for (int p = 0; p < 3; ++p)
    for (std::size_t i = 0; i < params[p]->size(); ++i)
      (*params[p])[i] -= learningRate * (*grads[p])[i];
}

std::vector<float> values(std::size_t n, float scale, unsigned seed) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = scale * std::sin(float(seed * 131 + i * 7 + 1));
  return v;
}

bool close(double a, double b, double tol) { return std::fabs(a - b) <= tol * (1 + std::fabs(b)); }

} // namespace

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);

  gru::GruParams params(FLOAT, B, T, {I, H});
  params.outputFullSequence = false; // only the last step's output meets the loss
  poplar::OptionFlags options{{"inferenceOnly", "false"}, {"partialsType", "float"}};
  gru::GruWeights weights = gru::createWeights(graph, params, "weights", options);
  Tensor init = gru::createInitialState(graph, params, "initialState", options, nullptr);
  Tensor input = gru::createInput(graph, params, "input", options);
  Tensor target = graph.addVariable(FLOAT, {B, H}, "target");
  poputil::mapTensorLinearly(graph, target);

  Sequence trainStep;
  popops::zero(graph, init, trainStep, "zeroState");
  Tensor intermediates;
  Tensor out = gru::gruFwd(graph, params, init, input, weights, &intermediates, trainStep, "fwd",
                           options);
  Tensor outputGrad = popops::sub(graph, out, target, trainStep, "lossGrad");
  gru::GruWeights weightsGrad;
  gru::gruBwdWithWU(graph, params, trainStep, init, intermediates, weights, input, out,
                    outputGrad, nullptr, weightsGrad, "bwd", options, nullptr);
  popops::scaledSubtractFrom(graph, weights.inputWeights, weightsGrad.inputWeights, learningRate,
                             trainStep, "sgd");
  popops::scaledSubtractFrom(graph, weights.outputWeights, weightsGrad.outputWeights,
                             learningRate, trainStep, "sgd");
  popops::scaledSubtractFrom(graph, weights.biases, weightsGrad.biases, learningRate, trainStep,
                             "sgd");

  graph.createHostWrite("wIn", weights.inputWeights);
  graph.createHostWrite("wOut", weights.outputWeights);
  graph.createHostWrite("bias", weights.biases);
  graph.createHostWrite("input", input);
  graph.createHostWrite("target", target);
  graph.createHostRead("output", out);
  graph.createHostRead("trainedWOut", weights.outputWeights);

  Engine engine(graph, trainStep);
  engine.load(device);

  const auto x = values(T * B * I, 1.0f, 1), y = values(B * H, 0.6f, 2);
  const auto wIn = values(3 * I * H, 0.5f, 3), wOut = values(3 * H * H, 0.4f, 4);
  const auto bias = values(3 * H, 0.1f, 5);
  engine.writeTensor("wIn", wIn.data(), wIn.data() + wIn.size());
  engine.writeTensor("wOut", wOut.data(), wOut.data() + wOut.size());
  engine.writeTensor("bias", bias.data(), bias.data() + bias.size());
  engine.writeTensor("input", x.data(), x.data() + x.size());
  engine.writeTensor("target", y.data(), y.data() + y.size());
  Net net{std::vector<double>(wIn.begin(), wIn.end()), std::vector<double>(wOut.begin(), wOut.end()),
          std::vector<double>(bias.begin(), bias.end())};

  bool ok = true;
  double firstLoss = 0, lastLoss = 0;
  std::vector<float> output(B * H);
  const int steps = 5;
  for (int step = 1; step <= steps; ++step) {
    engine.run(0);
    engine.readTensor("output", output.data(), output.data() + output.size());
    double deviceLoss = 0;
    for (std::size_t i = 0; i < output.size(); ++i)
      deviceLoss += 0.5 * (output[i] - y[i]) * (output[i] - y[i]);
    const double hostLossBefore = hostLoss(net, x, y);
    hostStep(net, x, y);
    if (close(deviceLoss, hostLossBefore, 1e-4)) {
      std::cout << "step " << step << ": device loss matches the host\n";
    } else {
      std::cout << "step " << step << ": device loss " << deviceLoss << ", host " << hostLossBefore
                << "\n";
      ok = false;
    }
    if (step == 1) firstLoss = deviceLoss;
    lastLoss = deviceLoss;
  }
  std::vector<float> trained(3 * H * H);
  engine.readTensor("trainedWOut", trained.data(), trained.data() + trained.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < trained.size(); ++i)
    differ += !close(trained[i], net.wOut[i], 1e-3);
  if (differ)
    std::cout << differ << " of " << trained.size() << " recurrent weights differ from the host\n";
  else
    std::cout << "weights after " << steps << " steps match the host\n";
  std::cout << (lastLoss < firstLoss ? "the loss went down\n" : "the loss did not go down\n");
  return ok && !differ && lastLoss < firstLoss ? EXIT_SUCCESS : EXIT_FAILURE;
}
