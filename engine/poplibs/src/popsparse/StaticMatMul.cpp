// Statically sparse matmul: the pattern is known when the graph is built, so the rows of the
// device matrix [m][k] are cut into partitions of about equal numbers of values, one per tile,
// each with a constant bucket of meta-information whose column indices are local to the dense
// rows that partition reads. Each tile receives only the dense rows its values need; no
// reduction across tiles is needed. dense * sparse runs as (sparse^T * dense^T)^T.
#include "BucketProduct.hpp"
#include "SparseLayout.hpp"
#include "poplibs_support/TileWork.hpp"

#include <algorithm>
#include <popops/Zero.hpp>
#include <popsparse/MatMul.hpp>
#include <popsparse/MatMulParams.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace popsparse {
namespace static_ {
namespace {

using namespace poplar;
using poplar::program::Sequence;
using poputil::poplibs_error;

void checkParams(const MatMulParams& params, bool denseSparse, const std::string& op) {
  if (params.isTransposed() != denseSparse)
    throw poplibs_error(op + ": the parameters were created with " +
                        (params.isTransposed() ? "createForDenseSparse" : "createForSparseDense") +
                        ", not for this operation");
  if (params.getNumGroups() != 1)
    throw poplibs_error(op + ": only one group is supported, not " +
                        std::to_string(params.getNumGroups()));
  if (params.getM() == 0 || params.getK() == 0 || params.getN() == 0)
    throw poplibs_error(op + ": m, k and n must be positive");
  if (params.getK() > detail::kMaxMetaValue)
    throw poplibs_error(op + ": Tessera's meta-information indexes at most " +
                        std::to_string(detail::kMaxMetaValue) + " columns, not " +
                        std::to_string(params.getK()));
}

template <typename T>
SparseTensor createSparse(Graph& graph, const Type& type, const MatMulParams& params,
                          const CSRMatrix<T>& csr, bool denseSparse,
                          const poputil::PoplibsOpDebugInfo& dnai, const OptionFlags& options,
                          const std::string& op) {
  detail::checkSparseOptions(options, op);
  checkParams(params, denseSparse, op);
  poplibs_support::checkType(type, {FLOAT, HALF}, op, "inputType");
  if (csr.getBlockSize() != 1)
    throw poplibs_error(op + ": Tessera's static sparse matmul takes element-wise sparsity");
  const auto e = denseSparse
                     ? detail::transposed(detail::toEntries(csr, params.getK(), params.getM(), op))
                     : detail::toEntries(csr, params.getM(), params.getK(), op);
  if (e.size() == 0) throw poplibs_error(op + ": the sparse matrix has no non-zero values");
  detail::StaticPlan plan;
  plan.m = params.getM(), plan.k = params.getK(), plan.n = params.getN();
  plan.denseSparse = denseSparse;
  plan.row = e.row, plan.col = e.col;
  plan.partitions = detail::partitionRows(graph.getTarget(), plan.m, plan.row);
  const Tensor nz = graph.addVariable(type, {e.size()}, {dnai, "nzValues"});
  for (const auto& p : plan.partitions)
    if (p.nzEnd > p.nzBegin) graph.setTileMapping(nz.slice(p.nzBegin, p.nzEnd), p.tile);
  return SparseTensor(
      nz, poputil::TensorMetaData(std::make_unique<detail::StaticMetaData>(std::move(plan))));
}

const detail::StaticPlan& planOf(const SparseTensor& t, bool denseSparse, const std::string& op) {
  const auto* d = dynamic_cast<const detail::StaticMetaData*>(t.getOpMetaData().getData());
  if (!d)
    throw poplibs_error(
        op + ": the sparse operand was not created by " +
        (denseSparse ? "createDenseSparseMatMulRHS" : "createSparseDenseMatMulLHS"));
  if (d->plan.denseSparse != denseSparse)
    throw poplibs_error(op + ": the sparse operand was created for " +
                        (d->plan.denseSparse ? "dense * sparse" : "sparse * dense"));
  return d->plan;
}

/// The device matrix times dense [k][n]: [m][n].
Tensor product(Graph& graph, const detail::StaticPlan& plan, const Tensor& nz, const Tensor& dense,
               Sequence& prog, const poputil::PoplibsOpDebugInfo& dnai, const std::string& op) {
  if (dense.dim(0) != plan.k || dense.dim(1) == 0)
    throw poplibs_error(op + ": the dense operand has " + std::to_string(dense.dim(0)) +
                        " rows in the product; the sparse operand needs " + std::to_string(plan.k));
  if (dense.elementType() != nz.elementType())
    throw poplibs_error(op + ": the dense operand is " + dense.elementType().toString() +
                        " but the sparse operand's values are " + nz.elementType().toString());
  if (nz.numElements() != plan.row.size())
    throw poplibs_error(op + ": the sparse operand's values tensor does not match its plan");
  const std::size_t n = dense.dim(1);
  const Type type = dense.elementType();
  const Tensor out = graph.addVariable(type, {plan.m, n}, {dnai, "out"});
  const ComputeSet cs = graph.addComputeSet({dnai, "sparseDenseMatMul"});
  for (const auto& p : plan.partitions) {
    const Tensor rows = out.slice(p.rowBegin, p.rowEnd);
    graph.setTileMapping(rows, p.tile);
    if (p.nzEnd == p.nzBegin) { // no values: the rows are zero
      popops::zero(graph, rows, prog, {dnai, "zeroRows"});
      continue;
    }
    // The dense rows this partition reads, and its values' columns as indices into them.
    std::vector<std::size_t> used(plan.col.begin() + p.nzBegin, plan.col.begin() + p.nzEnd);
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    std::vector<unsigned short> meta(p.rowEnd - p.rowBegin, 0);
    for (std::size_t i = p.nzBegin; i < p.nzEnd; ++i) {
      ++meta[plan.row[i] - p.rowBegin];
      meta.push_back(static_cast<unsigned short>(
          std::lower_bound(used.begin(), used.end(), plan.col[i]) - used.begin()));
    }
    const Tensor metaT = graph.addConstant(UNSIGNED_SHORT, {meta.size()}, meta, {dnai, "metaInfo"});
    graph.setTileMapping(metaT, p.tile);
    std::vector<Tensor> rhsRows, outRows;
    for (std::size_t c : used)
      rhsRows.push_back(dense[c]);
    for (std::size_t r = p.rowBegin; r < p.rowEnd; ++r)
      outRows.push_back(out[r]);
    detail::addBucketVertex(graph, cs, type, metaT, nz.slice(p.nzBegin, p.nzEnd), rhsRows, outRows,
                            false, p.tile);
  }
  prog.add(program::Execute(cs, {dnai}));
  return out;
}

/// A dense operand as a matrix: rank 2, or rank 3 with one group.
Tensor asMatrix(const Tensor& t, const std::string& op, const char* what) {
  poplibs_support::checkValid(t, op, what);
  if (t.rank() == 2) return t;
  if (t.rank() == 3 && t.dim(0) == 1) return t[0];
  throw poplibs_error(op + ": the " + what + " has shape " + t.shapeToString() +
                      "; expected [rows][columns] or [1][rows][columns]");
}

/// The result in the rank of the dense operand.
Tensor likeRank(const Tensor& result, const Tensor& dense) {
  return dense.rank() == 3 ? result.expand({0}) : result;
}

} // namespace

#define POPSPARSE_STATIC_CREATE(T)                                                                 \
  template <>                                                                                      \
  SparseTensor createSparseDenseMatMulLHS<T>(                                                      \
      Graph & graph, const Type& inputType, const MatMulParams& params,                            \
      const CSRMatrix<T>& csrLHS, const DebugContext& debugContext, const OptionFlags& options,    \
      PlanningCache*) {                                                                            \
    const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createSparseDenseMatMulLHS");          \
    return createSparse(graph, inputType, params, csrLHS, false, di, options,                      \
                        "popsparse::static_::createSparseDenseMatMulLHS");                         \
  }                                                                                                \
  template <>                                                                                      \
  SparseTensor createDenseSparseMatMulRHS<T>(                                                      \
      Graph & graph, const Type& inputType, const MatMulParams& params,                            \
      const CSRMatrix<T>& csrRHS, const DebugContext& debugContext, const OptionFlags& options,    \
      PlanningCache*) {                                                                            \
    const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createDenseSparseMatMulRHS");          \
    return createSparse(graph, inputType, params, csrRHS, true, di, options,                       \
                        "popsparse::static_::createDenseSparseMatMulRHS");                         \
  }                                                                                                \
  template <>                                                                                      \
  Tensor createSparseDenseMatMulRHS<T>(                                                            \
      Graph & graph, const Type& inputType, const MatMulParams& params, const CSRMatrix<T>&,       \
      const DebugContext& debugContext, const OptionFlags options, PlanningCache*) {               \
    const std::string op = "popsparse::static_::createSparseDenseMatMulRHS";                       \
    const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createSparseDenseMatMulRHS");          \
    detail::checkSparseOptions(options, op);                                                       \
    checkParams(params, false, op);                                                                \
    poplibs_support::checkType(inputType, {FLOAT, HALF}, op, "inputType");                         \
    const Tensor t = graph.addVariable(inputType, {1, params.getK(), params.getN()}, {di, "rhs"}); \
    poputil::mapTensorLinearly(graph, t);                                                          \
    return t;                                                                                      \
  }                                                                                                \
  template <>                                                                                      \
  Tensor createDenseSparseMatMulLHS<T>(                                                            \
      Graph & graph, const Type& inputType, const MatMulParams& params, const CSRMatrix<T>&,       \
      const DebugContext& debugContext, const OptionFlags options, PlanningCache*) {               \
    const std::string op = "popsparse::static_::createDenseSparseMatMulLHS";                       \
    const poputil::PoplibsOpDebugInfo di(debugContext, {}, "createDenseSparseMatMulLHS");          \
    detail::checkSparseOptions(options, op);                                                       \
    checkParams(params, true, op);                                                                 \
    poplibs_support::checkType(inputType, {FLOAT, HALF}, op, "inputType");                         \
    const Tensor t = graph.addVariable(inputType, {1, params.getN(), params.getK()}, {di, "lhs"}); \
    poputil::mapTensorLinearly(graph, t);                                                          \
    return t;                                                                                      \
  }

POPSPARSE_STATIC_CREATE(float)
POPSPARSE_STATIC_CREATE(double)

Tensor sparseDenseMatMul(Graph& graph, const SparseTensor& lhs, const Tensor& rhs, Sequence& prog,
                         bool transposeLHS, bool transposeRHS, const DebugContext& debugContext,
                         const OptionFlags& options, PlanningCache*) {
  const std::string op = "popsparse::static_::sparseDenseMatMul";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "sparseDenseMatMul");
  detail::checkSparseOptions(options, op);
  const auto& plan = planOf(lhs, false, op);
  if (transposeLHS)
    throw poplibs_error(op + ": transposing the sparse operand is not supported (as in PopLibs)");
  const Tensor dense = asMatrix(rhs, op, "dense operand");
  const Tensor out = product(graph, plan, lhs.getNzValuesTensor(),
                             transposeRHS ? dense.transpose() : dense, prog, di, op);
  return likeRank(out, rhs);
}

Tensor denseSparseMatMul(Graph& graph, const Tensor& lhs, const SparseTensor& rhs, Sequence& prog,
                         bool transposeLHS, bool transposeRHS, const DebugContext& debugContext,
                         const OptionFlags& options, PlanningCache*) {
  const std::string op = "popsparse::static_::denseSparseMatMul";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "denseSparseMatMul");
  detail::checkSparseOptions(options, op);
  const auto& plan = planOf(rhs, true, op);
  if (transposeRHS)
    throw poplibs_error(op + ": transposing the sparse operand is not supported (as in PopLibs)");
  const Tensor dense = asMatrix(lhs, op, "dense operand"); // [n][k], or [k][n] if transposeLHS
  // dense * S = (S^T * dense^T)^T, S^T being the device matrix [m][k].
  const Tensor out = product(graph, plan, rhs.getNzValuesTensor(),
                             transposeLHS ? dense : dense.transpose(), prog, di, op);
  return likeRank(out.transpose(), lhs);
}

} // namespace static_
} // namespace popsparse
