// Basic recurrent layers (popnn/Recurrent.hpp) from poplin matmuls, popops maps and reductions
// and popnn non-linearities; the sequences are unrolled, one step's ops after another.
#include "RnnLayers.hpp"

#include <poplin/MatMul.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/Recurrent.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace popnn {
namespace rnn {

using namespace poplar;
using namespace popops::expr;
using poplar::program::Sequence;
using rnn_layers::checkShape;
using rnn_layers::stack;

namespace {

OptionFlags mmOptions(const Type& partialsType, const char* pass) {
  if (partialsType != FLOAT && partialsType != HALF)
    throw poputil::poplibs_error("popnn::rnn: partialsType must be float or half, not " +
                                 partialsType.toString());
  return {{"partialsType", partialsType.toString()}, {"fullyConnectedPass", pass}};
}

const char* fwdPass(bool inferenceOnly) {
  return inferenceOnly ? "INFERENCE_FWD" : "TRAINING_FWD";
}

void checkRank(const Tensor& t, unsigned rank, const std::string& op, const char* what) {
  if (!t.valid()) throw poputil::poplibs_error(op + ": " + what + " is an empty tensor");
  if (t.rank() != rank)
    throw poputil::poplibs_error(op + ": " + what + " must have rank " + std::to_string(rank) +
                                 ", not shape " + t.shapeToString());
}

void checkSizes(std::initializer_list<unsigned> sizes, const std::string& op) {
  for (unsigned s : sizes)
    if (!s)
      throw poputil::poplibs_error(op + ": sizes (steps, batch, input, output) must be non-zero");
}

std::pair<Tensor, Tensor> stepBack(Graph& graph, const Tensor& nextLayerGrad,
                                   const Tensor& bwdState, const Tensor& actOut,
                                   const Tensor* weightsInput, const Tensor& weightsFeedback,
                                   Sequence& prog, NonLinearityType nl, const Type& partialsType,
                                   const DebugContext& dc, const std::string& op) {
  checkRank(bwdState, 2, op, "bwdState");
  checkShape(nextLayerGrad, bwdState.shape(), op, "nextLayerGrad");
  checkShape(actOut, bwdState.shape(), op, "actOut");
  checkShape(weightsFeedback, {bwdState.dim(1), bwdState.dim(1)}, op, "weightsFeedback");
  const OptionFlags mm = mmOptions(partialsType, "TRAINING_BWD");
  const Tensor t =
      poplin::matMul(graph, bwdState, weightsFeedback.transpose(), prog, {dc, "RnnBwd/Fb"}, mm);
  popops::addInPlace(graph, t, nextLayerGrad, prog, {dc, "RnnBwd/AddOutGrad"});
  const Tensor state = nonLinearityInputGradient(graph, nl, actOut, t, prog, {dc, "RnnBwd"});
  Tensor gradIn;
  if (weightsInput) {
    checkRank(*weightsInput, 2, op, "weightsInput");
    if (weightsInput->dim(1) != bwdState.dim(1))
      throw poputil::poplibs_error(op + ": weightsInput " + weightsInput->shapeToString() +
                                   " does not end in the output size " +
                                   std::to_string(bwdState.dim(1)));
    gradIn = poplin::matMul(graph, state, weightsInput->transpose(), prog, {dc, "RnnBwd/Ff"}, mm);
  }
  return {gradIn, state};
}

} // namespace

std::vector<std::pair<poplin::MatMulParams, OptionFlags>>
getMatMulPrePlanParameters(std::size_t, std::size_t batchSize, std::size_t inputSize,
                           std::size_t outputSize, const Type& dType, const Type& partialsType,
                           bool inferenceOnly, bool hasFeedforwardWeights) {
  const OptionFlags mm = mmOptions(partialsType, fwdPass(inferenceOnly));
  std::vector<std::pair<poplin::MatMulParams, OptionFlags>> params;
  if (hasFeedforwardWeights)
    params.push_back(
        {poplin::MatMulParams{dType, dType, {batchSize, inputSize}, {inputSize, outputSize}}, mm});
  params.push_back(
      {poplin::MatMulParams{dType, dType, {batchSize, outputSize}, {outputSize, outputSize}}, mm});
  return params;
}

// PopLibs' counts, term by term.
uint64_t getFwdFlops(unsigned S, unsigned B, unsigned I, unsigned O, bool weightInput) {
  const uint64_t steps = uint64_t(S) * B;
  uint64_t flops = steps * O * O + steps * O * (O - 1) + 2ull * S * O;
  if (weightInput) flops += steps * I * O + steps * O * (I - 1);
  return flops;
}

uint64_t getBwdFlops(unsigned S, unsigned B, unsigned I, unsigned O, bool calcInputGrad) {
  const uint64_t steps = uint64_t(S) * B;
  const uint64_t input = steps * I * O + steps * O * (I - 1);
  return (calcInputGrad ? input : 0) + steps * O * O + steps * O * (O - 1);
}

uint64_t getWuFlops(unsigned S, unsigned B, unsigned I, unsigned O) {
  const uint64_t steps = uint64_t(S) * B;
  return steps * I * O + (steps - 1) * O * I + steps * O * O + (steps - 1) * O * O +
         (steps - 1) * O + uint64_t(O) * I + uint64_t(O) * O + O;
}

Tensor createInput(Graph& graph, unsigned numSteps, unsigned batchSize, unsigned inputSize,
                   unsigned outputSize, const Type& dType, const Type& partialsType,
                   bool inferenceOnly, const DebugContext& debugContext, poplin::PlanningCache*) {
  const std::string op = "popnn::rnn::createInput";
  checkSizes({numSteps, batchSize, inputSize, outputSize}, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnCreateInput");
  const OptionFlags mm = mmOptions(partialsType, fwdPass(inferenceOnly));
  std::vector<Tensor> steps;
  for (unsigned s = 0; s < numSteps; ++s)
    steps.push_back(poplin::createMatMulInputLHS(graph, dType, {batchSize, inputSize},
                                                 {inputSize, outputSize},
                                                 {di, "input" + std::to_string(s)}, mm));
  return stack(steps, 0);
}

Tensor createFwdState(Graph& graph, const Type& dType, unsigned batchSize, unsigned outputSize,
                      Sequence& prog, bool initState, bool inferenceOnly,
                      const DebugContext& debugContext, poplin::PlanningCache*) {
  checkSizes({batchSize, outputSize}, "popnn::rnn::createFwdState");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnCreateFwdState");
  const Tensor state = poplin::createMatMulInputLHS(
      graph, dType, {batchSize, outputSize}, {outputSize, outputSize}, {di, "FwdState"},
      {{"fullyConnectedPass", fwdPass(inferenceOnly)}});
  if (initState) popops::zero(graph, state, prog, {di});
  return state;
}

Tensor getOutputFromFwdState(const Tensor& fwdState) {
  return fwdState;
}

Tensor createWeightsInput(Graph& graph, unsigned, unsigned batchSize, unsigned inputSize,
                          unsigned outputSize, const Type& dType, const Type& partialsType,
                          bool inferenceOnly, const DebugContext& debugContext,
                          poplin::PlanningCache*) {
  checkSizes({batchSize, inputSize, outputSize}, "popnn::rnn::createWeightsInput");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnCreateWeightsInput");
  return poplin::createMatMulInputRHS(graph, dType, {batchSize, inputSize}, {inputSize, outputSize},
                                      {di, "weightsInput"},
                                      mmOptions(partialsType, fwdPass(inferenceOnly)));
}

Tensor createWeightsFeedback(Graph& graph, unsigned batchSize, unsigned outputSize,
                             const Type& dType, const Type& partialsType, bool inferenceOnly,
                             const DebugContext& debugContext, poplin::PlanningCache*) {
  checkSizes({batchSize, outputSize}, "popnn::rnn::createWeightsFeedback");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnCreateWeightsFeedback");
  return poplin::createMatMulInputRHS(graph, dType, {batchSize, outputSize},
                                      {outputSize, outputSize}, {di, "weightsRecurrent"},
                                      mmOptions(partialsType, fwdPass(inferenceOnly)));
}

Tensor forwardWeightInput(Graph& graph, const Tensor& actIn, const Tensor& weights, Sequence& prog,
                          const Type& partialsType, bool inferenceOnly,
                          const DebugContext& debugContext, poplin::PlanningCache*) {
  const std::string op = "popnn::rnn::forwardWeightInput";
  checkRank(actIn, 3, op, "actIn");
  checkRank(weights, 2, op, "weights");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnForwardWeightInput");
  const std::size_t S = actIn.dim(0), B = actIn.dim(1);
  return poplin::matMul(graph, actIn.reshape({S * B, actIn.dim(2)}), weights, prog,
                        {di, "RnnFwd/FeedFwd"}, mmOptions(partialsType, fwdPass(inferenceOnly)))
      .reshape({S, B, weights.dim(1)});
}

Tensor forwardIterate(Graph& graph, const Tensor& feedFwdIn, const Tensor& initState,
                      const Tensor& feedbackWeights, const Tensor& biases, Sequence& prog,
                      NonLinearityType nl, const Type& partialsType, bool inferenceOnly,
                      const DebugContext& debugContext, poplin::PlanningCache*) {
  const std::string op = "popnn::rnn::forwardIterate";
  checkRank(feedFwdIn, 3, op, "feedFwdIn");
  const std::size_t S = feedFwdIn.dim(0), B = feedFwdIn.dim(1), O = feedFwdIn.dim(2);
  checkShape(initState, {B, O}, op, "initState");
  checkShape(feedbackWeights, {O, O}, op, "feedbackWeights");
  checkShape(biases, {O}, op, "biases");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnForwardIterate");
  const OptionFlags mm = mmOptions(partialsType, fwdPass(inferenceOnly));
  const Tensor bias = biases.expand({0}).broadcast(unsigned(B), 0);
  std::vector<Tensor> outs;
  Tensor h = initState;
  for (std::size_t s = 0; s < S; ++s) {
    const DebugContext sdc(di, "RnnFwd/Feedback/" + std::to_string(s));
    const Tensor prod = poplin::matMul(graph, h, feedbackWeights, prog, sdc, mm);
    popops::mapInPlace(graph, _1 + _2 + _3, {prod, feedFwdIn[s], bias}, prog, {sdc, "Sum"});
    nonLinearityInPlace(graph, nl, prod, prog, sdc);
    outs.push_back(prod);
    h = prod;
  }
  return stack(outs, 0);
}

Tensor createBwdState(Graph& graph, const Type& dType, unsigned batchSize, unsigned outputSize,
                      Sequence& prog, const DebugContext& debugContext, poplin::PlanningCache*) {
  checkSizes({batchSize, outputSize}, "popnn::rnn::createBwdState");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnCreateBwdState");
  const Tensor state =
      poplin::createMatMulInputLHS(graph, dType, {batchSize, outputSize}, {outputSize, outputSize},
                                   {di, "BwdState"}, {{"fullyConnectedPass", "TRAINING_BWD"}});
  popops::zero(graph, state, prog, {di, "BwdState"});
  return state;
}

std::pair<Tensor, Tensor> backwardGradientStep(
    Graph& graph, const Tensor& nextLayerGrad, const Tensor& bwdState, const Tensor& actOut,
    const Tensor& weightsInput, const Tensor& weightsFeedback, Sequence& prog, NonLinearityType nl,
    const Type& partialsType, const DebugContext& debugContext, poplin::PlanningCache*) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnBackwardGradientStep");
  return stepBack(graph, nextLayerGrad, bwdState, actOut, &weightsInput, weightsFeedback, prog, nl,
                  partialsType, di, "popnn::rnn::backwardGradientStep");
}

Tensor backwardGradientStep(Graph& graph, const Tensor& nextLayerGrad, const Tensor& bwdState,
                            const Tensor& actOut, const Tensor& weightsFeedback, Sequence& prog,
                            NonLinearityType nl, const Type& partialsType,
                            const DebugContext& debugContext, poplin::PlanningCache*) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnBackwardGradientStep");
  return stepBack(graph, nextLayerGrad, bwdState, actOut, nullptr, weightsFeedback, prog, nl,
                  partialsType, di, "popnn::rnn::backwardGradientStep")
      .second;
}

