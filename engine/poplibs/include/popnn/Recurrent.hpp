// Basic (Elman) recurrent layers, as PopLibs' popnn/Recurrent.hpp gives them: per step
//   h_s = nonLinearity(x_s W_in + h_{s-1} W_fb + b),
// in two parts (forwardWeightInput for x W_in over the whole sequence, forwardIterate for the
// feedback), the backward step, the weight deltas, and whole-sequence forward and backward.
//
// Shapes (S steps, B batch, I input size, O output size): inputs [S,B,I], W_in [I,O],
// W_fb [O,O], biases [O], states [B,O], sequences of states [S,B,O].
// Built from poplin matmuls (matMulAcc for the deltas), popops maps and reductions and popnn
// non-linearities, as PopLibs builds it. Differs from PopLibs: the time loop is unrolled (PopLibs
// runs a Repeat over dynamically sliced steps); rnnBwdSequence takes outGradient [S,B,O], uses
// each step's own output as the non-linearity's (PopLibs reads a state copied one step late),
// and with ignoreInputGradientCalc returns the gradient at each step's weighted input [S,B,O]
// (PopLibs returns an unwritten tensor of that shape).
#pragma once

#include <cstdint>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/MatMul.hpp>
#include <popnn/NonLinearity.hpp>
#include <tuple>
#include <utility>
#include <vector>

namespace poplin {
class PlanningCache;
} // namespace poplin

