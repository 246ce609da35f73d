// The FLOP rules of the PopLibs codelets the engine models. A FLOP is one floating-point add,
// subtract, multiply, divide, compare (max, min) or function (exp, log, sqrt, tanh, sigmoid are
// one each, as PopVision counts them); a multiply-add is two. Only float and half data count:
// the same codelet on int or unsigned data does 0 FLOPs. Copies, casts and fills do no
// arithmetic and so 0 FLOPs, with an estimate. The rules, by codelet family:
//
//   poplin::ReduceAdd         one add per input (partials) element
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
//   popops::map::<expression> the fused expression's own count per output element (its state
//                             flopsPerElement: one per float/half unary or binary operation, 2
//                             per clamp, 0 for casts and selects), times the elements
//   popops::MultiUpdateAdd    a multiply-add per element of a slice region (PopLibs: 2 ·
//   regionSize) popops::MultiUpdateOp     one max per element of a slice region
//   popops::Reduce{Max,Min}ClassGather  one compare per input element
//   popops slices and updates, EncodeOneHot*, Iota, ForLoopCounter: 0 (copies and integers)
//   poplin::ConvPartial1x1Out, ConvPartialnx1, ConvPartialHorizontalMac
//                             a multiply-add per output element, input channel and kernel
//                             position: 2·out·inChans·kernelY·kernelX (padding positions
//                             included: the state says how many positions, not which are zero)
//   poplin::InverseStdDeviation  4 per channel (square, subtract, add, inverse square root)
//   popops::AddToChannel, ChannelMulInPlace   one per activation element
//   popops::ScaledAddToChannel                2 per activation element
//   popnn::MaxPooling, SumPooling   one per output element and window position (kernelH·
//                             kernelW), plus a divide per output for average pooling
//   popnn::MaxPoolingGrad     2 per output-gradient element and window position (compare, add)
//   popnn::SumPoolingGrad     one per output-gradient element and window position, plus a
//                             divide per output-gradient element for average pooling
//   poprand::Uniform, Normal  2 per element (scale and offset of the generated number); on int 0
//   poprand::TruncatedNormal  4 per element (scale, offset, two bound compares)
//   poprand::Bernoulli        one compare per element
//   poprand::Dropout          2 per element (the keep compare, the scaled product)
//   poprand::SetSeed          0
//   popops::HasNaNOrInf1D, HasNaNOrInf2D  one compare per input element (PopLibs: the in size)
//   popops::NormaliseImage    9 per pixel: scale, offset, scale of 3 channels (4 output elements)
//   popops::UpdateIntervalDEC 0 (PopLibs' estimator counts none for the decrement)
#include "FlopModel.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace poplar::detail::models {
using compiler::CompiledComputeSet;
using compiler::CompiledEdge;
using compiler::CompiledVertex;

namespace {

/// A vertex with the compute set whose pools hold its fields and state.
struct PooledVertex {
  const CompiledComputeSet& cs;
  const CompiledVertex& compiled;
  const VertexTypeDescriptor* type;
};

/// Index of the field named `name` in v's type, or -1.
int fieldIndex(const PooledVertex& v, std::string_view name) {
  for (std::size_t i = 0; i < v.type->fields.size(); ++i)
    if (v.type->fields[i].name == name) return int(i);
  return -1;
}

/// Elements over all edges of field `name` (0 when the vertex has no such field).
std::uint64_t elements(const PooledVertex& v, std::string_view name) {
  const int i = fieldIndex(v, name);
  if (i < 0) return 0;
  std::uint64_t n = 0;
  for (const CompiledEdge& e : v.cs.edgesOf(v.compiled, std::size_t(i)))
    n += e.numElements;
  return n;
}

/// The value of the integer state member `name` (0 when the vertex has none).
std::uint64_t stateValue(const PooledVertex& v, std::string_view name) {
  const int i = fieldIndex(v, name);
  if (i < 0) return 0;
  const auto bytes = v.cs.stateOf(v.cs.fields[v.compiled.firstField + std::size_t(i)]);
  std::uint32_t value = 0;
  std::memcpy(&value, bytes.data(), std::min<std::size_t>(bytes.size(), sizeof value));
  return value;
}

bool isFloatField(const PooledVertex& v, std::string_view name) {
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
    {"popops::Add", "out"},  {"popops::Sub", "out"},     {"popops::Mul", "out"},
    {"popops::Div", "out"},  {"popops::Max", "out"},     {"popops::Min", "out"},
    {"popops::Neg", "out"},  {"popops::Abs", "out"},     {"popops::Square", "out"},
    {"popops::Exp", "out"},  {"popops::Log", "out"},     {"popops::Sqrt", "out"},
    {"popops::Tanh", "out"}, {"popops::Sigmoid", "out"},
};

} // namespace

