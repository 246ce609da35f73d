// A CTC loss the way public speech-recognition code on the IPU computes it with popnn: a plan,
// planned data and labels, calcLossAndGradientLogits, then a few steps of gradient descent on
// the logits. The host computes each loss on its own with the forward recursion in plain
// probabilities (double precision).
#include <cmath>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <popnn/CTCLoss.hpp>
#include <popnn/codelets.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/codelets.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

const unsigned T = 6, B = 2, C = 4, L = 3, blank = 0;

/// -log p(label | softmax(logits[:, b])) by the forward recursion over the blank-extended label.
double hostLoss(const std::vector<float>& logits, unsigned b, const std::vector<unsigned>& label,
                unsigned steps) {
  std::vector<unsigned> ext(1, blank);
  for (unsigned s : label) {
    ext.push_back(s);
    ext.push_back(blank);
  }
  auto prob = [&](unsigned t, unsigned c) {
    double sum = 0;
    for (unsigned k = 0; k < C; ++k)
      sum += std::exp(double(logits[(t * B + b) * C + k]));
    return std::exp(double(logits[(t * B + b) * C + c])) / sum;
  };
  std::vector<double> alpha(ext.size(), 0.0);
  alpha[0] = prob(0, ext[0]);
  if (ext.size() > 1) alpha[1] = prob(0, ext[1]);
  for (unsigned t = 1; t < steps; ++t) {
    std::vector<double> next(ext.size(), 0.0);
    for (std::size_t s = 0; s < ext.size(); ++s) {
      double a = alpha[s] + (s >= 1 ? alpha[s - 1] : 0.0);
      if (s >= 2 && ext[s] != blank && ext[s] != ext[s - 2]) a += alpha[s - 2];
      next[s] = a * prob(t, ext[s]);
    }
    alpha = next;
  }
  const double p = alpha.back() + (ext.size() > 1 ? alpha[ext.size() - 2] : 0.0);
  return -std::log(p);
}

} // namespace

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);

  const auto plan = popnn::ctc::plan(graph, FLOAT, FLOAT, B, T, L, C);
  Tensor logits = popnn::ctc::createDataInput(graph, FLOAT, B, T, C, plan, "logits");
  Tensor labels = popnn::ctc::createLabelsInput(graph, UNSIGNED_INT, B, L, plan, "labels");
  Tensor dataLengths = graph.addVariable(UNSIGNED_INT, {B}, "dataLengths");
  Tensor labelLengths = graph.addVariable(UNSIGNED_INT, {B}, "labelLengths");
  graph.setTileMapping(dataLengths, 0);
  graph.setTileMapping(labelLengths, 0);

  Sequence step;
  Tensor loss, grad;
  std::tie(loss, grad) = popnn::ctc::calcLossAndGradientLogits(
      graph, FLOAT, logits, labels, dataLengths, labelLengths, step, blank, plan, "ctc");
  popops::scaledSubtractFrom(graph, logits, grad, 0.5f, step, "sgd");
  graph.createHostWrite("logits", logits);
  graph.createHostWrite("labels", labels);
  graph.createHostWrite("dataLengths", dataLengths);
  graph.createHostWrite("labelLengths", labelLengths);
  graph.createHostRead("loss", loss);
  graph.createHostRead("logitsOut", logits);

  // Entry 0: "1 1 2" (a repeat needs a blank between); entry 1: "3", in 4 of the 6 steps.
  const std::vector<std::vector<unsigned>> label = {{1, 1, 2}, {3}};
  const std::vector<unsigned> steps = {6, 4};
  std::vector<float> x(T * B * C);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = float(std::sin(double(i) * 1.3));
  std::vector<unsigned> labelsIn = {1, 1, 2, 3, 0, 0}, lengths = {3, 1};

  Engine engine(graph, step);
  engine.load(device);
  engine.writeTensor("labels", labelsIn.data(), labelsIn.data() + labelsIn.size());
  engine.writeTensor("dataLengths", steps.data(), steps.data() + steps.size());
  engine.writeTensor("labelLengths", lengths.data(), lengths.data() + lengths.size());

  bool matches = true, decreases = true;
  std::vector<double> first, last;
  for (int it = 0; it < 4; ++it) {
    engine.writeTensor("logits", x.data(), x.data() + x.size());
    engine.run(0);
    std::vector<float> l(B);
    engine.readTensor("loss", l.data(), l.data() + l.size());
    for (unsigned b = 0; b < B; ++b) {
      const double h = hostLoss(x, b, label[b], steps[b]);
      matches = matches && std::fabs(l[b] - h) <= 1e-4 * (1 + h);
      if (it > 0) decreases = decreases && l[b] < last[b];
    }
    last.assign(l.begin(), l.end());
    if (it == 0) first = last;
    engine.readTensor("logitsOut", x.data(), x.data() + x.size());
  }
  std::cout << (matches ? "losses match the host's forward recursion"
                        : "losses differ from the host's")
            << "\n";
  std::cout << (decreases ? "gradient descent lowers every entry's loss"
                          : "a step did not lower a loss")
            << "\n";
  return matches && decreases ? 0 : 1;
}
