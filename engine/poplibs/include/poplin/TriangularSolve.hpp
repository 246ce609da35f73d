// Triangular solves, as PopLibs' poplin/TriangularSolve.hpp gives them: X with A X = B
// (leftSide) or X A = B, A lower or upper triangular ([..., N, N]), B [..., N, K] (leftSide) or
// [..., K, N].
//
// As PopLibs does it: A's rows (and B's) are divided by A's diagonal (unless unitDiagonal), then
// the system is split into blocks of `blockSize` (option, default 64 as in PopLibs): each
// diagonal block is solved column by column by the vertex poplin::TriangularSolve<T,lower>, and
// what it contributes to the rest of B is subtracted with grouped matmuls
// (poplin::matMulGroupedAcc; the batch is the group dimension). Other options are passed to the
// matmuls (poplin/MatMul.hpp). XA = B is solved as A^T X^T = B^T. Differs from PopLibs: the
// block loop is unrolled (forward or backward substitution by blocks) rather than recursive.
#pragma once

#include <cstddef>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/MatMul.hpp>
#include <utility>
#include <vector>

namespace poplin {

/// A new left operand (shape aShape), mapped over the tiles.
poplar::Tensor createTriangularSolveInputLHS(poplar::Graph& graph, const poplar::Type& inputType,
                                             const poplar::Type& outputType,
                                             const std::vector<std::size_t>& aShape,
                                             const std::vector<std::size_t>& bShape, bool leftSide,
                                             const poplar::DebugContext& debugContext,
                                             const poplar::OptionFlags& options = {},
                                             PlanningCache* cache = nullptr);

/// A new right operand (shape bShape), mapped over the tiles.
poplar::Tensor createTriangularSolveInputRHS(poplar::Graph& graph, const poplar::Type& inputType,
                                             const poplar::Type& outputType,
                                             const std::vector<std::size_t>& aShape,
                                             const std::vector<std::size_t>& bShape, bool leftSide,
                                             const poplar::DebugContext& debugContext,
                                             const poplar::OptionFlags& options = {},
                                             PlanningCache* cache = nullptr);

/// `a` ([..., N, N]) with the unused triangle zeroed and, with unitDiagonal, ones on the
/// diagonal; a new tensor.
poplar::Tensor triangularMask(poplar::Graph& graph, const poplar::Tensor& a, bool lower,
                              bool unitDiagonal, poplar::program::Sequence& prog,
                              const poplar::DebugContext& debugContext = {});

/// The solution X, shaped as `b`.
poplar::Tensor triangularSolve(poplar::Graph& graph, const poplar::Tensor& a,
                               const poplar::Tensor& b, bool leftSide, bool lower,
                               bool unitDiagonal, poplar::program::Sequence& prog,
                               const poplar::DebugContext& debugContext = {},
                               const poplar::OptionFlags& options = {},
                               PlanningCache* cache = nullptr);

/// The matmuls triangularSolve() makes for these shapes, with their options.
std::vector<std::pair<MatMulParams, poplar::OptionFlags>> getTriangularSolveMatMulPrePlanParameters(
    const poplar::Type& inputType, const poplar::Type& outputType,
    const std::vector<std::size_t>& aShape, const std::vector<std::size_t>& bShape, bool leftSide,
    bool lower, const poplar::OptionFlags& options);

} // namespace poplin
