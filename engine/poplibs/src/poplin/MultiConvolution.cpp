// A set of convolutions (poplin/MultiConvolution.hpp). The forward convolutions and the tensors
// created for them follow the set's plan: "parallel" (PopLibs' default) gives each convolution
// its own tiles (ConvPlan.hpp: parallelTileSplit) and runs them all in one compute set;
// "serial", a single convolution or more convolutions than tiles run each through the
// single-convolution API in the set's order. Weight deltas and updates are always serial. The
// caller's planning cache is shared.
#include "ConvPlan.hpp"

#include <cstdlib>
#include <poplar/exceptions.hpp>
#include <poplin/MultiConvolution.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace poplin {
namespace multiconv {

using namespace poplar;
using poplar::program::Sequence;

namespace {

/// PopLibs' multi-convolution options, with its defaults.
struct MultiOptions {
  bool parallel = true;
  unsigned perConvReservedTiles = 50;
  double cycleBackOff = 0.1;
};

MultiOptions checkMultiConvOptions(const OptionFlags& options, const std::string& op) {
  MultiOptions parsed;
  for (const auto& kv : options) {
    const std::string& k = kv.first;
    const std::string& v = kv.second;
    auto bad = [&](const char* want) {
      throw poplar::invalid_option(op + ": option '" + k + "' = '" + v + "': expected " + want);
    };
    char* end = nullptr;
    if (k == "planType") {
      if (v != "serial" && v != "parallel") bad("serial or parallel");
      parsed.parallel = v == "parallel";
    } else if (k == "perConvReservedTiles") {
      const long n = std::strtol(v.c_str(), &end, 10);
      if (end == v.c_str() || *end || n <= 0 || n > 1000000) bad("a positive integer");
      parsed.perConvReservedTiles = unsigned(n);
    } else if (k == "cycleBackOff") {
      const double d = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end || !(d >= 0 && d <= 1)) bad("a number in [0, 1]");
      parsed.cycleBackOff = d;
    } else {
      throw poplar::invalid_option(op + ": unknown option '" + k +
                                   "' (multi-convolution options are planType, "
                                   "perConvReservedTiles and cycleBackOff)");
    }
  }
  return parsed;
}

template <typename Args>
MultiOptions checkArgs(const std::vector<Args>& args, const OptionFlags& options,
                       const std::string& op) {
  const MultiOptions parsed = checkMultiConvOptions(options, op);
  if (args.empty()) throw poputil::poplibs_error(op + ": the set of convolutions is empty");
  return parsed;
}

/// The parallel plan's tile ranges for the set, or none (serial).
template <typename Args>
std::vector<TileRange> rangesOf(const Graph& graph, const std::vector<Args>& args,
                                const MultiOptions& multi, const std::string& op) {
  if (!multi.parallel) return {};
  std::vector<ConvParams> params;
  std::vector<OptionFlags> options;
  for (const auto& a : args) {
    params.push_back(a.params);
    options.push_back(a.options);
  }
  return parallelTileSplit(graph.getTarget(), params, options, multi.perConvReservedTiles,
                           multi.cycleBackOff, op);
}

template <typename Args>
const Args& element(const std::vector<Args>& args, unsigned index, const OptionFlags& options,
                    const std::string& op) {
  checkArgs(args, options, op);
  if (index >= args.size())
    throw poputil::poplibs_error(op + ": index " + std::to_string(index) + " but the set has " +
                                 std::to_string(args.size()) + " convolutions");
  return args[index];
}

DebugContext nth(const DebugContext& dc, const char* what, std::size_t i) {
  return {dc, std::string(what) + std::to_string(i)};
}

} // namespace

Tensor createWeights(Graph& graph, const std::vector<CreateTensorArgs>& args, unsigned weightsIndex,
                     const OptionFlags& options, PlanningCache* cache) {
  const std::string op = "poplin::multiconv::createWeights";
  const CreateTensorArgs& a = element(args, weightsIndex, options, op);
  const auto ranges = rangesOf(graph, args, checkMultiConvOptions(options, op), op);
  if (!ranges.empty())
    return createWeightsOn(graph, a.params, a.name, a.options, cache, ranges[weightsIndex]);
  return poplin::createWeights(graph, a.params, a.name, a.options, cache);
}

Tensor createInput(Graph& graph, const std::vector<CreateTensorArgs>& args, unsigned inputIndex,
                   const OptionFlags& options, PlanningCache* cache) {
  const std::string op = "poplin::multiconv::createInput";
  const CreateTensorArgs& a = element(args, inputIndex, options, op);
  const auto ranges = rangesOf(graph, args, checkMultiConvOptions(options, op), op);
  if (!ranges.empty())
    return createInputOn(graph, a.params, a.name, a.options, cache, ranges[inputIndex]);
  return poplin::createInput(graph, a.params, a.name, a.options, cache);
}

