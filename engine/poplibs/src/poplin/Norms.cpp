// Normalisation from popops reductions and per-channel operations, as PopLibs builds it.
#include "poplibs_support/ChannelOps.hpp"
#include "poplibs_support/TileWork.hpp"

#include <poplin/Norms.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace poplin {
namespace {

using namespace poplar;
using poplar::program::Sequence;
using poplibs_support::ChannelOp;
using poplibs_support::channelOpInPlace;

void checkActs(const Tensor& acts, const std::string& op, const std::string& name) {
  poplibs_support::checkValid(acts, op, name);
  if (acts.rank() < 2)
    throw poputil::poplibs_error(op + ": " + name + " has shape " + acts.shapeToString() +
                                 "; expected [batch][channels][field...]");
  poplibs_support::checkType(acts.elementType(), {FLOAT, HALF}, op, name);
  if (acts.dim(1) == 0 || acts.numElements() == 0)
    throw poputil::poplibs_error(op + ": " + name + " of shape " + acts.shapeToString() +
                                 " is empty");
}

void checkPerChannel(const Tensor& t, const Tensor& acts, const std::string& op,
                     const std::string& name) {
  poplibs_support::checkValid(t, op, name);
  if (t.rank() != 1 || t.dim(0) != acts.dim(1))
    throw poputil::poplibs_error(op + ": " + name + " has shape " + t.shapeToString() +
                                 " but the activations " + acts.shapeToString() + " have " +
                                 std::to_string(acts.dim(1)) + " channels");
  poplibs_support::checkType(t.elementType(), {FLOAT, HALF}, op, name);
}

void checkSameShape(const Tensor& a, const Tensor& b, const std::string& op,
                    const std::string& aName, const std::string& bName) {
  if (a.shape() != b.shape())
    throw poputil::poplibs_error(op + ": " + aName + " " + a.shapeToString() + " and " + bName +
                                 " " + b.shapeToString() + " must have the same shape");
}

/// The dimensions statistics reduce over: all but the channels.
std::vector<std::size_t> statDims(const Tensor& acts) {
  std::vector<std::size_t> dims = {0};
  for (std::size_t d = 2; d < acts.rank(); ++d)
    dims.push_back(d);
  return dims;
}

/// `t` in `type` (a cast when it is not).
Tensor asType(Graph& graph, const Tensor& t, Type type, Sequence& prog, const DebugContext& dc) {
  return t.elementType() == type ? t : popops::cast(graph, t, type, prog, dc);
}

Tensor scalarConstant(Graph& graph, float value, const DebugContext& dc) {
  const Tensor s = graph.addConstant(FLOAT, {}, value, dc);
  graph.setTileMapping(s, 0);
  return s;
}

/// A copy of `t` (same shape and mapping) to be updated in place.
Tensor copyOf(Graph& graph, const Tensor& t, Sequence& prog, const DebugContext& dc) {
  const Tensor c = graph.clone(t, dc);
  prog.add(program::Copy(t, c, false, dc));
  return c;
}

Tensor createParam(Graph& graph, const Tensor& acts, const Type& type, const DebugContext& dc,
                   const std::string& op) {
  checkActs(acts, op, "acts");
  const Tensor t = graph.addVariable(type, {acts.dim(1)}, dc);
  poputil::mapTensorLinearly(graph, t);
  return t;
}

} // namespace

std::uint64_t getNormFwdFlops(std::size_t statisticsSize, std::size_t numActsElements,
                              bool computeStats) {
  // Statistics: a sum and a sum of squares per element, then a handful per channel; whitening
  // and scaling: a subtract, two multiplies and an add per element.
  const std::uint64_t stats =
      computeStats ? 3 * std::uint64_t(numActsElements) + 5 * std::uint64_t(statisticsSize) : 0;
  return stats + 4 * std::uint64_t(numActsElements);
}

