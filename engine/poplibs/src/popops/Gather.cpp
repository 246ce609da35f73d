// Gather along one axis is a multiSlice of that axis: the indices become the slice offsets and
// the result's dimensions are rearranged into numpy.take's order.
#include "GatherScatterOptions.hpp"
#include "poplibs_support/TileWork.hpp"

#include <algorithm>
#include <popops/DynamicSlice.hpp>
#include <popops/Gather.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;

Tensor createGatherInput(Graph& graph, const Type& type,
                         const std::vector<std::size_t>& operandShape, unsigned axis,
                         GatherParams params, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createGatherInput");
  if (axis >= operandShape.size())
    throw poputil::poplibs_error("popops::createGatherInput: axis " + std::to_string(axis) +
                                 " is not a dimension of the shape (rank " +
                                 std::to_string(operandShape.size()) + ")");
  (void)params;
  return createSliceableTensor(graph, type, operandShape, {axis}, {1}, 0, di);
}

Tensor gather(Graph& graph, const Tensor& input, const Tensor& indices, unsigned axis,
              program::Sequence& prog, GatherParams params, const DebugContext& debugContext,
              const OptionFlags& optionFlags) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "gather");
  const std::string op = "popops::gather";
  (void)params;
  poplibs_support::checkValid(input, op, "input");
  poplibs_support::checkValid(indices, op, "indices");
  poplibs_support::checkType(indices.elementType(), {UNSIGNED_INT, INT}, op, "indices");
  if (axis >= input.rank())
    throw poputil::poplibs_error(op + ": axis " + std::to_string(axis) +
                                 " is not a dimension of input (shape " + input.shapeToString() +
                                 ")");
  // Negative INT indices read as huge unsigned ones: out of range, so zero slices.
  const Tensor offsets = indices.reinterpret(UNSIGNED_INT).flatten().expand({1});
  const Tensor slices = multiSlice(graph, input, offsets, {axis}, {1}, prog, SlicePlan(),
                                   optionFlags, di); // [M, ..1..]
  // [M] + input.shape with axis of 1 -> indices.shape + input.shape without axis.
  std::vector<std::size_t> shape = indices.shape();
  for (unsigned d = 0; d < input.rank(); ++d)
    if (d != axis) shape.push_back(input.dim(d));
  const Tensor flat = slices.squeeze({axis + 1}).reshape(shape);
  // Move the indices' dimensions to where the axis was.
  const unsigned k = indices.rank();
  std::vector<unsigned> perm;
  for (unsigned d = 0; d < axis; ++d)
    perm.push_back(k + d);
  for (unsigned d = 0; d < k; ++d)
    perm.push_back(d);
  for (unsigned d = axis + 1; d < input.rank(); ++d)
    perm.push_back(k + d - 1);
  return flat.dimShuffle(perm);
}

