// Scaled accumulation into a tensor. Its own header, as in PopLibs; popops/ElementWise.hpp
// includes it, where Tessera declared these first.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A += scaleB * B, for FLOAT or HALF tensors of the same shape (B may broadcast to A).
void scaledAddTo(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                 float scaleB, poplar::program::Sequence& prog,
                 const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
/// A -= scaleB * B.
void scaledSubtractFrom(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                        float scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {});

} // namespace popops
