// Basic LSTM layers from PopLibs' own ops: poplin matmuls, popops maps and reductions, popnn
// non-linearities. The time loop is unrolled; each step's tensors stay separate variables and
// the intermediates handed to the backward pass are views over them (no copies).
#include "RnnLayers.hpp"

#include <poplin/FullyConnected.hpp>
#include <poplin/MatMul.hpp>
#include <popnn/Lstm.hpp>
#include <popnn/NonLinearity.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace popnn {
namespace lstm {

using namespace poplar;
using namespace popops::expr;
using poplar::program::Sequence;

namespace {

// What a step keeps for the backward pass, along the second dimension of the intermediates.
enum Kept : unsigned {
  kForget,
  kInput,
  kCandidate,
  kOutputGate,
  kCell,
  kCellAct,
  kOutput,
  kNumKept
};

using rnn_layers::checkShape;
using rnn_layers::Dims;
using rnn_layers::newTensor;
using rnn_layers::stack;

Dims dimsOf(const LstmParams& p, const std::string& op) {
  return rnn_layers::dimsOf(p, op);
}

// PopLibs' LSTM options; values are checked, though only the matmuls' options change anything.
OptionFlags checkOptions(const OptionFlags& options, const std::string& op) {
  return rnn_layers::checkLayerOptions(
      options,
      {"availableMemoryProportion", "partialsType", "weightAccumulatorsType", "preCalcWeights",
       "recomputationMode", "numShards", "rnnCodeReuse", "inferenceOnly"},
      op);
}

std::vector<unsigned> unitPositions(const LstmParams& p, const std::string& op) {
  return rnn_layers::unitPositions(std::vector<unsigned>(p.cellOrder.begin(), p.cellOrder.end()),
                                   BASIC_LSTM_CELL_NUM_UNITS, op);
}

// [4,X,H] weights as the [X,4H] matrix the matmuls take (a view).
Tensor asMatrix(const Tensor& w) {
  return rnn_layers::unitsAsMatrix(w);
}

Tensor kept(const Tensor& intermediates, std::size_t step, Kept what) {
  return intermediates[step][what];
}

void checkWeights(const LstmWeights& w, const Dims& d, const std::string& op) {
  checkShape(w.inputWeights, {4, d.I, d.H}, op, "weights.inputWeights");
  checkShape(w.outputWeights, {4, d.H, d.H}, op, "weights.outputWeights");
  checkShape(w.biases, {4, d.H}, op, "weights.biases");
}

void checkState(const LstmState& s, const Dims& d, const std::string& op, const char* what) {
  checkShape(s.output, {d.B, d.H}, op, (std::string(what) + ".output").c_str());
  checkShape(s.cellState, {d.B, d.H}, op, (std::string(what) + ".cellState").c_str());
}

} // namespace

const std::vector<BasicLstmCellUnit> getDefaultBasicLstmCellOrder() {
  return {BASIC_LSTM_CELL_FORGET_GATE, BASIC_LSTM_CELL_INPUT_GATE, BASIC_LSTM_CELL_CANDIDATE,
          BASIC_LSTM_CELL_OUTPUT_GATE};
}

LstmParams::LstmParams(Type dataType_, std::size_t batchSize_, std::size_t timeSteps_,
                       std::vector<std::size_t> layerSizes_, NonLinearityType activation_,
                       NonLinearityType recurrentActivation_)
    : rnn(dataType_, batchSize_, timeSteps_, layerSizes_), dataType(dataType_),
      batchSize(batchSize_), timeSteps(timeSteps_), layerSizes(std::move(layerSizes_)),
      activation(activation_), recurrentActivation(recurrentActivation_) {}

LstmParams::LstmParams(Type dataType_, std::size_t batchSize_, std::size_t maxTimeSteps_,
                       const Tensor& timeSteps_, std::vector<std::size_t> layerSizes_,
                       NonLinearityType activation_, NonLinearityType recurrentActivation_)
    : rnn(dataType_, batchSize_, maxTimeSteps_, timeSteps_, layerSizes_), dataType(dataType_),
      batchSize(batchSize_), timeSteps(maxTimeSteps_), layerSizes(std::move(layerSizes_)),
      activation(activation_), recurrentActivation(recurrentActivation_) {}

Tensor LstmState::getAsTensor() const {
  return concat(output.expand({0}), cellState.expand({0}));
}

std::vector<std::pair<poplin::MatMulParams, OptionFlags>>
getMatMulPrePlanParameters(LstmParams params, OptionFlags opts) {
  const std::string op = "popnn::lstm::getMatMulPrePlanParameters";
  const OptionFlags matMulOptions = checkOptions(opts, op);
  if (params.rnn.layerSizes.size() != 2)
    throw poputil::poplibs_error(op + ": layerSizes must be {input size, output size}, not " +
                                 std::to_string(params.rnn.layerSizes.size()) + " sizes");
  bool inferenceOnly = false;
  for (const auto& kv : opts)
    if (kv.first == "inferenceOnly") inferenceOnly = kv.second == "true";
  // As PopLibs: the input and recurrent weights as one [2 x input, 4 x output] product.
  const poplin::fc::FullyConnectedParams fc{1, params.rnn.batchSize, 2 * params.rnn.layerSizes[0],
                                            BASIC_LSTM_CELL_NUM_UNITS * params.rnn.layerSizes[1]};
  return poplin::fc::getMatMulPrePlanParameters(fc, matMulOptions, params.rnn.dataType,
                                                inferenceOnly);
}

// Flops: 2 per multiply-add of the matmuls, 1 per element-wise operation of the cell.
std::uint64_t getBasicLstmCellFwdFlops(const LstmParams& p) {
  const Dims d = dimsOf(p, "popnn::lstm::getBasicLstmCellFwdFlops");
  const std::uint64_t matmul = 2ull * d.B * (d.I + d.H) * 4 * d.H;
  const std::uint64_t cell = 10ull * d.B * d.H; // bias, 2 adds, 3 muls, 5 activations
  return d.T * (matmul + cell);
}

std::uint64_t getBasicLstmCellBwdFlops(const LstmParams& p) {
  const Dims d = dimsOf(p, "popnn::lstm::getBasicLstmCellBwdFlops");
  const std::uint64_t matmul = 2ull * d.B * 4 * d.H * (d.H + (p.calcInputGradients ? d.I : 0));
  const std::uint64_t cell = 20ull * d.B * d.H;
  return d.T * (matmul + cell);
}

std::uint64_t getBasicLstmCellWuFlops(const LstmParams& p) {
  const Dims d = dimsOf(p, "popnn::lstm::getBasicLstmCellWuFlops");
  return d.T * (2ull * d.B * (d.I + d.H) * 4 * d.H + 4ull * d.B * d.H);
}

Tensor createInput(Graph& graph, const LstmParams& params, const DebugContext& debugContext,
                   const OptionFlags& options, poplin::PlanningCache*) {
  const std::string op = "popnn::lstm::createInput";
  checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LstmCreateInput");
  return newTensor(graph, params.dataType, {d.T, d.B, d.I}, {di, "input"});
}

Tensor createInitialOutput(Graph& graph, const LstmParams& params, const DebugContext& debugContext,
                           const OptionFlags& options, poplin::PlanningCache*) {
  const std::string op = "popnn::lstm::createInitialOutput";
  checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  return newTensor(graph, params.dataType, {d.B, d.H}, {debugContext, "initialOutput"});
}

Tensor createInitialCellState(Graph& graph, const LstmParams& params,
                              const DebugContext& debugContext, const OptionFlags& options,
                              poplin::PlanningCache*) {
  const std::string op = "popnn::lstm::createInitialCellState";
  checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  return newTensor(graph, params.dataType, {d.B, d.H}, {debugContext, "initialCellState"});
}

LstmState createInitialState(Graph& graph, const LstmParams& params,
                             const DebugContext& debugContext, const OptionFlags& options,
                             poplin::PlanningCache* cache) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LstmCreateInitialState");
  return {createInitialOutput(graph, params, {di}, options, cache),
          createInitialCellState(graph, params, {di}, options, cache)};
}

