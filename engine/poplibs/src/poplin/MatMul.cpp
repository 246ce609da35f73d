#include "MatMulPlan.hpp"
#include "poplibs_support/TileWork.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <poplin/MatMul.hpp>
#include <popops/ScaledAdd.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace poplin {
namespace {

using namespace poplar;
using poplar::program::Sequence;

/// Below this many outputs per vertex, stage 2 is not cut further over a tile's workers.
constexpr std::size_t kMinOutputsPerReduceVertex = 16;

std::string shapeString(const std::vector<std::size_t>& shape) {
  std::string s;
  for (auto d : shape)
    s += (s.empty() ? "" : ",") + std::to_string(d);
  return "{" + s + "}";
}

/// Checks that aShape x bShape is a matrix product of non-empty matrices.
void checkShapes(const std::vector<std::size_t>& aShape, const std::vector<std::size_t>& bShape,
                 const std::string& op) {
  if (aShape.size() != 2 || bShape.size() != 2)
    throw poputil::poplibs_error(op + ": A and B must be matrices, but A has shape " +
                                 shapeString(aShape) + " and B has shape " + shapeString(bShape));
  if (aShape[1] != bShape[0])
    throw poputil::poplibs_error(op + ": the inner dimensions differ: A " + shapeString(aShape) +
                                 " has " + std::to_string(aShape[1]) + " columns but B " +
                                 shapeString(bShape) + " has " + std::to_string(bShape[0]) +
                                 " rows");
  if (aShape[0] == 0 || aShape[1] == 0 || bShape[1] == 0)
    throw poputil::poplibs_error(op + ": empty product " + shapeString(aShape) + " x " +
                                 shapeString(bShape));
}

MatMulPlan plan(const Graph& graph, Type inputType, const std::vector<std::size_t>& aShape,
                const std::vector<std::size_t>& bShape, const OptionFlags& options,
                const std::string& op) {
  checkShapes(aShape, bShape, op);
  poplibs_support::checkType(inputType, {FLOAT, HALF}, op, "the input");
  const MatMulOptions opts = parseMatMulOptions(options, op);
  return planMatMul(graph.getTarget(), inputType, opts.partialsType, aShape[0], aShape[1],
                    bShape[1]);
}

/// A [M,K]: each row of a (row block, K chunk) piece goes to one of the tiles multiplying that
/// piece, in turn, so the piece is spread over the tiles that read it.
Graph::TileToTensorMapping lhsMapping(const MatMulPlan& p) {
  Graph::TileToTensorMapping m(p.tileBase + p.numTiles);
  for (std::size_t chunk = 0; chunk < p.kChunks; ++chunk)
    for (std::size_t rb = 0; rb < p.rowBlocks; ++rb) {
      const Interval rows = p.rows(rb), ks = p.ks(chunk);
      for (std::size_t i = rows.begin(); i < rows.end(); ++i)
        m[p.tileOf(rb, i % p.colBlocks, chunk)].emplace_back(i * p.K + ks.begin(),
                                                             i * p.K + ks.end());
    }
  return m;
}

/// B [K,N]: likewise, each row of a (K chunk, column block) piece to a tile reading it.
Graph::TileToTensorMapping rhsMapping(const MatMulPlan& p) {
  Graph::TileToTensorMapping m(p.tileBase + p.numTiles);
  for (std::size_t chunk = 0; chunk < p.kChunks; ++chunk)
    for (std::size_t cb = 0; cb < p.colBlocks; ++cb) {
      const Interval ks = p.ks(chunk), cols = p.cols(cb);
      for (std::size_t k = ks.begin(); k < ks.end(); ++k)
        m[p.tileOf(k % p.rowBlocks, cb, chunk)].emplace_back(k * p.N + cols.begin(),
                                                             k * p.N + cols.end());
    }
  return m;
}

/// Rows [M,N] of each block on the tile computing that block over K chunk `chunk`: where stage 1
/// writes them.
Graph::TileToTensorMapping blockMapping(const MatMulPlan& p, std::size_t chunk) {
  Graph::TileToTensorMapping m(p.tileBase + p.numTiles);
  for (std::size_t rb = 0; rb < p.rowBlocks; ++rb)
    for (std::size_t cb = 0; cb < p.colBlocks; ++cb) {
      const Interval rows = p.rows(rb), cols = p.cols(cb);
      for (std::size_t i = rows.begin(); i < rows.end(); ++i)
        m[p.tileOf(rb, cb, chunk)].emplace_back(i * p.N + cols.begin(), i * p.N + cols.end());
    }
  return m;
}

/// True when every row of the matrix is one contiguous run of memory, so that the vertex edges
/// reading pieces of rows bind directly.
bool rowsContiguous(const Tensor& t) {
  const std::size_t cols = t.dim(1);
  for (const auto& region : t.getContiguousRegions())
    if (region.begin() % cols != 0) return false;
  return true;
}

/// `t` itself if its rows are contiguous, else a copy in a new tensor mapped by `mapping`.
Tensor rowMajor(Graph& graph, const Tensor& t, const Graph::TileToTensorMapping& mapping,
                Sequence& prog, const DebugContext& dc) {
  if (rowsContiguous(t)) return t;
  const Tensor copy = graph.addVariable(t.elementType(), t.shape(), dc);
  graph.setTileMapping(copy, mapping);
  prog.add(program::Copy(t, copy, false, dc));
  return copy;
}

void checkOperands(const Tensor& A, const Tensor& B, const std::string& op);

/// The plan for A . B, after checking both operands.
MatMulPlan planFor(const Graph& graph, const Tensor& A, const Tensor& B, const OptionFlags& options,
                   const std::string& op) {
  checkOperands(A, B, op);
  return plan(graph, A.elementType(), A.shape(), B.shape(), options, op);
}

/// The compute sets a product (or all groups of a grouped product) adds its vertices to; the
/// second is made only when some product splits K, so unsplit products add no empty one.
struct Stages {
  ComputeSet multiply, reduce;
  bool reduces = false; ///< `reduce` exists
  DebugContext di;
};

Stages addStages(Graph& graph, const DebugContext& di) {
  return {graph.addComputeSet({di, "Multiply"}), ComputeSet(), false, di};
}

ComputeSet& reduceStage(Graph& graph, Stages& st) {
  if (!st.reduces) st.reduce = graph.addComputeSet({st.di, "Reduce"});
  st.reduces = true;
  return st.reduce;
}

void runStages(const Stages& st, Sequence& prog, const DebugContext& di) {
  prog.add(program::Execute(st.multiply, {di, "Multiply"}));
  if (st.reduces) prog.add(program::Execute(st.reduce, {di, "Reduce"}));
}

/// A and B of one product, flattened, rearranged first (copies added to `prog`) where their
/// rows are not contiguous.
struct Operands {
  Tensor a, b;
};

Operands arrange(Graph& graph, const MatMulPlan& p, const Tensor& A, const Tensor& B,
                 const Tensor& out, Sequence& prog, const DebugContext& di, const std::string& op) {
  if (out.shape() != std::vector<std::size_t>{p.M, p.N})
    throw poputil::poplibs_error(op + ": the output has shape " + out.shapeToString() + " but A " +
                                 A.shapeToString() + " x B " + B.shapeToString() + " is " +
                                 shapeString({p.M, p.N}));
  poplibs_support::checkType(out.elementType(), {FLOAT, HALF}, op, "the output");
  return {rowMajor(graph, A, lhsMapping(p), prog, {di, "rearrangeLHS"}).flatten(),
          rowMajor(graph, B, rhsMapping(p), prog, {di, "rearrangeRHS"}).flatten()};
}

/// Adds the vertices of a . b -> out (operands from arrange()) to `st`.
void addProduct(Graph& graph, const MatMulPlan& p, const Operands& ops, const Tensor& out,
                Stages& st, const DebugContext& di, const std::string& op) {
  const Tensor& a = ops.a;
  const Tensor& b = ops.b;

  // Stage 1: one vertex per (block, K chunk), writing its block's rows of partial sums (or of
  // the output when K is not split). Every edge is a piece of one row: a contiguous run.
  const bool split = p.kChunks > 1;
  Tensor partials;
  if (split) {
    partials = graph.addVariable(p.partialsType, {p.kChunks, p.M, p.N}, {di, "partials"});
    for (std::size_t chunk = 0; chunk < p.kChunks; ++chunk)
      graph.setTileMapping(partials[chunk], blockMapping(p, chunk));
  }
  std::vector<Tensor> results; // what each chunk's vertices write, flattened
  for (std::size_t chunk = 0; chunk < p.kChunks; ++chunk)
    results.push_back((split ? partials[chunk] : out).flatten());
  const std::string multiplyVertex = poputil::templateVertex(
      "poplin::MatMulPartial", p.inputType, split ? p.partialsType : out.elementType());
  for (std::size_t chunk = 0; chunk < p.kChunks; ++chunk)
    for (std::size_t rb = 0; rb < p.rowBlocks; ++rb)
      for (std::size_t cb = 0; cb < p.colBlocks; ++cb) {
        const Interval rows = p.rows(rb), cols = p.cols(cb), ks = p.ks(chunk);
        const Tensor& result = results[chunk];
        std::vector<Tensor> aRows, bRows, outRows;
        for (std::size_t i = rows.begin(); i < rows.end(); ++i) {
          aRows.push_back(a.slice(i * p.K + ks.begin(), i * p.K + ks.end()));
          outRows.push_back(result.slice(i * p.N + cols.begin(), i * p.N + cols.end()));
        }
        for (std::size_t k = ks.begin(); k < ks.end(); ++k)
          bRows.push_back(b.slice(k * p.N + cols.begin(), k * p.N + cols.end()));
        const auto v = graph.addVertex(st.multiply, multiplyVertex);
        graph.connect(v["aRows"], aRows);
        graph.connect(v["bRows"], bRows);
        graph.connect(v["out"], outRows);
        graph.setTileMapping(v, p.tileOf(rb, cb, chunk));
      }
  if (!split) return;

  // Stage 2: the tile holding each piece of the output sums the piece's partials. The partials
  // of a piece are the same elements of each chunk's [M,N] plane: contiguous runs.
  ComputeSet& reduceCs = reduceStage(graph, st);
  const std::string reduceVertex =
      poputil::templateVertex("poplin::ReducePartials", p.partialsType, out.elementType());
  const Tensor flatOut = out.flatten();
  const auto work = poplibs_support::splitTileWork(graph, out, kMinOutputsPerReduceVertex, op);
  for (unsigned tile = 0; tile < work.size(); ++tile)
    for (const auto& piece : work[tile]) {
      std::vector<Tensor> edges;
      for (const auto& plane : results)
        edges.push_back(plane.slice(piece));
      const auto v = graph.addVertex(reduceCs, reduceVertex);
      graph.connect(v["partials"], edges);
      graph.connect(v["out"], flatOut.slice(piece));
      graph.setTileMapping(v, tile);
    }
}

void matMulInto(Graph& graph, const MatMulPlan& p, const Tensor& A, const Tensor& B,
                const Tensor& out, Sequence& prog, const DebugContext& di, const std::string& op) {
  const Operands ops = arrange(graph, p, A, B, out, prog, di, op);
  Stages st = addStages(graph, di);
  addProduct(graph, p, ops, out, st, di, op);
  runStages(st, prog, di);
}

/// The [M,N] elements spread evenly over the plan's tiles, in runs of whole vectors.
Graph::TileToTensorMapping spreadMapping(const MatMulPlan& p, std::size_t grain) {
  Graph::TileToTensorMapping m(p.tileBase + p.numTiles);
  const std::size_t n = p.M * p.N;
  const std::size_t grains = (n + grain - 1) / grain;
  for (unsigned t = 0; t < p.numTiles; ++t) {
    const std::size_t begin = std::min(n, grains * t / p.numTiles * grain);
    const std::size_t end = std::min(n, grains * (t + 1) / p.numTiles * grain);
    if (begin < end) m[p.tileBase + t].emplace_back(begin, end);
  }
  return m;
}

/// Where the product's output goes: where stage 1 writes it when K is not split, else spread
/// over the product's tiles (stage 2 sums each element where it lives).
Graph::TileToTensorMapping outputMapping(const Graph& graph, const MatMulPlan& p,
                                         const Type& outputType) {
  if (p.kChunks == 1) return blockMapping(p, 0);
  return spreadMapping(p, graph.getTarget().getVectorWidth(outputType));
}

/// Checks that aShape x bShape is a grouped product [G,M,K] x [G,K,N].
void checkGroupedShapes(const std::vector<std::size_t>& aShape,
                        const std::vector<std::size_t>& bShape, const std::string& op) {
  if (aShape.size() != 3 || bShape.size() != 3)
    throw poputil::poplibs_error(op +
                                 ": A and B must be groups of matrices [G,M,K] and [G,K,N], "
                                 "but A has shape " +
                                 shapeString(aShape) + " and B has shape " + shapeString(bShape));
  if (aShape[0] != bShape[0])
    throw poputil::poplibs_error(op + ": A " + shapeString(aShape) + " has " +
                                 std::to_string(aShape[0]) + " groups but B " +
                                 shapeString(bShape) + " has " + std::to_string(bShape[0]));
  if (aShape[0] == 0) throw poputil::poplibs_error(op + ": no groups in " + shapeString(aShape));
}

/// One plan per group, each on its own consecutive share of the tiles (groups share tiles only
/// when there are more groups than tiles).
std::vector<MatMulPlan> groupPlans(const Graph& graph, Type inputType,
                                   const std::vector<std::size_t>& aShape,
                                   const std::vector<std::size_t>& bShape,
                                   const OptionFlags& options, const std::string& op) {
  checkGroupedShapes(aShape, bShape, op);
  const std::vector<std::size_t> a{aShape[1], aShape[2]}, b{bShape[1], bShape[2]};
  checkShapes(a, b, op);
  poplibs_support::checkType(inputType, {FLOAT, HALF}, op, "the input");
  const MatMulOptions opts = parseMatMulOptions(options, op);
  const std::size_t G = aShape[0];
  const unsigned tiles = graph.getTarget().getNumTiles();
  std::map<unsigned, MatMulPlan> bySize; // plans depend only on the number of tiles
  std::vector<MatMulPlan> plans;
  for (std::size_t g = 0; g < G; ++g) {
    const unsigned base = unsigned(std::uint64_t(g) * tiles / G);
    const unsigned next = unsigned(std::uint64_t(g + 1) * tiles / G);
    const unsigned count = std::max(1u, next - base);
    auto it = bySize.find(count);
    if (it == bySize.end())
      it = bySize
               .emplace(count, planMatMul(graph.getTarget(), inputType, opts.partialsType, a[0],
                                          a[1], b[1], count))
               .first;
    plans.push_back(it->second);
    plans.back().tileBase = std::min(base, tiles - 1);
  }
  return plans;
}

void checkOperands(const Tensor& A, const Tensor& B, const std::string& op) {
  poplibs_support::checkValid(A, op, "A");
  poplibs_support::checkValid(B, op, "B");
  if (B.elementType() != A.elementType())
    throw poputil::poplibs_error(op + ": A is " + A.elementType().toString() + " but B is " +
                                 B.elementType().toString());
}

void groupedInto(Graph& graph, const Tensor& A, const Tensor& B, const Tensor& out, Sequence& prog,
                 const DebugContext& di, const OptionFlags& options, const std::string& op) {
  checkOperands(A, B, op);
  const auto plans = groupPlans(graph, A.elementType(), A.shape(), B.shape(), options, op);
  poplibs_support::checkValid(out, op, "the output");
  const std::vector<std::size_t> want{A.dim(0), A.dim(1), B.dim(2)};
  if (out.shape() != want)
    throw poputil::poplibs_error(op + ": the output has shape " + out.shapeToString() + " but A " +
                                 A.shapeToString() + " x B " + B.shapeToString() + " is " +
                                 shapeString(want));
  std::vector<Operands> ops;
  for (std::size_t g = 0; g < plans.size(); ++g)
    ops.push_back(arrange(graph, plans[g], A[g], B[g], out[g], prog, di, op));
  Stages st = addStages(graph, di);
  for (std::size_t g = 0; g < plans.size(); ++g)
    addProduct(graph, plans[g], ops[g], out[g], st, di, op);
  runStages(st, prog, di);
}

Tensor groupedNew(Graph& graph, const Tensor& A, const Tensor& B, Sequence& prog,
                  const Type& outputType, const DebugContext& di, const OptionFlags& options,
                  const std::string& op) {
  checkOperands(A, B, op);
  const auto plans = groupPlans(graph, A.elementType(), A.shape(), B.shape(), options, op);
  poplibs_support::checkType(outputType, {FLOAT, HALF}, op, "the output");
  const Tensor out = graph.addVariable(outputType, {A.dim(0), A.dim(1), B.dim(2)}, {di, "output"});
  for (std::size_t g = 0; g < plans.size(); ++g)
    graph.setTileMapping(out[g], outputMapping(graph, plans[g], outputType));
  groupedInto(graph, A, B, out, prog, di, options, op);
  return out;
}

/// Maps a new [M,N] output as matMul does: unsplit products are written where they are computed;
/// split ones are summed where the output lives, so spread it over all tiles.
void mapOutput(Graph& graph, const Tensor& out, const MatMulPlan& p) {
  if (p.kChunks == 1)
    graph.setTileMapping(out, blockMapping(p, 0));
  else
    poputil::mapTensorLinearly(graph, out, 0, graph.getTarget().getVectorWidth(out.elementType()));
}

Tensor matMulNew(Graph& graph, const Tensor& A, const Tensor& B, Sequence& prog, Type outputType,
                 const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "poplin::matMul";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "MatMul");
  const MatMulPlan p = planFor(graph, A, B, options, op);
  poplibs_support::checkType(outputType, {FLOAT, HALF}, op, "the output");
  const Tensor out = graph.addVariable(outputType, {p.M, p.N}, {di, "output"});
  mapOutput(graph, out, p);
  matMulInto(graph, p, A, B, out, prog, di, op);
  return out;
}

