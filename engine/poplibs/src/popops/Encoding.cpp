#include "poplibs_support/TileWork.hpp"

#include <popops/Encoding.hpp>
#include <popops/Zero.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;

namespace {

const std::string kOneHot = "popops::encodeOneHot";

void checkOneHot(const Tensor& indices, const Tensor& encoded) {
  poplibs_support::checkValid(indices, kOneHot, "indices");
  poplibs_support::checkValid(encoded, kOneHot, "encoded");
  poplibs_support::checkType(indices.elementType(), {UNSIGNED_INT, INT}, kOneHot, "indices");
  poplibs_support::checkType(encoded.elementType(), {FLOAT, HALF, INT, UNSIGNED_INT}, kOneHot,
                             "encoded");
  if (indices.rank() != 1)
    throw poputil::poplibs_error(kOneHot + ": indices has shape " + indices.shapeToString() +
                                 "; it must be 1-dimensional");
  if (encoded.rank() != 2 || encoded.dim(0) != indices.dim(0))
    throw poputil::poplibs_error(kOneHot + ": encoded has shape " + encoded.shapeToString() +
                                 "; it must be [" + std::to_string(indices.dim(0)) +
                                 ", classes] for indices of shape " + indices.shapeToString());
}

/// One vertex per group of rows of `encoded`, on the tile holding the group's first row.
void addOneHotVertices(Graph& graph, const ComputeSet& cs, const std::string& vertexType,
                       const Tensor& indices, const Tensor& encoded, const Tensor* on,
                       const Tensor* off) {
  if (encoded.numElements() == 0) return;
  const auto work = poplibs_support::splitRowsByTile(graph, encoded, kOneHot);
  for (unsigned tile = 0; tile < work.size(); ++tile)
    for (const auto& rows : work[tile]) {
      auto v = graph.addVertex(cs, vertexType);
      graph.connect(v["indices"], indices.slice(rows));
      graph.connect(v["out"], encoded.slice(rows).flatten());
      if (on) graph.connect(v["on"], on->reshape({}));
      if (off) graph.connect(v["off"], off->reshape({}));
      graph.setInitialValue(v["sliceLength"], unsigned(encoded.dim(1)));
      graph.setTileMapping(v, tile);
    }
}

void iotaImpl(Graph& graph, const Tensor& t, Type expected, int start, program::Sequence& prog,
              const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "iota");
  const std::string op = "popops::iota";
  poplibs_support::checkValid(t, op, "t");
  if (t.elementType() != expected)
    throw poputil::poplibs_error(
        op + ": t has element type " + t.elementType().toString() + "; with a start of type " +
        (expected == INT ? "int" : "unsigned") + " it must be " + expected.toString());
  if (t.rank() != 1)
    throw poputil::poplibs_error(op + ": t has shape " + t.shapeToString() +
                                 "; it must be 1-dimensional");
  const ComputeSet cs = graph.addComputeSet(di);
  const auto work = poplibs_support::splitTileWork(graph, t, 32, op);
  for (unsigned tile = 0; tile < work.size(); ++tile)
    for (const auto& piece : work[tile]) {
      auto v = graph.addVertex(cs, poputil::templateVertex("popops::Iota", expected));
      graph.connect(v["out"], t.slice(piece));
      const unsigned s = unsigned(start) + unsigned(piece.begin());
      if (expected == INT)
        graph.setInitialValue(v["start"], int(s));
      else
        graph.setInitialValue(v["start"], s);
      graph.setTileMapping(v, tile);
    }
  prog.add(program::Execute(cs, di));
}

} // namespace

void encodeOneHot(Graph& graph, const Tensor& indices, const Tensor& encoded,
                  program::Sequence& prog, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "encodeOneHot");
  checkOneHot(indices, encoded);
  zero(graph, encoded, prog, di);
  const ComputeSet cs = graph.addComputeSet(di);
  addOneHotVertices(
      graph, cs,
      poputil::templateVertex("popops::EncodeOneHot", indices.elementType(), encoded.elementType()),
      indices, encoded, nullptr, nullptr);
  prog.add(program::Execute(cs, di));
}

void encodeOneHot(Graph& graph, const Tensor& indices, const Tensor& encoded,
                  program::Sequence& prog, const Tensor& on, const Tensor& off,
                  const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "encodeOneHot");
  checkOneHot(indices, encoded);
  for (const auto& [t, name] : {std::make_pair(&on, "on"), std::make_pair(&off, "off")}) {
    poplibs_support::checkValid(*t, kOneHot, name);
    if (t->numElements() != 1 || t->elementType() != encoded.elementType())
      throw poputil::poplibs_error(kOneHot + ": " + name + " (" + t->elementType().toString() +
                                   ", shape " + t->shapeToString() +
                                   ") must be one element of encoded's type " +
                                   encoded.elementType().toString());
  }
  const ComputeSet cs = graph.addComputeSet(di);
  addOneHotVertices(graph, cs,
                    poputil::templateVertex("popops::EncodeOneHotCustomValues",
                                            indices.elementType(), encoded.elementType()),
                    indices, encoded, &on, &off);
  prog.add(program::Execute(cs, di));
}

void iota(Graph& graph, const Tensor& t, unsigned startInteger, program::Sequence& prog,
          const DebugContext& debugContext) {
  iotaImpl(graph, t, UNSIGNED_INT, int(startInteger), prog, debugContext);
}

void iota(Graph& graph, const Tensor& t, int startInteger, program::Sequence& prog,
          const DebugContext& debugContext) {
  iotaImpl(graph, t, INT, startInteger, prog, debugContext);
}

} // namespace popops
