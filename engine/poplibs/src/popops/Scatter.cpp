// Scatter as XLA's scatter expander does it, unrolled: for every index vector, a check that
// its window fits, then a dynamicUpdate (or slice, combine and update) of the operand under an
// If on that check. The number of index vectors is known when the graph is built.
#include "GatherScatterOptions.hpp"
#include "poplibs_support/TileWork.hpp"

#include <algorithm>
#include <popops/DynamicSlice.hpp>
#include <popops/Scatter.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;

namespace {

const std::string kOp = "popops::scatter";

std::string list(const std::vector<std::size_t>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s + "}";
}

void scatterImpl(Graph& graph, const Tensor& operand, const Tensor& indices, const Tensor& updates,
                 std::size_t indexVectorDim, const std::vector<unsigned>& updateWindowDims,
                 const std::vector<std::size_t>& insertWindowDims,
                 const std::vector<unsigned>& scatterDimsToOperandDims,
                 UpdateComputationFunc* combine, program::Sequence& prog, const DebugContext& di) {
  poplibs_support::checkValid(operand, kOp, "operand");
  poplibs_support::checkValid(indices, kOp, "indices");
  poplibs_support::checkValid(updates, kOp, "updates");
  poplibs_support::checkType(indices.elementType(), {UNSIGNED_INT, INT}, kOp, "indices");
  if (updates.elementType() != operand.elementType())
    throw poputil::poplibs_error(kOp + ": updates has element type " +
                                 updates.elementType().toString() + " but operand has " +
                                 operand.elementType().toString());
  if (indexVectorDim > indices.rank())
    throw poputil::poplibs_error(kOp + ": indexVectorDim " + std::to_string(indexVectorDim) +
                                 " is past the rank of indices (shape " + indices.shapeToString() +
                                 ")");
  // Index vectors as rows [N, K].
  Tensor idx = indexVectorDim == indices.rank() ? indices.expand({indices.rank()}) : indices;
  idx = idx.dimRoll(unsigned(indexVectorDim), idx.rank() - 1);
  const std::size_t k = idx.dim(idx.rank() - 1);
  std::vector<std::size_t> batchShape = idx.shape();
  batchShape.pop_back();
  if (k != scatterDimsToOperandDims.size())
    throw poputil::poplibs_error(kOp + ": index vectors have " + std::to_string(k) +
                                 " elements but scatterDimsToOperandDims has " +
                                 std::to_string(scatterDimsToOperandDims.size()));
  for (unsigned d : scatterDimsToOperandDims)
    if (d >= operand.rank() ||
        std::count(scatterDimsToOperandDims.begin(), scatterDimsToOperandDims.end(), d) != 1)
      throw poputil::poplibs_error(kOp + ": scatterDimsToOperandDims names dimension " +
                                   std::to_string(d) + " of operand (rank " +
                                   std::to_string(operand.rank()) + ") wrongly");
  // The update's scatter dimensions (those not in the window) must match the index batch.
  std::vector<unsigned> order, scatterDims;
  std::vector<std::size_t> updateBatch;
  for (unsigned d = 0; d < updates.rank(); ++d)
    if (std::find(updateWindowDims.begin(), updateWindowDims.end(), d) == updateWindowDims.end()) {
      scatterDims.push_back(d);
      updateBatch.push_back(updates.dim(d));
    }
  for (unsigned d : updateWindowDims)
    if (d >= updates.rank())
      throw poputil::poplibs_error(kOp + ": updateWindowDims names dimension " + std::to_string(d) +
                                   " of updates (shape " + updates.shapeToString() + ")");
  if (updateBatch != batchShape)
    throw poputil::poplibs_error(kOp + ": updates' scatter dimensions " + list(updateBatch) +
                                 " differ from the index batch " + list(batchShape));
  if (operand.rank() != updateWindowDims.size() + insertWindowDims.size())
    throw poputil::poplibs_error(kOp + ": operand has rank " + std::to_string(operand.rank()) +
                                 " but updateWindowDims and insertWindowDims name " +
                                 std::to_string(updateWindowDims.size() + insertWindowDims.size()) +
                                 " dimensions");
  std::vector<std::size_t> window(operand.rank());
  for (std::size_t d = 0, w = 0; d < operand.rank(); ++d) {
    const bool inserted =
        std::find(insertWindowDims.begin(), insertWindowDims.end(), d) != insertWindowDims.end();
    window[d] = inserted ? 1 : updates.dim(updateWindowDims[w++]);
    if (window[d] > operand.dim(d) || window[d] == 0)
      throw poputil::poplibs_error(kOp + ": the update window " + list(window) +
                                   " does not fit operand of shape " + operand.shapeToString());
  }
  order = scatterDims;
  order.insert(order.end(), updateWindowDims.begin(), updateWindowDims.end());
  std::size_t n = 1;
  for (auto b : batchShape)
    n *= b;
  if (n == 0) return;
  const Tensor rows = idx.reshape({n, k}).reinterpret(UNSIGNED_INT);
  const Tensor upd = updates.dimShuffle(order).reshape({n, updates.numElements() / n});

  // The operand viewed with non-indexed dimensions cut to the window: only indexed ones move.
  std::vector<std::size_t> begin(operand.rank(), 0), end = window;
  std::vector<std::size_t> dynDims, sizes;
  std::vector<unsigned> limits;
  for (unsigned d : scatterDimsToOperandDims) {
    end[d] = operand.dim(d);
    dynDims.push_back(d);
    sizes.push_back(window[d]);
    limits.push_back(unsigned(operand.dim(d) - window[d]));
  }
  const Tensor target = operand.slice(begin, end);
  const Tensor limit = graph.addConstant(UNSIGNED_INT, {k}, limits, {di, "indexLimits"});
  graph.setTileMapping(limit, 0);
  const Tensor valid = graph.addVariable(UNSIGNED_INT, {}, {di, "windowFits"});
  graph.setTileMapping(valid, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const Tensor offset = rows[i];
    const ComputeSet check = graph.addComputeSet(di);
    auto v = graph.addVertex(check, "popops::CheckScatterIndex");
    graph.connect(v["index"], offset);
    graph.connect(v["limit"], limit);
    graph.connect(v["valid"], valid);
    graph.setTileMapping(v, 0);
    prog.add(program::Execute(check, di));
    Tensor w = upd[i].reshape(window);
    program::Sequence body({}, di);
    if (combine) {
      Tensor current = dynamicSlice(graph, target, offset, dynDims, sizes, body, di);
      w = (*combine)(graph, current, w, body);
      if (w.shape() != window)
        throw poputil::poplibs_error(kOp + ": updateComputation returned shape " +
                                     w.shapeToString() + "; the window is " + list(window));
    }
    dynamicUpdate(graph, target, w, offset, dynDims, sizes, body, di);
    prog.add(program::If(valid, body, program::Sequence(), di));
  }
}

} // namespace