Tensor createInput(Graph& graph, const Type& inputType, const std::vector<std::size_t>& aShape,
                   const std::vector<std::size_t>& bShape, const DebugContext& debugContext,
                   const OptionFlags& options, bool lhs) {
  const std::string op = lhs ? "poplin::createMatMulInputLHS" : "poplin::createMatMulInputRHS";
  const MatMulPlan p = plan(graph, inputType, aShape, bShape, options, op);
  const Tensor t = graph.addVariable(inputType, lhs ? aShape : bShape, debugContext);
  graph.setTileMapping(t, lhs ? lhsMapping(p) : rhsMapping(p));
  return t;
}

} // namespace

Tensor matMul(Graph& graph, const Tensor& A, const Tensor& B, Sequence& prog,
              const DebugContext& debugContext, const OptionFlags& options, PlanningCache*) {
  poplibs_support::checkValid(A, "poplin::matMul", "A");
  return matMulNew(graph, A, B, prog, A.elementType(), debugContext, options);
}

Tensor matMul(Graph& graph, const Tensor& A, const Tensor& B, Sequence& prog,
              const Type& outputType, const DebugContext& debugContext, const OptionFlags& options,
              PlanningCache*) {
  return matMulNew(graph, A, B, prog, outputType, debugContext, options);
}

