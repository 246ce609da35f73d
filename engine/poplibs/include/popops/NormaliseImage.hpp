// Normalising 3-channel images per channel while padding them to 4 channels, the layout
// convolutions on the IPU prefer for image inputs.
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// A new tensor of `type` (UNSIGNED_CHAR, HALF or FLOAT) and `shape` (at least 2 dimensions,
/// the innermost 3 channels), mapped over the tiles in whole pixels, as normaliseImage wants
/// its input.
poplar::Tensor createNormaliseImageInput(poplar::Graph& graph, const poplar::Type& type,
                                         const poplar::ArrayRef<std::size_t> shape,
                                         const poplar::DebugContext& debugContext = {});

/// A new tensor shaped as `tIn` but with 4 channels: channel c < 3 of each pixel is
/// (tIn[c] * inScale - offsets[c]) * scales[c], channel 3 is 0. The result is HALF for an
/// UNSIGNED_CHAR input, else the input's type; `offsets` and `scales` are [3] tensors of the
/// result's type. `tIn` must keep each pixel on one tile (createNormaliseImageInput does), and
/// `inScale` must not be 0. Adds the computation to `seq`.
poplar::Tensor normaliseImage(poplar::Graph& graph, poplar::program::Sequence& seq,
                              poplar::Tensor tIn, float inScale, poplar::Tensor offsets,
                              poplar::Tensor scales, const poplar::DebugContext& debugContext = {});

} // namespace popops