void zeroInitialState(Graph& graph, const LstmState& state, Sequence& prog,
                      const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LstmZeroInitialState");
  popops::zero(graph, concat(state.output.flatten(), state.cellState.flatten()), prog, {di});
}

std::pair<Tensor, Tensor> createWeightsKernel(Graph& graph, const LstmParams& params,
                                              const DebugContext& debugContext,
                                              const OptionFlags& options, poplin::PlanningCache*) {
  const std::string op = "popnn::lstm::createWeightsKernel";
  checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LstmCreateWeightsKernel");
  return {newTensor(graph, params.dataType, {4, d.I, d.H}, {di, "inputWeights"}),
          newTensor(graph, params.dataType, {4, d.H, d.H}, {di, "outputWeights"})};
}

Tensor createWeightsBiases(Graph& graph, const LstmParams& params, const DebugContext& debugContext,
                           const OptionFlags& options, poplin::PlanningCache*) {
  const std::string op = "popnn::lstm::createWeightsBiases";
  checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  return newTensor(graph, params.dataType, {4, d.H}, {debugContext, "biases"});
}

LstmWeights createWeights(Graph& graph, const LstmParams& params, const DebugContext& debugContext,
                          const OptionFlags& options, poplin::PlanningCache* cache) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LstmCreateWeights");
  auto kernel = createWeightsKernel(graph, params, {di}, options, cache);
  return {kernel.first, kernel.second, createWeightsBiases(graph, params, {di}, options, cache)};
}

