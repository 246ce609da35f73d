// Basic LSTM layers, as PopLibs' popnn/Lstm.hpp gives them: forward pass over a sequence,
// backward pass (gradients of the input and of the initial state) and weight update.
//
// Shapes (T time steps, B batch, I = layerSizes[0], H = layerSizes[1]):
//   input [T,B,I]; output [T,B,H] (or [B,H] without outputFullSequence); state parts [B,H];
//   inputWeights [4,I,H], outputWeights [4,H,H], biases [4,H], the 4 units in cellOrder.
// Each step computes, for the units in cellOrder, gates = x W_in + h W_out + b, then
//   f, i, o = recurrentActivation(gates), g = activation(gates),
//   c' = f c + i g,   h' = o activation(c').
// The ops are PopLibs' own: poplin matmuls (the whole sequence's input product in one), popops
// maps and reductions, popnn non-linearities and their gradients, so the profile shows their
// vertices and cycle estimates.
//
// Options ("availableMemoryProportion", "partialsType", "weightAccumulatorsType",
// "preCalcWeights", "recomputationMode", "numShards", "rnnCodeReuse") are PopLibs' and are
// checked; an unknown option or a bad value throws poputil::poplibs_error naming it.
// Differs from PopLibs: the time loop is unrolled in the program (T copies of the step, so keep
// T modest), intermediates are views over the steps' tensors rather than one variable, a
// variable number of time steps is refused, and "recomputationMode" other than "none" is
// accepted but nothing is recomputed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <popnn/LstmDef.hpp>
#include <popnn/NonLinearityDef.hpp>
#include <popnn/Rnn.hpp>
#include <utility>
#include <vector>

namespace popnn {
namespace lstm {

/// {FORGET, INPUT, CANDIDATE, OUTPUT}.
const std::vector<BasicLstmCellUnit> getDefaultBasicLstmCellOrder();

struct LstmParams {
  rnn::RnnParams rnn;
  poplar::Type dataType;
  std::size_t batchSize;
  std::size_t timeSteps;
  /// {input size, output size}.
  std::vector<std::size_t> layerSizes;
  /// Output every step's output ([T,B,H]) or only the last one ([B,H]).
  bool outputFullSequence = true;
  /// Compute the input's product with the input weights (false: the input is that product).
  bool doInputWeightCalc = true;
  bool calcInputGradients = true;
  /// Tessera keeps every step's state anyway; accepted for PopLibs' code.
  bool preserveFinalState = false;
  std::vector<BasicLstmCellUnit> cellOrder = getDefaultBasicLstmCellOrder();
  NonLinearityType activation = NonLinearityType::TANH;
  NonLinearityType recurrentActivation = NonLinearityType::SIGMOID;

