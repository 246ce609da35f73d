// Element type conversion between FLOAT, HALF, INT and UNSIGNED_INT. Floating-point values are
// rounded to nearest (to HALF) or truncated toward zero (to integers); values outside the
// destination's range saturate, and NaN converts to 0.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

namespace popops {

/// A new tensor of `dstType`, mapped like `src`, holding src's values converted.
poplar::Tensor cast(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Type& dstType,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

/// A program converting `src` into the existing tensor `dst` of the same shape.
poplar::program::Program cast(poplar::Graph& graph, const poplar::Tensor& src,
                              const poplar::Tensor& dst,
                              const poplar::DebugContext& debugContext = {});

} // namespace popops
