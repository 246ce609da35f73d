#include "poplibs_support/TileWork.hpp"

#include <popnn/NonLinearity.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {

const char* asString(NonLinearityType type) {
  switch (type) {
  case NonLinearityType::SIGMOID:
    return "SIGMOID";
  case NonLinearityType::RELU:
    return "RELU";
  case NonLinearityType::TANH:
    return "TANH";
  case NonLinearityType::GELU:
    return "GELU";
  case NonLinearityType::SOFTMAX:
    return "SOFTMAX";
  case NonLinearityType::SOFTMAX_STABLE:
    return "SOFTMAX_STABLE";
  }
  return "?";
}

namespace {

using namespace poplar;
using poplar::program::Sequence;

bool isSoftmax(NonLinearityType type) {
  return type == NonLinearityType::SOFTMAX || type == NonLinearityType::SOFTMAX_STABLE;
}

void checkActivation(const Tensor& t, const std::string& op, const char* name) {
  poplibs_support::checkValid(t, op, name);
  poplibs_support::checkType(t.elementType(), {FLOAT, HALF}, op, name);
}

/// `t` as [rows, innermost dimension]: softmax normalises each row.
Tensor softmaxRows(const Tensor& t, const std::string& op) {
  if (t.rank() == 0 || t.dim(t.rank() - 1) == 0)
    throw poputil::poplibs_error(op +
                                 ": softmax needs a non-empty innermost dimension, but the "
                                 "tensor has shape " +
                                 t.shapeToString());
  const std::size_t cols = t.dim(t.rank() - 1);
  return t.reshape({t.numElements() / cols, cols});
}

/// Softmax built from popops operations, as PopLibs does: (optionally) subtract each row's
/// maximum so exp cannot overflow, exponentiate, divide by the row sums.
void softmaxInPlace(Graph& graph, const Tensor& t, bool stable, Sequence& prog,
                    const DebugContext& di, const std::string& op) {
  const Tensor x = softmaxRows(t, op);
  if (stable) {
    const Tensor max = popops::reduce(graph, x, {1}, popops::Operation::MAX, prog, {di, "max"});
    popops::subInPlace(graph, x, max.expand({1}), prog, {di, "subtractMax"});
  }
  popops::expInPlace(graph, x, prog, {di, "exp"});
  const Tensor sum = popops::reduce(graph, x, {1}, popops::Operation::ADD, prog, {di, "sum"});
  popops::divInPlace(graph, x, sum.expand({1}), prog, {di, "normalise"});
}

void inPlace(Graph& graph, NonLinearityType type, const Tensor& t, Sequence& prog,
             const DebugContext& di, const std::string& op) {
  if (t.containsAliases())
    throw poputil::poplibs_error(op + ": the tensor of shape " + t.shapeToString() +
                                 " contains aliased elements; it is written in place");
  if (isSoftmax(type))
    return softmaxInPlace(graph, t, type == NonLinearityType::SOFTMAX_STABLE, prog, di, op);
  const ComputeSet cs = graph.addComputeSet(di);
  poplibs_support::addElementWiseVertices(
      graph, cs, poputil::templateVertex("popnn::NonLinearity", asString(type), t.elementType()), t,
      {{"data", t}}, op);
  prog.add(program::Execute(cs, di));
}

} // namespace

Tensor nonLinearity(Graph& graph, NonLinearityType nonLinearityType, Tensor t, Sequence& prog,
                    const DebugContext& debugContext) {
  const std::string op = "popnn::nonLinearity";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, asString(nonLinearityType));
  checkActivation(t, op, "the tensor");
  const Tensor out = graph.clone(t, {di, "output"});
  prog.add(program::Copy(t, out, false, {di, "copy"}));
  inPlace(graph, nonLinearityType, out, prog, di, op);
  return out;
}

void nonLinearityInPlace(Graph& graph, NonLinearityType nonLinearityType, Tensor t, Sequence& prog,
                         const DebugContext& debugContext) {
  const std::string op = "popnn::nonLinearityInPlace";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, asString(nonLinearityType));
  checkActivation(t, op, "the tensor");
  inPlace(graph, nonLinearityType, t, prog, di, op);
}

Tensor nonLinearityInputGradient(Graph& graph, NonLinearityType nonLinearityType, Tensor act,
                                 Tensor outGradient, Sequence& prog,
                                 const DebugContext& debugContext) {
  const std::string op = "popnn::nonLinearityInputGradient";
  const poputil::PoplibsOpDebugInfo di(debugContext, {},
                                       std::string(asString(nonLinearityType)) + "Grad");
  checkActivation(act, op, "act");
  checkActivation(outGradient, op, "outGradient");
  if (act.shape() != outGradient.shape() || act.elementType() != outGradient.elementType())
    throw poputil::poplibs_error(op + ": act (" + act.elementType().toString() + " " +
                                 act.shapeToString() + ") and outGradient (" +
                                 outGradient.elementType().toString() + " " +
                                 outGradient.shapeToString() + ") must match");
  if (isSoftmax(nonLinearityType)) {
    // d in = y * (d out - sum over the row of (d out * y)), y being the softmax output.
    const Tensor y = softmaxRows(act, op), dOut = outGradient.reshape(y.shape());
    const Tensor weighted = popops::mul(graph, dOut, y, prog, {di, "weight"});
    const Tensor dot =
        popops::reduce(graph, weighted, {1}, popops::Operation::ADD, prog, {di, "sum"});
    const Tensor inGrad = popops::sub(graph, dOut, dot.expand({1}), prog, {di, "centre"});
    popops::mulInPlace(graph, inGrad, y, prog, {di, "scale"});
    return inGrad.reshape(act.shape());
  }
  const Tensor inGrad = graph.clone(outGradient, {di, "inputGradient"});
  const ComputeSet cs = graph.addComputeSet(di);
  poplibs_support::addElementWiseVertices(
      graph, cs,
      poputil::templateVertex("popnn::NonLinearityGrad", asString(nonLinearityType),
                              act.elementType()),
      inGrad, {{"outGrad", outGradient}, {"act", act}, {"inGrad", inGrad}}, op);
  prog.add(program::Execute(cs, di));
  return inGrad;
}

} // namespace popnn
