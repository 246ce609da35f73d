#include "poplibs_support/TileWork.hpp"

#include <popnn/Loss.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/TopK.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {
namespace {

using namespace poplar;
using poplar::program::Sequence;

/// Checks model outputs [B,C] (B, C > 0) and labels [B].
void checkOutputsAndLabels(const Tensor& outputs, const Tensor& labels, const std::string& op) {
  poplibs_support::checkValid(outputs, op, "modelOutputs");
  poplibs_support::checkValid(labels, op, "expected");
  poplibs_support::checkType(outputs.elementType(), {FLOAT, HALF}, op, "modelOutputs");
  poplibs_support::checkType(labels.elementType(), {UNSIGNED_INT, INT}, op, "expected");
  if (outputs.rank() != 2 || outputs.dim(0) == 0 || outputs.dim(1) == 0)
    throw poputil::poplibs_error(op +
                                 ": modelOutputs must be a non-empty [batch, classes] "
                                 "matrix, not shape " +
                                 outputs.shapeToString());
  if (labels.shape() != std::vector<std::size_t>{outputs.dim(0)})
    throw poputil::poplibs_error(op + ": expected has shape " + labels.shapeToString() +
                                 " but modelOutputs " + outputs.shapeToString() + " needs {" +
                                 std::to_string(outputs.dim(0)) + "}");
}

void checkResult(const Tensor& t, const Tensor& outputs, const std::vector<std::size_t>& shape,
                 const std::string& op, const char* name) {
  poplibs_support::checkValid(t, op, name);
  if (t.shape() != shape || t.elementType() != outputs.elementType())
    throw poputil::poplibs_error(op + ": " + name + " is " + t.elementType().toString() + " " +
                                 t.shapeToString() + " but must match modelOutputs " +
                                 outputs.elementType().toString() + " " + outputs.shapeToString());
}

std::vector<Tensor> rowsOf(const Tensor& matrix, const Interval& rows) {
  std::vector<Tensor> out;
  for (std::size_t r = rows.begin(); r < rows.end(); ++r)
    out.push_back(matrix[r]);
  return out;
}

/// Adds to `cs` one accuracy vertex per group of rows, on the rows' tile, each counting its
/// correct rows into one element of the returned counts tensor (mapped on that tile).
Tensor addAccuracyVertices(Graph& graph, const ComputeSet& cs, const Tensor& outputs,
                           const Tensor& labels, const std::vector<std::vector<Interval>>& groups,
                           const DebugContext& di) {
  std::size_t numGroups = 0;
  for (const auto& g : groups)
    numGroups += g.size();
  const Tensor counts = graph.addVariable(UNSIGNED_INT, {numGroups}, {di, "counts"});
  const std::string vertex =
      poputil::templateVertex("popnn::CalcAccuracy", outputs.elementType(), labels.elementType());
  std::size_t next = 0;
  for (unsigned tile = 0; tile < groups.size(); ++tile)
    for (const auto& rows : groups[tile]) {
      const Tensor count = counts.slice(next, next + 1);
      const auto v = graph.addVertex(cs, vertex);
      graph.connect(v["probs"], rowsOf(outputs, rows));
      graph.connect(v["labels"], labels.slice(rows));
      graph.connect(v["numCorrect"], count);
      graph.setTileMapping(v, tile);
      graph.setTileMapping(count, tile);
      ++next;
    }
  return counts;
}

void checkNumCorrect(const Tensor& numCorrect, const std::string& op) {
  poplibs_support::checkValid(numCorrect, op, "numCorrect");
  if (numCorrect.elementType() != UNSIGNED_INT || numCorrect.numElements() != 1)
    throw poputil::poplibs_error(op + ": numCorrect must be one UNSIGNED_INT element, not " +
                                 numCorrect.elementType().toString() + " " +
                                 numCorrect.shapeToString());
}

/// Adds the per-group counts to numCorrect. PopLibs' accuracy vertex updates numCorrect in place
/// (numCorrect += correct rows), so a program that zeroes it once per epoch and runs calcLoss
/// every step reads the epoch's total; overwriting would report only the last batch. The old
/// count joins the reduced elements (reductions update FLOAT and HALF outputs only).
void sumCounts(Graph& graph, const Tensor& counts, const Tensor& numCorrect, Sequence& prog,
               const DebugContext& di) {
  const Tensor previous = graph.clone(numCorrect.reshape({1}), {di, "previousNumCorrect"});
  prog.add(program::Copy(numCorrect.reshape({1}), previous, false, di));
  popops::reduceWithOutput(graph, concat(counts, previous), numCorrect.reshape({}), {0},
                           popops::Operation::ADD, prog, {di, "numCorrect"});
}

program::Program lossProgram(Graph& graph, const Tensor& outputs, const Tensor& labels,
                             const Tensor& lossOut, const Tensor& deltas, const Tensor& numCorrect,
                             LossType lossType, const DebugContext& debugContext) {
  const std::string op = "popnn::calcLoss";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "CalcLoss");
  checkOutputsAndLabels(outputs, labels, op);
  checkResult(lossOut, outputs, {outputs.dim(0)}, op, "loss");
  checkResult(deltas, outputs, outputs.shape(), op, "deltas");