void paramDeltaUpdate(Graph& graph, const Tensor& bwdState, const Tensor& actIn,
                      const Tensor& prevOut, Tensor& weightsInputDeltasAcc,
                      Tensor& weightsFeedbackDeltasAcc, Tensor& biasDeltasAcc, Sequence& prog,
                      const Type& partialsType, const DebugContext& debugContext,
                      poplin::PlanningCache*) {
  const std::string op = "popnn::rnn::paramDeltaUpdate";
  checkRank(bwdState, 2, op, "bwdState");
  checkRank(actIn, 2, op, "actIn");
  checkShape(prevOut, bwdState.shape(), op, "prevOut");
  checkShape(biasDeltasAcc, {bwdState.dim(1)}, op, "biasDeltasAcc");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnParamDeltaUpdate");
  const OptionFlags mm = mmOptions(partialsType, "TRAINING_WU");
  poplin::matMulAcc(graph, weightsInputDeltasAcc, 1.0f, actIn.transpose(), bwdState, prog,
                    {di, "RnDeltas/Wi"}, mm);
  poplin::matMulAcc(graph, weightsFeedbackDeltasAcc, 1.0f, prevOut.transpose(), bwdState, prog,
                    {di, "RnDeltas/Wfb"}, mm);
  const Tensor r =
      popops::reduce(graph, bwdState, {0}, popops::Operation::ADD, prog, {di, "RnDeltas"});
  popops::addInPlace(graph, biasDeltasAcc, r, prog, {di, "RnDeltas"});
}

