// Convolutions planned and mapped over the tiles: forward, backward (the gradient with respect
// to the input) and weight update, with bias helpers.
//
// Layouts, as in PopLibs: activations [B][G*C][field...] (batch, channels, then the spatial
// dimensions), weights [G][Co][Ci][kernel...], biases [G*Co]. One or two spatial dimensions are
// supported; every transform of ConvParams (truncation, dilation, padding, flipping of input and
// kernel; truncation, striding and padding of the output) and grouped convolutions work. Types:
// FLOAT or HALF input, FLOAT or HALF output; products are accumulated in float.
//
// The planner splits the work over the tiles by conv group, batch element, blocks of input
// channels, blocks of output channels and blocks of output rows; every vertex
// (poplin::ConvPartial1x1Out, poplin::ConvPartialnx1 or poplin::ConvPartialHorizontalMac, as
// PopLibs would choose for the channel counts) computes a block of output rows over its input
// channels and all kernel positions; when input channels are split, a reduction then sums the
// blocks' partials. The chosen plan is printed by reportPlanInfo and is part of
// the name of the op's compute set in the debug information ("Convolve[...]"), so the viewer's
// Operations list shows it.
//
// Options: "partialsType" ("float", the default, or "half"), "pass" (NONE, INFERENCE_FWD,
// TRAINING_FWD, TRAINING_BWD, TRAINING_WU, FC_INFERENCE_FWD, FC_TRAINING_FWD, FC_TRAINING_BWD,
// FC_TRAINING_WU: accepted, shown in the plan), "availableMemoryProportion" (0 to 1: accepted,
// shown in the plan); any other option is an error.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <limits>
#include <memory>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/ConvParams.hpp>
#include <set>
#include <tuple>
#include <vector>

namespace poplin {

/// Remembers the plans made through it (accepted wherever PopLibs takes one). Planning is cheap
/// here; the cache only avoids repeating it for identical convolutions.
/// The planner's cached plans (opaque).
class PlanningCacheImpl;
/// A chosen plan (opaque; reportPlanInfo prints it, reportPlanEstimatedCosts gives its costs).
struct Plan;

class PlanningCache {
public:
  PlanningCache();
  ~PlanningCache();
  /// The number of plans held.
  std::size_t size() const;