  const ComputeSet cs = graph.addComputeSet(di);
  const auto groups = poplibs_support::splitRowsByTile(graph, outputs, op);
  const std::string vertex = poputil::templateVertex(
      lossType == CROSS_ENTROPY_LOSS ? "popnn::LossCrossEntropy" : "popnn::LossSumSquared",
      outputs.elementType(), labels.elementType());
  for (unsigned tile = 0; tile < groups.size(); ++tile)
    for (const auto& rows : groups[tile]) {
      const auto v = graph.addVertex(cs, vertex);
      graph.connect(v["probs"], rowsOf(outputs, rows));
      graph.connect(v["labels"], labels.slice(rows));
      graph.connect(v["deltas"], rowsOf(deltas, rows));
      graph.connect(v["loss"], lossOut.slice(rows));
      graph.setTileMapping(v, tile);
    }
  Sequence prog({}, di);
  if (!numCorrect.valid()) {
    prog.add(program::Execute(cs, di));
    return prog;
  }
  const Tensor counts = addAccuracyVertices(graph, cs, outputs, labels, groups, di);
  prog.add(program::Execute(cs, di));
  sumCounts(graph, counts, numCorrect, prog, di);
  return prog;
}

} // namespace

program::Program calcLoss(Graph& graph, const Tensor& modelOutputs, const Tensor& expected,
                          const Tensor& loss, const Tensor& deltas, LossType lossType,
                          const DebugContext& debugContext) {
  return lossProgram(graph, modelOutputs, expected, loss, deltas, Tensor(), lossType, debugContext);
}

program::Program calcLoss(Graph& graph, const Tensor& modelOutputs, const Tensor& expected,
                          const Tensor& loss, const Tensor& deltas, const Tensor& numCorrect,
                          LossType lossType, const DebugContext& debugContext) {
  checkNumCorrect(numCorrect, "popnn::calcLoss");
  return lossProgram(graph, modelOutputs, expected, loss, deltas, numCorrect, lossType,
                     debugContext);
}

program::Program calcAccuracy(Graph& graph, const Tensor& modelOutputs, const Tensor& expected,
                              const Tensor& numCorrect, const DebugContext& debugContext) {
  const std::string op = "popnn::calcAccuracy";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "CalcAccuracy");
  checkOutputsAndLabels(modelOutputs, expected, op);
  checkNumCorrect(numCorrect, op);
  const ComputeSet cs = graph.addComputeSet(di);
  const auto groups = poplibs_support::splitRowsByTile(graph, modelOutputs, op);
  const Tensor counts = addAccuracyVertices(graph, cs, modelOutputs, expected, groups, di);
  Sequence prog({}, di);
  prog.add(program::Execute(cs, di));
  sumCounts(graph, counts, numCorrect, prog, di);
  return prog;
}

