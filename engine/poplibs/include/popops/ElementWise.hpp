// Element-wise operations. Binary operations broadcast B to A's shape as numpy does (B's shape,
// aligned to A's trailing dimensions, has 1 or A's size in each dimension: a bias [10] added to
// [32,10]). Results are new tensors mapped like A; the InPlace forms write into A, which must not
// contain aliased elements. Work is split per tile over the elements of the result each tile
// holds, one vertex per worker-sized chunk.
//
// Types: add, sub, mul, max and min accept FLOAT, HALF and INT; div FLOAT and HALF.
// neg, abs and square accept FLOAT, HALF and INT; exp, log, sqrt, tanh and sigmoid FLOAT and
// HALF. No options are recognised; any option given is an error.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/ScaledAdd.hpp> // scaledAddTo and scaledSubtractFrom were declared here first

namespace popops {

#define POPOPS_DECLARE_BINARY(name)                                                                \
  poplar::Tensor name(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,      \
                      poplar::program::Sequence& prog,                                             \
                      const poplar::DebugContext& debugContext = {},                               \
                      const poplar::OptionFlags& options = {});                                    \
  void name##InPlace(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B,       \
                     poplar::program::Sequence& prog,                                              \
                     const poplar::DebugContext& debugContext = {},                                \
                     const poplar::OptionFlags& options = {});

#define POPOPS_DECLARE_UNARY(name)                                                                 \
  poplar::Tensor name(                                                                             \
      poplar::Graph& graph, const poplar::Tensor& A, poplar::program::Sequence& prog,              \
      const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {});     \
  void name##InPlace(                                                                              \
      poplar::Graph& graph, const poplar::Tensor& A, poplar::program::Sequence& prog,              \
      const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {});

/// A + B, A - B, A * B, A / B, and the element-wise maximum and minimum of A and B.
POPOPS_DECLARE_BINARY(add)
POPOPS_DECLARE_BINARY(sub)
POPOPS_DECLARE_BINARY(mul)
POPOPS_DECLARE_BINARY(div)
POPOPS_DECLARE_BINARY(max)
POPOPS_DECLARE_BINARY(min)

/// -A, e^A, ln A, sqrt A, A^2, |A|, tanh A and 1 / (1 + e^-A).
POPOPS_DECLARE_UNARY(neg)
POPOPS_DECLARE_UNARY(exp)
POPOPS_DECLARE_UNARY(log)
POPOPS_DECLARE_UNARY(sqrt)
POPOPS_DECLARE_UNARY(square)
POPOPS_DECLARE_UNARY(abs)
POPOPS_DECLARE_UNARY(tanh)
POPOPS_DECLARE_UNARY(sigmoid)

#undef POPOPS_DECLARE_BINARY
#undef POPOPS_DECLARE_UNARY

} // namespace popops
