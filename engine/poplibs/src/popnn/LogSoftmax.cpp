// log(softmax(x)) = x - max - log(sum(exp(x - max))), per row of the innermost dimension, from
// popops operations (the maximum keeps exp from overflowing, as the stable softmax does).
#include "poplibs_support/TileWork.hpp"

#include <popnn/LogSoftmax.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {
namespace {

using namespace poplar;
using poplar::program::Sequence;

void logSoftmaxRows(Graph& graph, const Tensor& t, Sequence& prog, const DebugContext& di,
                    const std::string& op) {
  poplibs_support::checkValid(t, op, "t");
  poplibs_support::checkType(t.elementType(), {FLOAT, HALF}, op, "t");
  if (t.rank() == 0 || t.dim(t.rank() - 1) == 0)
    throw poputil::poplibs_error(op + ": t has shape " + t.shapeToString() +
                                 "; log-softmax needs a non-empty innermost dimension");
  if (t.containsAliases())
    throw poputil::poplibs_error(op + ": t of shape " + t.shapeToString() +
                                 " contains aliased elements; it is written in place");
  const std::size_t cols = t.dim(t.rank() - 1);
  const Tensor x = t.reshape({t.numElements() / cols, cols});
  const Tensor max = popops::reduce(graph, x, {1}, popops::Operation::MAX, prog, {di, "max"});
  popops::subInPlace(graph, x, max.expand({1}), prog, {di, "subtractMax"});
  const Tensor e = popops::exp(graph, x, prog, {di, "exp"});
  const Tensor sum = popops::reduce(graph, e, {1}, popops::Operation::ADD, prog, {di, "sum"});
  popops::logInPlace(graph, sum, prog, {di, "logSum"});
  popops::subInPlace(graph, x, sum.expand({1}), prog, {di, "subtractLogSum"});
}

} // namespace

void logSoftmaxInPlace(Graph& graph, Tensor t, Sequence& prog, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LogSoftmax");
  logSoftmaxRows(graph, t, prog, di, "popnn::logSoftmaxInPlace");
}

Tensor logSoftmax(Graph& graph, Tensor t, Sequence& prog, const DebugContext& debugContext) {
  const std::string op = "popnn::logSoftmax";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "LogSoftmax");
  poplibs_support::checkValid(t, op, "t");
  const Tensor out = graph.clone(t, {di, "output"});
  prog.add(program::Copy(t, out, false, {di, "copy"}));
  logSoftmaxRows(graph, out, prog, di, op);
  return out;
}

} // namespace popnn
