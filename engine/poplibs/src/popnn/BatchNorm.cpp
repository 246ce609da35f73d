#include "NormUpdate.hpp"
#include "poplibs_support/ChannelOps.hpp"
#include "poplibs_support/TileWork.hpp"

#include <poplin/Norms.hpp>
#include <popnn/BatchNorm.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/ScaledAdd.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {

using namespace poplar;
using poplar::program::Sequence;

namespace {
void checkParam(const Tensor& delta, const Tensor& param, const std::string& op,
                const std::string& deltaName, const std::string& paramName) {
  poplibs_support::checkValid(delta, op, deltaName);
  poplibs_support::checkValid(param, op, paramName);
  if (delta.shape() != param.shape())
    throw poputil::poplibs_error(op + ": " + deltaName + " " + delta.shapeToString() + " and " +
                                 paramName + " " + param.shapeToString() +
                                 " must have the same shape");
}
} // namespace

void normParamUpdate(Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta, float scale,
                     const Tensor& gamma, const Tensor& beta, Sequence& prog,
                     const DebugContext& di, const std::string& op) {
  checkParam(gammaDelta, gamma, op, "gammaDelta", "gamma");
  checkParam(betaDelta, beta, op, "betaDelta", "beta");
  popops::scaledAddTo(graph, gamma, gammaDelta, scale, prog, {di, "gamma"});
  popops::scaledAddTo(graph, beta, betaDelta, scale, prog, {di, "beta"});
}

void normParamUpdate(Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                     const Tensor& scale, const Tensor& gamma, const Tensor& beta, Sequence& prog,
                     const DebugContext& di, const std::string& op) {
  checkParam(gammaDelta, gamma, op, "gammaDelta", "gamma");
  checkParam(betaDelta, beta, op, "betaDelta", "beta");
  poplibs_support::checkValid(scale, op, "scale");
  if (scale.numElements() != 1)
    throw poputil::poplibs_error(op + ": scale has shape " + scale.shapeToString() +
                                 "; expected one element");
  for (const auto& pd : {std::make_pair(gamma, gammaDelta), std::make_pair(beta, betaDelta)}) {
    Tensor s = scale.reshape({1});
    if (s.elementType() != pd.second.elementType())
      s = popops::cast(graph, s, pd.second.elementType(), prog, {di, "castScale"});
    const Tensor scaled = popops::mul(graph, pd.second, s, prog, {di, "scale"});
    popops::scaledAddTo(graph, pd.first, scaled, 1.0f, prog, {di, "update"});
  }
}

namespace bn {
namespace {
void checkNoOptions(const OptionFlags& options, const std::string& op) {
  poplibs_support::checkOptions(options, {}, op);
}
} // namespace

std::pair<Tensor, Tensor> batchNormStatistics(Graph& graph, const Tensor acts, float eps,
                                              Sequence& prog, bool unbiasedVarEstimate,
                                              bool stableAlgo, const Type& partialsType,
                                              const DebugContext& debugContext,
                                              const OptionFlags& options) {
  checkNoOptions(options, "popnn::bn::batchNormStatistics");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "BatchNormStatistics");
  return poplin::normStatistics(graph, acts, eps, prog, unbiasedVarEstimate, stableAlgo,
                                partialsType, di);
}

Tensor batchNormWhiten(Graph& graph, const Tensor& acts, const Tensor& mean,
                       const Tensor& invStdDev, Sequence& prog, const DebugContext& debugContext,
                       const OptionFlags& options) {
  checkNoOptions(options, "popnn::bn::batchNormWhiten");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "BatchNormWhiten");
  return poplin::normWhiten(graph, acts, mean, invStdDev, prog, di);
}

std::pair<Tensor, Tensor> batchNormalise(Graph& graph, const Tensor& acts, const Tensor& gamma,
                                         const Tensor& beta, const Tensor& mean,
                                         const Tensor& invStdDev, Sequence& prog,
                                         const DebugContext& debugContext,
                                         const OptionFlags& options) {
  checkNoOptions(options, "popnn::bn::batchNormalise");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "BatchNormalise");
  const Tensor whitened = poplin::normWhiten(graph, acts, mean, invStdDev, prog, di);
  return {poplin::normalise(graph, whitened, gamma, beta, prog, di), whitened};
}

Tensor batchNormalise(Graph& graph, const Tensor& acts, const Tensor& combinedMultiplicand,
                      const Tensor& addend, Sequence& prog, const DebugContext& debugContext,
                      const OptionFlags& options) {
  checkNoOptions(options, "popnn::bn::batchNormalise");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "BatchNormalise");
  // acts * m + a is normalise() with gamma = m and beta = a.
  return poplin::normalise(graph, acts, combinedMultiplicand, addend, prog, di);
}

std::pair<Tensor, Tensor>
batchNormParamGradients(Graph& graph, const Tensor& acts, const Tensor& gradsIn, const Tensor& mean,
                        const Tensor& iStdDev, Sequence& prog, const Type& partialsType,
                        const DebugContext& debugContext, const OptionFlags& options) {
  checkNoOptions(options, "popnn::bn::batchNormParamGradients");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "BatchNormParamGradients");
  const Tensor whitened = poplin::normWhiten(graph, acts, mean, iStdDev, prog, di);
  return poplin::normParamGradients(graph, whitened, gradsIn, prog, partialsType, di);
}

