// GRU and AUGRU layers from PopLibs' own ops: poplin matmuls, popops maps and reductions, popnn
// non-linearities. Shares its checks and views with the LSTM (RnnLayers.hpp). The time loop is
// unrolled; the intermediates handed to the backward pass are views over the steps' tensors.
#include "RnnLayers.hpp"

#include <poplin/MatMul.hpp>
#include <popnn/Gru.hpp>
#include <popnn/NonLinearity.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduce.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace popnn {
namespace gru {

using namespace poplar;
using namespace popops::expr;
using poplar::program::Sequence;
using rnn_layers::checkShape;
using rnn_layers::Dims;
using rnn_layers::newTensor;
using rnn_layers::stack;

namespace {

const unsigned kUnits = BASIC_GRU_CELL_NUM_UNITS;

// What a step keeps for the backward pass, along the second dimension of the intermediates:
// the reset gate, the update gate as applied (after the attention), the candidate, the output;
// with resetAfter the candidate's recurrent part (h U_c + b'_c); for AUGRU the update gate
// before the attention.
struct Layout {
  unsigned reset = 0, update = 1, candidate = 2, output = 3;
  unsigned candRec = ~0u, rawUpdate = ~0u;
  unsigned count = 4;
  Layout(bool resetAfter, bool attention) {
    if (resetAfter) candRec = count++;
    if (attention) rawUpdate = count++;
  }
};

Dims dimsOf(const GruParams& p, const std::string& op) {
  return rnn_layers::dimsOf(p, op);
}

OptionFlags checkOptions(const OptionFlags& options, const std::string& op) {
  return rnn_layers::checkLayerOptions(
      options,
      {"availableMemoryProportion", "inferenceOnly", "partialsType", "numShards", "rnnCodeReuse"},
      op);
}

std::vector<unsigned> unitPositions(const GruParams& p, const std::string& op) {
  return rnn_layers::unitPositions(std::vector<unsigned>(p.cellOrder.begin(), p.cellOrder.end()),
                                   kUnits, op);
}

std::vector<std::size_t> biasShape(const GruParams& p, const Dims& d) {
  return p.resetAfter ? std::vector<std::size_t>{kUnits, 2, d.H}
                      : std::vector<std::size_t>{kUnits, d.H};
}

void checkWeights(const GruWeights& w, const GruParams& p, const Dims& d, const std::string& op) {
  checkShape(w.inputWeights, {kUnits, d.I, d.H}, op, "weights.inputWeights");
  checkShape(w.outputWeights, {kUnits, d.H, d.H}, op, "weights.outputWeights");
  checkShape(w.biases, biasShape(p, d), op,
             p.resetAfter ? "weights.biases (resetAfter)" : "weights.biases");
}

void checkOutputShaped(const Tensor& t, const GruParams& p, const Dims& d, const std::string& op,
                       const char* what) {
  if (p.outputFullSequence)
    checkShape(t, {d.T, d.B, d.H}, op, what);
  else
    checkShape(t, {d.B, d.H}, op, what);
}

[[noreturn]] void refuseRealTimeSteps(const std::string& op) {
  throw poputil::poplibs_error(op + ": realTimeSteps (a variable number of time steps) is not "
                                    "supported yet");
}

// The attention score of step t as a [B,H] view.
Tensor attentionAt(const Tensor& att, std::size_t t, std::size_t H) {
  return att.slice(t, t + 1, 1).broadcast(unsigned(H), 1);
}

// One unit's [B,H] slice of a [B,3,H] (or [B,3,2,H]) tensor in cellOrder.
Tensor unitOf(const Tensor& t, const std::vector<unsigned>& pos, BasicGruCellUnit u) {
  return t.slice(pos[u], pos[u] + 1, 1).squeeze({1});
}

Tensor forward(Graph& graph, const GruParams& params, const Tensor& stateInit, const Tensor& in,
               const GruWeights& weights, Tensor* intermediates, const Tensor* att, Sequence& prog,
               const DebugContext& debugContext, const OptionFlags& options,
               const std::string& op) {
  const OptionFlags mm = checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  const auto pos = unitPositions(params, op);
  checkShape(in, {d.T, d.B, d.I}, op, "in");
  checkShape(stateInit, {d.B, d.H}, op, "stateInit");
  checkWeights(weights, params, d, op);
  if (att) checkShape(*att, {d.B, d.T}, op, "attScores");
  const poputil::PoplibsOpDebugInfo di(
      debugContext,
      {{"timeSteps", d.T}, {"batchSize", d.B}, {"inputSize", d.I}, {"outputSize", d.H}},
      att ? "AuGruFwd" : "GruFwd");
  const Layout layout(params.resetAfter, att != nullptr);

  // The input's share of every step's units in one matmul: [T*B, I] x [I, 3H].
  const Tensor xw = poplin::matMul(graph, in.reshape({d.T * d.B, d.I}),
                                   rnn_layers::unitsAsMatrix(weights.inputWeights), prog,
                                   {di, "inputProduct"}, mm)
                        .reshape({d.T, d.B, kUnits, d.H});
  auto batched = [&](const Tensor& b) { return b.expand({0}).broadcast(unsigned(d.B), 0); };
  const Tensor& w = weights.outputWeights;
  auto unitW = [&](BasicGruCellUnit u) { return w[pos[u]]; };
  // Recurrent weights of the two gates, [H,2H] (reset, update), and the whole [H,3H].
  const Tensor wGates = rnn_layers::unitsAsMatrix(
      stack({unitW(BASIC_GRU_CELL_RESET_GATE), unitW(BASIC_GRU_CELL_UPDATE_GATE)}, 0));
  const Tensor wAll = rnn_layers::unitsAsMatrix(w);
  // Biases as [B,3,H] views: the input's (or only) bias and, with resetAfter, the recurrent one.
  const Tensor bIn =
      batched(params.resetAfter ? weights.biases.slice(0, 1, 1).squeeze({1}) : weights.biases);
  const Tensor bRec =
      params.resetAfter ? batched(weights.biases.slice(1, 2, 1).squeeze({1})) : Tensor();

  Tensor h = stateInit;
  std::vector<Tensor> steps, outputs;
  for (std::size_t t = 0; t < d.T; ++t) {
    const DebugContext sdc(di, "step" + std::to_string(t));
    const Tensor x = xw[t];
    auto gatesOf = [&](const Tensor& t3) { // [B,3,H] -> reset and update, [B,2,H]
      return stack(
          {unitOf(t3, pos, BASIC_GRU_CELL_RESET_GATE), unitOf(t3, pos, BASIC_GRU_CELL_UPDATE_GATE)},
          1);
    };
    Tensor pre, candRec;
    Tensor candPre; // filled below
    Tensor rec;
    if (params.resetAfter) {
      rec =
          poplin::matMul(graph, h, wAll, prog, {sdc, "recurrent"}, mm).reshape({d.B, kUnits, d.H});
      pre = popops::map(graph, _1 + _2 + _3 + _4,
                        {gatesOf(x), gatesOf(bIn), gatesOf(rec), gatesOf(bRec)}, prog,
                        {sdc, "gates"});
    } else {
      rec = poplin::matMul(graph, h, wGates, prog, {sdc, "recurrent"}, mm).reshape({d.B, 2, d.H});
      pre = popops::map(graph, _1 + _2 + _3, {gatesOf(x), gatesOf(bIn), rec}, prog, {sdc, "gates"});
    }
    const Tensor sig =
        popnn::nonLinearity(graph, params.recurrentActivation, pre, prog, {sdc, "gatesActivation"});
    const Tensor r = sig.slice(0, 1, 1).squeeze({1}), uRaw = sig.slice(1, 2, 1).squeeze({1});
    const Tensor xc = unitOf(x, pos, BASIC_GRU_CELL_CANDIDATE);
    const Tensor bc = unitOf(bIn, pos, BASIC_GRU_CELL_CANDIDATE);
    if (params.resetAfter) {
      candRec = popops::add(graph, unitOf(rec, pos, BASIC_GRU_CELL_CANDIDATE),
                            unitOf(bRec, pos, BASIC_GRU_CELL_CANDIDATE), prog,
                            {sdc, "candidateRecurrent"});
      candPre = popops::map(graph, _1 + _2 + _3 * _4, {xc, bc, r, candRec}, prog,
                            {sdc, "candidateInput"});
    } else {
      const Tensor rh = popops::mul(graph, r, h, prog, {sdc, "resetGate*prevOutput"});
      const Tensor cRec = poplin::matMul(graph, rh, unitW(BASIC_GRU_CELL_CANDIDATE), prog,
                                         {sdc, "candidateRecurrent"}, mm);
      candPre = popops::map(graph, _1 + _2 + _3, {xc, bc, cRec}, prog, {sdc, "candidateInput"});
    }
    const Tensor c =
        popnn::nonLinearity(graph, params.activation, candPre, prog, {sdc, "candidateActivation"});
    Tensor u = uRaw;
    if (att)
      u = popops::map(graph, _1 - _2 * _1, {uRaw, attentionAt(*att, t, d.H)}, prog,
                      {sdc, "UpdateScores"});
    const Tensor hn =
        popops::map(graph, _1 + _2 * (_3 - _1), {c, u, h}, prog, {sdc, "CalcNextOutput"});
    std::vector<Tensor> keep(layout.count);
    keep[layout.reset] = r;
    keep[layout.update] = u;
    keep[layout.candidate] = c;
    keep[layout.output] = hn;
    if (params.resetAfter) keep[layout.candRec] = candRec;
    if (att) keep[layout.rawUpdate] = uRaw;
    steps.push_back(stack(keep, 0));
    outputs.push_back(hn);
    h = hn;
  }
  if (intermediates) *intermediates = stack(steps, 0); // [T, layout.count, B, H]
  return params.outputFullSequence ? stack(outputs, 0) : h;
}

// The backward pass; bwdIntermediates become [T,B,3,H] (the units' pre-activation gradients
// in cellOrder) or, with resetAfter, [T,B,4,H] (then the candidate's recurrent gradient).
Tensor backward(Graph& graph, const GruParams& params, Sequence& prog, const Tensor& fwdOutputInit,
                const Tensor& fwdIntermediates, const GruWeights& weights, const Tensor& outputGrad,
                Tensor* inputGrad, Tensor* bwdIntermediates, const Tensor* att, Tensor* attGrad,
                const DebugContext& debugContext, const OptionFlags& options,
                const std::string& op) {
  const OptionFlags mm = checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  const auto pos = unitPositions(params, op);
  const Layout layout(params.resetAfter, att != nullptr);
  checkWeights(weights, params, d, op);
  checkShape(fwdOutputInit, {d.B, d.H}, op, "fwdOutputInit");
  checkShape(fwdIntermediates, {d.T, layout.count, d.B, d.H}, op,
             std::string("fwdIntermediates (as ") + (att ? "auGruFwd" : "gruFwd") + " made them)");
  checkOutputShaped(outputGrad, params, d, op, "outputGrad");
  if (att) checkShape(*att, {d.B, d.T}, op, "attentions");
  const poputil::PoplibsOpDebugInfo di(debugContext, {{"timeSteps", d.T}, {"batchSize", d.B}},
                                       att ? "AuGruBwd" : "GruBwd");

  const Tensor& w = weights.outputWeights;
  auto unitW = [&](BasicGruCellUnit u) { return w[pos[u]]; };
  const Tensor wGatesT = rnn_layers::unitsAsMatrix(stack({unitW(BASIC_GRU_CELL_RESET_GATE),
                                                          unitW(BASIC_GRU_CELL_UPDATE_GATE)},
                                                         0))
                             .transpose();                       // [2H,H]
  const Tensor wAllT = rnn_layers::unitsAsMatrix(w).transpose(); // [3H,H]
  auto inCellOrder = [&](const Tensor& dr, const Tensor& du, const Tensor& dc) {
    std::vector<Tensor> byPos(kUnits);
    byPos[pos[BASIC_GRU_CELL_RESET_GATE]] = dr;
    byPos[pos[BASIC_GRU_CELL_UPDATE_GATE]] = du;
    byPos[pos[BASIC_GRU_CELL_CANDIDATE]] = dc;
    return stack(byPos, 1); // [B,3,H]
  };

  Tensor dhNext;
  std::vector<Tensor> dGates(d.T), dAtt(d.T);
  for (std::size_t s = d.T; s-- > 0;) {
    const DebugContext sdc(di, "step" + std::to_string(s));
    const Tensor kept = fwdIntermediates[s];
    const Tensor r = kept[layout.reset], u = kept[layout.update], c = kept[layout.candidate];
    const Tensor hp = s ? fwdIntermediates[s - 1][layout.output] : fwdOutputInit;

    Tensor dh;
    const bool fromLoss = params.outputFullSequence || s + 1 == d.T;
    const Tensor lossGrad = params.outputFullSequence ? outputGrad[s] : outputGrad;
    if (fromLoss && dhNext.valid())
      dh = popops::add(graph, lossGrad, dhNext, prog, {sdc, "outputGrad"});
    else
      dh = fromLoss ? lossGrad : dhNext;

    // h = u hp + (1 - u) c.
    const Tensor du = popops::map(graph, _1 * (_2 - _3), {dh, hp, c}, prog, {sdc, "updateGrad"});
    const Tensor dcAct =
        popops::map(graph, _1 - _1 * _2, {dh, u}, prog, {sdc, "candidateActivationGrad"});
    const Tensor dhDirect = popops::mul(graph, dh, u, prog, {sdc, "prevOutputGrad"});
    const Tensor dc = popnn::nonLinearityInputGradient(graph, params.activation, c, dcAct, prog,
                                                       {sdc, "candidateGrad"});
    // AUGRU: u = (1 - a) uRaw.
    Tensor duRaw = du, uRaw = u;
    if (att) {
      uRaw = kept[layout.rawUpdate];
      const Tensor a = attentionAt(*att, s, d.H);
      duRaw = popops::map(graph, _1 - _1 * _2, {du, a}, prog, {sdc, "UpdateScoresGrad"});
      dAtt[s] = popops::map(graph, -(_1 * _2), {du, uRaw}, prog, {sdc, "attentionGrad"});
    }

    Tensor dr, dq;
    if (params.resetAfter) { // c = act(x W_c + b_c + r q)
      const Tensor q = kept[layout.candRec];
      dr = popops::mul(graph, dc, q, prog, {sdc, "resetGateGrad"});
      dq = popops::mul(graph, dc, r, prog, {sdc, "candidateRecurrentGrad"});
    } else { // c = act(x W_c + (r hp) U_c + b_c)
      const Tensor drh = poplin::matMul(graph, dc, unitW(BASIC_GRU_CELL_CANDIDATE).transpose(),
                                        prog, {sdc, "candidateRecurrentGrad"}, mm);
      dr = popops::mul(graph, drh, hp, prog, {sdc, "resetGateGrad"});
      popops::mulInPlace(graph, drh, r, prog, {sdc, "prevOutputGradViaReset"});
      popops::addInPlace(graph, dhDirect, drh, prog, {sdc, "prevOutputGrad"});
    }
    const Tensor dSig = popnn::nonLinearityInputGradient(
        graph, params.recurrentActivation, stack({r, uRaw}, 1), stack({dr, duRaw}, 1), prog,
        {sdc, "gatesActivationGrad"}); // [B,2,H]
    const Tensor drPre = dSig.slice(0, 1, 1).squeeze({1});
    const Tensor duPre = dSig.slice(1, 2, 1).squeeze({1});
    if (params.resetAfter) {
      const Tensor rec = inCellOrder(drPre, duPre, dq).reshape({d.B, kUnits * d.H});
      const Tensor dhRec = poplin::matMul(graph, rec, wAllT, prog, {sdc, "recurrentGrad"}, mm);
      dhNext = popops::add(graph, dhDirect, dhRec, prog, {sdc, "prevOutputGrad"});
      dGates[s] = concat(inCellOrder(drPre, duPre, dc), dq.expand({1}), 1); // [B,4,H]
    } else {
      const Tensor dhRec = poplin::matMul(graph, dSig.reshape({d.B, 2 * d.H}), wGatesT, prog,
                                          {sdc, "recurrentGrad"}, mm);
      dhNext = popops::add(graph, dhDirect, dhRec, prog, {sdc, "prevOutputGrad"});
      dGates[s] = inCellOrder(drPre, duPre, dc);
    }
  }
  const Tensor allGates = stack(dGates, 0); // [T,B,3|4,H]
  if (inputGrad && params.calcInputGradients)
    *inputGrad =
        poplin::matMul(graph, allGates.slice(0, kUnits, 2).reshape({d.T * d.B, kUnits * d.H}),
                       rnn_layers::unitsAsMatrix(weights.inputWeights).transpose(), prog,
                       {di, "inputGrad"}, mm)
            .reshape({d.T, d.B, d.I});
  if (att && attGrad)
    *attGrad = popops::reduce(graph, stack(dAtt, 0), {2}, popops::Operation::ADD, prog,
                              {di, "attentionsGrad"})
                   .transpose(); // [B,T]
  if (bwdIntermediates) *bwdIntermediates = allGates;
  return dhNext;
}

GruWeights weightUpdate(Graph& graph, const GruParams& params, Sequence& prog,
                        const Tensor& fwdOutputInit, const Tensor& fwdIntermediates,
                        const Tensor& bwdIntermediates, const GruWeights& weights,
                        const Tensor& input, bool attention, const DebugContext& debugContext,
                        const OptionFlags& options, const std::string& op) {
  const OptionFlags mm = checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  const auto pos = unitPositions(params, op);
  const Layout layout(params.resetAfter, attention);
  checkWeights(weights, params, d, op);
  checkShape(fwdOutputInit, {d.B, d.H}, op, "fwdOutputInit");
  checkShape(input, {d.T, d.B, d.I}, op, "input");
  checkShape(fwdIntermediates, {d.T, layout.count, d.B, d.H}, op, "fwdIntermediates");
  const std::size_t gateSlots = params.resetAfter ? kUnits + 1 : kUnits;
  checkShape(bwdIntermediates, {d.T, d.B, gateSlots, d.H}, op,
             std::string("bwdIntermediates (as ") + (attention ? "auGruBwd" : "gruBwd") +
                 " made them)");
  const poputil::PoplibsOpDebugInfo di(debugContext, {{"timeSteps", d.T}, {"batchSize", d.B}},
                                       attention ? "AuGruWU" : "GruWU");

  std::vector<Tensor> prev{fwdOutputInit};
  for (std::size_t s = 0; s + 1 < d.T; ++s)
    prev.push_back(fwdIntermediates[s][layout.output]);
  const Tensor hp = stack(prev, 0).reshape({d.T * d.B, d.H});
  const Tensor gates = bwdIntermediates.reshape({d.T * d.B, gateSlots, d.H});
  const Tensor gatesIn = gates.slice(0, kUnits, 1); // [TB,3,H]
  auto unitGrad = [&](BasicGruCellUnit u) { return gatesIn.slice(pos[u], pos[u] + 1, 1); };

  GruWeights grads;
  grads.inputWeights =
      rnn_layers::matrixAsUnits(poplin::matMul(graph, input.reshape({d.T * d.B, d.I}).transpose(),
                                               gatesIn.reshape({d.T * d.B, kUnits * d.H}), prog,
                                               {di, "inputWeightsGrad"}, mm),
                                kUnits);
  const Tensor biasIn = popops::reduce(graph, gatesIn, {0}, popops::Operation::ADD, prog,
                                       {di, "biasesGrad"}); // [3,H]
  if (params.resetAfter) {
    // The recurrent units' gradients: the gates' and the candidate's recurrent part.
    std::vector<Tensor> byPos(kUnits);
    byPos[pos[BASIC_GRU_CELL_RESET_GATE]] = unitGrad(BASIC_GRU_CELL_RESET_GATE);
    byPos[pos[BASIC_GRU_CELL_UPDATE_GATE]] = unitGrad(BASIC_GRU_CELL_UPDATE_GATE);
    byPos[pos[BASIC_GRU_CELL_CANDIDATE]] = gates.slice(kUnits, kUnits + 1, 1);
    const Tensor rec = concat(byPos, 1); // [TB,3,H]
    grads.outputWeights = rnn_layers::matrixAsUnits(
        poplin::matMul(graph, hp.transpose(), rec.reshape({d.T * d.B, kUnits * d.H}), prog,
                       {di, "outputWeightsGrad"}, mm),
        kUnits);
    const Tensor biasRec =
        popops::reduce(graph, rec, {0}, popops::Operation::ADD, prog, {di, "recurrentBiasesGrad"});
    grads.biases = stack({biasIn, biasRec}, 1); // [3,2,H]
  } else {
    // The gates meet the previous output, the candidate the reset previous output.
    std::vector<Tensor> resets;
    for (std::size_t s = 0; s < d.T; ++s)
      resets.push_back(fwdIntermediates[s][layout.reset]);
    const Tensor rh = popops::mul(graph, stack(resets, 0).reshape({d.T * d.B, d.H}), hp, prog,
                                  {di, "resetGate*prevOutput"});
    const Tensor gateW = poplin::matMul(
        graph, hp.transpose(),
        concat(unitGrad(BASIC_GRU_CELL_RESET_GATE), unitGrad(BASIC_GRU_CELL_UPDATE_GATE), 1)
            .reshape({d.T * d.B, 2 * d.H}),
        prog, {di, "gatesOutputWeightsGrad"}, mm); // [H,2H]
    const Tensor candW = poplin::matMul(
        graph, rh.transpose(), unitGrad(BASIC_GRU_CELL_CANDIDATE).reshape({d.T * d.B, d.H}), prog,
        {di, "candidateOutputWeightsGrad"}, mm); // [H,H]
    std::vector<Tensor> byPos(kUnits);
    byPos[pos[BASIC_GRU_CELL_RESET_GATE]] = gateW.slice(0, d.H, 1);
    byPos[pos[BASIC_GRU_CELL_UPDATE_GATE]] = gateW.slice(d.H, 2 * d.H, 1);
    byPos[pos[BASIC_GRU_CELL_CANDIDATE]] = candW;
    grads.outputWeights = stack(byPos, 0);
    grads.biases = biasIn;
  }
  return grads;
}

} // namespace

const std::vector<BasicGruCellUnit> getDefaultBasicGruCellOrder() {
  return {BASIC_GRU_CELL_RESET_GATE, BASIC_GRU_CELL_UPDATE_GATE, BASIC_GRU_CELL_CANDIDATE};
}

GruParams::GruParams(Type dataType_, std::size_t batchSize_, std::size_t timeSteps_,
                     std::vector<std::size_t> layerSizes_, NonLinearityType activation_,
                     NonLinearityType recurrentActivation_)
    : rnn(dataType_, batchSize_, timeSteps_, layerSizes_), dataType(dataType_),
      batchSize(batchSize_), timeSteps(timeSteps_), layerSizes(std::move(layerSizes_)),
      activation(activation_), recurrentActivation(recurrentActivation_) {}

GruParams::GruParams(Type dataType_, std::size_t batchSize_, std::size_t maxTimeSteps_,
                     const Tensor& timeSteps_, std::vector<std::size_t> layerSizes_,
                     NonLinearityType activation_, NonLinearityType recurrentActivation_)
    : rnn(dataType_, batchSize_, maxTimeSteps_, timeSteps_, layerSizes_), dataType(dataType_),
      batchSize(batchSize_), timeSteps(maxTimeSteps_), layerSizes(std::move(layerSizes_)),
      activation(activation_), recurrentActivation(recurrentActivation_) {}

GruParams::GruParams(const GruParams& other) = default;

// PopLibs' counts: the matmuls at 2 flops per multiply-add plus the cell's products and sums.
uint64_t getBasicGruCellFwdFlops(const GruParams& p) {
  const Dims d = dimsOf(p, "popnn::gru::getBasicGruCellFwdFlops");
  const uint64_t steps = uint64_t(d.T) * d.B;
  return steps * (2 * 3 * d.H * (d.I + d.H) + 5 * d.H);
}

uint64_t getBasicGruCellBwdFlops(const GruParams& p) {
  const Dims d = dimsOf(p, "popnn::gru::getBasicGruCellBwdFlops");
  const uint64_t steps = uint64_t(d.T) * d.B;
  const uint64_t inputGrad = p.calcInputGradients ? 2 * 3 * uint64_t(d.I) * d.H : 0;
  return steps * (8 * d.H + inputGrad + 2 * 6 * uint64_t(d.H) * d.H);
}

uint64_t getBasicGruCellWuFlops(const GruParams& p) {
  const Dims d = dimsOf(p, "popnn::gru::getBasicGruCellWuFlops");
  const uint64_t steps = uint64_t(d.T) * d.B;
  return steps * (2 * 3 * uint64_t(d.I + d.H) * d.H + 2 * 3 * d.H);
}

Tensor createInput(Graph& graph, const GruParams& params, const DebugContext& debugContext,
                   const OptionFlags& options, poplin::PlanningCache*) {
  const std::string op = "popnn::gru::createInput";
  checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GruCreateInput");
  return newTensor(graph, params.dataType, {d.T, d.B, d.I}, {di, "input"});
}

Tensor createInitialState(Graph& graph, const GruParams& params, const DebugContext& debugContext,
                          const OptionFlags& options, poplin::PlanningCache*) {
  const std::string op = "popnn::gru::createInitialState";
  checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GruCreateInitialState");
  return newTensor(graph, params.dataType, {d.B, d.H}, {di, "initialOutput"});
}

std::pair<Tensor, Tensor> createWeightsKernel(Graph& graph, const GruParams& params,
                                              const DebugContext& debugContext,
                                              const OptionFlags& options, poplin::PlanningCache*) {
  const std::string op = "popnn::gru::createWeightsKernel";
  checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  unitPositions(params, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GruCreateWeightsKernel");
  return {newTensor(graph, params.dataType, {kUnits, d.I, d.H}, {di, "inputWeights"}),
          newTensor(graph, params.dataType, {kUnits, d.H, d.H}, {di, "outputWeights"})};
}

Tensor createWeightsBiases(Graph& graph, const GruParams& params, const DebugContext& debugContext,
                           const OptionFlags& options, poplin::PlanningCache*) {
  const std::string op = "popnn::gru::createWeightsBiases";
  checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GruCreateWeightsBiases");
  return newTensor(graph, params.dataType, biasShape(params, d), {di, "biases"});
}

GruWeights createWeights(Graph& graph, const GruParams& params, const DebugContext& debugContext,
                         const OptionFlags& options, poplin::PlanningCache* cache) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GruCreateWeights");
  auto kernel = createWeightsKernel(graph, params, {di}, options, cache);
  return {kernel.first, kernel.second, createWeightsBiases(graph, params, {di}, options, cache)};
}

Tensor createAttention(Graph& graph, const GruParams& params, const DebugContext& debugContext,
                       const OptionFlags& options) {
  const std::string op = "popnn::gru::createAttention";
  checkOptions(options, op);
  const Dims d = dimsOf(params, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GruCreateAttention");
  return newTensor(graph, params.dataType, {d.B, d.T}, {di, "attention"});
}

Tensor gruFwd(Graph& graph, const GruParams& params, const Tensor& stateInit, const Tensor& in,
              const GruWeights& weights, Tensor* intermediates, Sequence& fwdProg,
              const DebugContext& debugContext, const OptionFlags& options,
              poplin::PlanningCache*) {
  return forward(graph, params, stateInit, in, weights, intermediates, nullptr, fwdProg,
                 debugContext, options, "popnn::gru::gruFwd");
}

Tensor gruFwd(Graph&, const GruParams&, const Tensor&, const Tensor&, const Tensor&,
              const GruWeights&, Tensor*, Sequence&, const DebugContext&, const OptionFlags&,
              poplin::PlanningCache*) {
  refuseRealTimeSteps("popnn::gru::gruFwd");
}

Tensor auGruFwd(Graph& graph, const GruParams& params, const Tensor& stateInit, const Tensor& in,
                const GruWeights& weights, Tensor* intermediates, const Tensor& attScores,
                Sequence& fwdProg, const DebugContext& debugContext, const OptionFlags& options,
                poplin::PlanningCache*) {
  return forward(graph, params, stateInit, in, weights, intermediates, &attScores, fwdProg,
                 debugContext, options, "popnn::gru::auGruFwd");
}

Tensor auGruFwd(Graph&, const GruParams&, const Tensor&, const Tensor&, const Tensor&,
                const GruWeights&, Tensor*, const Tensor&, Sequence&, const DebugContext&,
                const OptionFlags&, poplin::PlanningCache*) {
  refuseRealTimeSteps("popnn::gru::auGruFwd");
}

Tensor gruBwd(Graph& graph, const GruParams& params, Sequence& prog, const Tensor& fwdOutputInit,
              const Tensor& fwdIntermediatesSeq, const GruWeights& weights, const Tensor&,
              const Tensor&, const Tensor& gradLayerNext, Tensor* inputGrad,
              Tensor* bwdIntermediates, const DebugContext& debugContext,
              const OptionFlags& options, poplin::PlanningCache*) {
  return backward(graph, params, prog, fwdOutputInit, fwdIntermediatesSeq, weights, gradLayerNext,
                  inputGrad, bwdIntermediates, nullptr, nullptr, debugContext, options,
                  "popnn::gru::gruBwd");
}

Tensor gruBwd(Graph&, const GruParams&, Sequence&, const Tensor&, const Tensor&, const GruWeights&,
              const Tensor&, const Tensor&, const Tensor&, const Tensor&, Tensor*, Tensor*,
              const DebugContext&, const OptionFlags&, poplin::PlanningCache*) {
  refuseRealTimeSteps("popnn::gru::gruBwd");
}

Tensor auGruBwd(Graph& graph, const GruParams& params, Sequence& prog, const Tensor& fwdOutputInit,
                const Tensor& fwdIntermediatesSeq, const GruWeights& weights, const Tensor&,
                const Tensor&, const Tensor& gradLayerNext, Tensor* inputGrad,
                Tensor* bwdIntermediates, const Tensor& attentions, Tensor* attentionsGrad,
                const DebugContext& debugContext, const OptionFlags& options,
                poplin::PlanningCache*) {
  return backward(graph, params, prog, fwdOutputInit, fwdIntermediatesSeq, weights, gradLayerNext,
                  inputGrad, bwdIntermediates, &attentions, attentionsGrad, debugContext, options,
                  "popnn::gru::auGruBwd");
}

Tensor auGruBwd(Graph&, const GruParams&, Sequence&, const Tensor&, const Tensor&,
                const GruWeights&, const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                Tensor*, Tensor*, const Tensor&, Tensor*, const DebugContext&, const OptionFlags&,
                poplin::PlanningCache*) {
  refuseRealTimeSteps("popnn::gru::auGruBwd");
}

GruWeights gruWU(Graph& graph, const GruParams& params, Sequence& prog, const Tensor& fwdOutputInit,
                 const Tensor& fwdIntermediates, const Tensor& bwdIntermediates,
                 const GruWeights& weights, const Tensor& input, const Tensor&,
                 const DebugContext& debugContext, const OptionFlags& options,
                 poplin::PlanningCache*) {
  return weightUpdate(graph, params, prog, fwdOutputInit, fwdIntermediates, bwdIntermediates,
                      weights, input, false, debugContext, options, "popnn::gru::gruWU");
}

GruWeights auGruWU(Graph& graph, const GruParams& params, Sequence& prog,
                   const Tensor& fwdOutputInit, const Tensor& fwdIntermediates,
                   const Tensor& bwdIntermediates, const GruWeights& weights, const Tensor& input,
                   const Tensor&, const DebugContext& debugContext, const OptionFlags& options,
                   poplin::PlanningCache*) {
  return weightUpdate(graph, params, prog, fwdOutputInit, fwdIntermediates, bwdIntermediates,
                      weights, input, true, debugContext, options, "popnn::gru::auGruWU");
}

Tensor gruBwdWithWU(Graph& graph, const GruParams& params, Sequence& prog,
                    const Tensor& fwdOutputInit, const Tensor& fwdIntermediates,
                    const GruWeights& weights, const Tensor& input, const Tensor& output,
                    const Tensor& outputGrad, Tensor* inputGrad, GruWeights& weightsGrad,
                    const DebugContext& debugContext, const OptionFlags& options,
                    poplin::PlanningCache* cache) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "GruBwdWithWU");
  Tensor bwdIntermediates;
  Tensor initGrad = gruBwd(graph, params, prog, fwdOutputInit, fwdIntermediates, weights, input,
                           output, outputGrad, inputGrad, &bwdIntermediates, {di}, options, cache);
  weightsGrad = gruWU(graph, params, prog, fwdOutputInit, fwdIntermediates, bwdIntermediates,
                      weights, input, output, {di}, options, cache);
  return initGrad;
}

