// Instance normalisation: group normalisation with one group per channel.
#include "GroupNormImpl.hpp"
#include "NormUpdate.hpp"
#include "poplibs_support/TileWork.hpp"

#include <poplin/Norms.hpp>
#include <popnn/InstanceNorm.hpp>
#include <popnn/Norms.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {
namespace in {

using namespace poplar;
using poplar::program::Sequence;

namespace {
void checkNoOptions(const OptionFlags& options, const std::string& op) {
  poplibs_support::checkOptions(options, {}, op);
}
} // namespace

std::pair<Tensor, Tensor> instanceNormStatistics(Graph& graph, const Tensor acts, float eps,
                                                 Sequence& prog, bool unbiasedVarEstimate,
                                                 bool stableAlgo, const Type& partialsType,
                                                 const DebugContext& debugContext,
                                                 const OptionFlags& options) {
  const std::string op = "popnn::in::instanceNormStatistics";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "InstanceNormStatistics");
  poplibs_support::checkValid(acts, op, "acts");
  if (acts.rank() < 2)
    throw poputil::poplibs_error(op + ": acts has shape " + acts.shapeToString() +
                                 "; expected [batch][channels][field...]");
  const gn_impl::Grouping perChannel{unsigned(acts.dim(1)), true};
  return gn_impl::statistics(graph, acts, eps, prog, perChannel, unbiasedVarEstimate, stableAlgo,
                             partialsType, di, op);
}

Tensor instanceNormWhiten(Graph& graph, const Tensor& acts, const Tensor& mean,
                          const Tensor& invStdDev, Sequence& prog, const DebugContext& debugContext,
                          const OptionFlags& options) {
  const std::string op = "popnn::in::instanceNormWhiten";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "InstanceNormWhiten");
  const auto g = gn_impl::groupingOf(acts, mean, true, op, "mean");
  return gn_impl::whiten(graph, acts, mean, invStdDev, prog, g, di, op);
}

std::pair<Tensor, Tensor> instanceNormalise(Graph& graph, const Tensor& acts, const Tensor& gamma,
                                            const Tensor& beta, const Tensor& mean,
                                            const Tensor& invStdDev, Sequence& prog,
                                            const DebugContext& debugContext,
                                            const OptionFlags& options) {
  const std::string op = "popnn::in::instanceNormalise";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "InstanceNormalise");
  const auto g = gn_impl::groupingOf(acts, mean, true, op, "mean");
  const Tensor whitened = gn_impl::whiten(graph, acts, mean, invStdDev, prog, g, di, op);
  return {poplin::normalise(graph, whitened, gamma, beta, prog, di), whitened};
}

std::pair<Tensor, Tensor> instanceNormParamGradients(Graph& graph, const Tensor& acts,
                                                     const Tensor& gradsIn, const Tensor& mean,
                                                     const Tensor& iStdDev, Sequence& prog,
                                                     const Type& partialsType,
                                                     const DebugContext& debugContext,
                                                     const OptionFlags& options) {
  const std::string op = "popnn::in::instanceNormParamGradients";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "InstanceNormParamGradients");
  const auto g = gn_impl::groupingOf(acts, mean, true, op, "mean");
  const Tensor whitened = gn_impl::whiten(graph, acts, mean, iStdDev, prog, g, di, op);
  return poplin::normParamGradients(graph, whitened, gradsIn, prog, partialsType, di);
}

std::pair<Tensor, Tensor> instanceNormParamGradients(Graph& graph, const Tensor& actsWhitened,
                                                     const Tensor& gradsIn, Sequence& prog,
                                                     const Type& partialsType,
                                                     const DebugContext& debugContext,
                                                     const OptionFlags& options) {
  checkNoOptions(options, "popnn::in::instanceNormParamGradients");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "InstanceNormParamGradients");
  return poplin::normParamGradients(graph, actsWhitened, gradsIn, prog, partialsType, di);
}

Tensor instanceNormGradients(Graph& graph, const Tensor& acts, const Tensor& gradsIn,
                             const Tensor& mean, const Tensor& invStdDev, const Tensor& gamma,
                             Sequence& prog, const Type& partialsType,
                             const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::in::instanceNormGradients";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "InstanceNormGradients");
  const auto g = gn_impl::groupingOf(acts, mean, true, op, "mean");
  const Tensor whitened = gn_impl::whiten(graph, acts, mean, invStdDev, prog, g, di, op);
  return gn_impl::gradients(graph, whitened, gradsIn, invStdDev, gamma, prog, g, partialsType, di,
                            op);
}

Tensor instanceNormGradients(Graph& graph, const Tensor& actsWhitened, const Tensor& gradsIn,
                             const Tensor& invStdDev, const Tensor& gamma, Sequence& prog,
                             const Type& partialsType, const DebugContext& debugContext,
                             const OptionFlags& options) {
  const std::string op = "popnn::in::instanceNormGradients";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "InstanceNormGradients");
  const auto g = gn_impl::groupingOf(actsWhitened, invStdDev, true, op, "invStdDev");
  return gn_impl::gradients(graph, actsWhitened, gradsIn, invStdDev, gamma, prog, g, partialsType,
                            di, op);
}

void instanceNormParamUpdate(Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                             float scale, Tensor& gamma, Tensor& beta, Sequence& prog,
                             const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::in::instanceNormParamUpdate";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "InstanceNormParamUpdate");
  normParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, di, op);
}

void instanceNormParamUpdate(Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                             const Tensor& scale, Tensor& gamma, Tensor& beta, Sequence& prog,
                             const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::in::instanceNormParamUpdate";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "InstanceNormParamUpdate");
  normParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, di, op);
}

uint64_t getFwdFlops(uint64_t numChannels, uint64_t actsPerChannel, bool computeEstimates) {
  return popnn::getNormFwdFlops(numChannels, numChannels * actsPerChannel, computeEstimates);
}

uint64_t getBwdFlops(uint64_t numChannels, uint64_t actsPerChannel) {
  return popnn::getNormBwdFlops(numChannels, numChannels * actsPerChannel);
}

uint64_t getWuFlops(uint64_t numChannels, uint64_t actsPerChannel) {
  return popnn::getNormWuFlops(numChannels, numChannels * actsPerChannel);
}

} // namespace in
} // namespace popnn