std::uint64_t getNormBwdFlops(std::size_t statisticsSize, std::size_t numActsElements) {
  return 7 * std::uint64_t(numActsElements) + 2 * std::uint64_t(statisticsSize);
}

std::uint64_t getNormWuFlops(std::size_t paramsSize, std::size_t numActsElements) {
  return 3 * std::uint64_t(numActsElements) + 2 * std::uint64_t(paramsSize);
}

Tensor createNormGamma(Graph& graph, const Tensor& acts, const Type& type,
                       const DebugContext& debugContext) {
  return createParam(graph, acts, type, {debugContext, "gamma"}, "poplin::createNormGamma");
}
Tensor createNormGamma(Graph& graph, const Tensor& acts, const DebugContext& debugContext) {
  checkActs(acts, "poplin::createNormGamma", "acts");
  return createNormGamma(graph, acts, acts.elementType(), debugContext);
}
Tensor createNormBeta(Graph& graph, const Tensor& acts, const Type& type,
                      const DebugContext& debugContext) {
  return createParam(graph, acts, type, {debugContext, "beta"}, "poplin::createNormBeta");
}
Tensor createNormBeta(Graph& graph, const Tensor& acts, const DebugContext& debugContext) {
  checkActs(acts, "poplin::createNormBeta", "acts");
  return createNormBeta(graph, acts, acts.elementType(), debugContext);
}
std::pair<Tensor, Tensor> createNormParams(Graph& graph, const Tensor& acts,
                                           const DebugContext& debugContext) {
  return {createNormGamma(graph, acts, debugContext), createNormBeta(graph, acts, debugContext)};
}

