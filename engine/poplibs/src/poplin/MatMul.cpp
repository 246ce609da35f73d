// Matrix products as PopLibs runs them: A [G,M,K] . B [G,K,N] is the 1x1 convolution whose batch
// is A's M rows, with K input and N output channels per group and G conv groups, planned by the
// convolution planner (ConvPlan.cpp) with the channels innermost, so that A, B and C keep their
// row-major layouts: a unit of the plan multiplies a block of A's rows (over a block of K) by the
// matching block of B as a poplin::ConvPartial1x1Out (or ConvPartialHorizontalMac when its K
// block is not a whole number of AMP input groups), and when K is split, poplin::ReduceAdd sums
// the blocks' partials on the tile of each output row piece.
#include "ConvGeometry.hpp"
#include "ConvPlan.hpp"
#include "MatMulOptions.hpp"
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
  checkShapes({aShape[1], aShape[2]}, {bShape[1], bShape[2]}, op);
}

/// The plan of a (grouped) product, from the convolution planner.
ConvPlan planProduct(const Target& target, Type inputType, Type outputType, std::size_t G,
                     std::size_t M, std::size_t K, std::size_t N, const OptionFlags& options,
                     PlanningCache* cache, const std::string& op) {
  poplibs_support::checkType(inputType, {FLOAT, HALF}, op, "the input");
  poplibs_support::checkType(outputType, {FLOAT, HALF}, op, "the output");
  const MatMulOptions opts = parseMatMulOptions(options, op);
  ConvProblem problem =
      makeConvProblem(ConvParams(inputType, outputType, M, {1}, {1}, K, N, G), op);
  problem.channelsInnermost = true;
  return planConvolutionCached(target, problem, toConvOptions(opts), cache);
}

/// The plan of a plain [M,K] x [K,N] (grouped = false) or grouped product.
ConvPlan planShapes(const Graph& graph, Type inputType, Type outputType,
                    const std::vector<std::size_t>& aShape, const std::vector<std::size_t>& bShape,
                    bool grouped, const OptionFlags& options, PlanningCache* cache,
                    const std::string& op) {
  if (grouped)
    checkGroupedShapes(aShape, bShape, op);
  else
    checkShapes(aShape, bShape, op);
  const std::size_t o = grouped ? 1 : 0;
  return planProduct(graph.getTarget(), inputType, outputType, grouped ? aShape[0] : 1, aShape[o],
                     aShape[o + 1], bShape[o + 1], options, cache, op);
}

std::size_t G(const ConvPlan& p) {
  return p.problem.params.numConvGroups;
}
std::size_t M(const ConvPlan& p) {
  return p.problem.params.batchSize;
}
std::size_t K(const ConvPlan& p) {
  return p.problem.params.inputChannelsPerConvGroup;
}
std::size_t N(const ConvPlan& p) {
  return p.problem.params.outputChannelsPerConvGroup;
}

/// A [G,M,K]: the piece of each row of A over an input-channel block goes to a tile whose unit
/// reads it (the output-channel blocks taken in turn over the rows).
Graph::TileToTensorMapping lhsMapping(const ConvPlan& p) {
  Graph::TileToTensorMapping m(p.numTiles);
  for (std::size_t g = 0; g < G(p); ++g)
    for (std::size_t bb = 0; bb < p.batchBlocks; ++bb)
      for (std::size_t icb = 0; icb < p.inChanBlocks; ++icb) {
        const Interval rows = p.batches(bb), ks = p.inChans(icb);
        for (std::size_t i = rows.begin(); i < rows.end(); ++i) {
          const std::size_t begin = (g * M(p) + i) * K(p);
          m[p.tileOf(p.unitIndex(g, bb, i % p.outChanBlocks, 0, icb))].emplace_back(
              begin + ks.begin(), begin + ks.end());
        }
      }
  return m;
}

