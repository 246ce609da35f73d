#include "Mlp.hpp"

#include "Dataset.hpp"

#include <cmath>
#include <poplin/MatMul.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>
#include <random>

using namespace poplar;
using namespace poplar::program;

namespace {

/// Glorot-uniform initial weights, from a fixed seed so runs are reproducible.
std::vector<float> glorot(std::size_t fanIn, std::size_t fanOut, std::uint32_t seed) {
  std::mt19937 rng(seed);
  const float limit = std::sqrt(6.0f / float(fanIn + fanOut));
  std::uniform_real_distribution<float> dist(-limit, limit);
  std::vector<float> w(fanIn * fanOut);
  for (auto& x : w)
    x = dist(rng);
  return w;
}

struct Dense {
  Tensor weights, bias;
};

Dense makeDense(Graph& graph, std::size_t batch, std::size_t in, std::size_t out,
                std::uint32_t seed, const DebugContext& dc) {
  Dense d;
  d.weights = poplin::createMatMulInputRHS(graph, FLOAT, {batch, in}, {in, out}, {dc, "weights"});
  d.bias = graph.addVariable(FLOAT, {out}, {dc, "bias"});
  poputil::mapTensorLinearly(graph, d.bias);
  graph.setInitialValue(d.weights, glorot(in, out, seed));
  graph.setInitialValue(d.bias, 0.0f);
  return d;
}

/// weights -= lr * dW, bias -= lr * sum over the batch of dOut.
void sgdUpdate(Graph& graph, const Dense& layer, const Tensor& input, const Tensor& dOut, float lr,
               Sequence& prog, const DebugContext& dc) {
  const Tensor dW = poplin::matMul(graph, input.transpose(), dOut, prog, {dc, "dWeights"});
  const Tensor dB = popops::reduce(graph, dOut, {0}, popops::ReduceParams(popops::Operation::ADD),
                                   prog, {dc, "dBias"});
  popops::scaledAddTo(graph, layer.weights, dW, -lr, prog, {dc, "updateWeights"});
  popops::scaledAddTo(graph, layer.bias, dB, -lr, prog, {dc, "updateBias"});
}

} // namespace

Sequence buildTrainingStep(Graph& graph, const MlpConfig& config) {
  const std::size_t B = config.batchSize, H = config.hidden;
  const std::size_t P = Dataset::kPixels, C = Dataset::kClasses;
  Sequence prog({}, "trainingStep");

  // Inputs arrive from the host each step.
  const Tensor images = poplin::createMatMulInputLHS(graph, FLOAT, {B, P}, {P, H}, "images");
  const Tensor labels = graph.addVariable(UNSIGNED_INT, {B}, "labels");
  poputil::mapTensorLinearly(graph, labels);
  prog.add(Copy(graph.addHostToDeviceFIFO("images", FLOAT, B * P), images));
  prog.add(Copy(graph.addHostToDeviceFIFO("labels", UNSIGNED_INT, B), labels));

  const Dense layer1 = makeDense(graph, B, P, H, 1, "layer1");
  const Dense layer2 = makeDense(graph, B, H, C, 2, "layer2");

  // Forward.
  const DebugContext fwd("fwd");
  Tensor hidden = poplin::matMul(graph, images, layer1.weights, prog, {fwd, "layer1/matmul"});
  popops::addInPlace(graph, hidden, layer1.bias, prog, {fwd, "layer1/bias"});
  popnn::nonLinearityInPlace(graph, popnn::NonLinearityType::RELU, hidden, prog,
                             {fwd, "layer1/relu"});
  Tensor logits = poplin::matMul(graph, hidden, layer2.weights, prog, {fwd, "layer2/matmul"});
  popops::addInPlace(graph, logits, layer2.bias, prog, {fwd, "layer2/bias"});
  const Tensor probs = popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX_STABLE, logits,
                                           prog, {fwd, "softmax"});

  // Loss: per-sample cross entropy, its gradient with respect to the logits, and accuracy.
  const Tensor loss = graph.addVariable(FLOAT, {B}, "loss");
  const Tensor deltas = graph.clone(probs, "deltas");
  const Tensor correct = graph.addVariable(UNSIGNED_INT, {}, "correct");
  poputil::mapTensorLinearly(graph, loss);
  graph.setTileMapping(correct, 0);
  // calcLoss adds this batch's correct predictions to `correct` (as PopLibs does): start at 0.
  popops::zero(graph, correct, prog, "zeroCorrect");
  prog.add(popnn::calcLoss(graph, probs, labels, loss, deltas, correct,
                           popnn::LossType::CROSS_ENTROPY_LOSS, "loss"));

  // Backward: gradients flow from the logits to layer 1; the mean over the batch is folded into
  // the learning rate.
  const DebugContext bwd("bwd");
  const float lr = config.learningRate / float(B);
  const Tensor dHidden =
      poplin::matMul(graph, deltas, layer2.weights.transpose(), prog, {bwd, "layer2/dInput"});
  const Tensor dHiddenPre = popnn::nonLinearityInputGradient(
      graph, popnn::NonLinearityType::RELU, hidden, dHidden, prog, {bwd, "layer1/relu"});
  sgdUpdate(graph, layer2, hidden, deltas, lr, prog, {bwd, "layer2"});
  sgdUpdate(graph, layer1, images, dHiddenPre, lr, prog, {bwd, "layer1"});

  prog.add(Copy(loss, graph.addDeviceToHostFIFO("loss", FLOAT, B)));
  prog.add(Copy(correct, graph.addDeviceToHostFIFO("correct", UNSIGNED_INT, 1)));
  return prog;
}