std::pair<Tensor, Tensor> lstmFwd(Graph& graph, const LstmParams& params,
                                  const LstmState& stateInit, const Tensor& in,
                                  const LstmWeights& weights, Tensor* intermediates, Sequence& prog,
                                  const DebugContext& debugContext, const OptionFlags& options,
                                  poplin::PlanningCache*) {
  const std::string op = "popnn::lstm::lstmFwd";
  const OptionFlags mm = checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  const auto pos = unitPositions(params, op);
  if (!params.doInputWeightCalc)
    throw poputil::poplibs_error(op + ": doInputWeightCalc = false is not supported yet");
  checkShape(in, {d.T, d.B, d.I}, op, "in");
  checkWeights(weights, d, op);
  checkState(stateInit, d, op, "stateInit");
  const poputil::PoplibsOpDebugInfo di(
      debugContext,
      {{"timeSteps", d.T}, {"batchSize", d.B}, {"inputSize", d.I}, {"outputSize", d.H}}, "LstmFwd");

  // The input's share of every step's gates in one matmul: [T*B, I] x [I, 4H].
  const Tensor xw = poplin::matMul(graph, in.reshape({d.T * d.B, d.I}),
                                   asMatrix(weights.inputWeights), prog, {di, "inputProduct"}, mm)
                        .reshape({d.T, d.B, 4, d.H});
  const Tensor wOut = asMatrix(weights.outputWeights);
  const Tensor bias = weights.biases.expand({0}).broadcast(unsigned(d.B), 0);
  auto unit = [&](const Tensor& gates, BasicLstmCellUnit u) {
    return gates.slice(pos[u], pos[u] + 1, 1).reshape({d.B, d.H});
  };

  Tensor h = stateInit.output, c = stateInit.cellState;
  std::vector<Tensor> steps, outputs;
  for (std::size_t t = 0; t < d.T; ++t) {
    const DebugContext sdc(di, "step" + std::to_string(t));
    const Tensor rec =
        poplin::matMul(graph, h, wOut, prog, {sdc, "recurrent"}, mm).reshape({d.B, 4, d.H});
    const Tensor pre = popops::map(graph, _1 + _2 + _3, {rec, xw[t], bias}, prog, {sdc, "gates"});
    const Tensor sig = popnn::nonLinearity(
        graph, params.recurrentActivation,
        stack({unit(pre, BASIC_LSTM_CELL_FORGET_GATE), unit(pre, BASIC_LSTM_CELL_INPUT_GATE),
               unit(pre, BASIC_LSTM_CELL_OUTPUT_GATE)},
              0),
        prog, {sdc, "gatesActivation"});
    const Tensor f = sig[0], i = sig[1], o = sig[2];
    const Tensor g =
        popnn::nonLinearity(graph, params.activation, unit(pre, BASIC_LSTM_CELL_CANDIDATE), prog,
                            {sdc, "candidateActivation"});
    const Tensor cn = popops::map(graph, _1 * _2 + _3 * _4, {f, c, i, g}, prog, {sdc, "cellState"});
    const Tensor tc =
        popnn::nonLinearity(graph, params.activation, cn, prog, {sdc, "cellActivation"});
    const Tensor hn = popops::mul(graph, o, tc, prog, {sdc, "output"});
    steps.push_back(stack({f, i, g, o, cn, tc, hn}, 0));
    outputs.push_back(hn);
    h = hn;
    c = cn;
  }
  if (intermediates) *intermediates = stack(steps, 0); // [T, kNumKept, B, H]
  const Tensor output = params.outputFullSequence ? stack(outputs, 0) : h;
  return {output, c};
}