/// B [G,K,N]: likewise, each row of B over an output-channel block (the batch blocks in turn).
Graph::TileToTensorMapping rhsMapping(const ConvPlan& p) {
  Graph::TileToTensorMapping m(p.numTiles);
  for (std::size_t g = 0; g < G(p); ++g)
    for (std::size_t icb = 0; icb < p.inChanBlocks; ++icb)
      for (std::size_t cb = 0; cb < p.outChanBlocks; ++cb) {
        const Interval ks = p.inChans(icb), cols = p.outChans(cb);
        for (std::size_t k = ks.begin(); k < ks.end(); ++k) {
          const std::size_t begin = (g * K(p) + k) * N(p);
          m[p.tileOf(p.unitIndex(g, k % p.batchBlocks, cb, 0, icb))].emplace_back(
              begin + cols.begin(), begin + cols.end());
        }
      }
  return m;
}

/// One input-channel block's partials, a [G*M*N] plane laid out block by block: each block on
/// the tile of the unit computing it over input-channel block `icb`.
Graph::TileToTensorMapping partialsMapping(const ConvPlan& p, std::size_t icb) {
  Graph::TileToTensorMapping m(p.numTiles);
  for (std::size_t g = 0; g < G(p); ++g)
    for (std::size_t bb = 0; bb < p.batchBlocks; ++bb)
      for (std::size_t cb = 0; cb < p.outChanBlocks; ++cb) {
        const std::size_t begin = p.partialsBlockOffset(g, bb, cb);
        m[p.tileOf(p.unitIndex(g, bb, cb, 0, icb))].emplace_back(
            begin, begin + p.batches(bb).size() * p.outChans(cb).size());
      }
  return m;
}

/// C [G,M,N]: each row piece where it is computed (K not split) or summed (ReduceAdd).
Graph::TileToTensorMapping outMapping(const ConvPlan& p) {
  Graph::TileToTensorMapping m(p.numTiles);
  for (std::size_t g = 0; g < G(p); ++g)
    for (std::size_t bb = 0; bb < p.batchBlocks; ++bb)
      for (std::size_t cb = 0; cb < p.outChanBlocks; ++cb) {
        const Interval rows = p.batches(bb), cols = p.outChans(cb);
        for (std::size_t i = rows.begin(); i < rows.end(); ++i) {
          const std::size_t begin = (g * M(p) + i) * N(p);
          m[p.reduceTileOf(g, bb, cb, 0, i - rows.begin())].emplace_back(begin + cols.begin(),
                                                                         begin + cols.end());
        }
      }
  return m;
}

/// True when every row of [..., R, C] is one contiguous run of memory, so that vertex edges
/// reading pieces of rows bind directly.
bool rowsContiguous(const Tensor& t) {
  const std::size_t cols = t.dim(t.rank() - 1);
  for (const auto& region : t.getContiguousRegions())
    if (region.begin() % cols != 0 || region.size() % cols != 0) return false;
  return true;
}

/// `t` itself if its rows are contiguous, else a copy (added to `prog`) laid out by `mapping`,
/// as PopLibs rearranges an operand not laid out for its plan.
Tensor rowMajor(Graph& graph, const Tensor& t, const Graph::TileToTensorMapping& mapping,
                Sequence& prog, const DebugContext& dc) {
  if (rowsContiguous(t)) return t;
  const Tensor copy = graph.addVariable(t.elementType(), t.shape(), dc);
  graph.setTileMapping(copy, mapping);
  prog.add(program::Copy(t, copy, false, dc));
  return copy;
}

void checkOperands(const Tensor& A, const Tensor& B, const std::string& op) {
  poplibs_support::checkValid(A, op, "A");
  poplibs_support::checkValid(B, op, "B");
  if (B.elementType() != A.elementType())
    throw poputil::poplibs_error(op + ": A is " + A.elementType().toString() + " but B is " +
                                 B.elementType().toString());
}

