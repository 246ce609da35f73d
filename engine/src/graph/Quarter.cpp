// QUARTER (8-bit floating point) on the host: QuarterMetadata, the two formats' encoding, and
// the metadata tensors and their association with QUARTER variables.
#include "GraphState.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>
#include <poplar/MetadataCreation.hpp>
#include <poplar/Quarter.hpp>
#include <poplar/exceptions.hpp>
#include <sstream>

namespace poplar {

namespace {

constexpr int kMinScale = -32, kMaxScale = 31;

/// Exponent bias and mantissa bits of a format.
struct Layout {
  int bias, mantissaBits;
};
Layout layoutOf(QuarterMetadata::Format f) {
  return f == QuarterMetadata::Format::F143 ? Layout{8, 3} : Layout{16, 2};
}

constexpr std::uint8_t kNaN = 0x80;

} // namespace

QuarterMetadata::QuarterMetadata(Format format, int scale) : format_(format) {
  if (format != Format::F143 && format != Format::F152)
    throw poplar_error("QuarterMetadata: unknown format " + std::to_string(int(format)));
  if (scale < kMinScale || scale > kMaxScale)
    throw poplar_error("QuarterMetadata: scale " + std::to_string(scale) +
                       " is outside [-32, 31] (the metadata holds it in six bits)");
  scale_ = static_cast<std::int8_t>(scale);
}

std::string QuarterMetadata::toString() const {
  std::ostringstream os;
  os << *this;
  return os.str();
}

std::ostream& operator<<(std::ostream& os, QuarterMetadata::Format f) {
  return os << (f == QuarterMetadata::Format::F143 ? "F143" : "F152");
}

std::ostream& operator<<(std::ostream& os, const QuarterMetadata& m) {
  return os << m.getFormat() << ", scale " << m.getScale();
}

namespace detail {

std::uint8_t packQuarterMetadata(const QuarterMetadata& m) {
  const auto scaleBits = static_cast<std::uint8_t>(m.getScale()) & 0x3fu;
  return static_cast<std::uint8_t>((m.getFormat() == QuarterMetadata::Format::F152 ? 0x80u : 0u) |
                                   scaleBits);
}

QuarterMetadata unpackQuarterMetadata(std::uint8_t byte) {
  int scale = byte & 0x3f;
  if (scale & 0x20) scale -= 64; // six-bit two's complement
  return QuarterMetadata(
      (byte & 0x80) ? QuarterMetadata::Format::F152 : QuarterMetadata::Format::F143, scale);
}

float quarterMax(QuarterMetadata::Format f) {
  const Layout l = layoutOf(f);
  const int maxExp = (1 << (7 - l.mantissaBits)) - 1 - l.bias; // every exponent code is finite
  return std::ldexp(2.0f - std::ldexp(1.0f, -l.mantissaBits), maxExp);
}

float quarterToFloat(std::uint8_t code, const QuarterMetadata& m) {
  if (code == kNaN) return std::numeric_limits<float>::quiet_NaN();
  const Layout l = layoutOf(m.getFormat());
  const unsigned expBits = 7 - l.mantissaBits;
  const unsigned e = (code >> l.mantissaBits) & ((1u << expBits) - 1);
  const unsigned mant = code & ((1u << l.mantissaBits) - 1);
  // Subnormals (e == 0) have exponent 1 - bias and no implicit leading one.
  const double significand = e == 0 ? mant : double((1u << l.mantissaBits) | mant);
  const int exponent = (e == 0 ? 1 : int(e)) - l.bias - l.mantissaBits + m.getScale();
  const double v = std::ldexp(significand, exponent);
  return static_cast<float>((code & 0x80) ? -v : v);
}

std::uint8_t floatToQuarter(float x, const QuarterMetadata& m) {
  if (!std::isfinite(x)) return kNaN;
  const Layout l = layoutOf(m.getFormat());
  // Exact in double: a float times a power of two in [2^-31, 2^32].
  const double a = std::ldexp(std::fabs(double(x)), -m.getScale());
  if (a == 0) return 0;
  const int minNormalExp = 1 - l.bias;
  int exp2;
  std::frexp(a, &exp2); // a = f * 2^exp2, f in [0.5, 1): unbiased exponent exp2 - 1
  const int unbiased = std::max(exp2 - 1, minNormalExp);
  const double quantum = std::ldexp(1.0, unbiased - l.mantissaBits);
  const double rounded = std::nearbyint(a / quantum) * quantum; // ties to even
  if (rounded > double(quarterMax(m.getFormat()))) return kNaN;
  if (rounded == 0) return 0;
  unsigned e, mant;
  if (rounded < std::ldexp(1.0, minNormalExp)) {
    e = 0;
    mant = static_cast<unsigned>(rounded / std::ldexp(1.0, minNormalExp - l.mantissaBits));
  } else {
    std::frexp(rounded, &exp2);
    const int u = exp2 - 1;
    e = static_cast<unsigned>(u + l.bias);
    mant = static_cast<unsigned>((std::ldexp(rounded, -u) - 1.0) * (1u << l.mantissaBits));
  }
  const unsigned code = (e << l.mantissaBits) | mant;
  return static_cast<std::uint8_t>(code | (x < 0 ? 0x80u : 0u));
}

namespace {
GraphState& stateOf(const Tensor& t) {
  return *static_cast<GraphState*>(const_cast<void*>(t.graphId()));
}
} // namespace

void setQuarterMetadata(const Tensor& quarter, const Tensor& metadata) {
  if (!quarter.valid() || !metadata.valid())
    throw poplar_error("setQuarterMetadata: an invalid (default-constructed) tensor");
  if (quarter.elementType() != QUARTER)
    throw poplar_error("setQuarterMetadata: the tensor is " + quarter.elementType().toString() +
                       ", not quarter");
  if (metadata.elementType() != QUARTER_METADATA || metadata.numElements() != 1)
    throw poplar_error("setQuarterMetadata: the metadata must be one quarter_metadata element, "
                       "not " +
                       metadata.elementType().toString() + " of shape " + metadata.shapeToString());
  if (quarter.graphId() != metadata.graphId())
    throw poplar_error("setQuarterMetadata: the metadata tensor belongs to another graph");
  auto& table = stateOf(quarter).quarterMetadata;
  for (const auto& r : quarter.getVarRegions())
    table[r.var] = metadata;
}

Tensor getQuarterMetadata(const Tensor& quarter) {
  if (!quarter.valid() || quarter.getVarRegions().empty()) return Tensor();
  const auto& table = stateOf(quarter).quarterMetadata;
  Tensor found;
  for (const auto& r : quarter.getVarRegions()) {
    const auto it = table.find(r.var);
    if (it == table.end()) {
      if (found.valid())
        throw poplar_error("a quarter tensor is made of variables with and without metadata");
      continue;
    }
    if (found.valid() && !found.elementsAreEqual(it->second))
      throw poplar_error("a quarter tensor is made of variables with different metadata tensors");
    found = it->second;
  }
  return found;
}

} // namespace detail

namespace {
Tensor metadataTensor(Graph& graph, QuarterMetadata::Format format, int scale, bool constant,
                      const DebugContext& dc) {
  const std::uint8_t byte = detail::packQuarterMetadata(QuarterMetadata(format, scale));
  Tensor t = constant ? graph.addConstant(QUARTER_METADATA, {1}, byte, dc)
                      : graph.addVariable(QUARTER_METADATA, {1}, dc);
  if (!constant) graph.setInitialValue(t, byte);
  graph.setTileMapping(t, 0);
  return t;
}
} // namespace

Tensor createVariableMetadataTensor(Graph& graph, QuarterMetadata::Format format, int scale,
                                    const DebugContext& debugContext) {
  return metadataTensor(graph, format, scale, false, {debugContext, "quarterMetadata"});
}

Tensor createConstantMetadataTensor(Graph& graph, QuarterMetadata::Format format, int scale,
                                    const DebugContext& debugContext) {
  return metadataTensor(graph, format, scale, true, {debugContext, "quarterMetadata"});
}

} // namespace poplar
