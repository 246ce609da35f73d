// Checking a floating-point tensor for NaN (or NaN and infinity) on the device.
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A new scalar BOOL tensor, true after `prog` runs if any element of `src` (FLOAT or HALF, any
/// shape, mapped to tiles) is NaN.
poplar::Tensor hasNaN(poplar::Graph& graph, const poplar::Tensor& src,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {});

/// As hasNaN, but also true when any element is positive or negative infinity.
poplar::Tensor hasNaNOrInf(poplar::Graph& graph, const poplar::Tensor& src,
                           poplar::program::Sequence& prog,
                           const poplar::DebugContext& debugContext = {});

} // namespace popops