/// A3 [G,M,K] . B3 [G,K,N] -> out3 [G,M,N] as planned: the Convolve compute set, then (K split)
/// the Reduce one.
void productInto(Graph& graph, const ConvPlan& p, const Tensor& A3, const Tensor& B3,
                 const Tensor& out3, Sequence& prog, const DebugContext& di,
                 const std::string& op) {
  const std::vector<std::size_t> want{G(p), M(p), N(p)};
  poplibs_support::checkValid(out3, op, "the output");
  if (out3.shape() != want)
    throw poputil::poplibs_error(op + ": the output has shape " + out3.shapeToString() +
                                 " but the product is " + shapeString(want));
  poplibs_support::checkType(out3.elementType(), {FLOAT, HALF}, op, "the output");
  const Tensor a = rowMajor(graph, A3, lhsMapping(p), prog, {di, "rearrangeLHS"}).flatten();
  const Tensor b = rowMajor(graph, B3, rhsMapping(p), prog, {di, "rearrangeRHS"}).flatten();
  const Tensor c = out3.flatten();
  const bool split = p.inChanBlocks > 1;
  Tensor partials; // [icb][G*M*N]
  if (split) {
    partials =
        graph.addVariable(p.partialsType, {p.inChanBlocks, G(p) * M(p) * N(p)}, {di, "partials"});
    for (std::size_t icb = 0; icb < p.inChanBlocks; ++icb)
      graph.setTileMapping(partials[icb], partialsMapping(p, icb));
  }

  // Stage 1: a vertex per unit. Every edge is a piece of one row: a contiguous run.
  // Named as the stage, not the plan (the plan is matMulReportPlan's), so that reports of
  // different shapes compare compute set by compute set.
  const ComputeSet convolve = graph.addComputeSet({di, "Convolve"});
  const std::string vertexName = p.vertexName();
  // The vertices' one-int geometry (channels innermost): one constant, an element on each tile
  // with vertices, shared by that tile's vertices.
  std::map<unsigned, std::size_t> tileSlot;
  for (std::size_t u = 0; u < p.numUnits(); ++u)
    tileSlot.emplace(p.tileOf(u), tileSlot.size());
  const Tensor geometry = graph.addConstant(
      INT, {tileSlot.size()}, std::vector<int>(tileSlot.size(), -1), {di, "channelsInnermost"});
  for (const auto& [tile, slot] : tileSlot)
    graph.setTileMapping(geometry.slice(slot, slot + 1), tile);
  for (std::size_t g = 0; g < G(p); ++g)
    for (std::size_t bb = 0; bb < p.batchBlocks; ++bb)
      for (std::size_t icb = 0; icb < p.inChanBlocks; ++icb)
        for (std::size_t cb = 0; cb < p.outChanBlocks; ++cb) {
          const unsigned tile = p.tileOf(p.unitIndex(g, bb, cb, 0, icb));
          const Interval rows = p.batches(bb), ks = p.inChans(icb), cols = p.outChans(cb);
          // Where its rows go: C's, or this block's rows in the partials plane.
          const std::size_t pBlock = split ? p.partialsBlockOffset(g, bb, cb) : 0;
          std::vector<Tensor> in, weights, out;
          for (std::size_t i = rows.begin(); i < rows.end(); ++i) {
            const std::size_t aRow = (g * M(p) + i) * K(p), cRow = (g * M(p) + i) * N(p);
            in.push_back(a.slice(aRow + ks.begin(), aRow + ks.end()));
            if (split) {
              const std::size_t begin = pBlock + (i - rows.begin()) * cols.size();
              out.push_back(partials[icb].slice(begin, begin + cols.size()));
            } else {
              out.push_back(c.slice(cRow + cols.begin(), cRow + cols.end()));
            }
          }
          for (std::size_t k = ks.begin(); k < ks.end(); ++k) {
            const std::size_t bRow = (g * K(p) + k) * N(p);
            weights.push_back(b.slice(bRow + cols.begin(), bRow + cols.end()));
          }
          const std::size_t slot = tileSlot.at(tile);
          const auto v = graph.addVertex(convolve, vertexName);
          graph.connect(v["in"], in);
          graph.connect(v["weights"], weights);
          graph.connect(v["out"], out);
          graph.connect(v["geometry"], geometry.slice(slot, slot + kChannelsInnermostGeometryInts));
          graph.setInitialValue(v["inChans"], unsigned(ks.size()));
          graph.setInitialValue(v["kernelY"], 1u);
          graph.setInitialValue(v["kernelX"], 1u);
          graph.setTileMapping(v, tile);
        }
  prog.add(program::Execute(convolve, {di, "Convolve"}));
  if (!split) return;

  // Stage 2: each output row piece summed over the input-channel blocks where it lives.
  const ComputeSet reduce = graph.addComputeSet({di, "Reduce"});
  const std::string reduceVertex = poputil::templateVertex("poplin::ReduceAdd", out3.elementType(),
                                                           p.partialsType, false, false);
  for (const ReduceWork& w : reduceWork(p)) {
    const Interval rows = p.batches(w.bb), cols = p.outChans(w.cb);
    const std::size_t begin = p.partialsBlockOffset(w.g, w.bb, w.cb) + (w.rowBegin * cols.size());
    const std::size_t end = begin + (w.rowEnd - w.rowBegin) * cols.size();
    std::vector<Tensor> edges, out;
    for (std::size_t icb = 0; icb < p.inChanBlocks; ++icb)
      edges.push_back(partials[icb].slice(begin, end));
    for (std::size_t i = rows.begin() + w.rowBegin; i < rows.begin() + w.rowEnd; ++i) {
      const std::size_t cRow = (w.g * M(p) + i) * N(p);
      out.push_back(c.slice(cRow + cols.begin(), cRow + cols.end()));
    }
    const auto v = graph.addVertex(reduce, reduceVertex);
    graph.connect(v["partials"], edges);
    graph.connect(v["out"], out);
    graph.setTileMapping(v, w.tile);
  }
  prog.add(program::Execute(reduce, {di, "Reduce"}));
}

