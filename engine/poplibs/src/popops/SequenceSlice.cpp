// sequenceSlice: one popops::SequenceSlice vertex reads the run table and copies the rows, on
// the tile holding the start of tOut (the rows travel to and from it by exchange).
#include <popops/SequenceSlice.hpp>
#include <popops/Zero.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;

namespace popops {

void sequenceSlice(Graph& graph, const Tensor& tIn, const Tensor& tOut, const Tensor& tN,
                   const Tensor& tInOffset, const Tensor& tOutOffset, bool zeroUnused,
                   program::Sequence& prog, const DebugContext& debugContext) {
  const std::string op = "popops::sequenceSlice";
  const poputil::PoplibsOpDebugInfo di(debugContext,
                                       DI_ARGS(tIn, tOut, tN, tInOffset, tOutOffset, zeroUnused));
  for (const auto* t : {&tIn, &tOut, &tN, &tInOffset, &tOutOffset})
    if (!t->valid()) throw poputil::poplibs_error(op + ": every tensor must be valid");
  if (tIn.rank() < 2 || tOut.rank() < 2)
    throw poputil::poplibs_error(op + ": tIn " + tIn.shapeToString() + " and tOut " +
                                 tOut.shapeToString() + " must have rank 2 or more");
  if (tIn.elementType() != tOut.elementType())
    throw poputil::poplibs_error(op + ": tIn is " + tIn.elementType().toString() + ", tOut " +
                                 tOut.elementType().toString());
  const std::size_t row = tIn.numElements() / tIn.dim(0);
  if (tIn.dim(0) == 0 || tOut.dim(0) == 0 || tOut.numElements() / tOut.dim(0) != row)
    throw poputil::poplibs_error(op + ": the rows of tIn " + tIn.shapeToString() + " and tOut " +
                                 tOut.shapeToString() + " must have the same number of elements");
  for (const auto* t : {&tN, &tInOffset, &tOutOffset}) {
    if (t->rank() != 1 || t->numElements() != tN.numElements())
      throw poputil::poplibs_error(op + ": tN, tInOffset and tOutOffset must be 1-D of one size");
    if (t->elementType() != UNSIGNED_INT)
      throw poputil::poplibs_error(op +
                                   ": tN, tInOffset and tOutOffset must be unsigned int, not " +
                                   t->elementType().toString());
  }
  if (zeroUnused) popops::zero(graph, tOut, prog, {di, "zeroUnused"});
  if (tN.numElements() == 0) return;
  const ComputeSet cs = graph.addComputeSet({di, "sequenceSlice"});
  const VertexRef v =
      graph.addVertex(cs, poputil::templateVertex("popops::SequenceSlice", tIn.elementType()));
  graph.connect(v["srcT"], tIn.flatten());
  graph.connect(v["dstT"], tOut.flatten());
  graph.connect(v["nElementsT"], tN);
  graph.connect(v["srcOffsetT"], tInOffset);
  graph.connect(v["dstOffsetT"], tOutOffset);
  graph.setInitialValue(v["regionSize"], unsigned(row));
  const auto mapping = graph.getTileMapping(tOut.flatten().slice(0, 1), false);
  unsigned tile = 0;
  for (unsigned t = 0; t < mapping.size(); ++t)
    if (!mapping[t].empty()) tile = t;
  graph.setTileMapping(v, tile);
  prog.add(program::Execute(cs, {di}));
}

} // namespace popops
