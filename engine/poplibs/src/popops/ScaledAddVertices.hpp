// The popops::ScaledAdd<T> vertices (A += scaleB * B for FLOAT or HALF tensors of one type),
// shared by the element-wise library and the scaled-add overloads.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>

namespace popops::detail {

/// Checks A and B (B broadcasts to A) and adds one compute set of ScaledAdd vertices to prog.
void scaledAddVertices(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,
                       float scaleB, poplar::program::Sequence& prog,
                       const poplar::DebugContext& di, const poplar::OptionFlags& options,
                       const std::string& op);

} // namespace popops::detail
