#include "poplibs_support/TileWork.hpp"

#include <algorithm>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {
namespace {

using namespace poplar;
using poplar::program::Sequence;

const std::string kOp = "popops::reduce";

/// Stage 1 never cuts a tile's work into pieces smaller than this (elements of input), nor
/// stage 2 into fewer outputs per vertex: smaller vertices cost more overhead than they save.
constexpr std::size_t kMinElementsPerVertex = 32;
constexpr std::size_t kMinOutputsPerVertex = 16;

std::string listString(const std::vector<std::size_t>& dims) {
  std::string s;
  for (auto d : dims)
    s += (s.empty() ? "" : ",") + std::to_string(d);
  return "{" + s + "}";
}

/// The input viewed as [outElements, reducedElements]: kept dimensions (in order) first.
struct ReduceShape {
  std::vector<unsigned> permutation;
  std::vector<std::size_t> outShape;
  std::size_t outElements = 1, reducedElements = 1;
};

ReduceShape reduceShape(const Tensor& in, const std::vector<std::size_t>& dims) {
  std::vector<bool> reduced(in.rank(), false);
  for (auto d : dims) {
    if (d >= in.rank())
      throw poputil::poplibs_error(kOp + ": dimension " + std::to_string(d) + " of " +
                                   listString(dims) + " is out of range for an input of shape " +
                                   in.shapeToString());
    if (reduced[d])
      throw poputil::poplibs_error(kOp + ": dimension " + std::to_string(d) + " appears twice in " +
                                   listString(dims));
    reduced[d] = true;
  }
  ReduceShape s;
  for (unsigned d = 0; d < in.rank(); ++d)
    if (!reduced[d]) {
      s.permutation.push_back(d);
      s.outShape.push_back(in.dim(d));
      s.outElements *= in.dim(d);
    }
  for (unsigned d = 0; d < in.rank(); ++d)
    if (reduced[d]) {
      s.permutation.push_back(d);
      s.reducedElements *= in.dim(d);
    }
  return s;
}

void checkTypes(const Tensor& in, Type outType) {
  poplibs_support::checkValid(in, kOp, "the input");
  poplibs_support::checkType(in.elementType(), {FLOAT, HALF, INT, UNSIGNED_INT}, kOp, "the input");
  const Type inType = in.elementType();
  if (inType.isFloatingPoint() ? !outType.isFloatingPoint() : outType != inType)
    throw poputil::poplibs_error(kOp + ": cannot reduce " + inType.toString() + " to " +
                                 outType.toString() +
                                 " (FLOAT and HALF reduce to FLOAT or HALF, integers to their own "
                                 "type)");
}

void checkParams(const ReduceParams& params, Type outType) {
  const bool scaled = params.update || params.useScale;
  if (!scaled) return;
  if (params.op != Operation::ADD && params.op != Operation::SQUARE_ADD)
    throw poputil::poplibs_error(kOp + ": update and scale apply to ADD and SQUARE_ADD, not " +
                                 asString(params.op));
  if (!outType.isFloatingPoint())
    throw poputil::poplibs_error(kOp + ": update and scale need a FLOAT or HALF output, not " +
                                 outType.toString());
  if (params.useScale && !params.scale.valid())
    throw poputil::poplibs_error(kOp + ": ReduceParams::useScale is set but its scale is not a "
                                       "valid tensor");
  if (params.useScale && (params.scale.elementType() != FLOAT || params.scale.numElements() != 1))
    throw poputil::poplibs_error(kOp + ": scale must be a one-element FLOAT tensor, not " +
                                 params.scale.elementType().toString() + " of shape " +
                                 params.scale.shapeToString());
}

/// Elements of one row of the [rows, cols] view that one tile reduces to one partial.
struct Piece {
  std::size_t row;
  std::vector<Interval> elements;
  std::size_t size;
};

/// Cuts a tile's intervals of the [rows, cols] view into per-row pieces of at most `maxPiece`
/// elements. The intervals are in increasing order, so a row's elements arrive together.
std::vector<Piece> rowPieces(const std::vector<Interval>& intervals, std::size_t cols,
                             std::size_t maxPiece) {
  std::vector<Piece> pieces;
  for (const auto& iv : intervals)
    for (std::size_t pos = iv.begin(); pos < iv.end();) {
      const std::size_t row = pos / cols;
      if (pieces.empty() || pieces.back().row != row || pieces.back().size == maxPiece)
        pieces.push_back({row, {}, 0});
      auto& p = pieces.back();
      const std::size_t end = std::min({iv.end(), (row + 1) * cols, pos + maxPiece - p.size});
      p.elements.emplace_back(pos, end);
      p.size += end - pos;
      pos = end;
    }
  return pieces;
}

/// Stage 1 work: per tile, groups of pieces, one group per vertex.
std::vector<std::vector<std::vector<Piece>>> planPartials(const Graph& graph, const Tensor& view) {
  const auto mapping = poplibs_support::tileMapping(graph, view, kOp);
  const std::size_t cols = view.dim(1), workers = graph.getTarget().getNumWorkerContexts();
  std::vector<std::vector<std::vector<Piece>>> plan(mapping.size());
  for (std::size_t tile = 0; tile < mapping.size(); ++tile) {
    std::size_t total = 0;
    for (const auto& iv : mapping[tile])
      total += iv.size();
    const std::size_t budget = std::max((total + workers - 1) / workers, kMinElementsPerVertex);
    auto& groups = plan[tile];
    std::size_t groupSize = 0;
    for (auto& piece : rowPieces(mapping[tile], cols, budget)) {
      if (groups.empty() || groupSize + piece.size > budget) {
        groups.emplace_back();
        groupSize = 0;
      }
      groupSize += piece.size;
      groups.back().push_back(std::move(piece));
    }
  }
  return plan;
}

/// The compute set `css[i]`, added (named `name` under di) when css has fewer.
ComputeSet stage(Graph& graph, std::vector<ComputeSet>& css, std::size_t i, const DebugContext& di,
                 const char* name) {
  while (css.size() <= i)
    css.push_back(graph.addComputeSet({di, css.empty() ? "Partials" : name}));
  return css[i];
}

bool isLogical(Operation op) {
  return op == Operation::LOGICAL_AND || op == Operation::LOGICAL_OR;
}

/// Adds the two stages' vertices to css[0] and css[1] (created when missing).
void reduceInto(Graph& graph, const Tensor& in, const Tensor& out,
                const std::vector<std::size_t>& dims, const ReduceParams& params,
                std::vector<ComputeSet>& css, const DebugContext& di) {
  if (params.op == Operation::LOG_ADD)
    throw poputil::poplibs_error(kOp + ": LOG_ADD reductions are not provided");
  if (isLogical(params.op))
    throw poputil::poplibs_error(kOp + ": " + asString(params.op) +
                                 " reductions are provided by the Sequence forms of reduce and "
                                 "reduceWithOutput only");
  const ReduceShape shape = reduceShape(in, dims);
  if (out.shape() != shape.outShape)
    throw poputil::poplibs_error(kOp + ": reducing an input of shape " + in.shapeToString() +
                                 " over dimensions " + listString(dims) + " gives shape " +
                                 listString(shape.outShape) + ", but the output has shape " +
                                 out.shapeToString());
  checkParams(params, out.elementType());
  if (shape.outElements == 0) return;
  if (shape.reducedElements == 0)
    throw poputil::poplibs_error(kOp + ": the reduced dimensions " + listString(dims) +
                                 " of an input of shape " + in.shapeToString() +
                                 " hold no elements");
  const Type inType = in.elementType(), outType = out.elementType();
  const Type partialsType = inType == HALF ? FLOAT : inType;
  const Tensor view =
      in.dimShuffle(shape.permutation).reshape({shape.outElements, shape.reducedElements});
  const Tensor flatView = view.flatten();

  // Stage 1: each tile reduces its own elements of each output element to partials it keeps.
  const auto plan = planPartials(graph, view);
  std::size_t numPartials = 0;
  for (const auto& groups : plan)
    for (const auto& g : groups)
      numPartials += g.size();
  const Tensor partials = graph.addVariable(partialsType, {numPartials}, {di, "partials"});
  std::vector<std::vector<std::size_t>> partialsOfRow(shape.outElements);
  const ComputeSet partialCs = stage(graph, css, 0, di, "Partials");
  const std::string partialVertex =
      poputil::templateVertex("popops::ReducePartial", asString(params.op), inType);
  std::size_t next = 0;
  for (unsigned tile = 0; tile < plan.size(); ++tile) {
    const std::size_t tileBegin = next;
    for (const auto& group : plan[tile]) {
      std::vector<Tensor> edges;
      for (const auto& piece : group) {
        edges.push_back(poplar::concat(flatView.slices(piece.elements)));
        partialsOfRow[piece.row].push_back(next + edges.size() - 1);
      }
      const auto v = graph.addVertex(partialCs, partialVertex);
      graph.connect(v["in"], edges);
      graph.connect(v["out"], partials.slice(next, next + group.size()));
      graph.setTileMapping(v, tile);
      next += group.size();
    }
    graph.setTileMapping(partials.slice(tileBegin, next), tile);
  }

  // Stage 2: the tile holding each output element combines that element's partials.
  const bool scaled = params.update || params.useScale;
  Tensor scale;
  std::string finalVertex;
  if (scaled) {
    scale = params.useScale ? params.scale.reshape({})
                            : graph.addConstant(FLOAT, {}, 1.0f, {di, "scale"});
    if (!params.useScale) graph.setTileMapping(scale, 0);
    finalVertex = poputil::templateVertex("popops::ScaledReduceFinal", outType, params.update);
  } else {
    const Operation combine = params.op == Operation::SQUARE_ADD ? Operation::ADD : params.op;
    finalVertex =
        poputil::templateVertex("popops::ReduceFinal", asString(combine), partialsType, outType);
  }
  const ComputeSet finalCs = stage(graph, css, 1, di, "Combine");
  const Tensor flatOut = out.flatten();
  const auto work = poplibs_support::splitTileWork(graph, out, kMinOutputsPerVertex, kOp);
  for (unsigned tile = 0; tile < work.size(); ++tile)
    for (const auto& piece : work[tile]) {
      std::vector<Tensor> edges;
      for (std::size_t row = piece.begin(); row < piece.end(); ++row) {
        std::vector<Tensor> parts;
        for (auto p : partialsOfRow[row])
          parts.push_back(partials.slice(p, p + 1));
        edges.push_back(concat(parts));
      }
      const auto v = graph.addVertex(finalCs, finalVertex);
      graph.connect(v["partials"], edges);
      graph.connect(v["out"], flatOut.slice(piece));
      if (scaled) graph.connect(v["scale"], scale);
      graph.setTileMapping(v, tile);
    }
}

/// reduceInto with compute sets of its own, executed in `prog`.
void reduceInto(Graph& graph, const Tensor& in, const Tensor& out,
                const std::vector<std::size_t>& dims, const ReduceParams& params, Sequence& prog,
                const DebugContext& di) {
  std::vector<ComputeSet> css;
  reduceInto(graph, in, out, dims, params, css, di);
  if (css.size() > 0) prog.add(program::Execute(css[0], {di, "Partials"}));
  if (css.size() > 1) prog.add(program::Execute(css[1], {di, "Combine"}));
}

Tensor newOutput(Graph& graph, const Tensor& in, const Type& outType,
                 const std::vector<std::size_t>& dims, const ReduceParams& params,
                 const DebugContext& di) {
  checkTypes(in, outType);
  if (params.update)
    throw poputil::poplibs_error(kOp + ": update needs an existing output: use reduceWithOutput");
  const Tensor out = graph.addVariable(outType, reduceShape(in, dims).outShape, {di, "output"});
  poputil::mapTensorLinearly(graph, out);
  return out;
}

/// LOGICAL_AND / LOGICAL_OR of BOOL elements: the elements as 0/1 integers, their MIN / MAX,
/// and that back as BOOL (into `out` when given).
Tensor logicalReduce(Graph& graph, const Tensor& in, const Type& outType,
                     const std::vector<std::size_t>& dims, const ReduceParams& params,
                     const Tensor* out, Sequence& prog, const DebugContext& di) {
  poplibs_support::checkValid(in, kOp, "the input");
  if (in.elementType() != BOOL || outType != BOOL)
    throw poputil::poplibs_error(kOp + ": " + asString(params.op) + " reduces bool to bool, not " +
                                 in.elementType().toString() + " to " + outType.toString());
  if (params.update || params.useScale)
    throw poputil::poplibs_error(kOp + ": update and scale apply to ADD and SQUARE_ADD, not " +
                                 asString(params.op));
  namespace pe = expr;
  const Tensor asInt = map(graph, pe::Cast(pe::_1, INT), {in}, prog, {di, "toInt"});
  const Operation combine = params.op == Operation::LOGICAL_AND ? Operation::MIN : Operation::MAX;
  const Tensor r = reduce(graph, asInt, dims, combine, prog, di);
  if (out) {
    mapWithOutput(graph, pe::Cast(pe::_1, BOOL), {r}, *out, prog, {di, "toBool"});
    return *out;
  }
  return map(graph, pe::Cast(pe::_1, BOOL), {r}, prog, {di, "toBool"});
}

} // namespace

