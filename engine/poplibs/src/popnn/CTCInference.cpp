// CTC beam search decoding: a plan, planned data, and one CTCBeamSearchDecoder vertex per batch
// entry on the plan's tile writing that entry's top paths.
#include "CTCPlanImpl.hpp"
#include "poplibs_support/TileWork.hpp"

#include <popnn/CTCInference.hpp>
#include <popnn/LogSoftmax.hpp>
#include <popops/Cast.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {
namespace ctc_infer {
namespace {

using namespace poplar;
using ctc::Plan;
using poplar::program::Sequence;

void checkInputs(const Tensor& data, const Tensor& dataLengths, unsigned blankClass,
                 unsigned beamwidth, unsigned topPaths, const Plan::Impl& plan,
                 const std::string& op) {
  poplibs_support::checkValid(data, op, "data");
  poplibs_support::checkValid(dataLengths, op, "dataLengths");
  if (data.elementType() != HALF && data.elementType() != FLOAT)
    throw poputil::poplibs_error(op + ": data tensor must be of type HALF or FLOAT");
  if (dataLengths.elementType() != UNSIGNED_INT)
    throw poputil::poplibs_error(op + ": dataLengths tensor must be of type UNSIGNED_INT");
  if (plan.partialsType == HALF && data.elementType() == FLOAT)
    throw poputil::poplibs_error(op + ": partials type HALF unsupported with input tensor "
                                      "type FLOAT");
  if (data.rank() != 3 || data.dim(0) != plan.maxTime || data.dim(1) != plan.batchSize ||
      data.dim(2) != plan.numClasses)
    throw poputil::poplibs_error(op + ": data " + data.shapeToString() +
                                 " differs from the plan's [" + std::to_string(plan.maxTime) + "," +
                                 std::to_string(plan.batchSize) + "," +
                                 std::to_string(plan.numClasses) + "]");
  if (dataLengths.shape() != std::vector<std::size_t>{data.dim(1)})
    throw poputil::poplibs_error(op + ": dataLengths " + dataLengths.shapeToString() +
                                 " must be [" + std::to_string(data.dim(1)) + "]");
  if (blankClass >= plan.numClasses)
    throw poputil::poplibs_error(op + ": blankClass " + std::to_string(blankClass) +
                                 " is not below numClasses " + std::to_string(plan.numClasses));
  if (beamwidth != plan.beamwidth)
    throw poputil::poplibs_error(op + ": beamwidth " + std::to_string(beamwidth) +
                                 " differs from the plan's " + std::to_string(plan.beamwidth));
  if (topPaths == 0 || topPaths > beamwidth)
    throw poputil::poplibs_error(op + ": topPaths " + std::to_string(topPaths) +
                                 " must be between 1 and beamwidth " + std::to_string(beamwidth));
}

std::tuple<Tensor, Tensor, Tensor>
decode(Graph& graph, const Tensor& data, bool fromLogits, const Tensor& dataLengths, Sequence& prog,
       unsigned blankClass, unsigned beamwidth, unsigned topPaths, const Plan& plan,
       const DebugContext& debugContext, const OptionFlags& options, const std::string& op,
       const char* opName) {
  poputil::PoplibsOpDebugInfo di(
      debugContext, DI_ARGS(data, dataLengths, blankClass, beamwidth, topPaths, plan, options),
      opName);
  const Plan::Impl& p = plan.getImpl().asInference(op);
  // The loss functions' options do not apply here; the plan's are checked again for misuse.
  Plan::Impl checked = p;
  ctc::parsePlanOptions(options, checked, op);
  checkInputs(data, dataLengths, blankClass, beamwidth, topPaths, p, op);
  Tensor logProbs = data;
  if (fromLogits) {
    logProbs = graph.clone(data, {di, "logProbs"});
    prog.add(program::Copy(data, logProbs, false, {di, "copyLogits"}));
    logSoftmaxInPlace(graph, logProbs, prog, {di, "logSoftmax"});
  }
  const std::size_t T = data.dim(0), B = data.dim(1), C = data.dim(2);
  const Type inType = data.elementType(), partials = p.partialsType;
  const Tensor probs = graph.addVariable(partials, {B, topPaths}, {di, "labelProbs"});
  const Tensor lengths = graph.addVariable(UNSIGNED_INT, {B, topPaths}, {di, "labelLengths"});
  const Tensor labels = graph.addVariable(UNSIGNED_INT, {B, topPaths, T}, {di, "decodedLabels"});
  const ComputeSet cs = graph.addComputeSet({di, "beamSearch"});
  const std::string vertex =
      poputil::templateVertex("popnn::CTCBeamSearchDecoder", inType, partials, UNSIGNED_INT);
  for (std::size_t b = 0; b < B; ++b) {
    const unsigned tile = p.tileOf(b);
    for (const Tensor& t : {probs[b], lengths[b], labels[b]})
      graph.setTileMapping(t, tile);
    const VertexRef v = graph.addVertex(cs, vertex);
    graph.connect(v["probabilities"], logProbs.slice(b, b + 1, 1).flatten());
    graph.connect(v["validTime"], dataLengths[b]);
    graph.connect(v["labelProbs"], probs[b]);
    graph.connect(v["labelLengths"], lengths[b]);
    graph.connect(v["decodedLabels"], labels[b].flatten());
    graph.setInitialValue(v["numClasses"], unsigned(C));
    graph.setInitialValue(v["blankClass"], blankClass);
    graph.setInitialValue(v["beamwidth"], beamwidth);
    graph.setTileMapping(v, tile);
  }
  prog.add(program::Execute(cs, {di, "beamSearch"}));
  const Tensor labelProbs =
      partials == inType ? probs : popops::cast(graph, probs, inType, prog, {di, "cast"});
  di.addOutputs({{"labelProbs", poputil::toProfileValue(labelProbs)},
                 {"labelLengths", poputil::toProfileValue(lengths)},
                 {"decodedLabels", poputil::toProfileValue(labels)}});
  return {labelProbs, lengths, labels};
}

} // namespace

ctc::Plan plan(const Graph& graph, const Type& inType, unsigned batchSize, unsigned maxTime,
               unsigned numClasses, unsigned beamwidth, const OptionFlags& options) {
  const std::string op = "popnn::ctc_infer::plan";
  if (inType != HALF && inType != FLOAT)
    throw poputil::poplibs_error(op + ": inType must be HALF or FLOAT, not " + inType.toString());
  if (batchSize == 0 || maxTime == 0 || numClasses < 2 || beamwidth == 0)
    throw poputil::poplibs_error(op + ": batchSize, maxTime and beamwidth must be positive and "
                                      "numClasses at least 2 (a symbol and the blank)");
  auto impl = std::make_unique<Plan::Impl>();
  impl->kind = Plan::Impl::Kind::Inference;
  impl->inType = inType;
  impl->outType = inType;
  impl->batchSize = batchSize;
  impl->maxTime = maxTime;
  impl->numClasses = numClasses;
  impl->beamwidth = beamwidth;
  impl->numTiles = graph.getTarget().getTilesPerIPU();
  ctc::parsePlanOptions(options, *impl, op);
  return ctc::Plan(std::move(impl));
}

Tensor createDataInput(Graph& graph, const Type& type, const std::size_t batchSize,
                       const std::size_t maxTime, const std::size_t numClasses,
                       const ctc::Plan& plan, const DebugContext& debugContext) {
  const std::string op = "popnn::ctc_infer::createDataInput";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, batchSize, maxTime, numClasses, plan),
                                 "CTCInferenceDataInput");
  const Tensor data = ctc::createPlannedData(graph, type, batchSize, maxTime, numClasses,
                                             plan.getImpl().asInference(op), {di}, op);
  di.addOutput(data);
  return data;
}

