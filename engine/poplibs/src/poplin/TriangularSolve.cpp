// Triangular solves by blocks (see poplin/TriangularSolve.hpp): A's rows and B's divided by A's
// diagonal, then per diagonal block one TriangularSolve vertex per (batch entry, column of B),
// and a grouped accumulating matmul taking the block's contribution out of the rest of B.
#include "Linalg.hpp"

#include <algorithm>
#include <poplin/TriangularSolve.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace poplin {

using namespace poplar;
using namespace popops::expr;
using poplar::program::Copy;
using poplar::program::Execute;
using poplar::program::Sequence;

namespace {

const std::size_t kDefaultBlockSize = 64; // PopLibs' default

struct Shapes {
  std::size_t G, N, K; // batch, A's size, B's columns (in the A X = B form)
};

/// Checks A [..., N, N] against B ([..., N, K] leftSide, [..., K, N] otherwise).
Shapes checkShapes(const std::vector<std::size_t>& aShape, const std::vector<std::size_t>& bShape,
                   bool leftSide, const std::string& op) {
  const std::size_t G = linalg::batchOf(aShape, true, op, "a");
  linalg::batchOf(bShape, false, op, "b");
  const std::size_t N = aShape.back();
  const bool sameBatch = aShape.size() == bShape.size() &&
                         std::equal(aShape.begin(), aShape.end() - 2, bShape.begin());
  const std::size_t bN = leftSide ? bShape[bShape.size() - 2] : bShape.back();
  if (!sameBatch || bN != N) {
    std::string a, b;
    for (auto d : aShape)
      a += (a.empty() ? "" : ",") + std::to_string(d);
    for (auto d : bShape)
      b += (b.empty() ? "" : ",") + std::to_string(d);
    throw poputil::poplibs_error(
        op + ": b [" + b + "] does not fit a [" + a + "] (" +
        (leftSide ? "AX = B needs b [..., N, K]" : "XA = B needs b [..., K, N]") +
        " with a's leading dimensions)");
  }
  return {G, N, leftSide ? bShape.back() : bShape[bShape.size() - 2]};
}

/// The diagonal blocks [begin, end) in the order substitution visits them.
std::vector<std::pair<std::size_t, std::size_t>> blockOrder(std::size_t N, std::size_t bs,
                                                            bool lower) {
  std::vector<std::pair<std::size_t, std::size_t>> blocks;
  for (std::size_t k = 0; k < N; k += bs)
    blocks.emplace_back(k, std::min(N, k + bs));
  if (!lower) std::reverse(blocks.begin(), blocks.end());
  return blocks;
}

/// X [G,d,K] = the solution of A X = X for the unit-diagonal blocks A [G,d,d]: one vertex per
/// (batch entry, column), spread over the tiles; A's block copied next to each batch entry.
void solveBlock(Graph& graph, const Tensor& A, const Tensor& X, bool lower, Sequence& prog,
                const DebugContext& dc) {
  const std::size_t G = A.dim(0), d = A.dim(1), K = X.dim(2);
  const Type type = X.elementType();
  const Tensor aBuf = linalg::contiguousCopy(graph, A, prog, {dc, "a"});
  // B's columns as rows of contiguous buffers, then the solutions likewise.
  const Tensor bBuf = graph.addVariable(type, {G, K, d}, {dc, "b"});
  const Tensor xBuf = graph.addVariable(type, {G, K, d}, {dc, "x"});
  const unsigned tiles = graph.getTarget().getNumTiles();
  const std::size_t columns = G * K;
  const ComputeSet cs = graph.addComputeSet({dc, "TriangularSolve"});
  const std::string vertex = poputil::templateVertex("poplin::TriangularSolve", type, lower);
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t c = 0; c < K; ++c) {
      const unsigned tile = unsigned(std::uint64_t(g * K + c) * tiles / columns);
      graph.setTileMapping(bBuf[g][c], tile);
      graph.setTileMapping(xBuf[g][c], tile);
      const auto v = graph.addVertex(cs, vertex);
      graph.setInitialValue(v["an"], unsigned(d));
      graph.connect(v["a"], aBuf[g]);
      graph.connect(v["b"], bBuf[g][c]);
      graph.connect(v["x"], xBuf[g][c]);
      graph.setTileMapping(v, tile);
    }
  prog.add(Copy(X.dimShuffle({0, 2, 1}), bBuf, false, {dc, "b"}));
  prog.add(Execute(cs, {dc, "TriangularSolve"}));
  prog.add(Copy(xBuf.dimShuffle({0, 2, 1}), X, false, {dc, "x"}));
}

} // namespace

Tensor createTriangularSolveInputLHS(Graph& graph, const Type& inputType, const Type&,
                                     const std::vector<std::size_t>& aShape,
                                     const std::vector<std::size_t>& bShape, bool leftSide,
                                     const DebugContext& debugContext, const OptionFlags& options,
                                     PlanningCache*) {
  const std::string op = "poplin::createTriangularSolveInputLHS";
  checkShapes(aShape, bShape, leftSide, op);
  linalg::parseOptions(options, kDefaultBlockSize, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "CreateTriangularSolveInputLHS");
  Tensor t = graph.addVariable(inputType, aShape, {di, "a"});
  poputil::mapTensorLinearly(graph, t);
  return t;
}

