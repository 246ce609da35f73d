// A set of convolutions (poplin/MultiConvolution.hpp): the multi-convolution options are
// checked, each element goes through the single-convolution API with its own parameters and
// options, in the order of the set, sharing the caller's planning cache.
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

/// Checks PopLibs' multi-convolution options; their values select how PopLibs shares the tiles,
/// which Tessera does not do (see the header), so only their validity matters.
void checkMultiConvOptions(const OptionFlags& options, const std::string& op) {
  for (const auto& kv : options) {
    const std::string& k = kv.first;
    const std::string& v = kv.second;
    auto bad = [&](const char* want) {
      throw poplar::invalid_option(op + ": option '" + k + "' = '" + v + "': expected " + want);
    };
    char* end = nullptr;
    if (k == "planType") {
      if (v != "serial" && v != "parallel") bad("serial or parallel");
    } else if (k == "perConvReservedTiles") {
      const long n = std::strtol(v.c_str(), &end, 10);
      if (end == v.c_str() || *end || n <= 0) bad("a positive integer");
    } else if (k == "cycleBackOff") {
      const double d = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end || !(d >= 0 && d <= 1)) bad("a number in [0, 1]");
    } else {
      throw poplar::invalid_option(op + ": unknown option '" + k +
                                   "' (multi-convolution options are planType, "
                                   "perConvReservedTiles and cycleBackOff)");
    }
  }
}

template <typename Args>
void checkArgs(const std::vector<Args>& args, const OptionFlags& options, const std::string& op) {
  checkMultiConvOptions(options, op);
  if (args.empty()) throw poputil::poplibs_error(op + ": the set of convolutions is empty");
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
  const CreateTensorArgs& a =
      element(args, weightsIndex, options, "poplin::multiconv::createWeights");
  return poplin::createWeights(graph, a.params, a.name, a.options, cache);
}

Tensor createInput(Graph& graph, const std::vector<CreateTensorArgs>& args, unsigned inputIndex,
                   const OptionFlags& options, PlanningCache* cache) {
  const CreateTensorArgs& a = element(args, inputIndex, options, "poplin::multiconv::createInput");
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
  checkArgs(args, options, "poplin::multiconv::convolution");
  const poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(transposeAndFlipWeights, options),
                                       "multiConv");
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