namespace {

/// The replicas each partial statistic is summed over: 1 (no reduction) unless there is a
/// callback and normSize spans more than this replica's batch.
unsigned replicaGroup(const Tensor& acts, unsigned normSize,
                      const DistributedNormReduceCallback& callback, const std::string& op) {
  const std::size_t local = acts.dim(0);
  if (!callback || local == 0 || normSize <= local) return 1;
  if (normSize % local)
    throw poputil::poplibs_error(op + ": normSize " + std::to_string(normSize) +
                                 " must be a multiple of the replica's batch size " +
                                 std::to_string(local));
  return unsigned(normSize / local);
}

/// The callback's sums, checked: one per input, each with the input's shape.
std::vector<Tensor> reduceAcross(Graph& graph, const DistributedNormReduceCallback& callback,
                                 const std::vector<Tensor>& inputs, Sequence& prog, unsigned group,
                                 const DebugContext& dc, const std::string& op) {
  std::vector<Tensor> out = callback(graph, inputs, prog, group, dc, {});
  if (out.size() != inputs.size())
    throw poputil::poplibs_error(op + ": the reduce callback returned " +
                                 std::to_string(out.size()) + " tensors for " +
                                 std::to_string(inputs.size()) + " inputs");
  for (std::size_t i = 0; i < out.size(); ++i)
    if (!out[i].valid() || out[i].shape() != inputs[i].shape())
      throw poputil::poplibs_error(op + ": the reduce callback's result " + std::to_string(i) +
                                   " does not have its input's shape " + inputs[i].shapeToString());
  return out;
}

std::pair<Tensor, Tensor>
statistics(Graph& graph, const Tensor& acts, float eps, Sequence& prog, bool unbiasedVarEstimate,
           bool stableAlgo, const Type& partialsType, const DistributedNormReduceCallback& callback,
           unsigned normSize, const DebugContext& di, const std::string& op) {
  checkActs(acts, op, "actsUngrouped");
  poplibs_support::checkType(partialsType, {FLOAT, HALF}, op, "partialsType");
  if (!(eps >= 0.0f))
    throw poputil::poplibs_error(op + ": eps is " + std::to_string(eps) +
                                 "; it must be zero or positive");
  const std::size_t channels = acts.dim(1);
  const unsigned group = replicaGroup(acts, normSize, callback, op);
  // Each replica's sums are scaled by the whole group's count, so the callback's sum over the
  // group is the group's mean (as PopLibs folds the scaling in).
  const std::size_t count = acts.numElements() / channels * group;
  if (unbiasedVarEstimate && count < 2)
    throw poputil::poplibs_error(op +
                                 ": an unbiased variance needs at least 2 elements per "
                                 "channel, but actsUngrouped " +
                                 acts.shapeToString() + " has " + std::to_string(count));
  const Type type = acts.elementType();
  const auto dims = statDims(acts);
  const Tensor invCount = scalarConstant(graph, 1.0f / float(count), {di, "invCount"});
  Tensor mean = popops::reduce(graph, acts, FLOAT, dims,
                               popops::ReduceParams(popops::Operation::ADD, false, invCount), prog,
                               {di, "mean"});
  Tensor power;
  if (stableAlgo && group > 1)
    mean = reduceAcross(graph, callback, {mean}, prog, group, {di, "allReduceMean"}, op)[0];
  if (stableAlgo) {
    const Tensor centred = copyOf(graph, acts, prog, {di, "centred"});
    channelOpInPlace(graph, ChannelOp::SCALED_ADD, centred,
                     asType(graph, mean, type, prog, {di, "castMean"}), -1.0f, prog,
                     {di, "subtractMean"}, op);
    power = popops::reduce(graph, centred, FLOAT, dims,
                           popops::ReduceParams(popops::Operation::SQUARE_ADD, false, invCount),
                           prog, {di, "variance"});
  } else {
    power = popops::reduce(graph, acts, FLOAT, dims,
                           popops::ReduceParams(popops::Operation::SQUARE_ADD, false, invCount),
                           prog, {di, "meanOfSquares"});
  }
  if (group > 1) {
    if (stableAlgo) {
      power = reduceAcross(graph, callback, {power}, prog, group, {di, "allReducePower"}, op)[0];
    } else {
      const auto sums = reduceAcross(graph, callback, {mean, power}, prog, group,
                                     {di, "allReduceMeanAndPower"}, op);
      mean = sums[0];
      power = sums[1];
    }
  }
  const Tensor iStdDev = graph.addVariable(type, {channels}, {di, "iStdDev"});
  poputil::mapTensorLinearly(graph, iStdDev);
  const ComputeSet cs = graph.addComputeSet({di, "iStdDev"});
  const auto vertices = poplibs_support::addElementWiseVertices(
      graph, cs,
      poputil::templateVertex("poplin::InverseStdDeviation", FLOAT, FLOAT, type, stableAlgo),
      iStdDev, {{"mean", mean}, {"power", power}, {"iStdDev", iStdDev}}, op);
  const float scaleVar = unbiasedVarEstimate ? float(count) / float(count - 1) : 1.0f;
  for (const auto& v : vertices) {
    graph.setInitialValue(v["scaleVar"], scaleVar);
    graph.setInitialValue(v["eps"], eps);
  }
  prog.add(program::Execute(cs, {di, "iStdDev"}));
  return {asType(graph, mean, type, prog, {di, "castMean"}), iStdDev};
}

} // namespace

std::pair<Tensor, Tensor> normStatistics(Graph& graph, const Tensor& acts, float eps,
                                         Sequence& prog, bool unbiasedVarEstimate, bool stableAlgo,
                                         const Type& partialsType,
                                         const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "NormStatistics");
  return statistics(graph, acts, eps, prog, unbiasedVarEstimate, stableAlgo, partialsType, {}, 0,
                    di, "poplin::normStatistics");
}

std::pair<Tensor, Tensor> distributedNormStatistics(
    Graph& replicatedGraph, const Tensor& actsUngrouped, float eps, Sequence& prog,
    bool unbiasedVarEstimate, DistributedNormReduceCallback allReduceCallback, unsigned normSize,
    bool stableAlgo, const Type& partialsType, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "DistributedNormStatistics");
  return statistics(replicatedGraph, actsUngrouped, eps, prog, unbiasedVarEstimate, stableAlgo,
                    partialsType, allReduceCallback, normSize, di,
                    "poplin::distributedNormStatistics");
}