namespace popnn {
namespace rnn {

/// The matmuls of one step: x W_in (when hasFeedforwardWeights) and h W_fb.
std::vector<std::pair<poplin::MatMulParams, poplar::OptionFlags>>
getMatMulPrePlanParameters(std::size_t numSteps, std::size_t batchSize, std::size_t inputSize,
                           std::size_t outputSize, const poplar::Type& dType,
                           const poplar::Type& partialsType = poplar::FLOAT,
                           bool inferenceOnly = false, bool hasFeedforwardWeights = true);

/// PopLibs' flop counts (multiplies and adds of the matmuls, the bias and input sums).
uint64_t getFwdFlops(unsigned sequenceSize, unsigned batchSize, unsigned inputSize,
                     unsigned outputSize, bool weightInput = true);
uint64_t getBwdFlops(unsigned sequenceSize, unsigned batchSize, unsigned inputSize,
                     unsigned outputSize, bool calcInputGrad = true);
uint64_t getWuFlops(unsigned sequenceSize, unsigned batchSize, unsigned inputSize,
                    unsigned outputSize);

/// The input [S,B,I], each step laid out as a matmul's left operand.
poplar::Tensor createInput(poplar::Graph& graph, unsigned numSteps, unsigned batchSize,
                           unsigned inputSize, unsigned outputSize, const poplar::Type& dType,
                           const poplar::Type& partialsType = poplar::FLOAT,
                           bool inferenceOnly = false,
                           const poplar::DebugContext& debugContext = {},
                           poplin::PlanningCache* planningCache = nullptr);

/// A forward state [B,O]; zeroed in `prog` when initState.
poplar::Tensor createFwdState(poplar::Graph& graph, const poplar::Type& dType, unsigned batchSize,
                              unsigned outputSize, poplar::program::Sequence& prog, bool initState,
                              bool inferenceOnly, const poplar::DebugContext& debugContext = {},
                              poplin::PlanningCache* planningCache = nullptr);

/// The output held in a forward state (the state itself).
poplar::Tensor getOutputFromFwdState(const poplar::Tensor& fwdState);

/// W_in [I,O].
poplar::Tensor createWeightsInput(poplar::Graph& graph, unsigned sequenceSize, unsigned batchSize,
                                  unsigned inputSize, unsigned outputSize,
                                  const poplar::Type& dType,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  bool inferenceOnly = false,
                                  const poplar::DebugContext& debugContext = {},
                                  poplin::PlanningCache* planningCache = nullptr);

/// W_fb [O,O].
poplar::Tensor createWeightsFeedback(poplar::Graph& graph, unsigned batchSize, unsigned outputSize,
                                     const poplar::Type& dType,
                                     const poplar::Type& partialsType = poplar::FLOAT,
                                     bool inferenceOnly = false,
                                     const poplar::DebugContext& debugContext = {},
                                     poplin::PlanningCache* planningCache = nullptr);

/// actIn [S,B,I] x weights [I,O]: [S,B,O], in one matmul.
poplar::Tensor forwardWeightInput(poplar::Graph& graph, const poplar::Tensor& actIn,
                                  const poplar::Tensor& weights, poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  bool inferenceOnly = false,
                                  const poplar::DebugContext& debugContext = {},
                                  poplin::PlanningCache* planningCache = nullptr);

/// The feedback part over the sequence from initState: the outputs [S,B,O].
poplar::Tensor forwardIterate(
    poplar::Graph& graph, const poplar::Tensor& feedFwdIn, const poplar::Tensor& initState,
    const poplar::Tensor& feedbackWeights, const poplar::Tensor& biases,
    poplar::program::Sequence& prog, popnn::NonLinearityType nonLinearityType,
    const poplar::Type& partialsType = poplar::FLOAT, bool inferenceOnly = false,
    const poplar::DebugContext& debugContext = {}, poplin::PlanningCache* planningCache = nullptr);

/// A backward state [B,O], zeroed in `prog`.
poplar::Tensor createBwdState(poplar::Graph& graph, const poplar::Type& dType, unsigned batchSize,
                              unsigned outputSize, poplar::program::Sequence& prog,
                              const poplar::DebugContext& debugContext = {},
                              poplin::PlanningCache* planningCache = nullptr);

/// One step back: the new backward state = nonLinearity'(actOut) (nextLayerGrad + bwdState
/// W_fb^T); returns {the gradient at the step's input (new state W_in^T), the new state}.
std::pair<poplar::Tensor, poplar::Tensor> backwardGradientStep(
    poplar::Graph& graph, const poplar::Tensor& nextLayerGrad, const poplar::Tensor& bwdState,
    const poplar::Tensor& actOut, const poplar::Tensor& weightsInput,
    const poplar::Tensor& weightsFeedback, poplar::program::Sequence& prog,
    popnn::NonLinearityType nonLinearityType, const poplar::Type& partialsType = poplar::FLOAT,
    const poplar::DebugContext& debugContext = {}, poplin::PlanningCache* planningCache = nullptr);
/// As above without the input's gradient: returns the new state.
poplar::Tensor backwardGradientStep(poplar::Graph& graph, const poplar::Tensor& nextLayerGrad,
                                    const poplar::Tensor& bwdState, const poplar::Tensor& actOut,
                                    const poplar::Tensor& weightsFeedback,
                                    poplar::program::Sequence& prog,
                                    popnn::NonLinearityType nonLinearityType,
                                    const poplar::Type& partialsType = poplar::FLOAT,
                                    const poplar::DebugContext& debugContext = {},
                                    poplin::PlanningCache* planningCache = nullptr);

/// Adds one step's deltas: W_in += actIn^T bwdState, W_fb += prevOut^T bwdState,
/// b += the batch's sum of bwdState.
void paramDeltaUpdate(poplar::Graph& graph, const poplar::Tensor& bwdState,
                      const poplar::Tensor& actIn, const poplar::Tensor& prevOut,
                      poplar::Tensor& weightsInputDeltasAcc,
                      poplar::Tensor& weightsFeedbackDeltasAcc, poplar::Tensor& biasDeltasAcc,
                      poplar::program::Sequence& prog,
                      const poplar::Type& partialsType = poplar::FLOAT,
                      const poplar::DebugContext& debugContext = {},
                      poplin::PlanningCache* planningCache = nullptr);

/// The layer over the sequence: the states [S,B,O]. `weightedIn` ([S,B,O]) stands for
/// prevLayerActs W_in when given.
poplar::Tensor rnnFwdSequence(poplar::Graph& graph, poplar::program::Sequence& prog,
                              const poplar::Tensor& fwdStateInit, const poplar::Tensor* weightedIn,
                              const poplar::Tensor& biases, const poplar::Tensor& feedFwdWeights,
                              const poplar::Tensor& feedbackWeights,
                              const poplar::Tensor& prevLayerActs,
                              const popnn::NonLinearityType& nonLinearityType,
                              const poplar::Type& partialsType, bool inferenceOnly,
                              const poplar::DebugContext& debugContext = {},
                              poplin::PlanningCache* planningCache = nullptr);

/// Back through the sequence: {the previous layer's gradient [S,B,I] (or, with
/// ignoreInputGradientCalc, the weighted input's [S,B,O]), W_in deltas, W_fb deltas, bias
/// deltas} (the deltas only with doWU).
std::tuple<poplar::Tensor, poplar::Tensor, poplar::Tensor, poplar::Tensor>
rnnBwdSequence(poplar::Graph& graph, bool doWU, bool ignoreInputGradientCalc,
               poplar::program::Sequence& prog, const poplar::Tensor& fwdStateInit,
               const poplar::Tensor& fwdState, const poplar::Tensor& biases,
               const poplar::Tensor& feedFwdWeights, const poplar::Tensor& feedbackWeights,
               const poplar::Tensor& outGradient, const poplar::Tensor& actIn,
               const popnn::NonLinearityType& nonLinearityType, const poplar::Type& partialsType,
               const poplar::DebugContext& debugContext = {},
               poplin::PlanningCache* planningCache = nullptr);

} // namespace rnn
} // namespace popnn