void weightsTransposeChansFlipXY(Graph& graph, std::vector<ConvolutionArgs>& args,
                                 const std::vector<Tensor>& weightsIn, Sequence& prog,
                                 const OptionFlags& options, const DebugContext& debugContext,
                                 PlanningCache*) {
  const std::string op = "poplin::multiconv::weightsTransposeChansFlipXY";
  checkArgs(args, options, op);
  if (weightsIn.size() != args.size())
    throw poputil::poplibs_error(op + ": " + std::to_string(weightsIn.size()) +
                                 " weights tensors for " + std::to_string(args.size()) +
                                 " convolutions");
  const poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(options), "multiConvTransposeFlip");
  for (std::size_t i = 0; i < args.size(); ++i)
    poplin::weightsTransposeChansFlipXY(graph, weightsIn[i], args[i].weights, prog,
                                        nth(di, "conv", i));
}

std::vector<Tensor> convolution(Graph& graph, const std::vector<ConvolutionArgs>& args,
                                bool transposeAndFlipWeights, Sequence& prog,
                                const DebugContext& debugContext, const OptionFlags& options,
                                PlanningCache* cache) {
  const std::string op = "poplin::multiconv::convolution";
  const MultiOptions multi = checkArgs(args, options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(transposeAndFlipWeights, options),
                                       "multiConv");
  const auto ranges = rangesOf(graph, args, multi, op);
  if (!ranges.empty()) {
    std::vector<Tensor> ins, weights;
    std::vector<ConvParams> params;
    std::vector<OptionFlags> convOptions;
    for (const auto& a : args) {
      ins.push_back(a.inputs);
      weights.push_back(a.weights);
      params.push_back(a.params);
      convOptions.push_back(a.options);
    }
    return parallelConvolutions(graph, ins, weights, params, convOptions, ranges,
                                transposeAndFlipWeights, prog, di, cache);
  }
  std::vector<Tensor> outs;
  outs.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i)
    outs.push_back(poplin::convolution(graph, args[i].inputs, args[i].weights, args[i].params,
                                       transposeAndFlipWeights, prog, nth(di, "conv", i),
                                       args[i].options, cache));
  return outs;
}

std::vector<Tensor> calculateWeightDeltas(Graph& graph,
                                          const std::vector<CalculateWeightDeltasArgs>& args,
                                          Sequence& prog, const DebugContext& debugContext,
                                          const OptionFlags& options, PlanningCache* cache) {
  checkArgs(args, options, "poplin::multiconv::calculateWeightDeltas");
  const poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(options), "multiConvWeightDeltas");
  std::vector<Tensor> deltas;
  deltas.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i)
    deltas.push_back(poplin::calculateWeightDeltas(graph, args[i].zDeltas, args[i].activations,
                                                   args[i].params, prog, nth(di, "conv", i),
                                                   args[i].options, cache));
  return deltas;
}

void convolutionWeightUpdate(Graph& graph, const std::vector<ConvWeightUpdateArgs>& args,
                             Sequence& prog, const DebugContext& debugContext,
                             const OptionFlags& options, PlanningCache* cache) {
  checkArgs(args, options, "poplin::multiconv::convolutionWeightUpdate");
  const poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(options), "multiConvWeightUpdate");
  for (std::size_t i = 0; i < args.size(); ++i) {
    const ConvWeightUpdateArgs& a = args[i];
    poplin::convolutionWeightUpdate(graph, a.zDeltas, a.weights, a.activations, a.params, a.scale,
                                    prog, nth(di, "conv", i), a.options, cache);
  }
}

void convolutionWeightUpdate(Graph& graph, const std::vector<ConvWeightUpdateArgsScalar>& args,
                             Sequence& prog, const DebugContext& debugContext,
                             const OptionFlags& options, PlanningCache* cache) {
  checkArgs(args, options, "poplin::multiconv::convolutionWeightUpdate");
  const poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(options), "multiConvWeightUpdate");
  for (std::size_t i = 0; i < args.size(); ++i) {
    const ConvWeightUpdateArgsScalar& a = args[i];
    poplin::convolutionWeightUpdate(graph, a.zDeltas, a.weights, a.activations, a.params, a.scale,
                                    prog, nth(di, "conv", i), a.options, cache);
  }
}

} // namespace multiconv
} // namespace poplin