Tensor createTriangularSolveInputRHS(Graph& graph, const Type& inputType, const Type&,
                                     const std::vector<std::size_t>& aShape,
                                     const std::vector<std::size_t>& bShape, bool leftSide,
                                     const DebugContext& debugContext, const OptionFlags& options,
                                     PlanningCache*) {
  const std::string op = "poplin::createTriangularSolveInputRHS";
  checkShapes(aShape, bShape, leftSide, op);
  linalg::parseOptions(options, kDefaultBlockSize, op);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "CreateTriangularSolveInputRHS");
  Tensor t = graph.addVariable(inputType, bShape, {di, "b"});
  poputil::mapTensorLinearly(graph, t);
  return t;
}

Tensor triangularMask(Graph& graph, const Tensor& a, bool lower, bool unitDiagonal, Sequence& prog,
                      const DebugContext& debugContext) {
  const std::string op = "poplin::triangularMask";
  linalg::checkFloat(a, op, "a");
  const std::size_t G = linalg::batchOf(a.shape(), true, op, "a");
  const std::size_t N = a.dim(a.rank() - 1);
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "TriangularMask");
  const Tensor keep =
      linalg::triangleConstant(graph, a.elementType(), G, N, lower, !unitDiagonal, di);
  const Tensor A = linalg::asBatch(a);
  const Tensor out =
      unitDiagonal
          ? popops::map(graph, _1 * _2 + _3,
                        {A, keep, linalg::identityConstant(graph, a.elementType(), G, N, di)}, prog,
                        {di, "mask"})
          : popops::mul(graph, A, keep, prog, {di, "mask"});
  return out.reshape(a.shape());
}

Tensor triangularSolve(Graph& graph, const Tensor& a, const Tensor& b, bool leftSide, bool lower,
                       bool unitDiagonal, Sequence& prog, const DebugContext& debugContext,
                       const OptionFlags& options, PlanningCache*) {
  const std::string op = "poplin::triangularSolve";
  linalg::checkFloat(a, op, "a");
  linalg::checkFloat(b, op, "b");
  if (a.elementType() != b.elementType())
    throw poputil::poplibs_error(op + ": a is " + a.elementType().toString() + " but b is " +
                                 b.elementType().toString());
  const Shapes s = checkShapes(a.shape(), b.shape(), leftSide, op);
  const linalg::Options opts = linalg::parseOptions(options, kDefaultBlockSize, op);
  const poputil::PoplibsOpDebugInfo di(
      debugContext, {{"leftSide", leftSide}, {"lower", lower}, {"unitDiagonal", unitDiagonal}},
      "TriangularSolve");

  // As A X = B: XA = B is A^T X^T = B^T, and A^T's triangle is the other one.
  Tensor A = linalg::asBatch(a), B = linalg::asBatch(b);
  if (!leftSide) {
    A = A.dimShuffle({0, 2, 1});
    B = B.dimShuffle({0, 2, 1});
    lower = !lower;
  }
  // Unit diagonal: divide each row of A and of B by A's diagonal element (X is unchanged).
  Tensor X;
  if (unitDiagonal) {
    X = graph.clone(B, {di, "x"});
    prog.add(Copy(B, X, false, {di, "x"}));
  } else {
    const Tensor diag = A.reshape({s.G, s.N * s.N}).subSample(unsigned(s.N + 1), 1); // [G,N]
    A = popops::div(graph, A, diag.expand({2}).broadcast(unsigned(s.N), 2), prog,
                    {di, "normaliseA"});
    X = popops::div(graph, B, diag.expand({2}).broadcast(unsigned(s.K), 2), prog,
                    {di, "normaliseB"});
  }

  for (const auto& blk : blockOrder(s.N, opts.blockSize, lower)) {
    const std::size_t k0 = blk.first, k1 = blk.second;
    const DebugContext bdc(di, "block" + std::to_string(k0));
    const Tensor Xk = X.slice({0, k0, 0}, {s.G, k1, s.K});
    solveBlock(graph, A.slice({0, k0, k0}, {s.G, k1, k1}), Xk, lower, prog, bdc);
    // Take the solved rows out of the rows still to solve: below (lower) or above (upper).
    const std::size_t r0 = lower ? k1 : 0, r1 = lower ? s.N : k0;
    if (r0 == r1) continue;
    matMulGroupedAcc(graph, X.slice({0, r0, 0}, {s.G, r1, s.K}), -1.0f,
                     A.slice({0, r0, k0}, {s.G, r1, k1}), Xk, prog, {bdc, "update"}, opts.matmul);
  }
  const Tensor out = leftSide ? X : X.dimShuffle({0, 2, 1});
  return out.reshape(b.shape());
}

std::vector<std::pair<MatMulParams, OptionFlags>> getTriangularSolveMatMulPrePlanParameters(
    const Type& inputType, const Type& outputType, const std::vector<std::size_t>& aShape,
    const std::vector<std::size_t>& bShape, bool leftSide, bool lower, const OptionFlags& options) {
  const std::string op = "poplin::getTriangularSolveMatMulPrePlanParameters";
  const Shapes s = checkShapes(aShape, bShape, leftSide, op);
  const linalg::Options opts = linalg::parseOptions(options, kDefaultBlockSize, op);
  if (!leftSide) lower = !lower;
  std::vector<std::pair<MatMulParams, OptionFlags>> params;
  for (const auto& blk : blockOrder(s.N, opts.blockSize, lower)) {
    const std::size_t d = blk.second - blk.first;
    const std::size_t rows = lower ? s.N - blk.second : blk.first;
    if (rows)
      params.push_back(
          {MatMulParams{inputType, outputType, {s.G, rows, d}, {s.G, d, s.K}}, opts.matmul});
  }
  return params;
}

} // namespace poplin