void matMulWithOutput(Graph& graph, const Tensor& A, const Tensor& B, const Tensor& out,
                      Sequence& prog, const DebugContext& debugContext, const OptionFlags& options,
                      PlanningCache*) {
  const std::string op = "poplin::matMulWithOutput";
  const MatMulPlan p = planFor(graph, A, B, options, op);
  poplibs_support::checkValid(out, op, "the output");
  matMulInto(graph, p, A, B, out, prog, {debugContext, "MatMul"}, op);
}

Tensor createMatMulInputLHS(Graph& graph, const Type& inputType,
                            const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const DebugContext& debugContext, const OptionFlags& options,
                            PlanningCache*) {
  return createInput(graph, inputType, aShape, bShape, debugContext, options, true);
}

Tensor createMatMulInputRHS(Graph& graph, const Type& inputType,
                            const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const DebugContext& debugContext, const OptionFlags& options,
                            PlanningCache*) {
  return createInput(graph, inputType, aShape, bShape, debugContext, options, false);
}

void matMulReportPlan(std::ostream& out, const Graph& graph, const Type& inputType, const Type&,
                      const std::vector<std::size_t>& aShape,
                      const std::vector<std::size_t>& bShape, const OptionFlags& options,
                      PlanningCache*) {
  out << plan(graph, inputType, aShape, bShape, options, "poplin::matMulReportPlan") << '\n';
}

