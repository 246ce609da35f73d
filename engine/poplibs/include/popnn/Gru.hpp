// Gated recurrent unit layers, as PopLibs' popnn/Gru.hpp gives them: forward pass over a
// sequence, backward pass, weight update, and the attention-gated variant (AUGRU).
//
// Shapes (T time steps, B batch, I = layerSizes[0], H = layerSizes[1]):
//   input [T,B,I]; output [T,B,H] (or [B,H] without outputFullSequence); state [B,H];
//   inputWeights [3,I,H], outputWeights [3,H,H], the 3 units in cellOrder; biases [3,H], or
//   [3,2,H] with resetAfter (per unit: the input's bias, then the recurrent one);
//   attention scores (AUGRU) [B,T].
// Each step computes, with x the step's input and h the previous output,
//   r = recurrentActivation(x W_r + h U_r + b_r),  u = recurrentActivation(x W_u + h U_u + b_u),
//   c = activation(x W_c + (r h) U_c + b_c)     (resetAfter: x W_c + b_c + r (h U_c + b'_c)),
//   AUGRU: u = (1 - a) u,
//   h' = u h + (1 - u) c.
// Built, as PopLibs builds it, from poplin matmuls, popops maps and reductions and popnn
// non-linearities and their gradients (no vertices of its own).
//
// Options ("availableMemoryProportion", "inferenceOnly", "partialsType", "numShards",
// "rnnCodeReuse") are PopLibs' and are checked; an unknown option or a bad value throws naming
// it. Differs from PopLibs: the time loop is unrolled in the program (keep T modest), the
// intermediates are views over the steps' tensors laid out as Tessera's backward pass wants
// them, and a variable number of time steps (the realTimeSteps overloads, or GruParams made
// with a timeSteps tensor) is refused with an error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/MatMul.hpp>
#include <popnn/GruDef.hpp>
#include <popnn/NonLinearityDef.hpp>
#include <popnn/Rnn.hpp>
#include <utility>
#include <vector>

namespace popnn {
namespace gru {

/// {RESET_GATE, UPDATE_GATE, CANDIDATE}.
const std::vector<BasicGruCellUnit> getDefaultBasicGruCellOrder();

struct GruParams {
  rnn::RnnParams rnn;
  poplar::Type dataType;
  std::size_t batchSize;
  std::size_t timeSteps;
  /// {input size, output size}.
  std::vector<std::size_t> layerSizes;
  /// Output every step's output ([T,B,H]) or only the last one ([B,H]).
  bool outputFullSequence = true;
  bool calcInputGradients = true;
  std::vector<BasicGruCellUnit> cellOrder = getDefaultBasicGruCellOrder();
  /// Apply the reset gate after the candidate's recurrent weights and bias (biases [3,2,H]).
  bool resetAfter = false;
  NonLinearityType activation = NonLinearityType::TANH;
  NonLinearityType recurrentActivation = NonLinearityType::SIGMOID;

