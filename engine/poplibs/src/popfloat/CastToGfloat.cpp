// GfloatCast: the format, rounding and cast configurations (options parsed as PopLibs names
// them), the parameter tensor, and the casts, each a compute set of cast vertices over the
// input's tile regions.
#include "GfloatFormat.hpp"

#include <cstring>
#include <popfloat/experimental/CastToGfloat.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/OptionParsing.hpp>
#include <poputil/VertexTemplates.hpp>

namespace popfloat {
namespace experimental {

using namespace poplar;
using poplar::program::Sequence;

namespace {

constexpr const char* fmtOp = "GfloatCast::FormatConfig";

unsigned floatBits(float v) {
  unsigned u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}

void parseAll(const poplibs::OptionSpec& spec, const OptionFlags& options, const char* what) {
  try {
    for (const auto& entry : options)
      spec.parse(entry.first, entry.second);
  } catch (const poplar::invalid_option& e) {
    throw poplar::invalid_option(std::string("popfloat::experimental::GfloatCast::") + what + ": " +
                                 e.what());
  }
}

} // namespace

void GfloatCast::GfloatFormatOptions::parseGfloatFormatOptions(const OptionFlags& options) {
  using poplibs::OptionHandler;
  const poplibs::OptionSpec spec{
      {"numMantissaBits", OptionHandler::createWithInteger(numMantissaBits)},
      {"numExponentBits", OptionHandler::createWithInteger(numExponentBits)},
      {"numExponentBias", OptionHandler::createWithInteger(numExponentBias)},
      {"enableDenorms", OptionHandler::createWithBool(enableDenorms)},
      {"enableInfsAndNans", OptionHandler::createWithBool(enableInfsAndNans)}};
  parseAll(spec, options, "GfloatFormatOptions");
}

void GfloatCast::GfloatCastOptions::parseGfloatCastOptions(const OptionFlags& options) {
  using poplibs::OptionHandler;
  const std::map<std::string, RoundType> modes{
      {"INV", RoundType::INV}, {"RZ", RoundType::RZ}, {"RA", RoundType::RA}, {"RN", RoundType::RN},
      {"RU", RoundType::RU},   {"RD", RoundType::RD}, {"SR", RoundType::SR}, {"SX", RoundType::SX}};
  std::map<std::string, SRDensityType> densities;
  for (SRDensityType d :
       {SRDensityType::INVALID, SRDensityType::UNIFORM, SRDensityType::NORMAL,
        SRDensityType::TRUNCATED_NORMAL, SRDensityType::BERNOULLI, SRDensityType::LOGISTIC,
        SRDensityType::TRUNCATED_LOGISTIC, SRDensityType::LAPLACE, SRDensityType::TRUNCATED_LAPLACE,
        SRDensityType::LOGIT_NORMAL, SRDensityType::TRUNCATED_LOGIT_NORMAL})
    densities.emplace(srDensityTypeToString(d), d);
  const double lowest = std::numeric_limits<double>::lowest();
  const poplibs::OptionSpec spec{
      {"roundMode", OptionHandler::createWithEnum(roundMode, modes)},
      {"numSRBits", OptionHandler::createWithInteger(numSRBits)},
      {"srNoiseDensity", OptionHandler::createWithEnum(srNoiseDensity, densities)},
      {"srNoiseOffset", OptionHandler::createWithDouble(srNoiseOffset, lowest)},
      {"srNoiseScale", OptionHandler::createWithDouble(srNoiseScale, lowest)},
      {"srNoiseMax", OptionHandler::createWithDouble(srNoiseMax, lowest)},
      {"srNoiseMin", OptionHandler::createWithDouble(srNoiseMin, lowest)},
      {"bernoulliProb", OptionHandler::createWithDouble(bernoulliProb, 0.0)},
      {"enableNanooMode", OptionHandler::createWithBool(enableNanooMode)}};
  parseAll(spec, options, "GfloatCastOptions");
}

// --- FormatConfig ---------------------------------------------------------------------------

GfloatCast::FormatConfig::FormatConfig(unsigned mantissaBits, unsigned exponentBits, int bias,
                                       bool denorms, bool infsAndNans, SpecType specCalculationType)
    : numMantissaBits(mantissaBits), numExponentBits(exponentBits), exponentBias(bias),
      enableDenorms(denorms), enableInfsAndNans(infsAndNans && exponentBits > 0) {
  const std::string op = std::string("popfloat::experimental::") + fmtOp;
  const unsigned bits = 1 + numMantissaBits + numExponentBits;
  blockFloat = numExponentBits == 0 || (numExponentBits == 1 && enableInfsAndNans);
  if (blockFloat)
    throw poputil::poplibs_error(op + ": a format without a normal exponent range (" +
                                 std::to_string(numExponentBits) +
                                 " exponent bits) is a block float, which Tessera does not cast");
  if (exponentBias < -128 || exponentBias > 127)
    throw poputil::poplibs_error(op + ": exponent bias " + std::to_string(exponentBias) +
                                 " is outside [-128, 127]");
  const bool isHalf = numMantissaBits == 10 && numExponentBits == 5;
  const bool fitsHalf = numMantissaBits <= 10 && numExponentBits <= 5 && !isHalf;
  if (specCalculationType != SpecType::FP32 && fitsHalf) {
    // Computed in half: quantised half, or packed in 8 bits.
    calculationType = nativeType = storageType = HALF;
    formatType = FormatType::QUANTISED_FP16;
    packedFloatBits = 16;
    if (bits <= 8) {
      packedFloatBits = 8;
      storageType = SIGNED_CHAR;
      formatType = numExponentBits == 5 ? (enableInfsAndNans ? FormatType::ONE_FIVE_TWO_GF8
                                                             : FormatType::MAX_NORM_ALIGN_GF8)
                                        : FormatType::MIN_NORM_ALIGN_GF8;
    }
  } else if (specCalculationType != SpecType::FP16 && numMantissaBits <= 23 &&
             numExponentBits <= 8) {
    calculationType = nativeType = storageType = FLOAT;
    formatType = FormatType::QUANTISED_FP32;
    packedFloatBits = 32;
    if (isHalf && enableInfsAndNans) {
      formatType = FormatType::IEEE_FP16;
      nativeType = storageType = HALF;
      packedFloatBits = 16;
    } else if (bits <= 8) {
      packedFloatBits = 8;
      storageType = SIGNED_CHAR;
      formatType = FormatType::ENABLE_DENORM_GF16;
      if (numExponentBits <= 5) nativeType = HALF;
    } else if (bits <= 16) {
      packedFloatBits = 16;
      storageType = SHORT;
      formatType = numExponentBits == 8 ? FormatType::BFLOAT16
                   : enableDenorms      ? FormatType::ENABLE_DENORM_GF16
                                        : FormatType::NO_DENORM_GF16;
    }
  } else
    throw poputil::poplibs_error(
        op + ": Invalid Gfloat format (" + std::to_string(numMantissaBits) + " mantissa and " +
        std::to_string(numExponentBits) + " exponent bits; at most 23 and 8, or 10 and 5 in half)");
  packedFloatParameters = gf::Format::pack(numMantissaBits, numExponentBits, exponentBias,
                                           enableDenorms, enableInfsAndNans);
}

namespace {
SpecType specOf(const Type& t) {
  if (t == FLOAT) return SpecType::FP32;
  if (t == HALF) return SpecType::FP16;
  throw poputil::poplibs_error(std::string("popfloat::experimental::") + fmtOp +
                               ": calculationType must be FLOAT or HALF, not " + t.toString());
}
} // namespace

GfloatCast::FormatConfig::FormatConfig(GfloatFormatOptions o, Type calcType)
    : FormatConfig(o.numMantissaBits, o.numExponentBits, int(o.numExponentBias), o.enableDenorms,
                   o.enableInfsAndNans, specOf(calcType)) {}

GfloatCast::FormatConfig::FormatConfig(unsigned mantissaBits, unsigned exponentBits, int bias,
                                       bool denorms, bool infsAndNans, Type calcType)
    : FormatConfig(mantissaBits, exponentBits, bias, denorms, infsAndNans, specOf(calcType)) {}

GfloatCast::FormatConfig::FormatConfig(const FormatConfig& formatConfig) = default;

// --- RoundConfig ----------------------------------------------------------------------------

GfloatCast::RoundConfig::RoundConfig(RoundType roundMode, unsigned srBits, Type calculationType,
                                     SRDensityType density, float offset, float scale,
                                     float noiseMax, float noiseMin, float probability)
    : roundModeType(roundMode), numSRBits(srBits), srNoiseDensity(density),
      bernoulliProb(probability), srNoiseOffset(offset), srNoiseScale(scale), srNoiseMax(noiseMax),
      srNoiseMin(noiseMin) {
  const std::string op = "popfloat::experimental::GfloatCast::RoundConfig";
  if (roundMode == RoundType::SX && density != SRDensityType::UNIFORM &&
      density != SRDensityType::BERNOULLI)
    throw poputil::poplibs_error(op + ": SX rounding with noise density " +
                                 srDensityTypeToString(density) +
                                 " is not supported by Tessera (UNIFORM and BERNOULLI are)");
  if (roundMode == RoundType::SX && density == SRDensityType::BERNOULLI &&
      (probability < 0.0f || probability > 1.0f))
    throw poputil::poplibs_error(op + ": bernoulliProb must be in [0, 1], not " +
                                 std::to_string(probability));
  if (roundMode == RoundType::SR && srBits == 0)
    throw poputil::poplibs_error(op + ": SR rounding needs numSRBits of at least 1");
  const unsigned manBits = calculationType == HALF ? 10 : 23;
  const unsigned kept = std::min(srBits, manBits);
  srBitMask = {((1u << manBits) - 1) & ~((1u << (manBits - kept)) - 1)};
  roundingParams = {unsigned(roundMode), srBits};
  densityParam = unsigned(density);
  if (density == SRDensityType::BERNOULLI)
    noiseParams = {floatBits(probability)};
  else
    noiseParams = {floatBits(offset), floatBits(scale), floatBits(noiseMax), floatBits(noiseMin)};
}

GfloatCast::RoundConfig::RoundConfig(const GfloatCast::RoundConfig& roundCfg) = default;

GfloatCast::RoundConfig::RoundConfig(GfloatCastOptions o, Type calculationType)
    : RoundConfig(o.roundMode, o.numSRBits, calculationType, o.srNoiseDensity,
                  float(o.srNoiseOffset), float(o.srNoiseScale), float(o.srNoiseMax),
                  float(o.srNoiseMin), float(o.bernoulliProb)) {}

// --- CastConfig -----------------------------------------------------------------------------

GfloatCast::CastConfig::CastConfig(FormatType format, Type calcType, Type storage,
                                   RoundConfig roundCfg, bool nanoo)
    : calculationType(calcType), storageType(storage), roundConfig(roundCfg),
      enableNanooMode(nanoo), floatFormatType(format) {
  storeAsNative = storage == FLOAT || storage == HALF;
  castParams = {unsigned(format), unsigned(storeAsNative)};
}

GfloatCast::CastConfig GfloatCast::CastConfig::createCastNativeToGF(FormatType formatType,
                                                                    Type calculationType,
                                                                    Type storageType,
                                                                    RoundConfig roundCfg,
                                                                    bool enableNanooMode) {
  return CastConfig(formatType, calculationType, storageType, roundCfg, enableNanooMode);
}

GfloatCast::CastConfig GfloatCast::CastConfig::createCastGFToNative(FormatType formatType,
                                                                    Type calculationType,
                                                                    Type storageType) {
  return CastConfig(formatType, calculationType, storageType, RoundConfig(), false);
}

// --- GfloatCast -----------------------------------------------------------------------------

namespace {

/// The storage of the gfloat side: the format's, or GFType's if it can hold the values.
Type gfStorage(const GfloatCast::FormatConfig& f, SpecType spec) {
  if (spec == SpecType::AUTO) return f.getStorageType();
  const Type t = specTypeToPoplarType(spec);
  const bool packedOk = (t == SHORT && f.getPackedFloatBits() <= 16) ||
                        (t == SIGNED_CHAR && f.getPackedFloatBits() <= 8);
  const bool nativeOk = (t == FLOAT || t == HALF) && !f.isPackedFloatFormat() &&
                        (t == FLOAT || f.getNativeType() == HALF);
  if (!(f.isPackedFloatFormat() ? packedOk : nativeOk))
    throw poputil::poplibs_error("popfloat::experimental::GfloatCast: GFType " +
                                 specTypeToString(spec) + " cannot hold format " +
                                 formatTypeToString(f.getFormatType()));
  return t;
}

Type nativeStorage(const GfloatCast::FormatConfig& f, SpecType spec) {
  if (spec == SpecType::AUTO) return f.getNativeType();
  const Type t = specTypeToPoplarType(spec);
  if (t != FLOAT && t != HALF)
    throw poputil::poplibs_error("popfloat::experimental::GfloatCast: NativeType must be FP32 "
                                 "or FP16, not " +
                                 specTypeToString(spec));
  return t;
}

} // namespace

GfloatCast::GfloatCast(const FormatConfig& formatCfg_, const RoundConfig& roundCfg,
                       const bool enableNanooMode, const SpecType& GFType,
                       const SpecType& NativeType)
    : formatCfg(formatCfg_) {
  if (formatCfg.getFormatType() == FormatType::INVALID_FORMAT)
    throw poputil::poplibs_error("popfloat::experimental::GfloatCast: the format is invalid "
                                 "(a default-constructed FormatConfig)");
  if (roundCfg.getRoundMode() == RoundType::INV)
    throw poputil::poplibs_error("popfloat::experimental::GfloatCast: roundMode INV is not a "
                                 "rounding mode (set RZ, RN, RA, RU, RD, SR or SX)");
  const Type calc = formatCfg.getCalculationType();
  nativeToGFCastCfg = CastConfig::createCastNativeToGF(
      formatCfg.getFormatType(), calc, gfStorage(formatCfg, GFType), roundCfg, enableNanooMode);
  gfToNativeCastCfg = CastConfig::createCastGFToNative(formatCfg.getFormatType(), calc,
                                                       nativeStorage(formatCfg, NativeType));
}

GfloatCast::GfloatCast(const GfloatFormatOptions& formatOptions,
                       const GfloatCastOptions& castOptions, Type calculationType,
                       const SpecType& GFType, const SpecType& NativeType)
    : GfloatCast(FormatConfig(formatOptions, calculationType),
                 RoundConfig(castOptions, calculationType), castOptions.enableNanooMode, GFType,
                 NativeType) {}

GfloatCast::GfloatCast(const GfloatCast& other)
    : nativeToGFCastCfg(other.nativeToGFCastCfg), gfToNativeCastCfg(other.gfToNativeCastCfg),
      formatCfg(other.formatCfg),
      gfParams(other.gfParams ? std::make_unique<Tensor>(*other.gfParams) : nullptr),
      castOpParamSet(other.castOpParamSet) {}

// --- the parameter tensor -------------------------------------------------------------------

namespace {

Tensor paramsFromWord(Graph& graph, unsigned word, const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(word), "GfloatCastParams");
  const gf::Format f = gf::Format::fromPacked(word);
  if (!f.valid())
    throw poputil::poplibs_error("popfloat::experimental::GfloatCast::createCastOpParamsTensor: "
                                 "the packed word " +
                                 std::to_string(word) + " is not a format Tessera can cast");
  Tensor t = graph.addConstant(INT, {1}, int(word), {di, "gfParams"});
  graph.setTileMapping(t, 0);
  return t;
}

Tensor checkedWord(Graph& graph, const Tensor& gfPacked, const std::string& op,
                   const DebugContext& debugContext) {
  if (!gfPacked.valid() || gfPacked.numElements() != 1 ||
      (gfPacked.elementType() != INT && gfPacked.elementType() != UNSIGNED_INT))
    throw poputil::poplibs_error(op + ": the packed format must be one INT or UNSIGNED_INT "
                                      "element");
  Tensor t = graph.addVariable(INT, {1}, {debugContext, "gfParams"});
  graph.setTileMapping(t, 0);
  return t;
}

} // namespace

Tensor GfloatCast::createCastOpParamsTensor(Graph& graph, const ComputeSet&, Type,
                                            const unsigned gfPacked,
                                            const DebugContext& debugContext) {
  return paramsFromWord(graph, gfPacked, debugContext);
}

Tensor GfloatCast::createCastOpParamsTensor(Graph& graph, const ComputeSet& cs, Type,
                                            Tensor gfPacked, const DebugContext& debugContext) {
  const std::string op = "popfloat::experimental::GfloatCast::createCastOpParamsTensor";
  Tensor t = checkedWord(graph, gfPacked, op, debugContext);
  // A compute set holds no copies: PopLibs' PackedGfloatParams vertex moves the word.
  const auto v = graph.addVertex(cs, "popfloat::experimental::PackedGfloatParams");
  graph.connect(v["gfStruct"], gfPacked.flatten().reinterpret(INT));
  graph.connect(v["param"], t);
  graph.setTileMapping(v, 0);
  return t;
}

Tensor GfloatCast::createCastOpParamsTensor(Graph& graph, Sequence&, Type, const unsigned gfStruct,
                                            const DebugContext& debugContext) {
  return paramsFromWord(graph, gfStruct, debugContext);
}

Tensor GfloatCast::createCastOpParamsTensor(Graph& graph, Sequence& prog, Type, Tensor gfStruct,
                                            const DebugContext& debugContext) {
  const std::string op = "popfloat::experimental::GfloatCast::createCastOpParamsTensor";
  Tensor t = checkedWord(graph, gfStruct, op, debugContext);
  prog.add(program::Copy(gfStruct.flatten().reinterpret(INT), t, false, {debugContext}));
  return t;
}

void GfloatCast::createCastOpParamsTensor(Graph& graph, Sequence& prog,
                                          const DebugContext& debugContext) {
  setGfloatCastParameters(new Tensor(createCastOpParamsTensor(
      graph, prog, getCalculationType(), formatCfg.getPackedFloatParameters(), debugContext)));
}

void GfloatCast::createCastOpParamsTensor(Graph& graph, const ComputeSet& cs) {
  setGfloatCastParameters(new Tensor(createCastOpParamsTensor(
      graph, cs, getCalculationType(), formatCfg.getPackedFloatParameters())));
}

} // namespace experimental
} // namespace popfloat