/// A [M,K] or [G,M,K] as [G,M,K].
Tensor grouped3(const Tensor& t) {
  return t.rank() == 2 ? t.expand({0}) : t;
}

Tensor matMulNew(Graph& graph, const Tensor& A, const Tensor& B, Sequence& prog, Type outputType,
                 const DebugContext& debugContext, const OptionFlags& options, PlanningCache* cache,
                 bool grouped, const std::string& op) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, grouped ? "MatMulGrouped" : "MatMul");
  checkOperands(A, B, op);
  const ConvPlan p = planShapes(graph, A.elementType(), outputType, A.shape(), B.shape(), grouped,
                                options, cache, op);
  std::vector<std::size_t> shape{G(p), M(p), N(p)};
  if (!grouped) shape.erase(shape.begin());
  const Tensor out = graph.addVariable(outputType, shape, {di, "output"});
  graph.setTileMapping(out, outMapping(p));
  productInto(graph, p, grouped3(A), grouped3(B), grouped3(out), prog, di, op);
  return out;
}

void withOutput(Graph& graph, const Tensor& A, const Tensor& B, const Tensor& out, Sequence& prog,
                const DebugContext& di, const OptionFlags& options, PlanningCache* cache,
                bool grouped, const std::string& op) {
  checkOperands(A, B, op);
  poplibs_support::checkValid(out, op, "the output");
  const ConvPlan p = planShapes(graph, A.elementType(), out.elementType(), A.shape(), B.shape(),
                                grouped, options, cache, op);
  const std::vector<std::size_t> want =
      grouped ? std::vector{G(p), M(p), N(p)} : std::vector{M(p), N(p)};
  if (out.shape() != want)
    throw poputil::poplibs_error(op + ": the output has shape " + out.shapeToString() + " but A " +
                                 A.shapeToString() + " x B " + B.shapeToString() + " is " +
                                 shapeString(want));
  productInto(graph, p, grouped3(A), grouped3(B), grouped3(out), prog, di, op);
}

enum class Part { LHS, RHS, Output };

Tensor createPart(Graph& graph, const Type& inputType, const Type& outputType,
                  const std::vector<std::size_t>& aShape, const std::vector<std::size_t>& bShape,
                  const DebugContext& debugContext, const OptionFlags& options,
                  PlanningCache* cache, bool grouped, Part part, const std::string& op) {
  const ConvPlan p =
      planShapes(graph, inputType, outputType, aShape, bShape, grouped, options, cache, op);
  std::vector<std::size_t> outShape{G(p), M(p), N(p)};
  if (!grouped) outShape.erase(outShape.begin());
  const Tensor t = graph.addVariable(part == Part::Output ? outputType : inputType,
                                     part == Part::LHS   ? aShape
                                     : part == Part::RHS ? bShape
                                                         : outShape,
                                     debugContext);
  graph.setTileMapping(t, part == Part::LHS   ? lhsMapping(p)
                          : part == Part::RHS ? rhsMapping(p)
                                              : outMapping(p));
  return t;
}