  GruParams(poplar::Type dataType, std::size_t batchSize, std::size_t timeSteps,
            std::vector<std::size_t> layerSizes,
            NonLinearityType activation = NonLinearityType::TANH,
            NonLinearityType recurrentActivation = NonLinearityType::SIGMOID);
  GruParams(poplar::Type dataType, std::size_t batchSize, std::size_t maxTimeSteps,
            const poplar::Tensor& timeSteps, std::vector<std::size_t> layerSizes,
            NonLinearityType activation = NonLinearityType::TANH,
            NonLinearityType recurrentActivation = NonLinearityType::SIGMOID);
  GruParams(const GruParams& other);
};

/// PopLibs' flop counts of the passes (matmuls 2 per multiply-add, the cell's products and sums;
/// non-linearities and bias additions not counted).
uint64_t getBasicGruCellFwdFlops(const GruParams& params);
uint64_t getBasicGruCellBwdFlops(const GruParams& params);
uint64_t getBasicGruCellWuFlops(const GruParams& params);

/// The input [T,B,I], spread over the tiles.
poplar::Tensor createInput(poplar::Graph& graph, const GruParams& params,
                           const poplar::DebugContext& debugContext,
                           const poplar::OptionFlags& options = {},
                           poplin::PlanningCache* planningCache = nullptr);

/// The initial output [B,H].
poplar::Tensor createInitialState(poplar::Graph& graph, const GruParams& params,
                                  const poplar::DebugContext& debugContext,
                                  const poplar::OptionFlags& options, poplin::PlanningCache* cache);

struct GruWeights {
  poplar::Tensor inputWeights;
  poplar::Tensor outputWeights;
  poplar::Tensor biases;
};

/// {inputWeights [3,I,H], outputWeights [3,H,H]}.
std::pair<poplar::Tensor, poplar::Tensor> createWeightsKernel(
    poplar::Graph& graph, const GruParams& params, const poplar::DebugContext& debugContext,
    const poplar::OptionFlags& options = {}, poplin::PlanningCache* planningCache = nullptr);
/// biases [3,H] ([3,2,H] with resetAfter).
poplar::Tensor createWeightsBiases(poplar::Graph& graph, const GruParams& params,
                                   const poplar::DebugContext& debugContext,
                                   const poplar::OptionFlags& options = {},
                                   poplin::PlanningCache* planningCache = nullptr);
GruWeights createWeights(poplar::Graph& graph, const GruParams& params,
                         const poplar::DebugContext& debugContext,
                         const poplar::OptionFlags& options = {},
                         poplin::PlanningCache* planningCache = nullptr);

/// The AUGRU's attention scores [B,T].
poplar::Tensor createAttention(poplar::Graph& graph, const GruParams& params,
                               const poplar::DebugContext& debugContext,
                               const poplar::OptionFlags& options = {});

/// The forward pass over `in` from the output `stateInit`; returns the output ([T,B,H], or
/// [B,H] without outputFullSequence). With `intermediates` non-null, also what the backward
/// pass needs.
poplar::Tensor
gruFwd(poplar::Graph& graph, const GruParams& params, const poplar::Tensor& stateInit,
       const poplar::Tensor& in, const GruWeights& weights, poplar::Tensor* intermediates,
       poplar::program::Sequence& fwdProg, const poplar::DebugContext& debugContext = {},
       const poplar::OptionFlags& options = {}, poplin::PlanningCache* planningCache = nullptr);
/// Deprecated in PopLibs; a variable number of steps: refused by Tessera.
poplar::Tensor gruFwd(poplar::Graph& graph, const GruParams& params,
                      const poplar::Tensor& stateInit, const poplar::Tensor& in,
                      const poplar::Tensor& realTimeSteps, const GruWeights& weights,
                      poplar::Tensor* intermediates, poplar::program::Sequence& fwdProg,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {},
                      poplin::PlanningCache* planningCache = nullptr);

/// As gruFwd, with each step's update gate scaled by (1 - attScores[b][t]).
poplar::Tensor auGruFwd(poplar::Graph& graph, const GruParams& params,
                        const poplar::Tensor& stateInit, const poplar::Tensor& in,
                        const GruWeights& weights, poplar::Tensor* intermediates,
                        const poplar::Tensor& attScores, poplar::program::Sequence& fwdProg,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {},
                        poplin::PlanningCache* planningCache = nullptr);
/// Deprecated in PopLibs; a variable number of steps: refused by Tessera.
poplar::Tensor
auGruFwd(poplar::Graph& graph, const GruParams& params, const poplar::Tensor& stateInit,
         const poplar::Tensor& in, const poplar::Tensor& realTimeSteps, const GruWeights& weights,
         poplar::Tensor* intermediates, const poplar::Tensor& attScores,
         poplar::program::Sequence& fwdProg, const poplar::DebugContext& debugContext = {},
         const poplar::OptionFlags& options = {}, poplin::PlanningCache* planningCache = nullptr);

/// The backward pass, last step first: from the output's gradient `gradLayerNext` (shaped as
/// the forward output), returns the gradient of the initial output; writes the input's
/// gradient to `*inputGrad` (if non-null and calcInputGradients) and what the weight update
/// needs to `*bwdIntermediates` (if non-null).
poplar::Tensor gruBwd(poplar::Graph& graph, const GruParams& params,
                      poplar::program::Sequence& prog, const poplar::Tensor& fwdOutputInit,
                      const poplar::Tensor& fwdIntermediatesSeq, const GruWeights& weights,
                      const poplar::Tensor& fwdInputSeq, const poplar::Tensor& fwdOutput,
                      const poplar::Tensor& gradLayerNext, poplar::Tensor* inputGrad,
                      poplar::Tensor* bwdIntermediates, const poplar::DebugContext& debugContext,
                      const poplar::OptionFlags& options_, poplin::PlanningCache* planningCache);
/// Deprecated in PopLibs; a variable number of steps: refused by Tessera.
poplar::Tensor gruBwd(poplar::Graph& graph, const GruParams& params,
                      poplar::program::Sequence& prog, const poplar::Tensor& fwdOutputInit,
                      const poplar::Tensor& fwdIntermediatesSeq, const GruWeights& weights,
                      const poplar::Tensor& fwdInputSeq, const poplar::Tensor& realTimeSteps,
                      const poplar::Tensor& fwdOutput, const poplar::Tensor& gradLayerNext,
                      poplar::Tensor* inputGrad, poplar::Tensor* bwdIntermediates,
                      const poplar::DebugContext& debugContext, const poplar::OptionFlags& options_,
                      poplin::PlanningCache* planningCache);

/// As gruBwd for auGruFwd; also writes the attention scores' gradient [B,T] to
/// `*attentionsGrad` (if non-null).
poplar::Tensor auGruBwd(poplar::Graph& graph, const GruParams& params,
                        poplar::program::Sequence& prog, const poplar::Tensor& fwdOutputInit,
                        const poplar::Tensor& fwdIntermediatesSeq, const GruWeights& weights,
                        const poplar::Tensor& fwdInputSeq, const poplar::Tensor& fwdOutput,
                        const poplar::Tensor& gradLayerNext, poplar::Tensor* inputGrad,
                        poplar::Tensor* bwdIntermediates, const poplar::Tensor& attentions,
                        poplar::Tensor* attentionsGrad, const poplar::DebugContext& debugContext,
                        const poplar::OptionFlags& options_, poplin::PlanningCache* planningCache);
/// Deprecated in PopLibs; a variable number of steps: refused by Tessera.
poplar::Tensor auGruBwd(poplar::Graph& graph, const GruParams& params,
                        poplar::program::Sequence& prog, const poplar::Tensor& fwdOutputInit,
                        const poplar::Tensor& fwdIntermediatesSeq, const GruWeights& weights,
                        const poplar::Tensor& fwdInputSeq, const poplar::Tensor& realTimeSteps,
                        const poplar::Tensor& fwdOutput, const poplar::Tensor& gradLayerNext,
                        poplar::Tensor* inputGrad, poplar::Tensor* bwdIntermediates,
                        const poplar::Tensor& attentions, poplar::Tensor* attentionsGrad,
                        const poplar::DebugContext& debugContext,
                        const poplar::OptionFlags& options_, poplin::PlanningCache* planningCache);

/// The weights' gradients, summed over the steps and the batch.
GruWeights gruWU(poplar::Graph& graph, const GruParams& params, poplar::program::Sequence& prog,
                 const poplar::Tensor& fwdOutputInit, const poplar::Tensor& fwdIntermediates,
                 const poplar::Tensor& bwdIntermediates, const GruWeights& weights,
                 const poplar::Tensor& input, const poplar::Tensor& output,
                 const poplar::DebugContext& debugContext, const poplar::OptionFlags& options_,
                 poplin::PlanningCache* planningCache);
/// As gruWU, for auGruFwd's intermediates.
GruWeights auGruWU(poplar::Graph& graph, const GruParams& params, poplar::program::Sequence& prog,
                   const poplar::Tensor& fwdOutputInit, const poplar::Tensor& fwdIntermediates,
                   const poplar::Tensor& bwdIntermediates, const GruWeights& weights,
                   const poplar::Tensor& input, const poplar::Tensor& output,
                   const poplar::DebugContext& debugContext, const poplar::OptionFlags& options_,
                   poplin::PlanningCache* planningCache);

/// gruBwd then gruWU; the weights' gradients go to `weightsGrad`. Returns the gradient of the
/// initial output.
poplar::Tensor gruBwdWithWU(poplar::Graph& graph, const GruParams& params,
                            poplar::program::Sequence& prog, const poplar::Tensor& fwdOutputInit,
                            const poplar::Tensor& fwdIntermediates, const GruWeights& weights,
                            const poplar::Tensor& input, const poplar::Tensor& output,
                            const poplar::Tensor& outputGrad, poplar::Tensor* inputGrad,
                            GruWeights& weightsGrad, const poplar::DebugContext& debugContext,
                            const poplar::OptionFlags& options_,
                            poplin::PlanningCache* planningCache);
/// Deprecated in PopLibs; a variable number of steps: refused by Tessera.
poplar::Tensor gruBwdWithWU(poplar::Graph& graph, const GruParams& params,
                            poplar::program::Sequence& prog, const poplar::Tensor& fwdOutputInit,
                            const poplar::Tensor& fwdIntermediates, const GruWeights& weights,
                            const poplar::Tensor& input, const poplar::Tensor& realTimeSteps,
                            const poplar::Tensor& output, const poplar::Tensor& outputGrad,
                            poplar::Tensor* inputGrad, GruWeights& weightsGrad,
                            const poplar::DebugContext& debugContext,
                            const poplar::OptionFlags& options_,
                            poplin::PlanningCache* planningCache);

/// auGruBwd then auGruWU.
poplar::Tensor
auGruBwdWithWU(poplar::Graph& graph, const GruParams& params, poplar::program::Sequence& prog,
               const poplar::Tensor& fwdOutputInit, const poplar::Tensor& fwdIntermediates,
               const GruWeights& weights, const poplar::Tensor& input, const poplar::Tensor& output,
               const poplar::Tensor& outputGrad, poplar::Tensor* inputGrad, GruWeights& weightsGrad,
               const poplar::Tensor& attentions, poplar::Tensor* attentionsGrad,
               const poplar::DebugContext& debugContext, const poplar::OptionFlags& options_,
               poplin::PlanningCache* planningCache);
/// Deprecated in PopLibs; a variable number of steps: refused by Tessera.
poplar::Tensor auGruBwdWithWU(poplar::Graph& graph, const GruParams& params,
                              poplar::program::Sequence& prog, const poplar::Tensor& fwdOutputInit,
                              const poplar::Tensor& fwdIntermediates, const GruWeights& weights,
                              const poplar::Tensor& input, const poplar::Tensor& realTimeSteps,
                              const poplar::Tensor& output, const poplar::Tensor& outputGrad,
                              poplar::Tensor* inputGrad, GruWeights& weightsGrad,
                              const poplar::Tensor& attentions, poplar::Tensor* attentionsGrad,
                              const poplar::DebugContext& debugContext,
                              const poplar::OptionFlags& options_,
                              poplin::PlanningCache* planningCache);

} // namespace gru
} // namespace popnn
