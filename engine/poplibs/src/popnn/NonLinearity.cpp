#include "poplibs_support/TileWork.hpp"

#include <popnn/NonLinearity.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {

namespace {

using namespace poplar;
using poplar::program::Sequence;

/// The factor SOFTMAX_SCALED multiplies its outputs by, as PopLibs: close to half's largest
/// value, so that small probabilities keep their precision.
constexpr float kSoftmaxScaling = 62000.0f;

/// The non-linearity's name in vertex types and debug information ("RELU", "GELU_ERF", ...).
const char* vertexName(NonLinearityType type) {
  switch (type) {
  case NonLinearityType::SIGMOID:
    return "SIGMOID";
  case NonLinearityType::HARD_SIGMOID:
    return "HARD_SIGMOID";
  case NonLinearityType::RELU:
    return "RELU";
  case NonLinearityType::TANH:
    return "TANH";
  case NonLinearityType::GELU:
    return "GELU";
  case NonLinearityType::GELU_ERF:
    return "GELU_ERF";
  case NonLinearityType::SWISH:
    return "SWISH";
  case NonLinearityType::SOFTMAX:
    return "SOFTMAX";
  case NonLinearityType::SOFTMAX_STABLE:
    return "SOFTMAX_STABLE";
  case NonLinearityType::SOFTMAX_SCALED:
    return "SOFTMAX_SCALED";
  }
  throw poputil::poplibs_error("popnn: unknown NonLinearityType " +
                               std::to_string(static_cast<int>(type)));
}

bool isSoftmax(NonLinearityType type) {
  return type == NonLinearityType::SOFTMAX || type == NonLinearityType::SOFTMAX_STABLE ||
         type == NonLinearityType::SOFTMAX_SCALED;
}

float scalingOf(NonLinearityType type) {
  return type == NonLinearityType::SOFTMAX_SCALED ? kSoftmaxScaling : 1.0f;
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

/// The element-wise vertices of f on t, added to `cs`.
void addVertices(Graph& graph, NonLinearityType type, const Tensor& t, const ComputeSet& cs,
                 const std::string& op) {
  if (t.containsAliases())
    throw poputil::poplibs_error(op + ": the tensor of shape " + t.shapeToString() +
                                 " contains aliased elements; it is written in place");
  if (isSoftmax(type))
    throw poputil::poplibs_error(op + ": the compute set variant of " +
                                 std::string(vertexName(type)) +
                                 " is not implemented (softmax takes several steps)");
  poplibs_support::addElementWiseVertices(
      graph, cs, poputil::templateVertex("popnn::NonLinearity", vertexName(type), t.elementType()),
      t, {{"data", t}}, op);
}

void inPlace(Graph& graph, NonLinearityType type, const Tensor& t, Sequence& prog,
             const DebugContext& di, const std::string& op) {
  if (t.containsAliases())
    throw poputil::poplibs_error(op + ": the tensor of shape " + t.shapeToString() +
                                 " contains aliased elements; it is written in place");
  if (isSoftmax(type)) {
    softmaxInPlace(graph, t, type != NonLinearityType::SOFTMAX, prog, di, op);
    if (type == NonLinearityType::SOFTMAX_SCALED)
      popops::mulInPlace(graph, t, kSoftmaxScaling, prog, {di, "scale"});
    return;
  }
  const ComputeSet cs = graph.addComputeSet(di);
  addVertices(graph, type, t, cs, op);
  prog.add(program::Execute(cs, di));
}

} // namespace

Tensor nonLinearity(Graph& graph, NonLinearityType nonLinearityType, Tensor t, Sequence& prog,
                    const DebugContext& debugContext) {
  const std::string op = "popnn::nonLinearity";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, vertexName(nonLinearityType));
  checkActivation(t, op, "the tensor");
  const Tensor out = graph.clone(t, {di, "output"});
  prog.add(program::Copy(t, out, false, {di, "copy"}));
  inPlace(graph, nonLinearityType, out, prog, di, op);
  return out;
}

void nonLinearityInPlace(Graph& graph, NonLinearityType nonLinearityType, Tensor t, Sequence& prog,
                         const DebugContext& debugContext) {
  const std::string op = "popnn::nonLinearityInPlace";
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, vertexName(nonLinearityType));
  checkActivation(t, op, "the tensor");
  inPlace(graph, nonLinearityType, t, prog, di, op);
}

void nonLinearityInPlace(Graph& graph, NonLinearityType nonLinearityType, Tensor t, ComputeSet& cs,
                         const DebugContext& debugContext) {
  const std::string op = "popnn::nonLinearityInPlace";
  checkActivation(t, op, "the tensor");
  (void)debugContext;
  addVertices(graph, nonLinearityType, t, cs, op);
}