/// The plan as matMulReportPlan and matMulGroupedReportPlan print it.
void reportPlan(std::ostream& out, const ConvPlan& p, bool grouped) {
  out << (grouped ? "matMulGrouped " : "matMul ");
  if (grouped) out << G(p) << " x ";
  out << "[" << M(p) << "," << K(p) << "] x [" << K(p) << "," << N(p)
      << "] as a 1x1 convolution (batch " << M(p) << ", " << K(p) << " input and " << N(p)
      << " output channels" << (grouped ? ", " + std::to_string(G(p)) + " conv groups" : "")
      << "), channels innermost\n"
      << p << '\n';
}

} // namespace

Tensor matMul(Graph& graph, const Tensor& A, const Tensor& B, Sequence& prog,
              const DebugContext& debugContext, const OptionFlags& options, PlanningCache* cache) {
  poplibs_support::checkValid(A, "poplin::matMul", "A");
  return matMulNew(graph, A, B, prog, A.elementType(), debugContext, options, cache, false,
                   "poplin::matMul");
}

Tensor matMul(Graph& graph, const Tensor& A, const Tensor& B, Sequence& prog,
              const Type& outputType, const DebugContext& debugContext, const OptionFlags& options,
              PlanningCache* cache) {
  return matMulNew(graph, A, B, prog, outputType, debugContext, options, cache, false,
                   "poplin::matMul");
}

void matMulWithOutput(Graph& graph, const Tensor& A, const Tensor& B, const Tensor& out,
                      Sequence& prog, const DebugContext& debugContext, const OptionFlags& options,
                      PlanningCache* cache) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "MatMulWithOutput");
  withOutput(graph, A, B, out, prog, di, options, cache, false, "poplin::matMulWithOutput");
}

void matMulWithOutput(Graph& graph, const Tensor& A, const Tensor& B, Tensor& out, Sequence& prog,
                      const DebugContext& debugContext, const OptionFlags& options,
                      PlanningCache* cache) {
  const Tensor& constOut = out;
  matMulWithOutput(graph, A, B, constOut, prog, debugContext, options, cache);
}

Tensor createMatMulInputLHS(Graph& graph, const Type& inputType,
                            const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const DebugContext& debugContext, const OptionFlags& options,
                            PlanningCache* cache) {
  return createPart(graph, inputType, inputType, aShape, bShape, debugContext, options, cache,
                    false, Part::LHS, "poplin::createMatMulInputLHS");
}

Tensor createMatMulInputRHS(Graph& graph, const Type& inputType,
                            const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const DebugContext& debugContext, const OptionFlags& options,
                            PlanningCache* cache) {
  return createPart(graph, inputType, inputType, aShape, bShape, debugContext, options, cache,
                    false, Part::RHS, "poplin::createMatMulInputRHS");
}

Tensor createMatMulInputLHS(Graph& graph, const Type& inputType, const Type& outputType,
                            const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const DebugContext& debugContext, const OptionFlags& options,
                            PlanningCache* cache) {
  return createPart(graph, inputType, outputType, aShape, bShape, debugContext, options, cache,
                    false, Part::LHS, "poplin::createMatMulInputLHS");
}

Tensor createMatMulInputRHS(Graph& graph, const Type& inputType, const Type& outputType,
                            const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const DebugContext& debugContext, const OptionFlags& options,
                            PlanningCache* cache) {
  return createPart(graph, inputType, outputType, aShape, bShape, debugContext, options, cache,
                    false, Part::RHS, "poplin::createMatMulInputRHS");
}

Tensor createMatMulOutput(Graph& graph, const Type& inputType, const Type& outputType,
                          const std::vector<std::size_t>& aShape,
                          const std::vector<std::size_t>& bShape, const DebugContext& debugContext,
                          const OptionFlags& options, PlanningCache* cache) {
  return createPart(graph, inputType, outputType, aShape, bShape, debugContext, options, cache,
                    false, Part::Output, "poplin::createMatMulOutput");
}

