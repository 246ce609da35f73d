// Counted loops: programs that repeat a body with a loop counter the body can read (for
// example as the offset of a dynamicSlice).
#pragma once

#include <cstddef>
#include <functional>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>

namespace popops {

/// Builds a loop body from the loop counter (an UNSIGNED_INT scalar).
using CountedLoopBodyType = std::function<poplar::program::Program(const poplar::Tensor&)>;

/// for (i = begin; i != end; i += step) body(i): `step` must be positive and divide end - begin.
poplar::program::Sequence countedLoop(poplar::Graph& graph, std::size_t begin, std::size_t end,
                                      size_t step, const CountedLoopBodyType& body,
                                      const poplar::DebugContext& debugContext = {});

/// for (i = 0; i != count; ++i) body(i).
poplar::program::Sequence countedLoop(poplar::Graph& graph, std::size_t count,
                                      const CountedLoopBodyType& body,
                                      const poplar::DebugContext& debugContext = {});

/// Adds to `prog` a compute set on `tile` that adds countStep to the scalar `count` and returns
/// an UNSIGNED_INT scalar that is 1 while count != countLimit, 0 once they are equal.
poplar::Tensor addForLoopCounterVertex(poplar::Graph& graph, const poplar::Tensor& count,
                                       const poplar::Tensor& countLimit, int countStep,
                                       unsigned tile, poplar::program::Sequence& prog,
                                       const poplar::DebugContext& di);

/// for (count = initialCount; count != countLimit; count += countStep) body, where `count`
/// (INT or UNSIGNED_INT scalar, read by the body) and `countLimit` (a scalar of the same type)
/// are tensors: the number of passes is decided when the program runs.
poplar::program::Sequence countedForLoop(poplar::Graph& graph, const poplar::Tensor& count,
                                         int initialCount, const poplar::Tensor& countLimit,
                                         int countStep, const poplar::program::Program& body,
                                         const poplar::DebugContext& debugContext = {});

/// As above with a counter of the op's own (the body cannot read it).
poplar::program::Sequence countedForLoop(poplar::Graph& graph, int initialCount,
                                         const poplar::Tensor& countLimit, int countStep,
                                         const poplar::program::Program& body,
                                         const poplar::DebugContext& debugContext = {});

} // namespace popops
