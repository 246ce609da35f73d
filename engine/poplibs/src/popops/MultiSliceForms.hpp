// The multi-slice forms built from other popops operations (MultiSliceForms.cpp): slices of
// several dimensions or several entries per offset, which the MultiSlice vertices do not cover.
#pragma once

#include <cstddef>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>
#include <vector>

namespace popops {
class SlicePlan;
namespace detail {

/// The group size a plan was made for by embedding::plan with a group size; 0 otherwise.
std::size_t planGroupSize(const SlicePlan& plan);

/// multiSlice for any dims/sizes: offsets is [numOffsets, dims.size()]. Each slice is a
/// dynamicSlice (few offsets: one each; otherwise a counted loop over the offsets), so an
/// out-of-range offset behaves as dynamicSlice's.
poplar::Tensor genericMultiSlice(poplar::Graph& graph, const poplar::Tensor& t,
                                 const poplar::Tensor& offsets,
                                 const std::vector<std::size_t>& dims,
                                 const std::vector<std::size_t>& sizes,
                                 poplar::program::Sequence& prog, const poplar::DebugContext& di);

/// multiUpdate for any dims/sizes: s is [numOffsets, slice shape], written with dynamicUpdate in
/// offset order (a repeated offset keeps the last slice).
void genericMultiUpdate(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                        const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                        const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                        const poplar::DebugContext& di, const std::string& op);

} // namespace detail
} // namespace popops