Tensor rnnFwdSequence(Graph& graph, Sequence& prog, const Tensor& fwdStateInit,
                      const Tensor* weightedIn, const Tensor& biases, const Tensor& feedFwdWeights,
                      const Tensor& feedbackWeights, const Tensor& prevLayerActs,
                      const NonLinearityType& nl, const Type& partialsType, bool inferenceOnly,
                      const DebugContext& debugContext, poplin::PlanningCache* cache) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnFwdSequence");
  const Tensor in = weightedIn ? *weightedIn
                               : forwardWeightInput(graph, prevLayerActs, feedFwdWeights, prog,
                                                    partialsType, inferenceOnly, {di}, cache);
  return forwardIterate(graph, in, fwdStateInit, feedbackWeights, biases, prog, nl, partialsType,
                        inferenceOnly, {di}, cache);
}

std::tuple<Tensor, Tensor, Tensor, Tensor>
rnnBwdSequence(Graph& graph, bool doWU, bool ignoreInputGradientCalc, Sequence& prog,
               const Tensor& fwdStateInit, const Tensor& fwdState, const Tensor& biases,
               const Tensor& feedFwdWeights, const Tensor& feedbackWeights,
               const Tensor& outGradient, const Tensor& actIn, const NonLinearityType& nl,
               const Type& partialsType, const DebugContext& debugContext,
               poplin::PlanningCache* cache) {
  const std::string op = "popnn::rnn::rnnBwdSequence";
  checkRank(fwdState, 3, op, "fwdState");
  checkRank(actIn, 3, op, "actIn");
  const std::size_t S = fwdState.dim(0), B = fwdState.dim(1), O = fwdState.dim(2);
  const std::size_t I = actIn.dim(2);
  checkShape(actIn, {S, B, I}, op, "actIn");
  checkShape(outGradient, {S, B, O}, op, "outGradient");
  checkShape(fwdStateInit, {B, O}, op, "fwdStateInit");
  checkShape(feedbackWeights, {O, O}, op, "feedbackWeights");
  checkShape(feedFwdWeights, {I, O}, op, "feedFwdWeights");
  checkShape(biases, {O}, op, "biases");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "RnnBwdSequence");

  Tensor wInAcc, wFbAcc, bAcc;
  if (doWU) {
    wInAcc = graph.clone(feedFwdWeights, {di, "feedFwdWeightsDeltaAcc"});
    wFbAcc = graph.clone(feedbackWeights, {di, "feedbackWeightsDeltaAcc"});
    bAcc = graph.clone(biases, {di, "biasesDeltaAcc"});
    popops::zero(graph, concat({wInAcc.flatten(), wFbAcc.flatten(), bAcc.flatten()}), prog,
                 {di, "ZeroDeltasAcc"});
  }
  Tensor bwdState =
      createBwdState(graph, fwdState.elementType(), unsigned(B), unsigned(O), prog, {di}, cache);
  std::vector<Tensor> grads(S);
  for (std::size_t s = S; s-- > 0;) {
    const DebugContext sdc(di, "step" + std::to_string(s));
    Tensor gradIn;
    std::tie(gradIn, bwdState) = stepBack(graph, outGradient[s], bwdState, fwdState[s],
                                          ignoreInputGradientCalc ? nullptr : &feedFwdWeights,
                                          feedbackWeights, prog, nl, partialsType, sdc, op);
    grads[s] = ignoreInputGradientCalc ? bwdState : gradIn;
    if (doWU)
      paramDeltaUpdate(graph, bwdState, actIn[s], s ? fwdState[s - 1] : fwdStateInit, wInAcc,
                       wFbAcc, bAcc, prog, partialsType, sdc, cache);
  }
  return std::make_tuple(stack(grads, 0), wInAcc, wFbAcc, bAcc);
}

} // namespace rnn
} // namespace popnn
