// CTC loss: plans, planned inputs, and the two compute sets (forward variables, then backward
// variables with the gradient) that run one vertex per batch entry on the plan's tile.
#include "CTCPlanImpl.hpp"
#include "poplibs_support/TileWork.hpp"

#include <popnn/CTCLoss.hpp>
#include <popnn/LogSoftmax.hpp>
#include <popops/Cast.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/OptionParsing.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {
namespace ctc {
namespace {

using namespace poplar;
using poplar::program::Sequence;

/// PopLibs' options of the loss functions.
struct LossOptions {
  bool includeSoftmaxGradient = true;
  bool zeroInfinity = false;
  double zeroInfinityRelTolerance = 0.01;
};

LossOptions parseLossOptions(const OptionFlags& options, const std::string& op) {
  LossOptions o;
  const poplibs::OptionSpec spec{
      {"includeSoftmaxGradient", poplibs::OptionHandler::createWithBool(o.includeSoftmaxGradient)},
      {"zeroInfinity", poplibs::OptionHandler::createWithBool(o.zeroInfinity)},
      {"zeroInfinityRelTolerance",
       poplibs::OptionHandler::createWithDouble(o.zeroInfinityRelTolerance, 0.)}};
  try {
    for (const auto& entry : options)
      spec.parse(entry.first, entry.second);
  } catch (const poplar::invalid_option& e) {
    throw poplar::invalid_option(op + ": " + e.what());
  }
  if (!o.includeSoftmaxGradient)
    throw poputil::poplibs_error(op + ": includeSoftmaxGradient = false is currently an "
                                      "unsupported option (as in PopLibs)");
  return o;
}

std::string dims(const Tensor& t) {
  return t.valid() ? t.shapeToString() : std::string("(invalid)");
}

/// PopLibs' type checks, then the shapes against each other and the plan.
void checkInputs(const Tensor& data, const Tensor& labels, const Tensor& dataLengths,
                 const Tensor& labelLengths, const Type& outType, unsigned blankClass,
                 const Plan::Impl& plan, const std::string& op) {
  for (const auto& [t, name] : {std::pair<const Tensor&, const char*>{data, "data"},
                                {labels, "labels"},
                                {dataLengths, "dataLengths"},
                                {labelLengths, "labelLengths"}})
    poplibs_support::checkValid(t, op, name);
  if (data.elementType() != HALF && data.elementType() != FLOAT)
    throw poputil::poplibs_error(op + ": data tensor must be of type HALF or FLOAT");
  if (labels.elementType() != UNSIGNED_INT)
    throw poputil::poplibs_error(op + ": labels tensor must be of type UNSIGNED_INT");
  if (dataLengths.elementType() != UNSIGNED_INT)
    throw poputil::poplibs_error(op + ": dataLengths tensor must be of type UNSIGNED_INT");
  if (labelLengths.elementType() != UNSIGNED_INT)
    throw poputil::poplibs_error(op + ": labelLengths tensor must be of type UNSIGNED_INT");
  if (plan.partialsType == HALF && data.elementType() == FLOAT)
    throw poputil::poplibs_error(op + ": partials type HALF unsupported with input tensor "
                                      "type FLOAT");
  if (outType != HALF && outType != FLOAT)
    throw poputil::poplibs_error(op + ": outType must be of type HALF or FLOAT");
  if (data.rank() != 3)
    throw poputil::poplibs_error(op + ": data must be [maxTime, batchSize, numClasses], not " +
                                 dims(data));
  const std::size_t T = data.dim(0), B = data.dim(1), C = data.dim(2);
  if (T != plan.maxTime || B != plan.batchSize || C != plan.numClasses)
    throw poputil::poplibs_error(
        op + ": data " + dims(data) + " differs from the plan's [" + std::to_string(plan.maxTime) +
        "," + std::to_string(plan.batchSize) + "," + std::to_string(plan.numClasses) + "]");
  if (labels.rank() != 2 || labels.dim(0) != B || labels.dim(1) > plan.maxLabelLength)
    throw poputil::poplibs_error(
        op + ": labels " + dims(labels) + " must be [" + std::to_string(B) +
        ", maxLabelLength <= " + std::to_string(plan.maxLabelLength) + "]");
  for (const auto& [t, name] : {std::pair<const Tensor&, const char*>{dataLengths, "dataLengths"},
                                {labelLengths, "labelLengths"}})
    if (t.shape() != std::vector<std::size_t>{B})
      throw poputil::poplibs_error(op + ": " + name + " " + dims(t) + " must be [" +
                                   std::to_string(B) + "]");
  if (blankClass >= C)
    throw poputil::poplibs_error(op + ": blankClass " + std::to_string(blankClass) +
                                 " is not below numClasses " + std::to_string(C));
}

void setVertexState(Graph& graph, const VertexRef& v, unsigned numClasses, unsigned blankClass,
                    const LossOptions& o) {
  graph.setInitialValue(v["numClasses"], numClasses);
  graph.setInitialValue(v["blankClass"], blankClass);
  graph.setInitialValue(v["zeroInfinity"], o.zeroInfinity);
  graph.setInitialValue(v["zeroInfinityRelTolerance"], float(o.zeroInfinityRelTolerance));
}

/// {loss, gradient} of outType (gradient invalid when lossOnly) from log probabilities.
std::pair<Tensor, Tensor> lossAndGradient(Graph& graph, const Type& outType, const Tensor& logProbs,
                                          const Tensor& labels, const Tensor& dataLengths,
                                          const Tensor& labelLengths, Sequence& prog,
                                          unsigned blankClass, const Plan::Impl& plan,
                                          bool lossOnly, const LossOptions& opts,
                                          const DebugNameAndId& di) {
  const std::size_t T = logProbs.dim(0), B = logProbs.dim(1), C = logProbs.dim(2);
  const std::size_t L = labels.dim(1), S = 2 * L + 1;
  const Type inType = logProbs.elementType(), partials = plan.partialsType;
  const Tensor alphas = graph.addVariable(partials, {B, T * S}, {di, "alphas"});
  const Tensor loss = graph.addVariable(partials, {B}, {di, "loss"});
  Tensor grad; // batch-major, as each entry's vertex writes its block
  if (!lossOnly) grad = graph.addVariable(partials, {B, T, C}, {di, "gradient"});
  const ComputeSet alphaCs = graph.addComputeSet({di, "alpha"});
  const ComputeSet gradCs = graph.addComputeSet({di, "gradGivenAlpha"});
  const std::string alphaName =
      poputil::templateVertex("popnn::CTCAlpha", inType, partials, UNSIGNED_INT, true);
  const std::string gradName =
      poputil::templateVertex("popnn::CTCGradGivenAlpha", inType, partials, UNSIGNED_INT, true);
  for (std::size_t b = 0; b < B; ++b) {
    const unsigned tile = plan.tileOf(b);
    const Tensor probs = logProbs.slice(b, b + 1, 1).flatten();
    graph.setTileMapping(alphas[b], tile);
    graph.setTileMapping(loss[b], tile);
    auto connectCommon = [&](const VertexRef& v) {
      graph.connect(v["probabilities"], probs);
      graph.connect(v["label"], labels[b]);
      graph.connect(v["validLabel"], labelLengths[b]);
      graph.connect(v["validTime"], dataLengths[b]);
      setVertexState(graph, v, unsigned(C), blankClass, opts);
      graph.setTileMapping(v, tile);
    };
    const VertexRef a = graph.addVertex(alphaCs, alphaName);
    connectCommon(a);
    graph.connect(a["alphas"], alphas[b]);
    graph.connect(a["loss"], loss[b]);
    if (lossOnly) continue;
    graph.setTileMapping(grad[b], tile);
    const VertexRef g = graph.addVertex(gradCs, gradName);
    connectCommon(g);
    graph.connect(g["alphas"], alphas[b]);
    graph.connect(g["grad"], grad[b].flatten());
  }
  prog.add(program::Execute(alphaCs, {di, "alpha"}));
  if (!lossOnly) prog.add(program::Execute(gradCs, {di, "gradGivenAlpha"}));
  Tensor lossOut = loss, gradOut = lossOnly ? Tensor() : grad.dimShuffle({1, 0, 2});
  if (partials != outType) {
    const ComputeSet castCs = graph.addComputeSet({di, "cast"});
    lossOut = popops::cast(graph, lossOut, outType, castCs, {di, "castLoss"});
    if (!lossOnly) gradOut = popops::cast(graph, gradOut, outType, castCs, {di, "castGradient"});
    prog.add(program::Execute(castCs, {di, "cast"}));
  }
  return {lossOut, gradOut};
}

/// logSoftmax of logits into a copy mapped like them.
Tensor logProbsOf(Graph& graph, const Tensor& logits, Sequence& prog, const DebugNameAndId& di,
                  const std::string& op) {
  poplibs_support::checkValid(logits, op, "logits");
  const Tensor copy = graph.clone(logits, {di, "logProbs"});
  prog.add(program::Copy(logits, copy, false, {di, "copyLogits"}));
  logSoftmaxInPlace(graph, copy, prog, {di, "logSoftmax"});
  return copy;
}

std::pair<Tensor, Tensor> run(Graph& graph, const Type& outType, const Tensor& data,
                              bool fromLogits, const Tensor& labels, const Tensor& dataLengths,
                              const Tensor& labelLengths, Sequence& prog, unsigned blankClass,
                              const Plan& plan, bool lossOnly, const DebugContext& debugContext,
                              const OptionFlags& options, const std::string& op,
                              const char* opName) {
  poputil::PoplibsOpDebugInfo di(
      debugContext,
      DI_ARGS(outType, data, labels, dataLengths, labelLengths, blankClass, plan, options), opName);
  const Plan::Impl& p = plan.getImpl().asLoss(op);
  const LossOptions opts = parseLossOptions(options, op);
  checkInputs(data, labels, dataLengths, labelLengths, outType, blankClass, p, op);
  const Tensor logProbs = fromLogits ? logProbsOf(graph, data, prog, {di}, op) : data;
  auto result = lossAndGradient(graph, outType, logProbs, labels, dataLengths, labelLengths, prog,
                                blankClass, p, lossOnly, opts, {di});
  if (lossOnly)
    di.addOutputs({{"loss", poputil::toProfileValue(result.first)}});
  else
    di.addOutputs({{"loss", poputil::toProfileValue(result.first)},
                   {"grad", poputil::toProfileValue(result.second)}});
  return result;
}

} // namespace

Plan plan(const Graph& graph, const Type& inType, const Type& outType, unsigned batchSize,
          unsigned maxTime, unsigned maxLabelLength, unsigned numClasses,
          const OptionFlags& options) {
  const std::string op = "popnn::ctc::plan";
  if (inType != HALF && inType != FLOAT)
    throw poputil::poplibs_error(op + ": inType must be HALF or FLOAT, not " + inType.toString());
  if (outType != HALF && outType != FLOAT)
    throw poputil::poplibs_error(op + ": outType must be HALF or FLOAT, not " + outType.toString());
  if (batchSize == 0 || maxTime == 0 || numClasses < 2)
    throw poputil::poplibs_error(op + ": batchSize and maxTime must be positive and numClasses "
                                      "at least 2 (a symbol and the blank)");
  auto impl = std::make_unique<Plan::Impl>();
  impl->kind = Plan::Impl::Kind::Loss;
  impl->inType = inType;
  impl->outType = outType;
  impl->batchSize = batchSize;
  impl->maxTime = maxTime;
  impl->maxLabelLength = maxLabelLength;
  impl->numClasses = numClasses;
  impl->numTiles = graph.getTarget().getTilesPerIPU();
  parsePlanOptions(options, *impl, op);
  return Plan(std::move(impl));
}

Tensor createDataInput(Graph& graph, const Type& type, const std::size_t batchSize,
                       const std::size_t maxTime, const std::size_t numClasses, const Plan& plan,
                       const DebugContext& debugContext) {
  const std::string op = "popnn::ctc::createDataInput";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, batchSize, maxTime, numClasses, plan),
                                 "CTCDataInput");
  const Tensor data = createPlannedData(graph, type, batchSize, maxTime, numClasses,
                                        plan.getImpl().asLoss(op), {di}, op);
  di.addOutput(data);
  return data;
}