std::optional<std::uint64_t> vertexFlops(const CompiledComputeSet& cs, const CompiledVertex& cv) {
  if (cv.estimatedFlops) return cv.estimatedFlops; // the program's own, from setPerfEstimate
  const PooledVertex v{cs, cv, cv.type};
  // User codelets (popc-compiled files) are unknown to the model, whatever their name.
  if (v.type->fromCodeletFile) return std::nullopt;
  const std::string_view f = family(v.type->name);
  const auto counted = [&](std::string_view typeField,
                           std::uint64_t flops) -> std::optional<std::uint64_t> {
    return isFloatField(v, typeField) ? flops : 0;
  };

  if (f == "poplin::ReduceAdd") return counted("partials", elements(v, "partials"));
  for (const ElementWise& e : kElementWise) {
    if (f == e.family) return counted(e.field, elements(v, e.field));
    if (endsWith(f, "InPlace") && f.substr(0, f.size() - 7) == e.family) {
      // Binary in-place ops write in1Out, unary ones inOut.
      const std::string_view field = fieldIndex(v, "in1Out") >= 0 ? "in1Out" : "inOut";
      return counted(field, elements(v, field));
    }
  }
  if (f.substr(0, 13) == "popops::map::") {
    // Out-of-place vertices write "out", in-place ones "in1".
    const std::uint64_t n = fieldIndex(v, "out") >= 0 ? elements(v, "out") : elements(v, "in1");
    return stateValue(v, "flopsPerElement") * n;
  }
  if (f == "popops::ScaledAdd") return counted("data", 2 * elements(v, "data"));
  if (f == "popops::ReducePartial") return counted("in", elements(v, "in"));
  if (f == "popops::ReduceFinal") return counted("partials", elements(v, "partials"));
  if (f == "popops::ScaledReduceFinal") {
    const bool update = v.type->name.find(",true>") != std::string::npos;
    return counted("partials", elements(v, "partials") + elements(v, "out") * (update ? 2 : 1));
  }
  if (f == "popops::Cast" || f == "popops::Fill") return 0;
  if (f == "popops::MultiUpdateAdd" || f == "popops::MultiUpdateOp") {
    // As PopLibs' estimator: one slice region's worth (subT holds a region per offset).
    const std::uint64_t offsets = std::max<std::uint64_t>(1, elements(v, "offsets"));
    return counted("subT", elements(v, "subT") / offsets * (f == "popops::MultiUpdateAdd" ? 2 : 1));
  }
  if (f == "popops::ReduceMaxClassGather" || f == "popops::ReduceMinClassGather")
    return counted("activations", elements(v, "activations"));
  if (f == "popops::DynamicSlice1d" || f == "popops::DynamicUpdateSlice1d" ||
      f == "popops::DynamicSlice2d" || f == "popops::DynamicUpdateSlice2d" ||
      f == "popops::MultiSlice" || f == "popops::MultiUpdate" || f == "popops::EncodeOneHot" ||
      f == "popops::EncodeOneHotCustomValues" || f == "popops::Iota" ||
      f == "popops::ForLoopCounter")
    return 0;
  if (f == "popnn::NonLinearity") return counted("data", elements(v, "data"));
  if (f == "popnn::NonLinearityGrad") return counted("inGrad", 2 * elements(v, "inGrad"));
  if (f == "popnn::LossCrossEntropy" || f == "popnn::LossSumSquared")
    return counted("probs", 2 * elements(v, "probs"));
  if (f == "popnn::CalcAccuracy") return counted("probs", elements(v, "probs"));
  if (f == "poplin::ConvPartial1x1Out" || f == "poplin::ConvPartialnx1" ||
      f == "poplin::ConvPartialHorizontalMac")
    return counted("in", 2 * elements(v, "out") * stateValue(v, "inChans") *
                             stateValue(v, "kernelY") * stateValue(v, "kernelX"));
  if (f == "poplin::InverseStdDeviation") return counted("iStdDev", 4 * elements(v, "iStdDev"));
  if (f == "popops::AddToChannel") return counted("acts", elements(v, "acts"));
  if (f == "popops::ScaledAddToChannel") return counted("acts", 2 * elements(v, "acts"));
  if (f == "popops::ChannelMulInPlace") return counted("actsOut", elements(v, "actsOut"));
  const bool avg = stateValue(v, "avg") != 0;
  const std::uint64_t window = stateValue(v, "kernelH") * stateValue(v, "kernelW");
  if (f == "popnn::MaxPooling") return counted("out", elements(v, "out") * window);
  if (f == "popnn::SumPooling") return counted("out", elements(v, "out") * (window + avg));
  if (f == "popnn::MaxPoolingGrad")
    return counted("inGrad", 2 * elements(v, "pooledGrad") * window);
  if (f == "popnn::SumPoolingGrad")
    return counted("inGrad", elements(v, "pooledGrad") * (window + avg));
  if (f == "poprand::UniformSupervisor" || f == "poprand::NormalSupervisor")
    return counted("out", 2 * elements(v, "out"));
  if (f == "poprand::TruncatedNormalSupervisor") return counted("out", 4 * elements(v, "out"));
  if (f == "poprand::BernoulliSupervisor") return counted("out", elements(v, "out"));
  if (f == "poprand::DropoutSupervisor") return counted("out", 2 * elements(v, "out"));
  if (f == "poprand::SetSeedSupervisor") return 0;
  if (f == "popops::HasNaNOrInf1D" || f == "popops::HasNaNOrInf2D")
    return counted("in", elements(v, "in"));
  if (f == "popops::NormaliseImage") return counted("out", 9 * (elements(v, "out") / 4));
  if (f == "popops::UpdateIntervalDEC") return 0;
  return std::nullopt;
}

ComputeSetFlops computeSetFlops(const CompiledComputeSet& cs, unsigned tiles) {
  ComputeSetFlops out;
  out.flopsByTile.assign(tiles, 0);
  for (const CompiledVertex& v : cs.vertices) {
    if (const auto f = vertexFlops(cs, v)) {
      out.flops += *f;
      out.flopsByTile.at(v.tile) += *f;
    } else {
      ++out.verticesWithoutEstimate;
    }
  }
  return out;
}

} // namespace poplar::detail::models