void matMulWithOutput(Graph& graph, const Tensor& A, const Tensor& B, Tensor& out, Sequence& prog,
                      const DebugContext& debugContext, const OptionFlags& options,
                      PlanningCache* cache) {
  const Tensor& constOut = out;
  matMulWithOutput(graph, A, B, constOut, prog, debugContext, options, cache);
}

namespace {

/// C += k . (A . B): the product in C's type, then popops::scaledAddTo (as PopLibs does).
template <class Scale>
void accumulate(Graph& graph, const Tensor& C, const Scale& k, const Tensor& A, const Tensor& B,
                Sequence& prog, const DebugContext& debugContext, const OptionFlags& options,
                bool grouped) {
  const std::string op = grouped ? "poplin::matMulGroupedAcc" : "poplin::matMulAcc";
  const poputil::PoplibsOpDebugInfo di(debugContext, {},
                                       grouped ? "MatMulGroupedAcc" : "MatMulAcc");
  poplibs_support::checkValid(C, op, "C");
  const Tensor product =
      grouped ? groupedNew(graph, A, B, prog, C.elementType(), di, options, op)
              : matMulNew(graph, A, B, prog, C.elementType(), {di, "product"}, options);
  if (product.shape() != C.shape())
    throw poputil::poplibs_error(op + ": C has shape " + C.shapeToString() + " but A " +
                                 A.shapeToString() + " x B " + B.shapeToString() + " is " +
                                 product.shapeToString());
  popops::scaledAddTo(graph, C, product, k, prog, {di, "accumulate"});
}

} // namespace