namespace {

// The backward pass proper; both lstmBwd overloads and lstmBwdWithWU come here.
LstmState backward(Graph& graph, const LstmParams& params, Sequence& prog,
                   const LstmState& fwdStateInit, const Tensor& fwdIntermediates,
                   const LstmWeights& weights, const Tensor& outputGrad, const Tensor* lastOutGrad,
                   const Tensor* lastCellGrad, Tensor* inputGrad, Tensor* bwdIntermediates,
                   const DebugContext& debugContext, const OptionFlags& options,
                   const std::string& op) {
  const OptionFlags mm = checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  const auto pos = unitPositions(params, op);
  checkWeights(weights, d, op);
  checkState(fwdStateInit, d, op, "fwdStateInit");
  checkShape(fwdIntermediates, {d.T, kNumKept, d.B, d.H}, op,
             "fwdIntermediates (as lstmFwd made them)");
  if (params.outputFullSequence)
    checkShape(outputGrad, {d.T, d.B, d.H}, op, "outputGrad");
  else
    checkShape(outputGrad, {d.B, d.H}, op, "outputGrad");
  if (lastOutGrad) checkShape(*lastOutGrad, {d.B, d.H}, op, "lastStepStateGrad->output");
  if (lastCellGrad) checkShape(*lastCellGrad, {d.B, d.H}, op, "last cell state gradient");
  const poputil::PoplibsOpDebugInfo di(debugContext, {{"timeSteps", d.T}, {"batchSize", d.B}},
                                       "LstmBwd");

  const Tensor wOutT = asMatrix(weights.outputWeights).transpose(); // [4H, H]
  Tensor dhNext, dcNext;                                            // from step t+1
  std::vector<Tensor> dGates(d.T);
  for (std::size_t s = d.T; s-- > 0;) {
    const DebugContext sdc(di, "step" + std::to_string(s));
    const Tensor f = kept(fwdIntermediates, s, kForget), i = kept(fwdIntermediates, s, kInput);
    const Tensor g = kept(fwdIntermediates, s, kCandidate);
    const Tensor o = kept(fwdIntermediates, s, kOutputGate);
    const Tensor tc = kept(fwdIntermediates, s, kCellAct);
    const Tensor cPrev = s ? kept(fwdIntermediates, s - 1, kCell) : fwdStateInit.cellState;

    // The gradient of this step's output: from the loss, from the next step, from the caller.
    std::vector<Tensor> dhParts;
    if (params.outputFullSequence)
      dhParts.push_back(outputGrad[s]);
    else if (s + 1 == d.T)
      dhParts.push_back(outputGrad);
    if (dhNext.valid()) dhParts.push_back(dhNext);
    if (s + 1 == d.T && lastOutGrad) dhParts.push_back(*lastOutGrad);
    Tensor dh;
    if (dhParts.size() == 1)
      dh = dhParts[0];
    else if (dhParts.size() == 2)
      dh = popops::add(graph, dhParts[0], dhParts[1], prog, {sdc, "outputGrad"});
    else
      dh = popops::map(graph, _1 + _2 + _3, dhParts, prog, {sdc, "outputGrad"});

    // h = o act(c):  dO = dh act(c),  dc = act'(c) (dh o) + the next step's and caller's dc.
    const Tensor dO = popops::mul(graph, dh, tc, prog, {sdc, "outputGateGrad"});
    const Tensor dTc = popops::mul(graph, dh, o, prog, {sdc, "cellActivationGrad"});
    Tensor dc = popnn::nonLinearityInputGradient(graph, params.activation, tc, dTc, prog,
                                                 {sdc, "cellGrad"});
    if (dcNext.valid()) popops::addInPlace(graph, dc, dcNext, prog, {sdc, "cellGradNext"});
    if (s + 1 == d.T && lastCellGrad)
      popops::addInPlace(graph, dc, *lastCellGrad, prog, {sdc, "cellGradLast"});

    // c = f cPrev + i g.
    const Tensor dF = popops::mul(graph, dc, cPrev, prog, {sdc, "forgetGateGrad"});
    const Tensor dI = popops::mul(graph, dc, g, prog, {sdc, "inputGateGrad"});
    const Tensor dG = popops::mul(graph, dc, i, prog, {sdc, "candidateGrad"});
    dcNext = popops::mul(graph, dc, f, prog, {sdc, "cellGradPrev"});

    // Through the activations to the gates' inputs, laid out in cellOrder: [B,4,H].
    const Tensor dSig = popnn::nonLinearityInputGradient(
        graph, params.recurrentActivation, stack({f, i, o}, 0), stack({dF, dI, dO}, 0), prog,
        {sdc, "gatesActivationGrad"});
    const Tensor dCand = popnn::nonLinearityInputGradient(graph, params.activation, g, dG, prog,
                                                          {sdc, "candidateActivationGrad"});
    std::vector<Tensor> byPos(BASIC_LSTM_CELL_NUM_UNITS);
    byPos[pos[BASIC_LSTM_CELL_FORGET_GATE]] = dSig[0];
    byPos[pos[BASIC_LSTM_CELL_INPUT_GATE]] = dSig[1];
    byPos[pos[BASIC_LSTM_CELL_OUTPUT_GATE]] = dSig[2];
    byPos[pos[BASIC_LSTM_CELL_CANDIDATE]] = dCand;
    dGates[s] = stack(byPos, 1); // [B,4,H]

    dhNext = poplin::matMul(graph, dGates[s].reshape({d.B, 4 * d.H}), wOutT, prog,
                            {sdc, "recurrentGrad"}, mm);
  }
  const Tensor allGates = stack(dGates, 0); // [T,B,4,H]
  if (inputGrad && params.calcInputGradients)
    *inputGrad =
        poplin::matMul(graph, allGates.reshape({d.T * d.B, 4 * d.H}),
                       asMatrix(weights.inputWeights).transpose(), prog, {di, "inputGrad"}, mm)
            .reshape({d.T, d.B, d.I});
  if (bwdIntermediates) *bwdIntermediates = allGates;
  return {dhNext, dcNext};
}

} // namespace

