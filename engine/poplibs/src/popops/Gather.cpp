// Gather along one axis is a multiSlice of that axis: the indices become the slice offsets and
// the result's dimensions are rearranged into numpy.take's order.
#include "poplibs_support/TileWork.hpp"

#include <popops/DynamicSlice.hpp>
#include <popops/Gather.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;

Tensor createGatherInput(Graph& graph, const Type& type,
                         const std::vector<std::size_t>& operandShape, unsigned axis,
                         GatherParams params, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, "createGatherInput");
  if (axis >= operandShape.size())
    throw poputil::poplibs_error("popops::createGatherInput: axis " + std::to_string(axis) +
                                 " is not a dimension of the shape (rank " +
                                 std::to_string(operandShape.size()) + ")");
  (void)params;
  return createSliceableTensor(graph, type, operandShape, {axis}, {1}, 0, di);
}

Tensor gather(Graph& graph, const Tensor& input, const Tensor& indices, unsigned axis,
              program::Sequence& prog, GatherParams params, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, "gather");
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
  const Tensor slices =
      multiSlice(graph, input, offsets, {axis}, {1}, prog, SlicePlan(), {}, di); // [M, ..1..]
  // [M] + input.shape with axis of 1 -> indices.shape + input.shape without axis.
  std::vector<std::size_t> shape = indices.shape();
  for (unsigned d = 0; d < input.rank(); ++d)
    if (d != axis) shape.push_back(input.dim(d));
  const Tensor flat = slices.squeeze({axis + 1}).reshape(shape);
  // Move the indices' dimensions to where the axis was.
  const unsigned k = indices.rank();
  std::vector<unsigned> perm;
  for (unsigned d = 0; d < axis; ++d) perm.push_back(k + d);
  for (unsigned d = 0; d < k; ++d) perm.push_back(d);
  for (unsigned d = axis + 1; d < input.rank(); ++d) perm.push_back(k + d - 1);
  return flat.dimShuffle(perm);
}

} // namespace popops