void matMulAcc(Graph& graph, const Tensor& C, float k, const Tensor& A, const Tensor& B,
               Sequence& prog, const DebugContext& debugContext, const OptionFlags& options,
               PlanningCache*) {
  accumulate(graph, C, k, A, B, prog, debugContext, options, false);
}

void matMulAcc(Graph& graph, const Tensor& C, const Tensor& k, const Tensor& A, const Tensor& B,
               Sequence& prog, const DebugContext& debugContext, const OptionFlags& options,
               PlanningCache*) {
  accumulate(graph, C, k, A, B, prog, debugContext, options, false);
}

void matMulGroupedAcc(Graph& graph, const Tensor& C, float k, const Tensor& A, const Tensor& B,
                      Sequence& prog, const DebugContext& debugContext, const OptionFlags& options,
                      PlanningCache*) {
  accumulate(graph, C, k, A, B, prog, debugContext, options, true);
}

void matMulGroupedAcc(Graph& graph, const Tensor& C, const Tensor& k, const Tensor& A,
                      const Tensor& B, Sequence& prog, const DebugContext& debugContext,
                      const OptionFlags& options, PlanningCache*) {
  accumulate(graph, C, k, A, B, prog, debugContext, options, true);
}

Tensor matMulGrouped(Graph& graph, const Tensor& A, const Tensor& B, Sequence& prog,
                     const Type& outputType, const DebugContext& debugContext,
                     const OptionFlags& options, PlanningCache*) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "MatMulGrouped");
  return groupedNew(graph, A, B, prog, outputType, di, options, "poplin::matMulGrouped");
}