std::pair<Tensor, Tensor> batchNormParamGradients(Graph& graph, const Tensor& actsWhitened,
                                                  const Tensor& gradsIn, Sequence& prog,
                                                  const Type& partialsType,
                                                  const DebugContext& debugContext,
                                                  const OptionFlags& options) {
  checkNoOptions(options, "popnn::bn::batchNormParamGradients");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "BatchNormParamGradients");
  return poplin::normParamGradients(graph, actsWhitened, gradsIn, prog, partialsType, di);
}

Tensor batchNormGradients(Graph& graph, const Tensor& acts, const Tensor& gradsIn,
                          const Tensor& mean, const Tensor& invStdDev, const Tensor& gamma,
                          Sequence& prog, const Type& partialsType,
                          const DebugContext& debugContext, const OptionFlags& options) {
  checkNoOptions(options, "popnn::bn::batchNormGradients");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "BatchNormGradients");
  const Tensor whitened = poplin::normWhiten(graph, acts, mean, invStdDev, prog, di);
  const Tensor g = poplin::normGradients(graph, gradsIn, gamma, prog, di);
  return poplin::normStatisticsGradients(graph, whitened, g, invStdDev, prog, partialsType, di);
}

Tensor batchNormGradients(Graph& graph, const Tensor& actsWhitened, const Tensor& gradsIn,
                          const Tensor& invStdDev, const Tensor& gamma, Sequence& prog,
                          const Type& partialsType, const DebugContext& debugContext,
                          const OptionFlags& options) {
  checkNoOptions(options, "popnn::bn::batchNormGradients");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "BatchNormGradients");
  const Tensor g = poplin::normGradients(graph, gradsIn, gamma, prog, di);
  return poplin::normStatisticsGradients(graph, actsWhitened, g, invStdDev, prog, partialsType, di);
}

std::pair<Tensor, Tensor> distributedBatchNormStatistics(
    Graph& replicatedGraph, const Tensor acts, float eps, Sequence& prog, bool unbiasedVarEstimate,
    poplin::DistributedNormReduceCallback reduceCallback, unsigned normBatchSize, bool stableAlgo,
    const Type& partialsType, const DebugContext& debugContext, const OptionFlags& options) {
  checkNoOptions(options, "popnn::bn::distributedBatchNormStatistics");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "DistributedBatchNormStatistics");
  return poplin::distributedNormStatistics(replicatedGraph, acts, eps, prog, unbiasedVarEstimate,
                                           std::move(reduceCallback), normBatchSize, stableAlgo,
                                           partialsType, di);
}

Tensor distributedBatchNormGradients(Graph& replicatedGraph, const Tensor& actsWhitened,
                                     const Tensor& gradsIn, const Tensor& invStdDev,
                                     const Tensor& gamma, Sequence& prog,
                                     poplin::DistributedNormReduceCallback reduceCallback,
                                     unsigned normBatchSize, const Type& partialsType,
                                     const DebugContext& debugContext, const OptionFlags& options) {
  checkNoOptions(options, "popnn::bn::distributedBatchNormGradients");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "DistributedBatchNormGradients");
  const Tensor g = poplin::normGradients(replicatedGraph, gradsIn, gamma, prog, di);
  return poplin::distributedNormStatisticsGradients(replicatedGraph, actsWhitened, g, invStdDev,
                                                    prog, std::move(reduceCallback), normBatchSize,
                                                    partialsType, di);
}

Tensor distributedBatchNormGradients(Graph& replicatedGraph, const Tensor& acts,
                                     const Tensor& gradsIn, const Tensor& mean,
                                     const Tensor& invStdDev, const Tensor& gamma, Sequence& prog,
                                     poplin::DistributedNormReduceCallback reduceCallback,
                                     unsigned normBatchSize, const Type& partialsType,
                                     const DebugContext& debugContext, const OptionFlags& options) {
  checkNoOptions(options, "popnn::bn::distributedBatchNormGradients");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "DistributedBatchNormGradients");
  const Tensor whitened = poplin::normWhiten(replicatedGraph, acts, mean, invStdDev, prog, di);
  const Tensor g = poplin::normGradients(replicatedGraph, gradsIn, gamma, prog, di);
  return poplin::distributedNormStatisticsGradients(replicatedGraph, whitened, g, invStdDev, prog,
                                                    std::move(reduceCallback), normBatchSize,
                                                    partialsType, di);
}

void batchNormParamUpdate(Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                          float scale, Tensor& gamma, Tensor& beta, Sequence& prog,
                          const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::bn::batchNormParamUpdate";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "BatchNormParamUpdate");
  normParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, di, op);
}

void batchNormParamUpdate(Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                          const Tensor& scale, Tensor& gamma, Tensor& beta, Sequence& prog,
                          const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "popnn::bn::batchNormParamUpdate";
  checkNoOptions(options, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "BatchNormParamUpdate");
  normParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, di, op);
}

} // namespace bn
} // namespace popnn
