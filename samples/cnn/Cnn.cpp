#include "Cnn.hpp"

#include "../mlp/Dataset.hpp"

#include <cmath>
#include <gcl/Collectives.hpp>
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/Norms.hpp>
#include <popnn/BatchNorm.hpp>
#include <popnn/LogSoftmax.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/Pooling.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poprand/RandomGen.hpp>
#include <poputil/TileMapping.hpp>
#include <random>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

std::vector<float> cnnInitialWeights(std::size_t n, std::size_t fanIn, std::uint32_t seed) {
  std::mt19937 rng(seed);
  const float limit = std::sqrt(6.0f / float(fanIn));
  std::uniform_real_distribution<float> dist(-limit, limit);
  std::vector<float> w(n);
  for (auto& x : w)
    x = dist(rng);
  return w;
}

namespace {

constexpr std::size_t kSide = 28; // Dataset images are 28x28
constexpr float kEps = 1e-5f;
constexpr std::uint32_t kDropoutModifier = 0xD0;

/// A 3x3 convolution with padding 1 (the field keeps its size), then batch norm and ReLU.
struct ConvBlock {
  poplin::ConvParams params;
  Tensor weights, gamma, beta;
  // Saved by the forward pass for the backward pass.
  Tensor input, whitened, invStdDev, activation;
};

ConvBlock makeConvBlock(Graph& graph, std::size_t batch, std::size_t side, std::size_t in,
                        std::size_t out, std::uint32_t seed, poplin::PlanningCache& cache,
                        const DebugContext& dc) {
  ConvBlock b;
  b.params = poplin::ConvParams(FLOAT, batch, {side, side}, {3, 3}, in, out, 1);
  b.params.inputTransform.paddingLower = {1, 1};
  b.params.inputTransform.paddingUpper = {1, 1};
  b.weights =
      poplin::createWeights(graph, b.params, {dc, "weights"}, {{"pass", "TRAINING_FWD"}}, &cache);
  graph.setInitialValue(b.weights, cnnInitialWeights(b.weights.numElements(), in * 9, seed));
  return b;
}

/// conv -> batch norm -> ReLU, keeping what the backward pass needs.
Tensor convBlockForward(Graph& graph, ConvBlock& b, const Tensor& in, Sequence& prog,
                        poplin::PlanningCache& cache, const DebugContext& dc) {
  b.input = in;
  const Tensor z = poplin::convolution(graph, in, b.weights, b.params, false, prog, {dc, "conv"},
                                       {{"pass", "TRAINING_FWD"}}, &cache);
  if (!b.gamma.valid()) {
    std::tie(b.gamma, b.beta) = poplin::createNormParams(graph, z, {dc, "bn"});
    graph.setInitialValue(b.gamma, 1.0f);
    graph.setInitialValue(b.beta, 0.0f);
  }
  const auto stats = popnn::bn::batchNormStatistics(graph, z, kEps, prog, false, false, FLOAT,
                                                    {dc, "bnStatistics"});
  const auto normalised = popnn::bn::batchNormalise(graph, z, b.gamma, b.beta, stats.first,
                                                    stats.second, prog, {dc, "bn"});
  b.whitened = normalised.second;
  b.invStdDev = stats.second;
  popnn::nonLinearityInPlace(graph, popnn::NonLinearityType::RELU, normalised.first, prog,
                             {dc, "relu"});
  b.activation = normalised.first;
  return normalised.first;
}

/// The parameters and their gradients, in the same order: the gradients are all-reduced across
/// the replicas together, then each parameter takes its SGD step.
struct Gradients {
  std::vector<Tensor> params;
  std::vector<Tensor> grads; // non-const: all-reduced in place
  std::vector<std::string> names;
  void add(const Tensor& param, const Tensor& grad, const std::string& name) {
    params.push_back(param);
    grads.push_back(grad);
    names.push_back(name);
  }
};

/// The backward pass of a block given the gradient of its output: records the gradients of its
/// weights and batch-norm parameters and returns the gradient of its input (unless
/// `needInputGradient` is false). Nothing is updated here: the replicas average first.
Tensor convBlockBackward(Graph& graph, ConvBlock& b, const Tensor& dOut, bool needInputGradient,
                         Gradients& g, const std::string& name, Sequence& prog,
                         poplin::PlanningCache& cache, const DebugContext& dc) {
  const Tensor dNorm = popnn::nonLinearityInputGradient(graph, popnn::NonLinearityType::RELU,
                                                        b.activation, dOut, prog, {dc, "relu"});
  const Tensor dZ = popnn::bn::batchNormGradients(graph, b.whitened, dNorm, b.invStdDev, b.gamma,
                                                  prog, FLOAT, {dc, "bn"});
  const auto deltas =
      popnn::bn::batchNormParamGradients(graph, b.whitened, dNorm, prog, FLOAT, {dc, "bnParams"});
  g.add(b.gamma, deltas.first, name + "/gamma");
  g.add(b.beta, deltas.second, name + "/beta");
  Tensor dIn;
  if (needInputGradient)
    dIn = poplin::convolution(graph, dZ, b.weights, poplin::getGradientParams(b.params), true, prog,
                              {dc, "convInputGradient"}, {{"pass", "TRAINING_BWD"}}, &cache);
  g.add(b.weights,
        poplin::calculateWeightDeltas(graph, dZ, b.input, b.params, prog, {dc, "convWeightDeltas"},
                                      {{"pass", "TRAINING_WU"}}, &cache),
        name + "/weights");
  return dIn;
}

/// Inverted dropout with a seeded mask: the mask depends only on the seed's value, the modifier
/// and the reference's layout, so the backward pass (same seed and reference) drops the same
/// elements of the gradient. keepProbability 1 is the identity.
Tensor dropout(Graph& graph, const Tensor& seed, const Tensor& in, const Tensor& reference,
               float keepProbability, Sequence& prog, const DebugContext& dc) {
  if (keepProbability >= 1.0f) return in;
  return poprand::dropout(graph, &seed, kDropoutModifier, in, reference, keepProbability,
                          1.0 / keepProbability, prog, dc);
}

popnn::pooling::PoolParams pool2x2(popnn::PoolingType type, std::size_t side, std::size_t channels,
                                   std::size_t batch) {
  return popnn::pooling::PoolParams(type, {side, side}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, channels,
                                    batch, FLOAT);
}

} // namespace