void matMulGroupedWithOutput(Graph& graph, const Tensor& A, const Tensor& B, Tensor& out,
                             Sequence& prog, const DebugContext& debugContext,
                             const OptionFlags& options, PlanningCache*) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "MatMulGroupedWithOutput");
  groupedInto(graph, A, B, out, prog, di, options, "poplin::matMulGroupedWithOutput");
}

Tensor createMatMulInputLHS(Graph& graph, const Type& inputType, const Type&,
                            const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const DebugContext& debugContext, const OptionFlags& options,
                            PlanningCache*) {
  return createInput(graph, inputType, aShape, bShape, debugContext, options, true);
}

Tensor createMatMulInputRHS(Graph& graph, const Type& inputType, const Type&,
                            const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const DebugContext& debugContext, const OptionFlags& options,
                            PlanningCache*) {
  return createInput(graph, inputType, aShape, bShape, debugContext, options, false);
}

Tensor createMatMulOutput(Graph& graph, const Type& inputType, const Type& outputType,
                          const std::vector<std::size_t>& aShape,
                          const std::vector<std::size_t>& bShape, const DebugContext& debugContext,
                          const OptionFlags& options, PlanningCache*) {
  const std::string op = "poplin::createMatMulOutput";
  const MatMulPlan p = plan(graph, inputType, aShape, bShape, options, op);
  poplibs_support::checkType(outputType, {FLOAT, HALF}, op, "the output");
  const Tensor t = graph.addVariable(outputType, {p.M, p.N}, debugContext);
  mapOutput(graph, t, p);
  return t;
}

