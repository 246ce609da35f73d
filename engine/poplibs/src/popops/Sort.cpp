#include "RowWork.hpp"
#include "poplibs_support/TileWork.hpp"

#include <ostream>
#include <popops/Sort.hpp>
#include <popops/SortOrder.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;

std::ostream& operator<<(std::ostream& os, const SortOrder& o) {
  switch (o) {
  case SortOrder::NONE:
    return os << "none";
  case SortOrder::ASCENDING:
    return os << "ascending";
  case SortOrder::DESCENDING:
    return os << "descending";
  }
  return os << "SortOrder(" << int(o) << ')';
}

namespace {

const std::initializer_list<Type> kTypes = {FLOAT, HALF, INT, UNSIGNED_INT};

void checkSortable(const Tensor& t, unsigned dim, const std::string& op, const std::string& name) {
  poplibs_support::checkValid(t, op, name);
  poplibs_support::checkType(t.elementType(), kTypes, op, name);
  if (dim >= t.rank())
    throw poputil::poplibs_error(op + ": dim " + std::to_string(dim) + " is not a dimension of " +
                                 name + " of shape " + t.shapeToString());
}

void sortRows(Graph& graph, const Tensor& k, const Tensor* v, unsigned dim, program::Sequence& prog,
              const DebugContext& di, const std::string& op) {
  if (k.numElements() == 0) return;
  const Tensor keys = detail::rowsAlong(k, dim);
  const auto work = poplibs_support::splitRowsByTile(graph, keys, op);
  const ComputeSet cs = graph.addComputeSet(di);
  if (v)
    detail::addRowVertices(
        graph, cs,
        poputil::templateVertex("popops::HeapSortVertexKV", k.elementType(), v->elementType()),
        work, {{"key", keys}, {"value", detail::rowsAlong(*v, dim)}}, unsigned(k.dim(dim)));
  else
    detail::addRowVertices(graph, cs,
                           poputil::templateVertex("popops::HeapSortVertex", k.elementType()), work,
                           {{"out", keys}}, unsigned(k.dim(dim)));
  prog.add(program::Execute(cs, di));
}

void checkKeyValue(const Tensor& k, const Tensor& v, unsigned dim, const std::string& op) {
  checkSortable(k, dim, op, "k");
  checkSortable(v, dim, op, "v");
  if (k.shape() != v.shape())
    throw poputil::poplibs_error(op + ": k has shape " + k.shapeToString() + " but v has " +
                                 v.shapeToString());
}

} // namespace

void sortInPlace(Graph& graph, const Tensor& t, unsigned dim, program::Sequence& prog,
                 const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "sortInPlace");
  checkSortable(t, dim, "popops::sortInPlace", "t");
  sortRows(graph, t, nullptr, dim, prog, di, "popops::sortInPlace");
}

Tensor sort(Graph& graph, const Tensor& t, unsigned dim, program::Sequence& prog,
            const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "sort");
  checkSortable(t, dim, "popops::sort", "t");
  const Tensor out = graph.clone(t, {di, "sorted"});
  prog.add(program::Copy(t, out, false, di));
  sortRows(graph, out, nullptr, dim, prog, di, "popops::sort");
  return out;
}

void sortKeyValueInPlace(Graph& graph, const Tensor& k, const Tensor& v, unsigned dim,
                         program::Sequence& prog, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "sortKeyValueInPlace");
  checkKeyValue(k, v, dim, "popops::sortKeyValueInPlace");
  sortRows(graph, k, &v, dim, prog, di, "popops::sortKeyValueInPlace");
}

Tensor sortKeyValue(Graph& graph, const Tensor& k, const Tensor& v, unsigned dim,
                    program::Sequence& prog, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "sortKeyValue");
  checkKeyValue(k, v, dim, "popops::sortKeyValue");
  const Tensor keys = graph.clone(k, {di, "keys"});
  const Tensor values = graph.clone(v, {di, "sorted"});
  prog.add(program::Copy(k, keys, false, di));
  prog.add(program::Copy(v, values, false, di));
  sortRows(graph, keys, &values, dim, prog, di, "popops::sortKeyValue");
  return values;
}

} // namespace popops
