// Gathering slices of a tensor at run-time indices along one axis (as numpy.take does).
#pragma once

#include <cstddef>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>
#include <vector>

namespace popops {

struct GatherParams {
  /// A suggested largest number of elements per tile.
  std::size_t maxElementsPerTile = 65535;

  GatherParams() = default;
  GatherParams(std::size_t maxElementsPerTile_) : maxElementsPerTile(maxElementsPerTile_) {}
};

/// A tensor of `operandShape` laid out for gather() on `axis`: the elements outside the axis
/// spread over the tiles, each with every entry of the axis.
poplar::Tensor createGatherInput(poplar::Graph& graph, const poplar::Type& type,
                                 const std::vector<std::size_t>& operandShape, unsigned axis,
                                 GatherParams params = {},
                                 const poplar::DebugContext& debugContext = {});

/// The slices of `input` at `indices` (UNSIGNED_INT or INT, any shape) along `axis`: shape
/// input.shape[:axis] + indices.shape + input.shape[axis+1:]. An index outside the axis gives a
/// slice of zeros.
poplar::Tensor gather(poplar::Graph& graph, const poplar::Tensor& input,
                      const poplar::Tensor& indices, unsigned axis, poplar::program::Sequence& prog,
                      GatherParams params, const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& optionFlags = {});

/// A tensor of `inputShape` laid out for the XLA-style gather() below: spread over the tiles
/// like createSliceableTensor for the dimensions in startIndexMap.
poplar::Tensor createGatherInput(poplar::Graph& graph, const poplar::Type& type,
                                 const std::vector<std::size_t>& inputShape,
                                 const std::vector<std::size_t>& sliceSizes,
                                 std::vector<unsigned> startIndexMap,
                                 const poplar::DebugContext& debugContext = {});

/// XLA's gather (https://www.tensorflow.org/xla/operation_semantics#gather): for each index
/// vector of `indices` (along indexVectorDim; == indices.rank() for scalar indices), the slice
/// of `input` of sliceSizes starting at the vector's elements in the dimensions startIndexMap
/// names (0 in the others), clamped so the slice fits; collapsedSliceDims (of size 1) are
/// dropped and the slice's other dimensions appear in the result at offsetDims, the index
/// batch's dimensions in the remaining positions.
poplar::Tensor gather(poplar::Graph& graph, const poplar::Tensor& input,
                      const poplar::Tensor& indices, std::size_t indexVectorDim,
                      const std::vector<std::size_t>& offsetDims,
                      const std::vector<std::size_t>& sliceSizes,
                      const std::vector<std::size_t>& collapsedSliceDims,
                      const std::vector<unsigned>& startIndexMap, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& optionFlags = {});

} // namespace popops