Tensor reduce(Graph& graph, const Tensor& in, const std::vector<std::size_t>& dims,
              ReduceParams params, Sequence& prog, const DebugContext& debugContext,
              const OptionFlags& options) {
  poplibs_support::checkValid(in, kOp, "the input");
  return reduce(graph, in, in.elementType(), dims, std::move(params), prog, debugContext, options);
}

Tensor reduce(Graph& graph, const Tensor& in, const Type& outType,
              const std::vector<std::size_t>& dims, ReduceParams params, Sequence& prog,
              const DebugContext& debugContext, const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Reduce");
  poplibs_support::checkOptions(options, {}, kOp);
  if (isLogical(params.op))
    return logicalReduce(graph, in, outType, dims, params, nullptr, prog, di);
  const Tensor out = newOutput(graph, in, outType, dims, params, di);
  reduceInto(graph, in, out, dims, params, prog, di);
  return out;
}

Tensor reduce(Graph& graph, const Tensor& in, const Type& outType,
              const std::vector<std::size_t>& dims, ReduceParams params,
              std::vector<ComputeSet>& css, const DebugContext& debugContext,
              const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Reduce");
  poplibs_support::checkOptions(options, {}, kOp);
  const Tensor out = newOutput(graph, in, outType, dims, params, di);
  reduceInto(graph, in, out, dims, params, css, di);
  return out;
}

