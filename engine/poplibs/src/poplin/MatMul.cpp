#include "MatMulPlan.hpp"
#include "poplibs_support/TileWork.hpp"

#include <ostream>
#include <poplin/MatMul.hpp>
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
  Graph::TileToTensorMapping m(p.numTiles);
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
  Graph::TileToTensorMapping m(p.numTiles);
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
  Graph::TileToTensorMapping m(p.numTiles);
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

/// The plan for A . B, after checking both operands.
MatMulPlan planFor(const Graph& graph, const Tensor& A, const Tensor& B, const OptionFlags& options,
                   const std::string& op) {
  poplibs_support::checkValid(A, op, "A");
  poplibs_support::checkValid(B, op, "B");
  if (B.elementType() != A.elementType())
    throw poputil::poplibs_error(op + ": A is " + A.elementType().toString() + " but B is " +
                                 B.elementType().toString());
  return plan(graph, A.elementType(), A.shape(), B.shape(), options, op);
}

void matMulInto(Graph& graph, const MatMulPlan& p, const Tensor& A, const Tensor& B,
                const Tensor& out, Sequence& prog, const DebugContext& di, const std::string& op) {
  if (out.shape() != std::vector<std::size_t>{p.M, p.N})
    throw poputil::poplibs_error(op + ": the output has shape " + out.shapeToString() + " but A " +
                                 A.shapeToString() + " x B " + B.shapeToString() + " is " +
                                 shapeString({p.M, p.N}));
  poplibs_support::checkType(out.elementType(), {FLOAT, HALF}, op, "the output");

  const Tensor a = rowMajor(graph, A, lhsMapping(p), prog, {di, "rearrangeLHS"}).flatten();
  const Tensor b = rowMajor(graph, B, rhsMapping(p), prog, {di, "rearrangeRHS"}).flatten();

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
  const ComputeSet multiplyCs = graph.addComputeSet({di, "Multiply"});
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
        const auto v = graph.addVertex(multiplyCs, multiplyVertex);
        graph.connect(v["aRows"], aRows);
        graph.connect(v["bRows"], bRows);
        graph.connect(v["out"], outRows);
        graph.setTileMapping(v, p.tileOf(rb, cb, chunk));
      }
  prog.add(program::Execute(multiplyCs, {di, "Multiply"}));
  if (!split) return;

  // Stage 2: the tile holding each piece of the output sums the piece's partials. The partials
  // of a piece are the same elements of each chunk's [M,N] plane: contiguous runs.
  const ComputeSet reduceCs = graph.addComputeSet({di, "Reduce"});
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
  prog.add(program::Execute(reduceCs, {di, "Reduce"}));
}

Tensor matMulNew(Graph& graph, const Tensor& A, const Tensor& B, Sequence& prog, Type outputType,
                 const DebugContext& debugContext, const OptionFlags& options) {
  const std::string op = "poplin::matMul";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "MatMul");
  const MatMulPlan p = planFor(graph, A, B, options, op);
  poplibs_support::checkType(outputType, {FLOAT, HALF}, op, "the output");
  const Tensor out = graph.addVariable(outputType, {p.M, p.N}, {di, "output"});
  // Unsplit products are written where they are computed; split ones are summed where the
  // output lives, so spread it over all tiles.
  if (p.kChunks == 1)
    graph.setTileMapping(out, blockMapping(p, 0));
  else
    poputil::mapTensorLinearly(graph, out, 0, graph.getTarget().getVectorWidth(outputType));
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
              const DebugContext& debugContext, const OptionFlags& options,
              matmul::PlanningCache*) {
  poplibs_support::checkValid(A, "poplin::matMul", "A");
  return matMulNew(graph, A, B, prog, A.elementType(), debugContext, options);
}

Tensor matMul(Graph& graph, const Tensor& A, const Tensor& B, Sequence& prog,
              const Type& outputType, const DebugContext& debugContext, const OptionFlags& options,
              matmul::PlanningCache*) {
  return matMulNew(graph, A, B, prog, outputType, debugContext, options);
}

void matMulWithOutput(Graph& graph, const Tensor& A, const Tensor& B, const Tensor& out,
                      Sequence& prog, const DebugContext& debugContext, const OptionFlags& options,
                      matmul::PlanningCache*) {
  const std::string op = "poplin::matMulWithOutput";
  const MatMulPlan p = planFor(graph, A, B, options, op);
  poplibs_support::checkValid(out, op, "the output");
  matMulInto(graph, p, A, B, out, prog, {debugContext, "MatMul"}, op);
}

Tensor createMatMulInputLHS(Graph& graph, const Type& inputType,
                            const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const DebugContext& debugContext, const OptionFlags& options,
                            matmul::PlanningCache*) {
  return createInput(graph, inputType, aShape, bShape, debugContext, options, true);
}

Tensor createMatMulInputRHS(Graph& graph, const Type& inputType,
                            const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const DebugContext& debugContext, const OptionFlags& options,
                            matmul::PlanningCache*) {
  return createInput(graph, inputType, aShape, bShape, debugContext, options, false);
}

void matMulReportPlan(std::ostream& out, const Graph& graph, const Type& inputType, const Type&,
                      const std::vector<std::size_t>& aShape,
                      const std::vector<std::size_t>& bShape, const OptionFlags& options,
                      matmul::PlanningCache*) {
  out << plan(graph, inputType, aShape, bShape, options, "poplin::matMulReportPlan") << '\n';
}

} // namespace poplin