namespace {

/// `scale` as a one-element tensor of `type`, for broadcasting; 1 when it is invalid.
Tensor scalarOf(Graph& graph, const Tensor& scale, const Type& type, Sequence& prog,
                const DebugNameAndId& di, const std::string& op, const char* name) {
  if (!scale.valid()) {
    Tensor one = graph.addConstant(type, {1}, 1.0f, {di, name});
    graph.setTileMapping(one, 0);
    return one;
  }
  if (scale.numElements() != 1)
    throw poputil::poplibs_error(op + ": " + name + " must have one element, not shape " +
                                 scale.shapeToString());
  const Tensor flat = scale.reshape({1});
  return flat.elementType() == type ? flat : popops::cast(graph, flat, type, prog, {di, name});
}

program::Program scaledLoss(Graph& graph, const Tensor& modelOutputs, const Tensor& expected,
                            const Tensor& loss, const Tensor& deltas, const Tensor& deltasScale,
                            const Tensor& modelOutputScaling, const Tensor& numCorrect,
                            LossType lossType, const DebugContext& debugContext) {
  const std::string op = "popnn::calcLoss";
  if (lossType != CROSS_ENTROPY_LOSS)
    return lossProgram(graph, modelOutputs, expected, loss, deltas, numCorrect, lossType,
                       debugContext);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "CalcLossScaled");
  checkOutputsAndLabels(modelOutputs, expected, op);
  const Type type = modelOutputs.elementType();
  Sequence prog({}, di);
  // Probabilities = outputs / scaling; the unscaled loss program on them; deltas * deltasScale.
  const Tensor scaling =
      scalarOf(graph, modelOutputScaling, type, prog, {di}, op, "modelOutputScaling");
  const Tensor probs =
      popops::div(graph, modelOutputs, scaling.reshape({1, 1}), prog, {di, "unscale"});
  prog.add(lossProgram(graph, probs, expected, loss, deltas, numCorrect, lossType, {di}));
  const Tensor dScale = scalarOf(graph, deltasScale, type, prog, {di}, op, "deltasScale");
  popops::mulInPlace(graph, deltas, dScale.reshape({1, 1}), prog, {di, "scaleDeltas"});
  return prog;
}

} // namespace

program::Program calcLoss(Graph& graph, const Tensor& modelOutputs, const Tensor& expected,
                          const Tensor& loss, const Tensor& deltas, const Tensor& deltasScale,
                          const Tensor& modelOutputScaling, LossType lossType,
                          const DebugContext& debugContext) {
  return scaledLoss(graph, modelOutputs, expected, loss, deltas, deltasScale, modelOutputScaling,
                    Tensor(), lossType, debugContext);
}

program::Program calcLoss(Graph& graph, const Tensor& modelOutputs, const Tensor& expected,
                          const Tensor& loss, const Tensor& deltas, const Tensor& deltasScale,
                          const Tensor& modelOutputScaling, const Tensor& numCorrect,
                          LossType lossType, const DebugContext& debugContext) {
  checkNumCorrect(numCorrect, "popnn::calcLoss");
  return scaledLoss(graph, modelOutputs, expected, loss, deltas, deltasScale, modelOutputScaling,
                    numCorrect, lossType, debugContext);
}

Tensor argMax(Graph& graph, const Tensor& input, Sequence& prog, const DebugContext& debugContext) {
  return popops::argMax(graph, input, prog, debugContext);
}

std::pair<Tensor, Tensor> maxAndArgMax(Graph& graph, const Tensor& input, Sequence& prog,
                                       const DebugContext& debugContext) {
  return popops::maxAndArgMax(graph, input, prog, debugContext);
}

Tensor argMin(Graph& graph, const Tensor& input, Sequence& prog, const DebugContext& debugContext) {
  return popops::argMin(graph, input, prog, debugContext);
}

std::pair<Tensor, Tensor> minAndArgMin(Graph& graph, const Tensor& input, Sequence& prog,
                                       const DebugContext& debugContext) {
  return popops::minAndArgMin(graph, input, prog, debugContext);
}

Tensor topK(Graph& graph, const Tensor& input, Tensor& indices, unsigned K, bool sort,
            Sequence& prog, const DebugContext& debugContext) {
  if (!input.valid() || input.rank() != 2)
    throw poputil::poplibs_error("popnn::topK: input must be a 2-D tensor [batch][values]" +
                                 (input.valid() ? ", not " + input.shapeToString()
                                                : std::string(", not an invalid tensor")));
  const popops::TopKParams params(K, true,
                                  sort ? popops::SortOrder::DESCENDING : popops::SortOrder::NONE);
  auto [values, perm] = popops::topKWithPermutation(graph, prog, input, params, debugContext);
  indices = perm;
  return values;
}

} // namespace popnn