std::tuple<Tensor, Tensor, Tensor>
beamSearchDecoderLogProbabilities(Graph& graph, const Tensor& logProbs, const Tensor& dataLengths,
                                  Sequence& prog, unsigned blankClass, unsigned beamwidth,
                                  unsigned topPaths, const ctc::Plan& plan,
                                  const DebugContext& debugContext, const OptionFlags& options) {
  return decode(graph, logProbs, false, dataLengths, prog, blankClass, beamwidth, topPaths, plan,
                debugContext, options, "popnn::ctc_infer::beamSearchDecoderLogProbabilities",
                "CTCBeamSearchDecoderLogProbs");
}

std::tuple<Tensor, Tensor, Tensor>
beamSearchDecoderLogits(Graph& graph, const Tensor& logits, const Tensor& dataLengths,
                        Sequence& prog, unsigned blankClass, unsigned beamwidth, unsigned topPaths,
                        const ctc::Plan& plan, const DebugContext& debugContext,
                        const OptionFlags& options) {
  return decode(graph, logits, true, dataLengths, prog, blankClass, beamwidth, topPaths, plan,
                debugContext, options, "popnn::ctc_infer::beamSearchDecoderLogits",
                "CTCBeamSearchDecoderLogits");
}

} // namespace ctc_infer
} // namespace popnn
