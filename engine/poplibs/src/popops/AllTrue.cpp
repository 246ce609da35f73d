// allTrue as PopLibs builds it from other operations: the elements as 0/1 integers, their
// minimum over every dimension (a reduction spread over the tiles), and that back as BOOL.
#include <popops/AllTrue.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

poplar::Tensor allTrue(poplar::Graph& graph, poplar::Tensor A, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext) {
  const std::string op = "popops::allTrue";
  if (!A.valid()) throw poputil::poplibs_error(op + ": A is an invalid tensor");
  if (A.elementType() != poplar::BOOL)
    throw poputil::poplibs_error(op + ": A is " + A.elementType().toString() +
                                 "; allTrue needs a bool tensor");
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "AllTrue");
  if (A.numElements() == 0) {
    poplar::Tensor t = graph.addConstant(poplar::BOOL, {}, true, {di, "result"});
    graph.setTileMapping(t, 0);
    return t;
  }
  namespace pe = expr;
  const poplar::Tensor asInt = map(graph, pe::Cast(pe::_1, poplar::INT), {A.flatten()}, prog, di);
  const poplar::Tensor minimum = reduce(graph, asInt, {0}, Operation::MIN, prog, di);
  return map(graph, pe::Cast(pe::_1, poplar::BOOL), {minimum}, prog, di);
}

} // namespace popops
