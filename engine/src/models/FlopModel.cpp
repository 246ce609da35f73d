// The FLOP rules of the PopLibs codelets the engine models. A FLOP is one floating-point add,
// subtract, multiply, divide, compare (max, min) or function (exp, log, sqrt, tanh, sigmoid are
// one each, as PopVision counts them); a multiply-add is two. Only float and half data count:
// the same codelet on int or unsigned data does 0 FLOPs. Copies, casts and fills do no
// arithmetic and so 0 FLOPs, with an estimate. The rules, by codelet family:
//
//   poplin::MatMulPartial     2·K per output element (K = rows of B in the chunk): 2·M·N·K
//   poplin::ReducePartials    one add per input (partials) element
//   popops binary ops         one per output element (Add Sub Mul Div Max Min, and InPlace)
//   popops unary ops          one per output element (Neg Abs Square Exp Log Sqrt Tanh Sigmoid)
//   popops::ScaledAdd         a multiply-add per element: 2 per data element
//   popops::ReducePartial     one per input element
//   popops::ReduceFinal       one per input (partials) element
//   popops::ScaledReduceFinal one per partials element, a scale per output, and an add per
//                             output when it updates in place
//   popops::Cast, Fill        0
//   popnn::NonLinearity       one per element
//   popnn::NonLinearityGrad   2 per element (the derivative and the product with the gradient)
//   popnn::Loss*              2 per probability (the loss term and the delta)
//   popnn::CalcAccuracy       one compare per probability
#include "FlopModel.hpp"

#include <cstring>
#include <string_view>

namespace poplar::detail::profile {
namespace {

/// Index of the field named `name` in v's type, or -1.
int fieldIndex(const CompiledVertex& v, std::string_view name) {
  for (std::size_t i = 0; i < v.type->fields.size(); ++i)
    if (v.type->fields[i].name == name) return int(i);
  return -1;
}

/// Elements over all edges of field `name` (0 when the vertex has no such field).
std::uint64_t elements(const CompiledVertex& v, std::string_view name) {
  const int i = fieldIndex(v, name);
  if (i < 0) return 0;
  std::uint64_t n = 0;
  for (const CompiledEdge& e : v.fields[std::size_t(i)].edges) n += e.numElements;
  return n;
}

bool isFloatField(const CompiledVertex& v, std::string_view name) {
  const int i = fieldIndex(v, name);
  return i >= 0 && v.type->fields[std::size_t(i)].elementType.isFloatingPoint();
}

/// The family: the codelet's name before its template arguments ("popops::AddInPlace").
std::string_view family(const std::string& name) {
  return std::string_view(name).substr(0, name.find('<'));
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// One FLOP per element of `field` for the element-wise families of popops.
struct ElementWise {
  std::string_view family, field;
};
constexpr ElementWise kElementWise[] = {
    {"popops::Add", "out"},   {"popops::Sub", "out"},     {"popops::Mul", "out"},   {"popops::Div", "out"},
    {"popops::Max", "out"},   {"popops::Min", "out"},     {"popops::Neg", "out"},   {"popops::Abs", "out"},
    {"popops::Square", "out"}, {"popops::Exp", "out"},    {"popops::Log", "out"},   {"popops::Sqrt", "out"},
    {"popops::Tanh", "out"},  {"popops::Sigmoid", "out"},
};

} // namespace

std::optional<std::uint64_t> vertexFlops(const CompiledVertex& v) {
  if (v.estimatedFlops) return v.estimatedFlops; // the program's own, from setPerfEstimate
  // User codelets (popc-compiled files) are unknown to the model, whatever their name.
  if (v.type->fromCodeletFile) return std::nullopt;
  const std::string_view f = family(v.type->name);
  const auto counted = [&](std::string_view typeField, std::uint64_t flops) -> std::optional<std::uint64_t> {
    return isFloatField(v, typeField) ? flops : 0;
  };

  if (f == "poplin::MatMulPartial") {
    // Each output element is a dot product over the K rows of B: K multiplies and K adds.
    const int b = fieldIndex(v, "bRows");
    const std::uint64_t k = b < 0 ? 0 : v.fields[std::size_t(b)].edges.size();
    return counted("aRows", 2 * k * elements(v, "out"));
  }
  if (f == "poplin::ReducePartials") return counted("partials", elements(v, "partials"));
  for (const ElementWise& e : kElementWise) {
    if (f == e.family) return counted(e.field, elements(v, e.field));
    if (endsWith(f, "InPlace") && f.substr(0, f.size() - 7) == e.family) {
      // Binary in-place ops write in1Out, unary ones inOut.
      const std::string_view field = fieldIndex(v, "in1Out") >= 0 ? "in1Out" : "inOut";
      return counted(field, elements(v, field));
    }
  }
  if (f == "popops::ScaledAdd") return counted("data", 2 * elements(v, "data"));
  if (f == "popops::ReducePartial") return counted("in", elements(v, "in"));
  if (f == "popops::ReduceFinal") return counted("partials", elements(v, "partials"));
  if (f == "popops::ScaledReduceFinal") {
    const bool update = v.type->name.find(",true>") != std::string::npos;
    return counted("partials", elements(v, "partials") + elements(v, "out") * (update ? 2 : 1));
  }
  if (f == "popops::Cast" || f == "popops::Fill") return 0;
  if (f == "popnn::NonLinearity") return counted("data", elements(v, "data"));
  if (f == "popnn::NonLinearityGrad") return counted("inGrad", 2 * elements(v, "inGrad"));
  if (f == "popnn::LossCrossEntropy" || f == "popnn::LossSumSquared") return counted("probs", 2 * elements(v, "probs"));
  if (f == "popnn::CalcAccuracy") return counted("probs", elements(v, "probs"));
  return std::nullopt;
}

ComputeSetFlops computeSetFlops(const std::vector<CompiledVertex>& vertices) {
  ComputeSetFlops out;
  for (const CompiledVertex& v : vertices) {
    if (const auto f = vertexFlops(v)) out.flops += *f;
    else ++out.verticesWithoutEstimate;
  }
  return out;
}

} // namespace poplar::detail::profile