Tensor createMatMulOutput(Graph& graph, const Type& dataType,
                          const std::vector<std::size_t>& aShape,
                          const std::vector<std::size_t>& bShape, const DebugContext& debugContext,
                          const OptionFlags& options, PlanningCache* cache) {
  return createMatMulOutput(graph, dataType, dataType, aShape, bShape, debugContext, options,
                            cache);
}

void matMulReportPlan(std::ostream& out, const Graph& graph, const Type& inputType,
                      const Type& outputType, const std::vector<std::size_t>& aShape,
                      const std::vector<std::size_t>& bShape, const OptionFlags& options,
                      PlanningCache* cache) {
  reportPlan(out,
             planShapes(graph, inputType, outputType, aShape, bShape, false, options, cache,
                        "poplin::matMulReportPlan"),
             false);
}

void matMulGroupedReportPlan(std::ostream& out, const Graph& graph, const Type& inputType,
                             const Type& outputType, const std::vector<std::size_t>& aShape,
                             const std::vector<std::size_t>& bShape, const OptionFlags& options,
                             PlanningCache* cache) {
  reportPlan(out,
             planShapes(graph, inputType, outputType, aShape, bShape, true, options, cache,
                        "poplin::matMulGroupedReportPlan"),
             true);
}

namespace {

/// C += k . (A . B): the product in C's type, then popops::scaledAddTo (as PopLibs does).
template <class Scale>
void accumulate(Graph& graph, const Tensor& C, const Scale& k, const Tensor& A, const Tensor& B,
                Sequence& prog, const DebugContext& debugContext, const OptionFlags& options,
                PlanningCache* cache, bool grouped) {
  const std::string op = grouped ? "poplin::matMulGroupedAcc" : "poplin::matMulAcc";
  const poputil::PoplibsOpDebugInfo di(debugContext, {},
                                       grouped ? "MatMulGroupedAcc" : "MatMulAcc");
  poplibs_support::checkValid(C, op, "C");
  const Tensor product =
      matMulNew(graph, A, B, prog, C.elementType(), {di, "product"}, options, cache, grouped, op);
  if (product.shape() != C.shape())
    throw poputil::poplibs_error(op + ": C has shape " + C.shapeToString() + " but A " +
                                 A.shapeToString() + " x B " + B.shapeToString() + " is " +
                                 product.shapeToString());
  popops::scaledAddTo(graph, C, product, k, prog, {di, "accumulate"});
}

} // namespace

void matMulAcc(Graph& graph, const Tensor& C, float k, const Tensor& A, const Tensor& B,
               Sequence& prog, const DebugContext& debugContext, const OptionFlags& options,
               PlanningCache* cache) {
  accumulate(graph, C, k, A, B, prog, debugContext, options, cache, false);
}

void matMulAcc(Graph& graph, const Tensor& C, const Tensor& k, const Tensor& A, const Tensor& B,
               Sequence& prog, const DebugContext& debugContext, const OptionFlags& options,
               PlanningCache* cache) {
  accumulate(graph, C, k, A, B, prog, debugContext, options, cache, false);
}

void matMulGroupedAcc(Graph& graph, const Tensor& C, float k, const Tensor& A, const Tensor& B,
                      Sequence& prog, const DebugContext& debugContext, const OptionFlags& options,
                      PlanningCache* cache) {
  accumulate(graph, C, k, A, B, prog, debugContext, options, cache, true);
}

void matMulGroupedAcc(Graph& graph, const Tensor& C, const Tensor& k, const Tensor& A,
                      const Tensor& B, Sequence& prog, const DebugContext& debugContext,
                      const OptionFlags& options, PlanningCache* cache) {
  accumulate(graph, C, k, A, B, prog, debugContext, options, cache, true);
}

Tensor matMulGrouped(Graph& graph, const Tensor& A, const Tensor& B, Sequence& prog,
                     const Type& outputType, const DebugContext& debugContext,
                     const OptionFlags& options, PlanningCache* cache) {
  return matMulNew(graph, A, B, prog, outputType, debugContext, options, cache, true,
                   "poplin::matMulGrouped");
}