  std::unique_ptr<PlanningCacheImpl> impl;
};

/// FLOPs of the forward pass, the backward pass and the weight update: 2 per multiply-add of
/// an input element (not a padding zero) with a kernel element.
std::uint64_t getFwdFlops(const ConvParams& params);
std::uint64_t getBwdFlops(const ConvParams& params);
std::uint64_t getWuFlops(const ConvParams& params);

/// Cycles of each pass if every tile's multiply-accumulate units were busy all the time.
double getFwdPerfectCycleCount(const poplar::Graph& graph, const ConvParams& params);
double getBwdPerfectCycleCount(const poplar::Graph& graph, const ConvParams& params);
double getWuPerfectCycleCount(const poplar::Graph& graph, const ConvParams& params);

/// A weights tensor [G][Co][Ci][kernel...] mapped to the tiles that use it.
poplar::Tensor createWeights(poplar::Graph& graph, const ConvParams& params,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {},
                             PlanningCache* cache = nullptr);

/// A biases tensor [channels] for activations [B][channels][field...], mapped linearly.
poplar::Tensor createBiases(poplar::Graph& graph, const poplar::Tensor& activations,
                            const poplar::DebugContext& debugContext = {"biases"});
poplar::Tensor createBiases(poplar::Graph& graph, const poplar::Tensor& activations,
                            const ConvParams& params,
                            const poplar::DebugContext& debugContext = {"biases"},
                            const poplar::OptionFlags& options = {},
                            PlanningCache* cache = nullptr);

/// An input tensor [B][G*Ci][field...] mapped to the tiles that read it.
poplar::Tensor createInput(poplar::Graph& graph, const ConvParams& params,
                           const poplar::DebugContext& debugContext = {},
                           const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// An output tensor [B][G*Co][output field...] mapped where convolution() computes it.
poplar::Tensor createConvOutput(poplar::Graph& graph, const ConvParams& params,
                                const poplar::DebugContext& debugContext = {},
                                const poplar::OptionFlags& options = {},
                                PlanningCache* cache = nullptr);

/// `in` [B][G*Ci][field...] convolved with `weights` [G][Co][Ci][kernel...] into a new tensor
/// [B][G*Co][output field...]. With transposeAndFlipWeights, `weights` is [G][Ci][Co][kernel...]
/// (the forward pass's weights when `params` describe the backward pass) and is used with its
/// channel dimensions swapped and its spatial dimensions reversed, as weightsTransposeChansFlipXY
/// would write it.
poplar::Tensor convolution(poplar::Graph& graph, const poplar::Tensor& in,
                           const poplar::Tensor& weights, const ConvParams& params,
                           bool transposeAndFlipWeights, poplar::program::Sequence& prog,
                           const poplar::DebugContext& debugContext = {},
                           const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// convolution() writing into `out`, which must have createConvOutput()'s shape and the
/// output type (its tile mapping may differ: the exchange then moves the results).
void convolutionWithOutput(poplar::Graph& graph, const poplar::Tensor& in,
                           const poplar::Tensor& weights, const poplar::Tensor& out,
                           const ConvParams& params, bool transposeAndFlipWeights,
                           poplar::program::Sequence& prog,
                           const poplar::DebugContext& debugContext = {},
                           const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

using ConvPlanParams =
    std::tuple<const poplar::Target*, const ConvParams, const poplar::OptionFlags*>;
/// Plans the convolutions into `cache`.
void preplanConvolutions(const std::set<ConvPlanParams>& convs, PlanningCache& cache);
/// The same; `graph` is not needed to plan (each entry names its target) and is not used.
void preplanConvolutions(poplar::Graph& graph, const std::set<ConvPlanParams>& convs,
                         PlanningCache& cache);

/// weightsOut [G][Ci][Co][kernel...] = weightsIn [G][Co][Ci][kernel...] with the channel
/// dimensions swapped and every spatial dimension reversed.
void weightsTransposeChansFlipXY(poplar::Graph& graph, const poplar::Tensor& weightsIn,
                                 const poplar::Tensor& weightsOut, poplar::program::Sequence& prog,
                                 const poplar::DebugContext& debugContext = {},
                                 const poplar::OptionFlags& options = {});

/// The same as copies the caller schedules: the rearranging copy is appended to preTranspose;
/// transposeCS gets no vertices and postTranspose no copies (a copy does the whole transpose).
void weightsTransposeChansFlipXY(poplar::Graph& graph, const poplar::Tensor& weightsInUnGrouped,
                                 const poplar::Tensor& weightsOutUnGrouped,
                                 std::vector<poplar::program::Copy>& preTranspose,
                                 poplar::ComputeSet transposeCS,
                                 std::vector<poplar::program::Copy>& postTranspose,
                                 const poplar::DebugContext& debugContext = {});

/// The gradient of the loss with respect to the weights [G][Co][Ci][kernel...], from `zDeltas`
/// (the gradient with respect to the forward output) and the forward input `activations`.
poplar::Tensor calculateWeightDeltas(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                                     const poplar::Tensor& activations, const ConvParams& params,
                                     poplar::program::Sequence& prog,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {},
                                     PlanningCache* cache = nullptr);

/// weights += scale * calculateWeightDeltas(...); pass scale = -learningRate for SGD. `scale`
/// is a FLOAT or HALF tensor of one element.
void convolutionWeightUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                             const poplar::Tensor& weights, const poplar::Tensor& activations,
                             ConvParams params, const poplar::Tensor& scale,
                             poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {},
                             PlanningCache* cache = nullptr);
void convolutionWeightUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                             const poplar::Tensor& weights, const poplar::Tensor& activations,
                             ConvParams params, float scale, poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {},
                             PlanningCache* cache = nullptr);

/// biases += scale * (zDeltas summed over the batch and the field), per channel.
void convolutionBiasUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                           const poplar::Tensor& biases, const poplar::Tensor& scale,
                           const poplar::OptionFlags& options, poplar::program::Sequence& prog,
                           const poplar::DebugContext& debugContext = {});
void convolutionBiasUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                           const poplar::Tensor& biases, float scale,
                           const poplar::OptionFlags& options, poplar::program::Sequence& prog,
                           const poplar::DebugContext& debugContext = {});

/// acts [B][C][field...] += biases [C], per channel, in place.
void addBias(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& biases,
             poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

/// Writes the plan convolution() would use: the splits over the tiles, the vertex, the
/// per-tile work and the modelled cycles.
void reportPlanInfo(std::ostream& out, const poplar::Graph& graph, const ConvParams& params,
                    const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);
/// The same for the weight-update convolution of the forward convolution `fwdParams`.
void reportWeightUpdatePlanInfo(std::ostream& out, const poplar::Graph& graph,
                                const ConvParams& fwdParams,
                                const poplar::OptionFlags& options = {},
                                PlanningCache* cache = nullptr);

/// The planner's estimates for a plan: cycles (the modelled total of the plan's compute sets,
/// exchange and syncs) and memory (the temporary bytes on the busiest tile). `unknown` marks a
/// cost that was not estimated.
struct PlanCosts {
  std::size_t cycles;
  std::size_t memory;
  constexpr static std::size_t unknown = std::numeric_limits<std::size_t>::max();
};

/// The estimated costs of the plan convolution() would use for `params` and `options`.
PlanCosts reportPlanEstimatedCosts(const poplar::Graph& graph, const ConvParams& params,
                                   const poplar::OptionFlags& options = {},
                                   PlanningCache* cache = nullptr);

/// The weights of a fully connected layer's forward pass, [G][Ci][Co][1] as the backward
/// pass's `params` (a 1-d convolution) see them, rearranged for that backward pass: a new
/// tensor [G][Co][Ci][1] (params' weight shape) laid out by its plan, and a copy into it.
poplar::Tensor fullyConnectedWeightTranspose(poplar::Graph& graph, poplar::Tensor weights,
                                             const ConvParams& params,
                                             poplar::program::Sequence& prog,
                                             const poplar::DebugContext& debugContext = {},
                                             const poplar::OptionFlags& options = {},
                                             PlanningCache* cache = nullptr);

/// Throws poplar::invalid_option for an unknown convolution option or a bad value.
void convolutionValidateOptions(const poplar::OptionFlags& options);

} // namespace poplin