  LstmParams(poplar::Type dataType, std::size_t batchSize, std::size_t timeSteps,
             std::vector<std::size_t> layerSizes,
             NonLinearityType activation = NonLinearityType::TANH,
             NonLinearityType recurrentActivation = NonLinearityType::SIGMOID);
  LstmParams(poplar::Type dataType, std::size_t batchSize, std::size_t maxTimeSteps,
             const poplar::Tensor& timeSteps, std::vector<std::size_t> layerSizes,
             NonLinearityType activation = NonLinearityType::TANH,
             NonLinearityType recurrentActivation = NonLinearityType::SIGMOID);
};

struct LstmState {
  poplar::Tensor output;
  poplar::Tensor cellState;
  /// output and cellState stacked: [2,B,H].
  poplar::Tensor getAsTensor() const;
};

struct LstmWeights {
  poplar::Tensor inputWeights;
  poplar::Tensor outputWeights;
  poplar::Tensor biases;
};

/// Floating-point operations of the layer's passes (multiply-adds count 2).
std::uint64_t getBasicLstmCellFwdFlops(const LstmParams& params);
std::uint64_t getBasicLstmCellBwdFlops(const LstmParams& params);
std::uint64_t getBasicLstmCellWuFlops(const LstmParams& params);

/// The matrix products an LSTM layer runs, for planning them ahead (poplin::preplan): as
/// PopLibs, one fully connected layer of batchSize rows, 2 x layerSizes[0] inputs (the input
/// and recurrent weights concatenated) and 4 x layerSizes[1] outputs (one per gate), its
/// forward pass and, unless option "inferenceOnly" is "true", its backward and weight update
/// passes (poplin::fc::getMatMulPrePlanParameters), with the options' "partialsType" and
/// "availableMemoryProportion". Other LSTM options are checked; unknown ones throw
/// poplar::invalid_option.
std::vector<std::pair<poplin::MatMulParams, poplar::OptionFlags>>
getMatMulPrePlanParameters(LstmParams params, poplar::OptionFlags opts);

/// The input [T,B,I], spread over the tiles.
poplar::Tensor createInput(poplar::Graph& graph, const LstmParams& params,
                           const poplar::DebugContext& debugContext,
                           const poplar::OptionFlags& options = {},
                           poplin::PlanningCache* planningCache = nullptr);
poplar::Tensor createInitialOutput(poplar::Graph& graph, const LstmParams& params,
                                   const poplar::DebugContext& debugContext,
                                   const poplar::OptionFlags& options = {},
                                   poplin::PlanningCache* planningCache = nullptr);
poplar::Tensor createInitialCellState(poplar::Graph& graph, const LstmParams& params,
                                      const poplar::DebugContext& debugContext,
                                      const poplar::OptionFlags& options = {},
                                      poplin::PlanningCache* planningCache = nullptr);
LstmState createInitialState(poplar::Graph& graph, const LstmParams& params,
                             const poplar::DebugContext& debugContext,
                             const poplar::OptionFlags& options = {},
                             poplin::PlanningCache* planningCache = nullptr);
/// Adds to `prog` the zeroing of both parts of the state.
void zeroInitialState(poplar::Graph& graph, const LstmState& initialState,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {});

/// {inputWeights [4,I,H], outputWeights [4,H,H]}.
std::pair<poplar::Tensor, poplar::Tensor> createWeightsKernel(
    poplar::Graph& graph, const LstmParams& params, const poplar::DebugContext& debugContext,
    const poplar::OptionFlags& options = {}, poplin::PlanningCache* planningCache = nullptr);
/// biases [4,H].
poplar::Tensor createWeightsBiases(poplar::Graph& graph, const LstmParams& params,
                                   const poplar::DebugContext& debugContext,
                                   const poplar::OptionFlags& options = {},
                                   poplin::PlanningCache* planningCache = nullptr);
LstmWeights createWeights(poplar::Graph& graph, const LstmParams& params,
                          const poplar::DebugContext& debugContext,
                          const poplar::OptionFlags& options = {},
                          poplin::PlanningCache* planningCache = nullptr);

/// The forward pass over the sequence `in`: returns {output, final cell state}. With
/// `intermediates` non-null, also what the backward pass and weight update need.
std::pair<poplar::Tensor, poplar::Tensor>
lstmFwd(poplar::Graph& graph, const LstmParams& params, const LstmState& stateInit,
        const poplar::Tensor& in, const LstmWeights& weights, poplar::Tensor* intermediates,
        poplar::program::Sequence& fwdProg, const poplar::DebugContext& debugContext = {},
        const poplar::OptionFlags& options = {}, poplin::PlanningCache* planningCache = nullptr);

/// The backward pass: from the gradient of the output (shaped as lstmFwd's output) and, if
/// given, of the last step's state, returns the gradient of the initial state; writes the
/// input's gradient to `*inputGrad` (if non-null and calcInputGradients) and what the weight
/// update needs to `*bwdIntermediates` (if non-null).
LstmState lstmBwd(poplar::Graph& graph, const LstmParams& params, poplar::program::Sequence& prog,
                  const LstmState& fwdStateInit, const poplar::Tensor& fwdIntermediates,
                  const LstmWeights& weights, const poplar::Tensor& input,
                  const poplar::Tensor& output, const poplar::Tensor& outputGrad,
                  const LstmState* lastStepStateGrad, poplar::Tensor* inputGrad,
                  poplar::Tensor* bwdIntermediates, const poplar::DebugContext& debugContext = {},
                  const poplar::OptionFlags& options = {},
                  poplin::PlanningCache* planningCache = nullptr);
/// As above, with only the last step's cell state gradient.
LstmState lstmBwd(poplar::Graph& graph, const LstmParams& params, poplar::program::Sequence& prog,
                  const LstmState& fwdStateInit, const poplar::Tensor& fwdIntermediates,
                  const LstmWeights& weights, const poplar::Tensor& input,
                  const poplar::Tensor& output, const poplar::Tensor& outputGrad,
                  const poplar::Tensor* lastCellStateGrad, poplar::Tensor* inputGrad,
                  poplar::Tensor* bwdIntermediates, const poplar::DebugContext& debugContext = {},
                  const poplar::OptionFlags& options = {},
                  poplin::PlanningCache* planningCache = nullptr);

/// The weights' gradients, summed over the steps and the batch.
LstmWeights lstmWU(poplar::Graph& graph, const LstmParams& params, poplar::program::Sequence& prog,
                   const LstmState& fwdStateInit, const poplar::Tensor& fwdIntermediates,
                   const poplar::Tensor& bwdIntermediates, const LstmWeights& weights,
                   const poplar::Tensor& input, const poplar::Tensor& output,
                   const poplar::DebugContext& debugContext = {},
                   const poplar::OptionFlags& options = {},
                   poplin::PlanningCache* planningCache = nullptr);

/// lstmBwd then lstmWU; the weights' gradients go to `weightsGrad`.
LstmState lstmBwdWithWU(poplar::Graph& graph, const LstmParams& params,
                        poplar::program::Sequence& prog, const LstmState& fwdStateInit,
                        const poplar::Tensor& fwdIntermediates, const LstmWeights& weights,
                        const poplar::Tensor& input, const poplar::Tensor& output,
                        const poplar::Tensor& outputGrad, const LstmState* lastStepStateGrad,
                        poplar::Tensor* inputGrad, LstmWeights& weightsGrad,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {},
                        poplin::PlanningCache* planningCache = nullptr);
LstmState lstmBwdWithWU(poplar::Graph& graph, const LstmParams& params,
                        poplar::program::Sequence& prog, const LstmState& fwdStateInit,
                        const poplar::Tensor& fwdIntermediates, const LstmWeights& weights,
                        const poplar::Tensor& input, const poplar::Tensor& output,
                        const poplar::Tensor& outputGrad, const poplar::Tensor* lastCellStateGrad,
                        poplar::Tensor* inputGrad, LstmWeights& weightsGrad,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {},
                        poplin::PlanningCache* planningCache = nullptr);

} // namespace lstm
} // namespace popnn
