// Several convolutions built together (PopLibs' poplin::multiconv): each element of a set of
// convolutions is created, run, differentiated or updated with the same arguments as the single
// convolution functions of Convolution.hpp take, in the order of the set.
//
// Multi-convolution options (the `options` argument; each convolution's own options are in its
// args element and go to its planner): "planType" ("parallel", the default, or "serial"),
// "perConvReservedTiles" (an integer > 0, default 50) and "cycleBackOff" (a number in [0, 1],
// default 0.1); any other option is a poplar::invalid_option.
//
// The "parallel" plan gives each convolution its own tiles (placed by decreasing work, with
// perConvReservedTiles and cycleBackOff as PopLibs uses them) and runs their vertices in one
// compute set; createInput and createWeights lay tensors out for it. Differs from PopLibs: the
// split is ranked by Tessera's planner's cycles; weight deltas and updates always run serially;
// with more convolutions than tiles the set runs serially.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/Convolution.hpp>
#include <string>
#include <vector>

namespace poplin {

namespace multiconv {

/// One convolution of a set, for createWeights/createInput.
struct CreateTensorArgs {
  ConvParams params;
  poplar::OptionFlags options;
  std::string name;
};

/// The weights of convolution args[weightsIndex], laid out as poplin::createWeights would.
poplar::Tensor createWeights(poplar::Graph& graph, const std::vector<CreateTensorArgs>& args,
                             unsigned weightsIndex, const poplar::OptionFlags& options = {},
                             poplin::PlanningCache* cache = nullptr);

/// The input of convolution args[inputIndex], laid out as poplin::createInput would.
poplar::Tensor createInput(poplar::Graph& graph, const std::vector<CreateTensorArgs>& args,
                           unsigned inputIndex, const poplar::OptionFlags& options = {},
                           poplin::PlanningCache* cache = nullptr);

/// One convolution of a set, for convolution() and weightsTransposeChansFlipXY().
struct ConvolutionArgs {
  poplar::Tensor inputs;
  poplar::Tensor weights;
  ConvParams params;
  poplar::OptionFlags options;
};

/// args[i].weights = weightsIn[i] with the channel dimensions swapped and the kernel reversed,
/// for every i (weightsIn has one tensor per element of args).
void weightsTransposeChansFlipXY(poplar::Graph& graph, std::vector<ConvolutionArgs>& args,
                                 const std::vector<poplar::Tensor>& weightsIn,
                                 poplar::program::Sequence& prog,
                                 const poplar::OptionFlags& options,
                                 const poplar::DebugContext& debugContext,
                                 poplin::PlanningCache* cache);

/// poplin::convolution of every element of args; the outputs in the order of args.
std::vector<poplar::Tensor>
convolution(poplar::Graph& graph, const std::vector<ConvolutionArgs>& args,
            bool transposeAndFlipWeights, poplar::program::Sequence& prog,
            const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {},
            poplin::PlanningCache* cache = nullptr);

/// One convolution of a set, for calculateWeightDeltas().
struct CalculateWeightDeltasArgs {
  poplar::Tensor zDeltas;
  poplar::Tensor activations;
  ConvParams params;
  poplar::OptionFlags options;
};

/// poplin::calculateWeightDeltas of every element of args; the deltas in the order of args.
std::vector<poplar::Tensor> calculateWeightDeltas(
    poplar::Graph& graph, const std::vector<CalculateWeightDeltasArgs>& args,
    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
    const poplar::OptionFlags& options = {}, poplin::PlanningCache* cache = nullptr);

/// One weight update of a set, with a one-element tensor scale.
struct ConvWeightUpdateArgs {
  poplar::Tensor zDeltas;
  poplar::Tensor weights;
  poplar::Tensor activations;
  poplar::Tensor scale;
  ConvParams params;
  poplar::OptionFlags options;
};

/// poplin::convolutionWeightUpdate (weights += scale * deltas) of every element of args.
void convolutionWeightUpdate(poplar::Graph& graph, const std::vector<ConvWeightUpdateArgs>& args,
                             poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {},
                             poplin::PlanningCache* cache = nullptr);

/// One weight update of a set, with a constant scale.
struct ConvWeightUpdateArgsScalar {
  poplar::Tensor zDeltas;
  poplar::Tensor weights;
  poplar::Tensor activations;
  float scale;
  ConvParams params;
  poplar::OptionFlags options;
};

/// The same with constant scales.
void convolutionWeightUpdate(poplar::Graph& graph,
                             const std::vector<ConvWeightUpdateArgsScalar>& args,
                             poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {},
                             poplin::PlanningCache* cache = nullptr);

} // namespace multiconv
} // namespace poplin