Tensor createLabelsInput(Graph& graph, const Type& type, const std::size_t batchSize,
                         const std::size_t maxLabelLength, const Plan& plan,
                         const DebugContext& debugContext) {
  const std::string op = "popnn::ctc::createLabelsInput";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, batchSize, maxLabelLength, plan),
                                 "CTCLabelsInput");
  const Plan::Impl& p = plan.getImpl().asLoss(op);
  if (batchSize != p.batchSize || maxLabelLength != p.maxLabelLength)
    throw poputil::poplibs_error(op + ": [batchSize, maxLabelLength] = [" +
                                 std::to_string(batchSize) + ", " + std::to_string(maxLabelLength) +
                                 "] differs from the plan's [" + std::to_string(p.batchSize) +
                                 ", " + std::to_string(p.maxLabelLength) + "]");
  const Tensor labels = graph.addVariable(type, {batchSize, maxLabelLength}, {di, "labels"});
  for (std::size_t b = 0; b < batchSize; ++b)
    graph.setTileMapping(labels[b], p.tileOf(b));
  di.addOutput(labels);
  return labels;
}

std::pair<Tensor, Tensor>
calcLossAndGradientLogProbabilities(Graph& graph, const Type& outType, const Tensor& logProbs,
                                    const Tensor& labels, const Tensor& dataLengths,
                                    const Tensor& labelLengths, Sequence& prog,
                                    const unsigned blankClass, const Plan& plan,
                                    const DebugContext& debugContext, const OptionFlags& options) {
  return run(graph, outType, logProbs, false, labels, dataLengths, labelLengths, prog, blankClass,
             plan, false, debugContext, options, "popnn::ctc::calcLossAndGradientLogProbabilities",
             "CTCLossAndGradientLogProbs");
}

