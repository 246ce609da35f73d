// Cholesky factorisation of symmetric positive definite matrices, as PopLibs' poplin/Cholesky.hpp
// gives it: A = L L^T (lower) or A = U^T U (upper), for a [..., N, N] batch of matrices.
//
// Blocked, right-looking: each diagonal block of `blockSize` (option, default 8 as in PopLibs) is
// factorised by the vertex poplin::Cholesky<T,lower>, inverted by
// poplin::TriangularInverseWithTranspose<T>, the panel below it multiplied by that inverse and
// the trailing matrix updated with grouped matmuls (poplin::matMulGrouped, matMulGroupedAcc; the
// batch is the group dimension); the unused triangle is zeroed at the end. Other options are
// passed to the matmuls (poplin/MatMul.hpp). Differs from PopLibs: the block loop is unrolled
// in the program rather than recursive, and a matrix that is not positive definite gives NaNs
// (as on PopLibs) rather than an error.
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

class PlanningCache;

/// The matmuls cholesky() makes for a matrix of this type and shape, with their options.
std::vector<std::pair<MatMulParams, poplar::OptionFlags>>
getCholeskyMatMulPrePlanParameters(const poplar::Type& type, const std::vector<std::size_t>& shape,
                                   bool lower, poplar::OptionFlags options);

/// A new [..., N, N] input for cholesky(), mapped over the tiles.
poplar::Tensor createCholeskyInput(poplar::Graph& graph, const poplar::Type& type,
                                   const std::vector<std::size_t>& shape, bool lower,
                                   const poplar::DebugContext& debugContext,
                                   const poplar::OptionFlags& options = {},
                                   PlanningCache* cache = nullptr);

/// The factor of `a` ([..., N, N], float or half) as a new tensor: lower or upper triangular,
/// the other triangle zero.
poplar::Tensor cholesky(poplar::Graph& graph, const poplar::Tensor& a, bool lower,
                        poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = {},
                        poplar::OptionFlags options = {}, PlanningCache* cache = nullptr);

/// As cholesky(), writing the factor into `a`.
void choleskyInPlace(poplar::Graph& graph, const poplar::Tensor& a, bool lower,
                     poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                     poplar::OptionFlags options = {}, PlanningCache* cache = nullptr);

} // namespace poplin
