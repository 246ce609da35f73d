// Blocked right-looking Cholesky factorisation (see poplin/Cholesky.hpp): per diagonal block,
// the Cholesky vertex, the TriangularInverseWithTranspose vertex, a grouped matmul for the panel
// and a grouped accumulating matmul for the trailing matrix; the batch is the group dimension.
#include "Linalg.hpp"

#include <algorithm>
#include <poplin/Cholesky.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace poplin {

using namespace poplar;
using poplar::program::Copy;
using poplar::program::Execute;
using poplar::program::Sequence;

namespace {

const std::size_t kDefaultBlockSize = 8; // PopLibs' default

/// The diagonal blocks, as [begin, end) along N.
std::vector<std::pair<std::size_t, std::size_t>> blocksOf(std::size_t N, std::size_t bs) {
  std::vector<std::pair<std::size_t, std::size_t>> blocks;
  for (std::size_t k = 0; k < N; k += bs)
    blocks.emplace_back(k, std::min(N, k + bs));
  return blocks;
}

void factorise(Graph& graph, const Tensor& a, bool lower, Sequence& prog, const DebugContext& dc,
               const OptionFlags& options, const std::string& op) {
  linalg::checkFloat(a, op, "a");
  const std::size_t G = linalg::batchOf(a.shape(), true, op, "a");
  const linalg::Options opts = linalg::parseOptions(options, kDefaultBlockSize, op);
  const Type type = a.elementType();
  const std::size_t N = a.dim(a.rank() - 1);
  const Tensor A = linalg::asBatch(a);
  // The lower factor's view: A itself, or its transpose (A = U^T U means A^T's lower is U^T).
  const Tensor At = lower ? A : A.dimShuffle({0, 2, 1});

  for (const auto& blk : blocksOf(N, opts.blockSize)) {
    const std::size_t k0 = blk.first, k1 = blk.second, d = k1 - k0;
    const DebugContext bdc(dc, "block" + std::to_string(k0));
    // The diagonal block, factorised in place by one Cholesky vertex per batch entry.
    const Tensor diag = A.slice({0, k0, k0}, {G, k1, k1});
    const Tensor buf = linalg::contiguousCopy(graph, diag, prog, {bdc, "diagonal"});
    const ComputeSet factorCs = graph.addComputeSet({bdc, "Cholesky"});
    for (std::size_t g = 0; g < G; ++g) {
      const auto v =
          graph.addVertex(factorCs, poputil::templateVertex("poplin::Cholesky", type, lower));
      graph.setInitialValue(v["dim"], unsigned(d));
      graph.connect(v["in"], buf[g]);
      graph.setTileMapping(v, linalg::tileOfBatch(graph, g, G));
    }
    prog.add(Execute(factorCs, {bdc, "Cholesky"}));
    prog.add(Copy(buf.reshape({G, d, d}), diag, false, {bdc, "diagonal"}));
    if (k1 == N) break;

    // (L_kk^-1)^T, then the panel below it: L_ik = A_ik (L_kk^-1)^T.
    const Tensor lkk =
        linalg::contiguousCopy(graph, At.slice({0, k0, k0}, {G, k1, k1}), prog, {bdc, "factor"});
    const Tensor inv = graph.addVariable(type, {G, d * d}, {bdc, "inverse"});
    const ComputeSet invCs = graph.addComputeSet({bdc, "TriangularInverse"});
    for (std::size_t g = 0; g < G; ++g) {
      const unsigned tile = linalg::tileOfBatch(graph, g, G);
      graph.setTileMapping(inv[g], tile);
      const auto v = graph.addVertex(
          invCs, poputil::templateVertex("poplin::TriangularInverseWithTranspose", type));
      graph.setInitialValue(v["dim"], unsigned(d));
      graph.setInitialValue(v["colBegin"], 0u);
      graph.setInitialValue(v["colCnt"], unsigned(d));
      graph.connect(v["in"], lkk[g]);
      graph.connect(v["out"], inv[g]);
      graph.setTileMapping(v, tile);
    }
    prog.add(Execute(invCs, {bdc, "TriangularInverse"}));
    const Tensor panel = At.slice({0, k1, k0}, {G, N, k1});
    const Tensor newPanel = matMulGrouped(graph, panel, inv.reshape({G, d, d}), prog, type,
                                          {bdc, "panel"}, opts.matmul);
    prog.add(Copy(newPanel, panel, false, {bdc, "panel"}));
    // The trailing matrix: A_22 -= L_21 L_21^T.
    matMulGroupedAcc(graph, At.slice({0, k1, k1}, {G, N, N}), -1.0f, newPanel,
                     transposeGroupedMatrix(newPanel), prog, {bdc, "trailing"}, opts.matmul);
  }
  // Zero the triangle the factor does not use.
  popops::mulInPlace(graph, A, linalg::triangleConstant(graph, type, G, N, lower, true, dc), prog,
                     {dc, "mask"});
}

} // namespace

std::vector<std::pair<MatMulParams, OptionFlags>>
getCholeskyMatMulPrePlanParameters(const Type& type, const std::vector<std::size_t>& shape,
                                   bool lower, OptionFlags options) {
  const std::string op = "poplin::getCholeskyMatMulPrePlanParameters";
  (void)lower;
  const std::size_t G = linalg::batchOf(shape, true, op, "shape");
  const linalg::Options opts = linalg::parseOptions(options, kDefaultBlockSize, op);
  const std::size_t N = shape.back();
  std::vector<std::pair<MatMulParams, OptionFlags>> params;
  for (const auto& blk : blocksOf(N, opts.blockSize)) {
    const std::size_t d = blk.second - blk.first, r = N - blk.second;
    if (!r) break;
    params.push_back({MatMulParams{type, type, {G, r, d}, {G, d, d}}, opts.matmul});
    params.push_back({MatMulParams{type, type, {G, r, d}, {G, d, r}}, opts.matmul});
  }
  return params;
}

Tensor createCholeskyInput(Graph& graph, const Type& type, const std::vector<std::size_t>& shape,
                           bool, const DebugContext& debugContext, const OptionFlags& options,
                           PlanningCache*) {
  const std::string op = "poplin::createCholeskyInput";
  linalg::batchOf(shape, true, op, "shape");
  linalg::parseOptions(options, kDefaultBlockSize, op);
  if (type != FLOAT && type != HALF)
    throw poputil::poplibs_error(op + ": type must be float or half, not " + type.toString());
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "CreateCholeskyInput");
  Tensor t = graph.addVariable(type, shape, {di, "input"});
  // One matrix per tile, as the factorisation's vertices work on them.
  const Tensor b = linalg::asBatch(t);
  for (std::size_t g = 0; g < b.dim(0); ++g)
    graph.setTileMapping(b[g], linalg::tileOfBatch(graph, g, b.dim(0)));
  return t;
}

Tensor cholesky(Graph& graph, const Tensor& a, bool lower, Sequence& prog,
                const DebugContext& debugContext, OptionFlags options, PlanningCache*) {
  const std::string op = "poplin::cholesky";
  linalg::checkFloat(a, op, "a");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Cholesky");
  const Tensor out = graph.clone(a, {di, "factor"});
  prog.add(Copy(a, out, false, {di}));
  factorise(graph, out, lower, prog, di, options, op);
  return out;
}

void choleskyInPlace(Graph& graph, const Tensor& a, bool lower, Sequence& prog,
                     const DebugContext& debugContext, OptionFlags options, PlanningCache*) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "CholeskyInPlace");
  factorise(graph, a, lower, prog, di, options, "poplin::choleskyInPlace");
}

} // namespace poplin