std::pair<Tensor, Tensor> calcLossAndGradientLogits(Graph& graph, const Type& outType,
                                                    const Tensor& logits, const Tensor& labels,
                                                    const Tensor& dataLengths,
                                                    const Tensor& labelLengths, Sequence& prog,
                                                    const unsigned blankClass, const Plan& plan,
                                                    const DebugContext& debugContext,
                                                    const OptionFlags& options) {
  return run(graph, outType, logits, true, labels, dataLengths, labelLengths, prog, blankClass,
             plan, false, debugContext, options, "popnn::ctc::calcLossAndGradientLogits",
             "CTCLossAndGradientLogits");
}

Tensor calcCTCLossLogProbabilities(Graph& graph, const Type& outType, const Tensor& logProbs,
                                   const Tensor& labels, const Tensor& dataLengths,
                                   const Tensor& labelLengths, Sequence& prog,
                                   const unsigned blankClass, const Plan& plan,
                                   const DebugContext& debugContext, const OptionFlags& options) {
  return run(graph, outType, logProbs, false, labels, dataLengths, labelLengths, prog, blankClass,
             plan, true, debugContext, options, "popnn::ctc::calcCTCLossLogProbabilities",
             "CTCLossLogProbabilities")
      .first;
}

Tensor calcCTCLossLogits(Graph& graph, const Type& outType, const Tensor& logits,
                         const Tensor& labels, const Tensor& dataLengths,
                         const Tensor& labelLengths, Sequence& prog, const unsigned blankClass,
                         const Plan& plan, const DebugContext& debugContext,
                         const OptionFlags& options) {
  return run(graph, outType, logits, true, labels, dataLengths, labelLengths, prog, blankClass,
             plan, true, debugContext, options, "popnn::ctc::calcCTCLossLogits", "CTCLossLogits")
      .first;
}

} // namespace ctc
} // namespace popnn