void scatter(Graph& graph, const Tensor& operand, const Tensor& indices, const Tensor& updates,
             std::size_t indexVectorDim, std::vector<unsigned> updateWindowDims,
             std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims, program::Sequence& prog,
             const DebugContext& debugContext, const OptionFlags& optionFlags) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "scatter");
  detail::checkGatherScatterOptions(optionFlags, kOp);
  scatterImpl(graph, operand, indices, updates, indexVectorDim, updateWindowDims, insertWindowDims,
              scatterDimsToOperandDims, nullptr, prog, di);
}

void scatter(Graph& graph, const Tensor& operand, const Tensor& indices, const Tensor& updates,
             std::size_t indexVectorDim, std::vector<unsigned> updateWindowDims,
             std::vector<std::size_t> insertWindowDims,
             std::vector<unsigned> scatterDimsToOperandDims,
             UpdateComputationFunc& updateComputation, program::Sequence& prog,
             const DebugContext& debugContext, const OptionFlags& optionFlags) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "scatter");
  detail::checkGatherScatterOptions(optionFlags, kOp);
  if (!updateComputation) throw poputil::poplibs_error(kOp + ": updateComputation is empty");
  scatterImpl(graph, operand, indices, updates, indexVectorDim, updateWindowDims, insertWindowDims,
              scatterDimsToOperandDims, &updateComputation, prog, di);
}

} // namespace popops