namespace {

std::string list(const std::vector<std::size_t>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s + "}";
}

bool contains(const std::vector<std::size_t>& v, std::size_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

} // namespace

Tensor createGatherInput(Graph& graph, const Type& type, const std::vector<std::size_t>& inputShape,
                         const std::vector<std::size_t>& sliceSizes,
                         std::vector<unsigned> startIndexMap, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createGatherInput");
  const std::string op = "popops::createGatherInput";
  if (sliceSizes.size() != inputShape.size())
    throw poputil::poplibs_error(op + ": sliceSizes " + list(sliceSizes) +
                                 " needs one entry per dimension of " + list(inputShape));
  std::vector<std::size_t> dims, sizes;
  for (unsigned d : startIndexMap) {
    if (d >= inputShape.size())
      throw poputil::poplibs_error(op + ": startIndexMap names dimension " + std::to_string(d) +
                                   " of a shape of rank " + std::to_string(inputShape.size()));
    dims.push_back(d);
    sizes.push_back(sliceSizes[d]);
  }
  if (dims.empty()) {
    const Tensor t = graph.addVariable(type, inputShape, {di, "input"});
    graph.setTileMapping(t, 0);
    return t;
  }
  return createSliceableTensor(graph, type, inputShape, dims, sizes, 0, di);
}

Tensor gather(Graph& graph, const Tensor& input, const Tensor& indices, std::size_t indexVectorDim,
              const std::vector<std::size_t>& offsetDims,
              const std::vector<std::size_t>& sliceSizes,
              const std::vector<std::size_t>& collapsedSliceDims,
              const std::vector<unsigned>& startIndexMap, program::Sequence& prog,
              const DebugContext& debugContext, const OptionFlags& optionFlags) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "gather");
  const std::string op = "popops::gather";
  // PopLibs hands the options to the slices it plans; Tessera checks them (results do not
  // depend on them).
  detail::checkGatherScatterOptions(optionFlags, op);
  poplibs_support::checkValid(input, op, "input");
  poplibs_support::checkValid(indices, op, "indices");
  poplibs_support::checkType(indices.elementType(), {UNSIGNED_INT, INT}, op, "indices");
  if (indexVectorDim > indices.rank())
    throw poputil::poplibs_error(op + ": indexVectorDim " + std::to_string(indexVectorDim) +
                                 " is past the rank of indices (shape " + indices.shapeToString() +
                                 ")");
  if (sliceSizes.size() != input.rank())
    throw poputil::poplibs_error(op + ": sliceSizes " + list(sliceSizes) +
                                 " needs one entry per dimension of input (shape " +
                                 input.shapeToString() + ")");
  for (std::size_t d = 0; d < input.rank(); ++d)
    if (sliceSizes[d] > input.dim(d))
      throw poputil::poplibs_error(op + ": sliceSizes[" + std::to_string(d) +
                                   "] = " + std::to_string(sliceSizes[d]) +
                                   " exceeds input's dimension " + std::to_string(input.dim(d)));
  for (auto d : collapsedSliceDims)
    if (d >= input.rank() || sliceSizes[d] != 1)
      throw poputil::poplibs_error(op + ": collapsedSliceDims " + list(collapsedSliceDims) +
                                   " must name dimensions of slice size 1");
  Tensor idx = indexVectorDim == indices.rank() ? indices.expand({indices.rank()}) : indices;
  idx = idx.dimRoll(unsigned(indexVectorDim), idx.rank() - 1);
  const std::size_t k = idx.dim(idx.rank() - 1);
  if (k != startIndexMap.size())
    throw poputil::poplibs_error(op + ": index vectors have " + std::to_string(k) +
                                 " elements but startIndexMap has " +
                                 std::to_string(startIndexMap.size()));
  std::vector<std::size_t> batchShape = idx.shape();
  batchShape.pop_back();
  std::vector<std::size_t> offsetShape; // the slice without collapsed dimensions
  for (std::size_t d = 0; d < input.rank(); ++d)
    if (!contains(collapsedSliceDims, d)) offsetShape.push_back(sliceSizes[d]);
  if (offsetDims.size() != offsetShape.size())
    throw poputil::poplibs_error(op + ": offsetDims " + list(offsetDims) + " must have " +
                                 std::to_string(offsetShape.size()) +
                                 " entries, one per uncollapsed slice dimension");
  const std::size_t outRank = batchShape.size() + offsetShape.size();
  for (auto d : offsetDims)
    if (d >= outRank)
      throw poputil::poplibs_error(op + ": offsetDims " + list(offsetDims) +
                                   " names a dimension past the result's rank " +
                                   std::to_string(outRank));
  std::size_t n = 1;
  for (auto b : batchShape)
    n *= b;

  std::vector<std::size_t> dims, sizes, begin(input.rank(), 0), end = sliceSizes;
  std::vector<unsigned> limits;
  for (unsigned d : startIndexMap) {
    if (d >= input.rank())
      throw poputil::poplibs_error(op + ": startIndexMap names dimension " + std::to_string(d) +
                                   " of input (rank " + std::to_string(input.rank()) + ")");
    dims.push_back(d);
    sizes.push_back(sliceSizes[d]);
    end[d] = input.dim(d);
    limits.push_back(unsigned(input.dim(d) - sliceSizes[d]));
  }
  const Tensor source = input.slice(begin, end); // only the indexed dimensions move
  std::vector<Tensor> slices;
  if (n != 0 && !dims.empty()) {
    // Clamp every index vector so its slice fits (XLA's rule), in one compute set.
    const Tensor clamped = graph.addVariable(UNSIGNED_INT, {n, k}, {di, "startIndices"});
    graph.setTileMapping(clamped, 0);
    const Tensor limit = graph.addConstant(UNSIGNED_INT, {k}, limits, {di, "indexLimits"});
    graph.setTileMapping(limit, 0);
    const ComputeSet cs = graph.addComputeSet(di);
    auto v = graph.addVertex(
        cs, poputil::templateVertex("popops::ClampGatherIndices", indices.elementType()));
    graph.connect(v["indices"], idx.reshape({n, k}).flatten());
    graph.connect(v["limit"], limit);
    graph.connect(v["out"], clamped.flatten());
    graph.setTileMapping(v, 0);
    prog.add(program::Execute(cs, di));
    for (std::size_t i = 0; i < n; ++i)
      slices.push_back(dynamicSlice(graph, source, clamped[i], dims, sizes, prog, di)
                           .reshape(offsetShape)
                           .expand({0}));
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      const Tensor s = graph.clone(source, {di, "slice"});
      prog.add(program::Copy(source, s, false, di));
      slices.push_back(s.reshape(offsetShape).expand({0}));
    }
  }
  std::vector<std::size_t> stackedShape = batchShape;
  stackedShape.insert(stackedShape.end(), offsetShape.begin(), offsetShape.end());
  if (n == 0) {
    const Tensor empty = graph.addVariable(input.elementType(), stackedShape, {di, "output"});
    graph.setTileMapping(empty, 0);
    return empty;
  }
  const Tensor stacked = concat(slices, 0).reshape(stackedShape);
  // Result dimension r: an offset dimension where offsetDims says, else the next batch one.
  std::vector<unsigned> perm(outRank);
  for (std::size_t r = 0, b = 0; r < outRank; ++r) {
    const auto it = std::find(offsetDims.begin(), offsetDims.end(), r);
    perm[r] = it != offsetDims.end()
                  ? unsigned(batchShape.size() + std::size_t(it - offsetDims.begin()))
                  : unsigned(b++);
  }
  return stacked.dimShuffle(perm);
}

} // namespace popops