Tensor gruBwdWithWU(Graph&, const GruParams&, Sequence&, const Tensor&, const Tensor&,
                    const GruWeights&, const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                    Tensor*, GruWeights&, const DebugContext&, const OptionFlags&,
                    poplin::PlanningCache*) {
  refuseRealTimeSteps("popnn::gru::gruBwdWithWU");
}

Tensor auGruBwdWithWU(Graph& graph, const GruParams& params, Sequence& prog,
                      const Tensor& fwdOutputInit, const Tensor& fwdIntermediates,
                      const GruWeights& weights, const Tensor& input, const Tensor& output,
                      const Tensor& outputGrad, Tensor* inputGrad, GruWeights& weightsGrad,
                      const Tensor& attentions, Tensor* attentionsGrad,
                      const DebugContext& debugContext, const OptionFlags& options,
                      poplin::PlanningCache* cache) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "AuGruBwdWithWU");
  Tensor bwdIntermediates;
  Tensor initGrad = auGruBwd(graph, params, prog, fwdOutputInit, fwdIntermediates, weights, input,
                             output, outputGrad, inputGrad, &bwdIntermediates, attentions,
                             attentionsGrad, {di}, options, cache);
  weightsGrad = auGruWU(graph, params, prog, fwdOutputInit, fwdIntermediates, bwdIntermediates,
                        weights, input, output, {di}, options, cache);
  return initGrad;
}

Tensor auGruBwdWithWU(Graph&, const GruParams&, Sequence&, const Tensor&, const Tensor&,
                      const GruWeights&, const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                      Tensor*, GruWeights&, const Tensor&, Tensor*, const DebugContext&,
                      const OptionFlags&, poplin::PlanningCache*) {
  refuseRealTimeSteps("popnn::gru::auGruBwdWithWU");
}

} // namespace gru
} // namespace popnn