void nonLinearityInPlace(Graph& graph, NonLinearityType nonLinearityType, Tensor t,
                         float& nonLinearityScaling, Sequence& prog,
                         const DebugContext& debugContext) {
  nonLinearityScaling = scalingOf(nonLinearityType);
  nonLinearityInPlace(graph, nonLinearityType, t, prog, debugContext);
}

void nonLinearityInPlace(Graph& graph, NonLinearityType nonLinearityType, Tensor t,
                         float& nonLinearityScaling, ComputeSet& cs,
                         const DebugContext& debugContext) {
  nonLinearityScaling = scalingOf(nonLinearityType);
  nonLinearityInPlace(graph, nonLinearityType, t, cs, debugContext);
}

Tensor nonLinearity(Graph& graph, NonLinearityType nonLinearityType, Tensor t,
                    float& nonLinearityScaling, Sequence& prog, const DebugContext& debugContext) {
  nonLinearityScaling = scalingOf(nonLinearityType);
  return nonLinearity(graph, nonLinearityType, t, prog, debugContext);
}

namespace {

void checkGradOperands(const Tensor& act, const Tensor& outGradient, const std::string& op) {
  checkActivation(act, op, "act");
  checkActivation(outGradient, op, "outGradient");
  if (act.shape() != outGradient.shape() || act.elementType() != outGradient.elementType())
    throw poputil::poplibs_error(op + ": act (" + act.elementType().toString() + " " +
                                 act.shapeToString() + ") and outGradient (" +
                                 outGradient.elementType().toString() + " " +
                                 outGradient.shapeToString() + ") must match");
}

Tensor addGradVertices(Graph& graph, NonLinearityType type, const Tensor& act,
                       const Tensor& outGradient, const ComputeSet& cs, const DebugNameAndId& di,
                       const std::string& op) {
  const Tensor inGrad = graph.clone(outGradient, {di, "inputGradient"});
  poplibs_support::addElementWiseVertices(
      graph, cs,
      poputil::templateVertex("popnn::NonLinearityGrad", vertexName(type), act.elementType()),
      inGrad, {{"outGrad", outGradient}, {"act", act}, {"inGrad", inGrad}}, op);
  return inGrad;
}

} // namespace

Tensor nonLinearityInputGradient(Graph& graph, NonLinearityType nonLinearityType, Tensor act,
                                 Tensor outGradient, ComputeSet& cs,
                                 const DebugContext& debugContext) {
  const std::string op = "popnn::nonLinearityInputGradient";
  const poputil::PoplibsOpDebugInfo di(debugContext, {},
                                       std::string(vertexName(nonLinearityType)) + "Grad");
  checkGradOperands(act, outGradient, op);
  if (isSoftmax(nonLinearityType))
    throw poputil::poplibs_error(op + ": the compute set variant of " +
                                 std::string(vertexName(nonLinearityType)) +
                                 " is not implemented (softmax takes several steps)");
  return addGradVertices(graph, nonLinearityType, act, outGradient, cs, {di}, op);
}

Tensor nonLinearityInputGradient(Graph& graph, NonLinearityType nonLinearityType, Tensor act,
                                 Tensor outGradient, Sequence& prog,
                                 const DebugContext& debugContext) {
  const std::string op = "popnn::nonLinearityInputGradient";
  const poputil::PoplibsOpDebugInfo di(debugContext, {},
                                       std::string(vertexName(nonLinearityType)) + "Grad");
  checkGradOperands(act, outGradient, op);
  if (isSoftmax(nonLinearityType)) {
    // d in = y * (d out - sum over the row of (d out * y)), y being the softmax output (the
    // scaled softmax's output divided by its scaling).
    Tensor y = softmaxRows(act, op);
    const Tensor dOut = outGradient.reshape(y.shape());
    if (nonLinearityType == NonLinearityType::SOFTMAX_SCALED)
      y = popops::mul(graph, y, 1.0f / kSoftmaxScaling, prog, {di, "unscale"});
    const Tensor weighted = popops::mul(graph, dOut, y, prog, {di, "weight"});
    const Tensor dot =
        popops::reduce(graph, weighted, {1}, popops::Operation::ADD, prog, {di, "sum"});
    const Tensor inGrad = popops::sub(graph, dOut, dot.expand({1}), prog, {di, "centre"});
    popops::mulInPlace(graph, inGrad, y, prog, {di, "scale"});
    return inGrad.reshape(act.shape());
  }
  const ComputeSet cs = graph.addComputeSet(di);
  const Tensor inGrad = addGradVertices(graph, nonLinearityType, act, outGradient, cs, {di}, op);
  prog.add(program::Execute(cs, di));
  return inGrad;
}

} // namespace popnn