LstmState lstmBwd(Graph& graph, const LstmParams& params, Sequence& prog,
                  const LstmState& fwdStateInit, const Tensor& fwdIntermediates,
                  const LstmWeights& weights, const Tensor&, const Tensor&,
                  const Tensor& outputGrad, const LstmState* lastStepStateGrad, Tensor* inputGrad,
                  Tensor* bwdIntermediates, const DebugContext& debugContext,
                  const OptionFlags& options, poplin::PlanningCache*) {
  return backward(graph, params, prog, fwdStateInit, fwdIntermediates, weights, outputGrad,
                  lastStepStateGrad ? &lastStepStateGrad->output : nullptr,
                  lastStepStateGrad ? &lastStepStateGrad->cellState : nullptr, inputGrad,
                  bwdIntermediates, debugContext, options, "popnn::lstm::lstmBwd");
}

LstmState lstmBwd(Graph& graph, const LstmParams& params, Sequence& prog,
                  const LstmState& fwdStateInit, const Tensor& fwdIntermediates,
                  const LstmWeights& weights, const Tensor&, const Tensor&,
                  const Tensor& outputGrad, const Tensor* lastCellStateGrad, Tensor* inputGrad,
                  Tensor* bwdIntermediates, const DebugContext& debugContext,
                  const OptionFlags& options, poplin::PlanningCache*) {
  return backward(graph, params, prog, fwdStateInit, fwdIntermediates, weights, outputGrad, nullptr,
                  lastCellStateGrad, inputGrad, bwdIntermediates, debugContext, options,
                  "popnn::lstm::lstmBwd");
}