Tensor createMatMulOutput(Graph& graph, const Type& dataType,
                          const std::vector<std::size_t>& aShape,
                          const std::vector<std::size_t>& bShape, const DebugContext& debugContext,
                          const OptionFlags& options, PlanningCache* cache) {
  return createMatMulOutput(graph, dataType, dataType, aShape, bShape, debugContext, options,
                            cache);
}

namespace {
enum class GroupedPart { LHS, RHS, Output };

Tensor createGrouped(Graph& graph, const Type& inputType, const Type& outputType,
                     const std::vector<std::size_t>& aShape, const std::vector<std::size_t>& bShape,
                     const DebugContext& debugContext, const OptionFlags& options, GroupedPart part,
                     const std::string& op) {
  const auto plans = groupPlans(graph, inputType, aShape, bShape, options, op);
  poplibs_support::checkType(outputType, {FLOAT, HALF}, op, "the output");
  const std::vector<std::size_t> shape =
      part == GroupedPart::LHS   ? aShape
      : part == GroupedPart::RHS ? bShape
                                 : std::vector<std::size_t>{aShape[0], aShape[1], bShape[2]};
  const Tensor t =
      graph.addVariable(part == GroupedPart::Output ? outputType : inputType, shape, debugContext);
  for (std::size_t g = 0; g < plans.size(); ++g)
    graph.setTileMapping(t[g], part == GroupedPart::LHS ? lhsMapping(plans[g])
                               : part == GroupedPart::RHS
                                   ? rhsMapping(plans[g])
                                   : outputMapping(graph, plans[g], outputType));
  return t;
}
} // namespace

Tensor createMatMulGroupedInputLHS(Graph& graph, const Type& inputType, const Type& outputType,
                                   const std::vector<std::size_t>& aShape,
                                   const std::vector<std::size_t>& bShape,
                                   const DebugContext& debugContext, const OptionFlags& options,
                                   PlanningCache*) {
  return createGrouped(graph, inputType, outputType, aShape, bShape, debugContext, options,
                       GroupedPart::LHS, "poplin::createMatMulGroupedInputLHS");
}