Sequence buildCnnTrainingStep(Graph& graph, const CnnConfig& config) {
  const std::size_t B = config.batchSize, c1 = config.channels1, c2 = config.channels2;
  const std::size_t C = Dataset::kClasses;
  const std::size_t side2 = kSide / 2, side3 = kSide / 4, flat = c2 * side3 * side3;
  poplin::PlanningCache cache;
  Sequence prog({}, "trainingStep");

  ConvBlock block1 = makeConvBlock(graph, B, kSide, 1, c1, 1, cache, "block1");
  ConvBlock block2 = makeConvBlock(graph, B, side2, c1, c2, 2, cache, "block2");
  const Tensor dense =
      poplin::createMatMulInputRHS(graph, FLOAT, {B, flat}, {flat, C}, "dense/weights");
  graph.setInitialValue(dense, cnnInitialWeights(dense.numElements(), flat, 3));
  const Tensor denseBias = graph.addVariable(FLOAT, {C}, "dense/bias");
  poputil::mapTensorLinearly(graph, denseBias);
  graph.setInitialValue(denseBias, 0.0f);

  // Inputs arrive from the host each step.
  const Tensor images =
      poplin::createInput(graph, block1.params, "images", {{"pass", "TRAINING_FWD"}}, &cache);
  const Tensor labels = graph.addVariable(UNSIGNED_INT, {B}, "labels");
  poputil::mapTensorLinearly(graph, labels);
  prog.add(Copy(graph.addHostToDeviceFIFO("images", FLOAT, images.numElements()), images));
  prog.add(Copy(graph.addHostToDeviceFIFO("labels", UNSIGNED_INT, B), labels));
  // Two dropout seeds per step; each replica's stream gives its own, so the masks differ.
  const Tensor seed = graph.addVariable(UNSIGNED_INT, {2}, "dropoutSeed");
  graph.setTileMapping(seed, 0);
  prog.add(Copy(graph.addHostToDeviceFIFO("seed", UNSIGNED_INT, 2), seed));

  // Forward.
  const DebugContext fwd("fwd");
  const auto maxPool = pool2x2(popnn::PoolingType::MAX, kSide, c1, B);
  const auto avgPool = pool2x2(popnn::PoolingType::AVG, side2, c2, B);
  const Tensor a1 = convBlockForward(graph, block1, images, prog, cache, {fwd, "block1"});
  const Tensor p1 = popnn::pooling::pool(graph, maxPool, a1, prog, {fwd, "maxPool"});
  const Tensor a2 = convBlockForward(graph, block2, p1, prog, cache, {fwd, "block2"});
  const Tensor p2 = popnn::pooling::pool(graph, avgPool, a2, prog, {fwd, "avgPool"});
  const Tensor features = p2.reshape({B, flat});
  const Tensor dropped =
      dropout(graph, seed, features, features, config.keepProbability, prog, {fwd, "dropout"});
  const Tensor logits = poplin::matMul(graph, dropped, dense, prog, {fwd, "dense"});
  popops::addInPlace(graph, logits, denseBias, prog, {fwd, "dense/bias"});
  const Tensor logProbs = popnn::logSoftmax(graph, logits, prog, {fwd, "logSoftmax"});
  const Tensor probs = popops::exp(graph, logProbs, prog, {fwd, "probabilities"});

  // Loss: per-sample cross entropy (-log p[label]), its gradient with respect to the logits
  // (p - onehot), and the number of correct predictions.
  const Tensor loss = graph.addVariable(FLOAT, {B}, "loss");
  const Tensor deltas = graph.clone(probs, "deltas");
  Tensor correct = graph.addVariable(UNSIGNED_INT, {1}, "correct");
  poputil::mapTensorLinearly(graph, loss);
  graph.setTileMapping(correct, 0);
  // calcLoss adds this batch's correct predictions to `correct` (as PopLibs does): start at 0.
  popops::zero(graph, correct, prog, "zeroCorrect");
  prog.add(popnn::calcLoss(graph, probs, labels, loss, deltas, correct,
                           popnn::LossType::CROSS_ENTROPY_LOSS, "loss"));

  // Backward; the mean over the batch is folded into the learning rate.
  const DebugContext bwd("bwd");
  const float lr = config.learningRate / float(B);
  Gradients g;
  const Tensor dDropped =
      poplin::matMul(graph, deltas, dense.transpose(), prog, {bwd, "dense/dInput"});
  g.add(dense, poplin::matMul(graph, dropped.transpose(), deltas, prog, {bwd, "dense/dWeights"}),
        "dense/weights");
  g.add(denseBias,
        popops::reduce(graph, deltas, {0}, popops::Operation::ADD, prog, {bwd, "dense/dBias"}),
        "dense/bias");
  // The same seed, modifier and reference as the forward pass: the same mask.
  const Tensor dFeatures =
      dropout(graph, seed, dDropped, features, config.keepProbability, prog, {bwd, "dropout"});
  const Tensor dA2 = popnn::pooling::poolInputGradient(
      graph, avgPool, 1, dFeatures.reshape(p2.shape()), prog, {bwd, "avgPool"});
  const Tensor dP1 =
      convBlockBackward(graph, block2, dA2, true, g, "block2", prog, cache, {bwd, "block2"});
  const Tensor dA1 =
      popnn::pooling::poolInputGradient(graph, maxPool, a1, p1, dP1, false, prog, {bwd, "maxPool"});
  convBlockBackward(graph, block1, dA1, false, g, "block1", prog, cache, {bwd, "block1"});

  // Data parallel: every replica takes the same step, the mean of the replicas' gradients.
  gcl::allReduceInPlaceCrossReplica(graph, g.grads, gcl::CollectiveOperator::MEAN, prog,
                                    "allReduceGrads");
  const DebugContext update("update");
  for (std::size_t i = 0; i < g.params.size(); ++i)
    popops::scaledAddTo(graph, g.params[i], g.grads[i], -lr, prog, {update, g.names[i]});
  // Accuracy over all replicas: the sum of their counts.
  gcl::allReduceInPlaceCrossReplica(graph, correct, gcl::CollectiveOperator::ADD, prog,
                                    "sumCorrect");

  prog.add(Copy(loss, graph.addDeviceToHostFIFO("loss", FLOAT, B)));
  prog.add(Copy(correct, graph.addDeviceToHostFIFO("correct", UNSIGNED_INT, 1)));
  return prog;
}