Tensor normWhiten(Graph& graph, const Tensor& acts, const Tensor& mean, const Tensor& iStdDev,
                  Sequence& prog, const DebugContext& debugContext) {
  const std::string op = "poplin::normWhiten";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "NormWhiten");
  checkActs(acts, op, "acts");
  checkPerChannel(mean, acts, op, "mean");
  checkPerChannel(iStdDev, acts, op, "iStdDev");
  const Type type = acts.elementType();
  const Tensor out = copyOf(graph, acts, prog, {di, "whitened"});
  channelOpInPlace(graph, ChannelOp::SCALED_ADD, out, asType(graph, mean, type, prog, {di}), -1.0f,
                   prog, {di, "subtractMean"}, op);
  channelOpInPlace(graph, ChannelOp::MUL, out, asType(graph, iStdDev, type, prog, {di}), 1.0f, prog,
                   {di, "scale"}, op);
  return out;
}

Tensor normalise(Graph& graph, const Tensor& actsWhitened, const Tensor& gamma, const Tensor& beta,
                 Sequence& prog, const DebugContext& debugContext) {
  const std::string op = "poplin::normalise";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Normalise");
  checkActs(actsWhitened, op, "actsWhitened");
  checkPerChannel(gamma, actsWhitened, op, "gamma");
  checkPerChannel(beta, actsWhitened, op, "beta");
  const Type type = actsWhitened.elementType();
  const Tensor out = copyOf(graph, actsWhitened, prog, {di, "normalised"});
  channelOpInPlace(graph, ChannelOp::MUL, out, asType(graph, gamma, type, prog, {di}), 1.0f, prog,
                   {di, "gamma"}, op);
  channelOpInPlace(graph, ChannelOp::ADD, out, asType(graph, beta, type, prog, {di}), 1.0f, prog,
                   {di, "beta"}, op);
  return out;
}

std::pair<Tensor, Tensor> normParamGradients(Graph& graph, const Tensor& actsWhitened,
                                             const Tensor& gradsIn, Sequence& prog,
                                             const Type& partialsType,
                                             const DebugContext& debugContext) {
  const std::string op = "poplin::normParamGradients";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "NormParamGradients");
  checkActs(actsWhitened, op, "actsWhitened");
  checkActs(gradsIn, op, "gradsIn");
  checkSameShape(actsWhitened, gradsIn, op, "actsWhitened", "gradsIn");
  poplibs_support::checkType(partialsType, {FLOAT, HALF}, op, "partialsType");
  const Type type = gradsIn.elementType();
  const auto dims = statDims(gradsIn);
  const Tensor product = popops::mul(graph, asType(graph, actsWhitened, type, prog, {di}), gradsIn,
                                     prog, {di, "gradsTimesWhitened"});
  const Tensor gammaDelta =
      popops::reduce(graph, product, type, dims, popops::Operation::ADD, prog, {di, "gammaDelta"});
  const Tensor betaDelta =
      popops::reduce(graph, gradsIn, type, dims, popops::Operation::ADD, prog, {di, "betaDelta"});
  return {gammaDelta, betaDelta};
}

Tensor normGradients(Graph& graph, const Tensor& gradsIn, const Tensor& gamma, Sequence& prog,
                     const DebugContext& debugContext) {
  const std::string op = "poplin::normGradients";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "NormGradients");
  checkActs(gradsIn, op, "gradsIn");
  checkPerChannel(gamma, gradsIn, op, "gamma");
  const Tensor out = copyOf(graph, gradsIn, prog, {di, "gradients"});
  channelOpInPlace(graph, ChannelOp::MUL, out,
                   asType(graph, gamma, gradsIn.elementType(), prog, {di}), 1.0f, prog,
                   {di, "gamma"}, op);
  return out;
}

