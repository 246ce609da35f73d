// The grouped slice family: G independent embeddings stacked in a leading group dimension.
// Each group is created, sliced and updated by the ungrouped operation on its own slice of the
// tensors, so the results, vertices and estimates are those of G ungrouped operations (PopLibs
// runs the groups side by side in one compute set; here each group has its own).
#include "MultiSliceForms.hpp"
#include "poplibs_support/TileWork.hpp"

#include <popops/DynamicSlice.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;
using poputil::poplibs_error;

namespace {

void checkPlanGroups(const SlicePlan& plan, std::size_t groupSize, const std::string& op) {
  const std::size_t planned = detail::planGroupSize(plan);
  if (planned == 0)
    throw poplibs_error(op + ": the plan was not made for groups; make it with "
                             "embedding::plan(graph, type, groupSize, ...)");
  if (planned != groupSize)
    throw poplibs_error(op + ": the plan is for " + std::to_string(planned) +
                        " groups but the operation has " + std::to_string(groupSize));
}

/// The group count of a grouped operation on `t`, with `offsets` (and `s`) checked to have it.
std::size_t groupsOf(const Tensor& t, const Tensor& offsets, const Tensor* s, const SlicePlan& plan,
                     const std::string& op) {
  poplibs_support::checkValid(t, op, "t");
  poplibs_support::checkValid(offsets, op, "offsets");
  if (t.rank() < 2)
    throw poplibs_error(op + ": t has shape " + t.shapeToString() +
                        "; it needs a group dimension and at least one more");
  const std::size_t groups = t.dim(0);
  if (offsets.rank() < 2 || offsets.dim(0) != groups)
    throw poplibs_error(op + ": offsets has shape " + offsets.shapeToString() + "; it must be [" +
                        std::to_string(groups) +
                        ", numOffsets, dims.size()], one set of offsets per group of t");
  if (s) {
    poplibs_support::checkValid(*s, op, "s");
    if (s->rank() < 1 || s->dim(0) != groups)
      throw poplibs_error(op + ": s has shape " + s->shapeToString() +
                          "; its first dimension must be the " + std::to_string(groups) +
                          " groups of t");
  }
  checkPlanGroups(plan, groups, op);
  return groups;
}

} // namespace

Tensor createGroupedSliceableTensor(Graph& graph, const Type& type, const std::size_t groupSize,
                                    const std::vector<std::size_t>& shape,
                                    const std::vector<std::size_t>& dims,
                                    const std::vector<std::size_t>& sizes, const SlicePlan& plan,
                                    const OptionFlags& options, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createGroupedSliceableTensor");
  checkPlanGroups(plan, groupSize, "popops::createGroupedSliceableTensor");
  std::vector<Tensor> groups;
  for (std::size_t g = 0; g < groupSize; ++g)
    groups.push_back(
        createSliceableTensor(graph, type, shape, dims, sizes, plan, options, {di, "group"})
            .expand({0}));
  return concat(groups);
}

Tensor createGroupedSliceTensor(Graph& graph, const Type& type, const std::size_t groupSize,
                                const std::vector<std::size_t>& shape,
                                const std::vector<std::size_t>& dims,
                                const std::vector<std::size_t>& sizes, const std::size_t numIndices,
                                const SlicePlan& plan, const OptionFlags& options,
                                const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createGroupedSliceTensor");
  checkPlanGroups(plan, groupSize, "popops::createGroupedSliceTensor");
  std::vector<Tensor> groups;
  for (std::size_t g = 0; g < groupSize; ++g)
    groups.push_back(
        createSliceTensor(graph, type, shape, dims, sizes, numIndices, plan, options, {di, "group"})
            .expand({0}));
  return concat(groups);
}

Tensor createGroupedIndicesTensor(Graph& graph, const std::size_t groupSize,
                                  const std::vector<std::size_t>& dims,
                                  const std::size_t numIndices, const SlicePlan& plan,
                                  const OptionFlags& options, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createGroupedIndicesTensor");
  checkPlanGroups(plan, groupSize, "popops::createGroupedIndicesTensor");
  std::vector<Tensor> groups;
  for (std::size_t g = 0; g < groupSize; ++g)
    groups.push_back(
        createIndicesTensor(graph, dims, numIndices, plan, options, {di, "group"}).expand({0}));
  return concat(groups);
}

Tensor groupedMultiSlice(Graph& graph, const Tensor& t, const Tensor& offsets,
                         const std::vector<std::size_t>& dims,
                         const std::vector<std::size_t>& sizes, program::Sequence& prog,
                         const SlicePlan& plan, const OptionFlags& options,
                         const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "groupedMultiSlice");
  const std::size_t groups = groupsOf(t, offsets, nullptr, plan, "popops::groupedMultiSlice");
  std::vector<Tensor> out;
  for (std::size_t g = 0; g < groups; ++g)
    out.push_back(
        multiSlice(graph, t[g], offsets[g], dims, sizes, prog, plan, options, {di, "group"})
            .expand({0}));
  return concat(out);
}

void groupedMultiUpdate(Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offsets,
                        const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                        program::Sequence& prog, const SlicePlan& plan, const OptionFlags& options,
                        const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "groupedMultiUpdate");
  const std::size_t groups = groupsOf(t, offsets, &s, plan, "popops::groupedMultiUpdate");
  for (std::size_t g = 0; g < groups; ++g)
    multiUpdate(graph, t[g], s[g], offsets[g], dims, sizes, prog, plan, options, {di, "group"});
}

void groupedMultiUpdateAdd(Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offsets,
                           const Tensor& scale, const std::vector<std::size_t>& dims,
                           const std::vector<std::size_t>& sizes, program::Sequence& prog,
                           const SlicePlan& plan, const OptionFlags& options,
                           const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "groupedMultiUpdateAdd");
  const std::size_t groups = groupsOf(t, offsets, &s, plan, "popops::groupedMultiUpdateAdd");
  for (std::size_t g = 0; g < groups; ++g)
    multiUpdateAdd(graph, t[g], s[g], offsets[g], scale, dims, sizes, prog, plan, options,
                   {di, "group"});
}

void groupedMultiUpdateMax(Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offsets,
                           const std::vector<std::size_t>& dims,
                           const std::vector<std::size_t>& sizes, program::Sequence& prog,
                           const SlicePlan& plan, const OptionFlags& options,
                           const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "groupedMultiUpdateMax");
  const std::size_t groups = groupsOf(t, offsets, &s, plan, "popops::groupedMultiUpdateMax");
  for (std::size_t g = 0; g < groups; ++g)
    multiUpdateMax(graph, t[g], s[g], offsets[g], dims, sizes, prog, plan, options, {di, "group"});
}

void groupedMultiUpdateMul(Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offsets,
                           const std::vector<std::size_t>& dims,
                           const std::vector<std::size_t>& sizes, program::Sequence& prog,
                           const SlicePlan& plan, const OptionFlags& options,
                           const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "groupedMultiUpdateMul");
  const std::size_t groups = groupsOf(t, offsets, &s, plan, "popops::groupedMultiUpdateMul");
  for (std::size_t g = 0; g < groups; ++g)
    multiUpdateMul(graph, t[g], s[g], offsets[g], dims, sizes, prog, plan, options, {di, "group"});
}

} // namespace popops