void matMulGroupedWithOutput(Graph& graph, const Tensor& A, const Tensor& B, Tensor& out,
                             Sequence& prog, const DebugContext& debugContext,
                             const OptionFlags& options, PlanningCache* cache) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "MatMulGroupedWithOutput");
  withOutput(graph, A, B, out, prog, di, options, cache, true, "poplin::matMulGroupedWithOutput");
}

Tensor createMatMulGroupedInputLHS(Graph& graph, const Type& inputType, const Type& outputType,
                                   const std::vector<std::size_t>& aShape,
                                   const std::vector<std::size_t>& bShape,
                                   const DebugContext& debugContext, const OptionFlags& options,
                                   PlanningCache* cache) {
  return createPart(graph, inputType, outputType, aShape, bShape, debugContext, options, cache,
                    true, Part::LHS, "poplin::createMatMulGroupedInputLHS");
}

Tensor createMatMulGroupedInputRHS(Graph& graph, const Type& inputType, const Type& outputType,
                                   const std::vector<std::size_t>& aShape,
                                   const std::vector<std::size_t>& bShape,
                                   const DebugContext& debugContext, const OptionFlags& options,
                                   PlanningCache* cache) {
  return createPart(graph, inputType, outputType, aShape, bShape, debugContext, options, cache,
                    true, Part::RHS, "poplin::createMatMulGroupedInputRHS");
}

Tensor createMatMulGroupedOutput(Graph& graph, const Type& inputType, const Type& outputType,
                                 const std::vector<std::size_t>& aShape,
                                 const std::vector<std::size_t>& bShape,
                                 const DebugContext& debugContext, const OptionFlags& options,
                                 PlanningCache* cache) {
  return createPart(graph, inputType, outputType, aShape, bShape, debugContext, options, cache,
                    true, Part::Output, "poplin::createMatMulGroupedOutput");
}

namespace {
Tensor preArrange(Graph& graph, const std::vector<std::size_t>& aShape, const Tensor& B,
                  Sequence& prog, const Type& outputType, const DebugContext& debugContext,
                  const OptionFlags& options, PlanningCache* cache, bool grouped,
                  const std::string& op) {
  poplibs_support::checkValid(B, op, "B");
  const ConvPlan p = planShapes(graph, B.elementType(), outputType, aShape, B.shape(), grouped,
                                options, cache, op);
  return rowMajor(graph, B, rhsMapping(p), prog, {debugContext, "preArrangeRHS"});
}
} // namespace

Tensor preArrangeMatMulInputRHS(Graph& graph, const std::vector<std::size_t>& aShape,
                                const Tensor& B, Sequence& prog, const Type& outputType,
                                const DebugContext& debugContext, const OptionFlags& options,
                                PlanningCache* cache) {
  return preArrange(graph, aShape, B, prog, outputType, debugContext, options, cache, false,
                    "poplin::preArrangeMatMulInputRHS");
}

Tensor preArrangeMatMulInputRHS(Graph& graph, const std::vector<std::size_t>& aShape,
                                const Tensor& B, Sequence& prog, const DebugContext& debugContext,
                                const OptionFlags& options, PlanningCache* cache) {
  poplibs_support::checkValid(B, "poplin::preArrangeMatMulInputRHS", "B");
  return preArrangeMatMulInputRHS(graph, aShape, B, prog, B.elementType(), debugContext, options,
                                  cache);
}

Tensor preArrangeMatMulGroupedInputRHS(Graph& graph, const std::vector<std::size_t>& aShape,
                                       const Tensor& B, Sequence& prog, const Type& outputType,
                                       const DebugContext& debugContext, const OptionFlags& options,
                                       PlanningCache* cache) {
  return preArrange(graph, aShape, B, prog, outputType, debugContext, options, cache, true,
                    "poplin::preArrangeMatMulGroupedInputRHS");
}

Tensor transposeGroupedMatrix(const Tensor& A) {
  if (A.rank() != 3)
    throw poputil::poplibs_error("poplin::transposeGroupedMatrix: A must have shape [G,M,N], not " +
                                 A.shapeToString());
  return A.dimShuffle({0, 2, 1});
}

} // namespace poplin