Tensor reduce(Graph& graph, const Tensor& in, const std::vector<std::size_t>& dims,
              ReduceParams params, std::vector<ComputeSet>& css, const DebugContext& debugContext,
              const OptionFlags& options) {
  poplibs_support::checkValid(in, kOp, "the input");
  return reduce(graph, in, in.elementType(), dims, std::move(params), css, debugContext, options);
}

void reduceWithOutput(Graph& graph, const Tensor& in, const Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<ComputeSet>& css, const DebugContext& debugContext,
                      const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Reduce");
  poplibs_support::checkOptions(options, {}, kOp);
  poplibs_support::checkValid(out, kOp, "the output");
  checkTypes(in, out.elementType());
  reduceInto(graph, in, out, dims, params, css, di);
}

void reduceMany(Graph& graph, const std::vector<SingleReduceOp>& reductions,
                std::vector<Tensor>& outputs, Sequence& prog, const DebugContext& debugContext,
                const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "ReduceMany");
  poplibs_support::checkOptions(options, {}, "popops::reduceMany");
  const bool given = !outputs.empty();
  if (given && outputs.size() != reductions.size())
    throw poputil::poplibs_error(
        "popops::reduceMany: outputs has " + std::to_string(outputs.size()) + " tensors for " +
        std::to_string(reductions.size()) + " reductions (give none, or one per reduction)");
  // Every reduction adds its vertices to the same two compute sets: they run side by side.
  std::vector<ComputeSet> css;
  for (std::size_t i = 0; i < reductions.size(); ++i) {
    const auto& r = reductions[i];
    const DebugContext rdi(di, r.debugName.empty() ? "reduction" + std::to_string(i) : r.debugName);
    poplibs_support::checkValid(r.in, "popops::reduceMany",
                                "reductions[" + std::to_string(i) + "].in");
    if (given) {
      poplibs_support::checkValid(outputs[i], "popops::reduceMany",
                                  "outputs[" + std::to_string(i) + "]");
      checkTypes(r.in, outputs[i].elementType());
      reduceInto(graph, r.in, outputs[i], r.dims, r.params, css, di);
    } else {
      const Type outType = r.useOutType ? r.outType : r.in.elementType();
      outputs.push_back(newOutput(graph, r.in, outType, r.dims, r.params, rdi));
      reduceInto(graph, r.in, outputs.back(), r.dims, r.params, css, di);
    }
  }
  if (css.size() > 0) prog.add(program::Execute(css[0], {di, "Partials"}));
  if (css.size() > 1) prog.add(program::Execute(css[1], {di, "Combine"}));
}

void reduceWithOutput(Graph& graph, const Tensor& in, const Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params, Sequence& prog,
                      const DebugContext& debugContext, const OptionFlags& options) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "Reduce");
  poplibs_support::checkOptions(options, {}, kOp);
  poplibs_support::checkValid(out, kOp, "the output");
  if (isLogical(params.op)) {
    logicalReduce(graph, in, out.elementType(), dims, params, &out, prog, di);
    return;
  }
  checkTypes(in, out.elementType());
  reduceInto(graph, in, out, dims, params, prog, di);
}

} // namespace popops