Tensor createMatMulGroupedInputRHS(Graph& graph, const Type& inputType, const Type& outputType,
                                   const std::vector<std::size_t>& aShape,
                                   const std::vector<std::size_t>& bShape,
                                   const DebugContext& debugContext, const OptionFlags& options,
                                   PlanningCache*) {
  return createGrouped(graph, inputType, outputType, aShape, bShape, debugContext, options,
                       GroupedPart::RHS, "poplin::createMatMulGroupedInputRHS");
}

Tensor createMatMulGroupedOutput(Graph& graph, const Type& inputType, const Type& outputType,
                                 const std::vector<std::size_t>& aShape,
                                 const std::vector<std::size_t>& bShape,
                                 const DebugContext& debugContext, const OptionFlags& options,
                                 PlanningCache*) {
  return createGrouped(graph, inputType, outputType, aShape, bShape, debugContext, options,
                       GroupedPart::Output, "poplin::createMatMulGroupedOutput");
}

Tensor preArrangeMatMulInputRHS(Graph& graph, const std::vector<std::size_t>& aShape,
                                const Tensor& B, Sequence& prog, const Type&,
                                const DebugContext& debugContext, const OptionFlags& options,
                                PlanningCache*) {
  const std::string op = "poplin::preArrangeMatMulInputRHS";
  poplibs_support::checkValid(B, op, "B");
  const MatMulPlan p = plan(graph, B.elementType(), aShape, B.shape(), options, op);
  return rowMajor(graph, B, rhsMapping(p), prog, {debugContext, "preArrangeRHS"});
}

Tensor preArrangeMatMulInputRHS(Graph& graph, const std::vector<std::size_t>& aShape,
                                const Tensor& B, Sequence& prog, const DebugContext& debugContext,
                                const OptionFlags& options, PlanningCache* cache) {
  poplibs_support::checkValid(B, "poplin::preArrangeMatMulInputRHS", "B");
  return preArrangeMatMulInputRHS(graph, aShape, B, prog, B.elementType(), debugContext, options,
                                  cache);
}

Tensor preArrangeMatMulGroupedInputRHS(Graph& graph, const std::vector<std::size_t>& aShape,
                                       const Tensor& B, Sequence& prog, const Type&,
                                       const DebugContext& debugContext, const OptionFlags& options,
                                       PlanningCache*) {
  const std::string op = "poplin::preArrangeMatMulGroupedInputRHS";
  poplibs_support::checkValid(B, op, "B");
  const auto plans = groupPlans(graph, B.elementType(), aShape, B.shape(), options, op);
  std::vector<Tensor> groups;
  for (std::size_t g = 0; g < plans.size(); ++g)
    groups.push_back(
        rowMajor(graph, B[g], rhsMapping(plans[g]), prog, {debugContext, "preArrangeRHS"})
            .expand({0}));
  return concat(groups, 0);
}

Tensor transposeGroupedMatrix(const Tensor& A) {
  if (A.rank() != 3)
    throw poputil::poplibs_error("poplin::transposeGroupedMatrix: A must have shape [G,M,N], not " +
                                 A.shapeToString());
  return A.dimShuffle({0, 2, 1});
}

void matMulGroupedReportPlan(std::ostream& out, const Graph& graph, const Type& inputType,
                             const Type&, const std::vector<std::size_t>& aShape,
                             const std::vector<std::size_t>& bShape, const OptionFlags& options,
                             PlanningCache*) {
  const auto plans =
      groupPlans(graph, inputType, aShape, bShape, options, "poplin::matMulGroupedReportPlan");
  out << plans.size() << " groups, group 0 on " << plans[0].numTiles << " of "
      << graph.getTarget().getNumTiles() << " tiles; each group's " << plans[0] << '\n';
}

} // namespace poplin
