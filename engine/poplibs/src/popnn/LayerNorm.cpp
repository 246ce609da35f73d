// Layer normalisation: group normalisation with one group.
#include "GroupNormImpl.hpp"
#include "NormUpdate.hpp"
#include "poplibs_support/TileWork.hpp"

#include <poplin/Norms.hpp>
#include <popnn/LayerNorm.hpp>
#include <poputil/DebugInfo.hpp>

namespace popnn {
namespace ln {

using namespace poplar;
using poplar::program::Sequence;

namespace {
constexpr gn_impl::Grouping kOneGroup{1, true};
void checkNoOptions(const OptionFlags& options, const std::string& op) {
  poplibs_support::checkOptions(options, {}, op);
}
} // namespace

std::pair<Tensor, Tensor> layerNormStatistics(Graph& graph, const Tensor acts, float eps,
                                              Sequence& prog, bool unbiasedVarEstimate,
                                              bool stableAlgo, const Type& partialsType,
                                              const DebugContext& debugContext,
                                              const OptionFlags& options) {
  const std::string op = "popnn::ln::layerNormStatistics";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LayerNormStatistics");
  return gn_impl::statistics(graph, acts, eps, prog, kOneGroup, unbiasedVarEstimate, stableAlgo,
                             partialsType, di, op);
}

Tensor layerNormWhiten(Graph& graph, const Tensor& acts, const Tensor& mean,
                       const Tensor& invStdDev, Sequence& prog, const DebugContext& debugContext,
                       const OptionFlags& options) {
  const std::string op = "popnn::ln::layerNormWhiten";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LayerNormWhiten");
  const auto g = gn_impl::groupingOf(acts, mean, true, op, "mean");
  return gn_impl::whiten(graph, acts, mean, invStdDev, prog, g, di, op);
}

std::pair<Tensor, Tensor> layerNormalise(Graph& graph, const Tensor& acts, const Tensor& gamma,
                                         const Tensor& beta, const Tensor& mean,
                                         const Tensor& invStdDev, Sequence& prog,
                                         const DebugContext& debugContext,
                                         const OptionFlags& options) {
  const std::string op = "popnn::ln::layerNormalise";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LayerNormalise");
  const auto g = gn_impl::groupingOf(acts, mean, true, op, "mean");
  const Tensor whitened = gn_impl::whiten(graph, acts, mean, invStdDev, prog, g, di, op);
  return {poplin::normalise(graph, whitened, gamma, beta, prog, di), whitened};
}

std::pair<Tensor, Tensor>
layerNormParamGradients(Graph& graph, const Tensor& acts, const Tensor& gradsIn, const Tensor& mean,
                        const Tensor& iStdDev, Sequence& prog, const Type& partialsType,
                        const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::ln::layerNormParamGradients";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LayerNormParamGradients");
  const auto g = gn_impl::groupingOf(acts, mean, true, op, "mean");
  const Tensor whitened = gn_impl::whiten(graph, acts, mean, iStdDev, prog, g, di, op);
  return poplin::normParamGradients(graph, whitened, gradsIn, prog, partialsType, di);
}

std::pair<Tensor, Tensor> layerNormParamGradients(Graph& graph, const Tensor& actsWhitened,
                                                  const Tensor& gradsIn, Sequence& prog,
                                                  const Type& partialsType,
                                                  const DebugContext& debugContext,
                                                  const OptionFlags& options) {
  checkNoOptions(options, "popnn::ln::layerNormParamGradients");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LayerNormParamGradients");
  return poplin::normParamGradients(graph, actsWhitened, gradsIn, prog, partialsType, di);
}

Tensor layerNormGradients(Graph& graph, const Tensor& acts, const Tensor& gradsIn,
                          const Tensor& mean, const Tensor& invStdDev, const Tensor& gamma,
                          Sequence& prog, const Type& partialsType,
                          const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::ln::layerNormGradients";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LayerNormGradients");
  const auto g = gn_impl::groupingOf(acts, mean, true, op, "mean");
  const Tensor whitened = gn_impl::whiten(graph, acts, mean, invStdDev, prog, g, di, op);
  return gn_impl::gradients(graph, whitened, gradsIn, invStdDev, gamma, prog, g, partialsType, di,
                            op);
}

Tensor layerNormGradients(Graph& graph, const Tensor& actsWhitened, const Tensor& gradsIn,
                          const Tensor& invStdDev, const Tensor& gamma, Sequence& prog,
                          const Type& partialsType, const DebugContext& debugContext,
                          const OptionFlags& options) {
  const std::string op = "popnn::ln::layerNormGradients";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LayerNormGradients");
  const auto g = gn_impl::groupingOf(actsWhitened, invStdDev, true, op, "invStdDev");
  return gn_impl::gradients(graph, actsWhitened, gradsIn, invStdDev, gamma, prog, g, partialsType,
                            di, op);
}

void layerNormParamUpdate(Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                          float scale, Tensor& gamma, Tensor& beta, Sequence& prog,
                          const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::ln::layerNormParamUpdate";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LayerNormParamUpdate");
  normParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, di, op);
}

void layerNormParamUpdate(Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                          const Tensor& scale, Tensor& gamma, Tensor& beta, Sequence& prog,
                          const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::ln::layerNormParamUpdate";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LayerNormParamUpdate");
  normParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, di, op);
}

} // namespace ln
} // namespace popnn
