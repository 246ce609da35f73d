// Matrix products with one sparse operand.
//
// dynamic::  sparse [groups][m][k] * dense [groups][k][n]; the sparse operand's pattern is data
//            (its meta-information tensor), written at run time, up to a capacity fixed by the
//            MatMulParams. transposeLHS multiplies by the sparse operand's transpose instead.
// static_::  the pattern is a CSR matrix given when the graph is built; only the non-zero values
//            are data. Products sparse * dense and dense * sparse; the sparse operand cannot be
//            transposed.
//
// Options: availableMemoryProportion (0..1, default 0.6), metaInfoBucketOversizeProportion
// (0..1, default 0.3), partialsType (default float), sharedBuckets (default true) are accepted;
// see docs/compatibility.md for which of them change Tessera's plan.
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popsparse/PlanningCache.hpp>
#include <popsparse/SparseStorageFormats.hpp>
#include <popsparse/SparseTensor.hpp>

namespace popsparse {
namespace dynamic {

class MatMulParams;

/// The sparse left-hand operand: metaInfo UNSIGNED_SHORT and nzValues of inputType, sized for
/// params.getNumNonZeroValues().
SparseTensor createSparseDenseMatMulLHS(poplar::Graph& graph, const poplar::Type& inputType,
                                        const MatMulParams& params,
                                        const poplar::DebugContext& debugContext = {},
                                        const poplar::OptionFlags& options = {},
                                        PlanningCache* cache = nullptr);

/// A dense right-hand operand [groups][k][n], laid out for the product.
poplar::Tensor createSparseDenseMatMulRHS(poplar::Graph& graph, const poplar::Type& inputType,
                                          const MatMulParams& params,
                                          const poplar::DebugContext& debugContext = {},
                                          const poplar::OptionFlags& options = {},
                                          PlanningCache* cache = nullptr);

/// lhs * rhs: [groups][m][n] (or [groups][k][n] with transposeLHS, rhs then [groups][m][n]).
/// transposeRHS takes rhs as [groups][n][k] (or [groups][n][m]).
poplar::Tensor sparseDenseMatMul(poplar::Graph& graph, const SparseTensor& lhs,
                                 const poplar::Tensor& rhs, poplar::program::Sequence& prog,
                                 bool transposeLHS = false, bool transposeRHS = false,
                                 const poplar::DebugContext& debugContext = {},
                                 const poplar::OptionFlags& options = {},
                                 PlanningCache* cache = nullptr);

} // namespace dynamic

namespace static_ {

class MatMulParams;

/// The sparse left-hand operand of sparse [groups][m][k] * dense [groups][k][n] with the pattern
/// of csrLHS; its non-zero values tensor is written from a Partitioner's SparsityDataImpl.
template <typename T>
SparseTensor createSparseDenseMatMulLHS(poplar::Graph& graph, const poplar::Type& inputType,
                                        const MatMulParams& params, const CSRMatrix<T>& csrLHS,
                                        const poplar::DebugContext& debugContext = {},
                                        const poplar::OptionFlags& options = {},
                                        PlanningCache* cache = nullptr) = delete;
template <>
SparseTensor
createSparseDenseMatMulLHS<float>(poplar::Graph& graph, const poplar::Type& inputType,
                                  const MatMulParams& params, const CSRMatrix<float>& csrLHS,
                                  const poplar::DebugContext& debugContext,
                                  const poplar::OptionFlags& options, PlanningCache* cache);
template <>
SparseTensor
createSparseDenseMatMulLHS<double>(poplar::Graph& graph, const poplar::Type& inputType,
                                   const MatMulParams& params, const CSRMatrix<double>& csrLHS,
                                   const poplar::DebugContext& debugContext,
                                   const poplar::OptionFlags& options, PlanningCache* cache);

/// The sparse right-hand operand of dense [groups][n][k] * sparse [groups][k][m].
template <typename T>
SparseTensor createDenseSparseMatMulRHS(poplar::Graph& graph, const poplar::Type& inputType,
                                        const MatMulParams& params, const CSRMatrix<T>& csrRHS,
                                        const poplar::DebugContext& debugContext = {},
                                        const poplar::OptionFlags& options = {},
                                        PlanningCache* cache = nullptr) = delete;
template <>
SparseTensor
createDenseSparseMatMulRHS<float>(poplar::Graph& graph, const poplar::Type& inputType,
                                  const MatMulParams& params, const CSRMatrix<float>& csrRHS,
                                  const poplar::DebugContext& debugContext,
                                  const poplar::OptionFlags& options, PlanningCache* cache);
template <>
SparseTensor
createDenseSparseMatMulRHS<double>(poplar::Graph& graph, const poplar::Type& inputType,
                                   const MatMulParams& params, const CSRMatrix<double>& csrRHS,
                                   const poplar::DebugContext& debugContext,
                                   const poplar::OptionFlags& options, PlanningCache* cache);

/// The dense right-hand operand [groups][k][n] of sparse * dense.
template <typename T>
poplar::Tensor createSparseDenseMatMulRHS(poplar::Graph& graph, const poplar::Type& inputType,
                                          const MatMulParams& params, const CSRMatrix<T>& csrLHS,
                                          const poplar::DebugContext& debugContext = {},
                                          const poplar::OptionFlags options = {},
                                          PlanningCache* cache = nullptr) = delete;
template <>
poplar::Tensor
createSparseDenseMatMulRHS<float>(poplar::Graph& graph, const poplar::Type& inputType,
                                  const MatMulParams& params, const CSRMatrix<float>& csrLHS,
                                  const poplar::DebugContext& debugContext,
                                  const poplar::OptionFlags options, PlanningCache* cache);
template <>
poplar::Tensor
createSparseDenseMatMulRHS<double>(poplar::Graph& graph, const poplar::Type& inputType,
                                   const MatMulParams& params, const CSRMatrix<double>& csrLHS,
                                   const poplar::DebugContext& debugContext,
                                   const poplar::OptionFlags options, PlanningCache* cache);

/// The dense left-hand operand [groups][n][k] of dense * sparse.
template <typename T>
poplar::Tensor createDenseSparseMatMulLHS(poplar::Graph& graph, const poplar::Type& inputType,
                                          const MatMulParams& params, const CSRMatrix<T>& csrRHS,
                                          const poplar::DebugContext& debugContext = {},
                                          const poplar::OptionFlags options = {},
                                          PlanningCache* cache = nullptr) = delete;
template <>
poplar::Tensor
createDenseSparseMatMulLHS<float>(poplar::Graph& graph, const poplar::Type& inputType,
                                  const MatMulParams& params, const CSRMatrix<float>& csrRHS,
                                  const poplar::DebugContext& debugContext,
                                  const poplar::OptionFlags options, PlanningCache* cache);
template <>
poplar::Tensor
createDenseSparseMatMulLHS<double>(poplar::Graph& graph, const poplar::Type& inputType,
                                   const MatMulParams& params, const CSRMatrix<double>& csrRHS,
                                   const poplar::DebugContext& debugContext,
                                   const poplar::OptionFlags options, PlanningCache* cache);

/// lhs * rhs = [groups][m][n]; transposeRHS takes rhs as [groups][n][k]. transposeLHS is not
/// supported (as in PopLibs).
poplar::Tensor sparseDenseMatMul(poplar::Graph& graph, const SparseTensor& lhs,
                                 const poplar::Tensor& rhs, poplar::program::Sequence& prog,
                                 bool transposeLHS = false, bool transposeRHS = false,
                                 const poplar::DebugContext& debugContext = {},
                                 const poplar::OptionFlags& options = {},
                                 PlanningCache* cache = nullptr);

/// lhs * rhs = [groups][n][m]; transposeLHS takes lhs as [groups][k][n]. transposeRHS is not
/// supported (as in PopLibs).
poplar::Tensor denseSparseMatMul(poplar::Graph& graph, const poplar::Tensor& lhs,
                                 const SparseTensor& rhs, poplar::program::Sequence& prog,
                                 bool transposeLHS = false, bool transposeRHS = false,
                                 const poplar::DebugContext& debugContext = {},
                                 const poplar::OptionFlags& options = {},
                                 PlanningCache* cache = nullptr);

} // namespace static_
} // namespace popsparse
