#include <functional>
#include <numeric>
#include <popops/CircBuf.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>
#include <string>

using namespace poplar;
using namespace poplar::program;

namespace popops {

namespace {
std::size_t elementsOf(const std::vector<std::size_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), std::size_t(1), std::multiplies<>());
}
} // namespace

CircBuf::CircBuf(Graph& graph_, const Type& dataType, unsigned size,
                 const std::vector<std::size_t>& shape_, const DebugContext& debugContext)
    : graph(graph_), size_(size), shape(shape_) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(dataType, size, shape_));
  if (size == 0)
    throw poputil::poplibs_error("popops::CircBuf: the buffer needs at least one entry");
  const std::size_t elements = elementsOf(shape);
  if (elements == 0) throw poputil::poplibs_error("popops::CircBuf: an entry has no elements");
  // Sliced by entry, so every tile holds all the entries of its elements: a slice or an update
  // is then local to each tile, as PopLibs lays its history out.
  hist = createSliceableTensor(graph, dataType, {size_, elements}, {0}, {1}, 0, {di, "buffer"});
  index = graph.addVariable(UNSIGNED_INT, {1}, {di, "index"});
  graph.setTileMapping(index, 0);
  graph.setInitialValue(index, std::vector<unsigned>{0});
  graph.setInitialValue(hist, std::vector<float>(size_ * elements, 0.0f));
}

Tensor CircBuf::prev(unsigned i, Sequence& seq, const DebugContext& debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(i));
  if (i >= size_)
    throw poputil::poplibs_error("popops::CircBuf::prev: entry " + std::to_string(i) +
                                 " back is beyond the buffer's " + std::to_string(size_) +
                                 " entries");
  namespace pe = popops::expr;
  // (index + size - i) % size, on the device: the index is only known at run time.
  const Tensor position = map(graph, (pe::_1 + pe::Const(size_ - i)) % pe::Const(size_), {index},
                              seq, {di, "position"});
  return dynamicSlice(graph, hist, position, {0}, {1}, seq, {di}).reshape(shape);
}

void CircBuf::add(Tensor t, Sequence& seq, const DebugContext& debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t));
  if (t.numElements() != hist.dim(1))
    throw poputil::poplibs_error("popops::CircBuf::add: the tensor has " +
                                 std::to_string(t.numElements()) + " elements, an entry " +
                                 std::to_string(hist.dim(1)));
  if (t.elementType() != hist.elementType())
    throw poputil::poplibs_error("popops::CircBuf::add: the tensor is " +
                                 t.elementType().toString() + ", the buffer " +
                                 hist.elementType().toString());
  namespace pe = popops::expr;
  mapInPlace(graph, (pe::_1 + pe::Const(1u)) % pe::Const(size_), {index}, seq, {di, "advance"});
  dynamicUpdate(graph, hist, t.flatten().expand({0}), index, {0}, {1}, seq, {di});
}

Graph::TileToTensorMapping CircBuf::getTileMapping() {
  return graph.getTileMapping(hist);
}

} // namespace popops