LstmWeights lstmWU(Graph& graph, const LstmParams& params, Sequence& prog,
                   const LstmState& fwdStateInit, const Tensor& fwdIntermediates,
                   const Tensor& bwdIntermediates, const LstmWeights& weights, const Tensor& input,
                   const Tensor&, const DebugContext& debugContext, const OptionFlags& options,
                   poplin::PlanningCache*) {
  const std::string op = "popnn::lstm::lstmWU";
  const OptionFlags mm = checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  checkWeights(weights, d, op);
  checkState(fwdStateInit, d, op, "fwdStateInit");
  checkShape(input, {d.T, d.B, d.I}, op, "input");
  checkShape(fwdIntermediates, {d.T, kNumKept, d.B, d.H}, op, "fwdIntermediates");
  checkShape(bwdIntermediates, {d.T, d.B, 4, d.H}, op, "bwdIntermediates (as lstmBwd made them)");
  const poputil::PoplibsOpDebugInfo di(debugContext, {{"timeSteps", d.T}, {"batchSize", d.B}},
                                       "LstmWU");

  // Each step's gate gradients meet the step's input and the previous step's output.
  std::vector<Tensor> prevOutputs{fwdStateInit.output};
  for (std::size_t s = 0; s + 1 < d.T; ++s)
    prevOutputs.push_back(kept(fwdIntermediates, s, kOutput));
  const Tensor gates = bwdIntermediates.reshape({d.T * d.B, 4 * d.H});
  auto toWeights = [&](const Tensor& m) { // [X,4H] -> [4,X,H]
    return m.reshape({m.dim(0), 4, d.H}).dimShuffle({1, 0, 2});
  };
  LstmWeights grads;
  grads.inputWeights = toWeights(poplin::matMul(graph, input.reshape({d.T * d.B, d.I}).transpose(),
                                                gates, prog, {di, "inputWeightsGrad"}, mm));
  grads.outputWeights =
      toWeights(poplin::matMul(graph, stack(prevOutputs, 0).reshape({d.T * d.B, d.H}).transpose(),
                               gates, prog, {di, "outputWeightsGrad"}, mm));
  grads.biases = popops::reduce(graph, bwdIntermediates.reshape({d.T * d.B, 4, d.H}), {0},
                                popops::Operation::ADD, prog, {di, "biasesGrad"});
  return grads;
}

namespace {
/// lstmBwd then lstmWU on its intermediates; LastGrad is PopLibs' two spellings of the last step's
/// gradient (a whole state, or the cell state alone).
template <class LastGrad>
LstmState bwdWithWU(Graph& graph, const LstmParams& params, Sequence& prog,
                    const LstmState& fwdStateInit, const Tensor& fwdIntermediates,
                    const LstmWeights& weights, const Tensor& input, const Tensor& output,
                    const Tensor& outputGrad, const LastGrad* lastGrad, Tensor* inputGrad,
                    LstmWeights& weightsGrad, const DebugContext& debugContext,
                    const OptionFlags& options, poplin::PlanningCache* cache) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LstmBwdWithWU");
  Tensor bwdIntermediates;
  LstmState stateGrad =
      lstmBwd(graph, params, prog, fwdStateInit, fwdIntermediates, weights, input, output,
              outputGrad, lastGrad, inputGrad, &bwdIntermediates, {di}, options, cache);
  weightsGrad = lstmWU(graph, params, prog, fwdStateInit, fwdIntermediates, bwdIntermediates,
                       weights, input, output, {di}, options, cache);
  return stateGrad;
}
} // namespace

LstmState lstmBwdWithWU(Graph& graph, const LstmParams& params, Sequence& prog,
                        const LstmState& fwdStateInit, const Tensor& fwdIntermediates,
                        const LstmWeights& weights, const Tensor& input, const Tensor& output,
                        const Tensor& outputGrad, const LstmState* lastStepStateGrad,
                        Tensor* inputGrad, LstmWeights& weightsGrad,
                        const DebugContext& debugContext, const OptionFlags& options,
                        poplin::PlanningCache* cache) {
  return bwdWithWU(graph, params, prog, fwdStateInit, fwdIntermediates, weights, input, output,
                   outputGrad, lastStepStateGrad, inputGrad, weightsGrad, debugContext, options,
                   cache);
}

LstmState lstmBwdWithWU(Graph& graph, const LstmParams& params, Sequence& prog,
                        const LstmState& fwdStateInit, const Tensor& fwdIntermediates,
                        const LstmWeights& weights, const Tensor& input, const Tensor& output,
                        const Tensor& outputGrad, const Tensor* lastCellStateGrad,
                        Tensor* inputGrad, LstmWeights& weightsGrad,
                        const DebugContext& debugContext, const OptionFlags& options,
                        poplin::PlanningCache* cache) {
  return bwdWithWU(graph, params, prog, fwdStateInit, fwdIntermediates, weights, input, output,
                   outputGrad, lastCellStateGrad, inputGrad, weightsGrad, debugContext, options,
                   cache);
}

} // namespace lstm
} // namespace popnn