namespace {
Tensor statisticsGradients(Graph& graph, const Tensor& actsWhitened, const Tensor& gradsIn,
                           const Tensor& invStdDev, Sequence& prog, const Type& partialsType,
                           const DistributedNormReduceCallback& callback, unsigned normSize,
                           const DebugContext& di, const std::string& op) {
  checkActs(actsWhitened, op, "actsWhitened");
  checkActs(gradsIn, op, "gradsIn");
  checkSameShape(actsWhitened, gradsIn, op, "actsWhitened", "gradsIn");
  checkPerChannel(invStdDev, gradsIn, op, "invStdDev");
  poplibs_support::checkType(partialsType, {FLOAT, HALF}, op, "partialsType");
  const Type type = gradsIn.elementType();
  const Tensor whitened = asType(graph, actsWhitened, type, prog, {di});
  const unsigned group = replicaGroup(gradsIn, normSize, callback, op);
  const std::size_t count = gradsIn.numElements() / gradsIn.dim(1) * group;
  const auto dims = statDims(gradsIn);
  const Tensor negInvCount = scalarConstant(graph, -1.0f / float(count), {di, "negInvCount"});
  const Tensor product = popops::mul(graph, gradsIn, whitened, prog, {di, "gradsTimesWhitened"});
  // -mean(g * xw) and -mean(g), per channel.
  Tensor negVarDelta = popops::reduce(
      graph, product, type, dims, popops::ReduceParams(popops::Operation::ADD, false, negInvCount),
      prog, {di, "varianceDelta"});
  Tensor negMeanDelta = popops::reduce(
      graph, gradsIn, type, dims, popops::ReduceParams(popops::Operation::ADD, false, negInvCount),
      prog, {di, "meanDelta"});
  if (group > 1) {
    const auto sums = reduceAcross(graph, callback, {negVarDelta, negMeanDelta}, prog, group,
                                   {di, "allReduceDeltas"}, op);
    negVarDelta = sums[0];
    negMeanDelta = sums[1];
  }
  const Tensor out = copyOf(graph, whitened, prog, {di, "gradients"});
  channelOpInPlace(graph, ChannelOp::MUL, out, negVarDelta, 1.0f, prog, {di, "varianceTerm"}, op);
  channelOpInPlace(graph, ChannelOp::ADD, out, negMeanDelta, 1.0f, prog, {di, "meanTerm"}, op);
  popops::addInPlace(graph, out, gradsIn, prog, {di, "addGradients"});
  channelOpInPlace(graph, ChannelOp::MUL, out, asType(graph, invStdDev, type, prog, {di}), 1.0f,
                   prog, {di, "scale"}, op);
  return out;
}

} // namespace

Tensor normStatisticsGradients(Graph& graph, const Tensor& actsWhitened, const Tensor& gradsIn,
                               const Tensor& invStdDev, Sequence& prog, const Type& partialsType,
                               const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "NormStatisticsGradients");
  return statisticsGradients(graph, actsWhitened, gradsIn, invStdDev, prog, partialsType, {}, 0, di,
                             "poplin::normStatisticsGradients");
}

Tensor distributedNormStatisticsGradients(Graph& replicatedGraph, const Tensor& actsWhitened,
                                          const Tensor& gradsIn, const Tensor& invStdDev,
                                          Sequence& prog,
                                          DistributedNormReduceCallback reduceCallback,
                                          unsigned normSize, const Type& partialsType,
                                          const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "DistributedNormStatisticsGradients");
  return statisticsGradients(replicatedGraph, actsWhitened, gradsIn, invStdDev, prog, partialsType,
                             reduceCallback, normSize, di,
                             "poplin::distributedNormStatisticsGradients");
}

} // namespace poplin
