// Casts between native floats (FLOAT, HALF) and generic floats ("gfloats"): formats of any
// mantissa and exponent width and bias, with or without denormals and infinities/NaNs, rounded
// towards zero, to nearest (ties to even or away), up, down, or stochastically. Formats that fit
// in 8 or 16 bits are stored packed (SIGNED_CHAR, SHORT); the others, kept as quantised native
// values, are stored in their native type.
//
// Where Tessera differs from PopLibs:
//  - The cast parameter tensor is one INT element holding the packed format word
//    (FormatConfig::getPackedFloatParameters: mantissa bits, exponent bits, bias, then
//    denormal and infinity/NaN flags, a byte each), decoded by the cast vertices.
//  - Packed values are the sign, the exponent field (with the format's own bias) and the
//    mantissa, right-aligned in the storage word: for BFLOAT16 and 1-5-2 gfloat8 this is
//    PopLibs' layout (the top bits of a float or half); PopLibs aligns the other 8-bit formats
//    to half's exponent range instead.
//  - Stochastic rounding (SR) adds numSRBits-bit uniform noise below the kept mantissa; SX
//    supports the UNIFORM (offset, scale, clamped to [min, max]) and BERNOULLI densities only;
//    the others throw a poplibs_error naming them.
//  - Overflow saturates to the largest value unless the format has infinities, enableNanooMode
//    is set and the rounding is not towards zero (then it gives infinity, as IEEE rounding does);
//    a NaN input gives NaN in a format that has NaNs, 0 in one that has not.
//  - Block floats (no exponent range for normals) are refused with a poplibs_error.
#pragma once

#include "poputil/exceptions.hpp"

#include <functional>
#include <memory>
#include <popfloat/experimental/GfloatExpr.hpp>
#include <popfloat/experimental/GfloatExprUtil.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Type.hpp>
#include <tuple>
#include <vector>

namespace popfloat {
namespace experimental {

/// A gfloat format with its rounding, and the casts to and from it.
class GfloatCast {
public:
  /// The format as options: "numMantissaBits", "numExponentBits", "numExponentBias",
  /// "enableDenorms", "enableInfsAndNans" (defaults: IEEE half's 10, 5, 15, true, true).
  struct GfloatFormatOptions {
    unsigned numMantissaBits;
    unsigned numExponentBits;
    unsigned numExponentBias;
    bool enableDenorms;
    bool enableInfsAndNans;

    void parseGfloatFormatOptions(const poplar::OptionFlags& options);

    GfloatFormatOptions(const poplar::OptionFlags& options) : GfloatFormatOptions() {
      parseGfloatFormatOptions(options);
    }

    GfloatFormatOptions() {
      numMantissaBits = 10;
      numExponentBits = 5;
      numExponentBias = 15;
      enableDenorms = true;
      enableInfsAndNans = true;
    }
  };

  /// A format: its widths and flags, the native type it is computed in, how it is stored.
  struct FormatConfig {
    FormatConfig() = default;

    /// The format computed in HALF when its fields fit half's (and it is not half itself),
    /// otherwise FLOAT; specCalculationType FP32 or FP16 forces one. An impossible format (wider
    /// than float's fields) throws poplibs_error.
    FormatConfig(unsigned numMantissaBits, unsigned numExponentBits, int exponentBias,
                 bool enableDenorms, bool enableInfsAndNans,
                 popfloat::experimental::SpecType specCalculationType =
                     popfloat::experimental::SpecType::AUTO);

    FormatConfig(GfloatFormatOptions formatOptions, poplar::Type calculationType);

    FormatConfig(unsigned numMantissaBits, unsigned numExponentBits, int exponentBias,
                 bool enableDenorms, bool enableInfsAndNans, poplar::Type calculationType);

    /* Copy constructor */
    FormatConfig(const FormatConfig& formatConfig);
    /// Copy assignment, explicitly defaulted beside PopLibs' copy constructor.
    FormatConfig& operator=(const FormatConfig&) = default;

    poplar::Type getCalculationType() const { return calculationType; }
    poplar::Type getNativeType() const { return nativeType; }
    poplar::Type getStorageType() const { return storageType; }

    popfloat::experimental::FormatType getFormatType() const { return formatType; }

    unsigned getNumMantissaBits() const { return numMantissaBits; }
    unsigned getNumExponentBits() const { return numExponentBits; }
    int getExponentBias() const { return exponentBias; }
    bool isDenormEnabled() const { return enableDenorms; }
    bool infAndNansEnabled() const { return enableInfsAndNans; }
    bool isPackedFloatFormat() const {
      return (formatType != popfloat::experimental::FormatType::QUANTISED_FP16) &&
             (formatType != popfloat::experimental::FormatType::QUANTISED_FP32) &&
             (formatType != popfloat::experimental::FormatType::IEEE_FP16);
    };

    unsigned getPackedFloatBits() const { return packedFloatBits; };
    bool isBlockFloat() const { return blockFloat; };

    /// The format packed in one word: byte 0 mantissa bits, 1 exponent bits, 2 the bias (as a
    /// signed byte), 3 flags (bit 0 denormals, bit 1 infinities and NaNs).
    unsigned getPackedFloatParameters() const { return packedFloatParameters; };

    bool operator==(FormatConfig& other) const {
      const auto numMantissaBits_ = other.getNumMantissaBits();
      const auto numExponentBits_ = other.getNumExponentBits();
      const auto exponentBias_ = other.getExponentBias();
      const auto enableDenorms_ = other.isDenormEnabled();
      const auto enableInfsAndNans_ = other.infAndNansEnabled();
      const auto calculationType_ = other.getCalculationType();
      return std::tie(numMantissaBits, numExponentBits, exponentBias, enableDenorms,
                      enableInfsAndNans, calculationType) ==
             std::tie(numMantissaBits_, numExponentBits_, exponentBias_, enableDenorms_,
                      enableInfsAndNans_, calculationType_);
    }

  private:
    poplar::Type calculationType = poplar::FLOAT;
    unsigned numMantissaBits = 0;
    unsigned numExponentBits = 0;
    int exponentBias = 0;
    bool enableDenorms = false;
    bool enableInfsAndNans = false;
    poplar::Type nativeType = poplar::FLOAT;
    poplar::Type storageType = poplar::FLOAT;
    popfloat::experimental::FormatType formatType =
        popfloat::experimental::FormatType::INVALID_FORMAT;
    unsigned packedFloatParameters = 0;
    bool blockFloat = false;
    unsigned packedFloatBits = 0;
  };

  /// Rounding as options: "roundMode" (INV, RZ, RA, RN, RU, RD, SR, SX), "numSRBits",
  /// "srNoiseDensity", "srNoiseOffset", "srNoiseScale", "srNoiseMax", "srNoiseMin",
  /// "bernoulliProb", "enableNanooMode".
  struct GfloatCastOptions {
    popfloat::experimental::RoundType roundMode;
    popfloat::experimental::SRDensityType srNoiseDensity;
    unsigned numSRBits;
    double srNoiseOffset;
    double srNoiseScale;
    double srNoiseMax;
    double srNoiseMin;
    double bernoulliProb;
    bool enableNanooMode;

    void parseGfloatCastOptions(const poplar::OptionFlags& options);

    GfloatCastOptions(const poplar::OptionFlags& options) : GfloatCastOptions() {
      parseGfloatCastOptions(options);
    }

    GfloatCastOptions() {
      roundMode = popfloat::experimental::RoundType::INV;
      srNoiseDensity = popfloat::experimental::SRDensityType::INVALID;
      numSRBits = 24;
      srNoiseOffset = 0.0;
      srNoiseScale = 0.0;
      srNoiseMax = 0.0;
      srNoiseMin = 0.0;
      bernoulliProb = 0.0;
      enableNanooMode = true;
    }
  };

  /// A rounding mode with its stochastic-rounding noise.
  struct RoundConfig {
    RoundConfig() = default;

    RoundConfig(popfloat::experimental::RoundType roundMode, unsigned numSRBits,
                poplar::Type calculationType,
                popfloat::experimental::SRDensityType srNoiseDensity =
                    popfloat::experimental::SRDensityType::INVALID,
                float srNoiseOffset = 0.0, float srNoiseScale = 0.0, float srNoiseMax = 0.0,
                float srNoiseMin = 0.0, float bernoulliProb = 0.0);

    RoundConfig(const GfloatCast::RoundConfig& roundCfg);
    /// Copy assignment, explicitly defaulted beside PopLibs' copy constructor.
    RoundConfig& operator=(const RoundConfig&) = default;

    RoundConfig(GfloatCastOptions castOptions, poplar::Type calculationType);

    popfloat::experimental::RoundType getRoundMode() const { return roundModeType; }

    unsigned getNumSRBits() const { return numSRBits; }

    popfloat::experimental::SRDensityType getSRNoiseDensity() const { return srNoiseDensity; }
    /// [round mode, numSRBits]
    std::vector<unsigned> getRoundingParams() const { return roundingParams; }
    /// The noise parameters as float bit patterns: offset, scale, max, min (UNIFORM), or the
    /// probability (BERNOULLI).
    std::vector<unsigned> getNoiseParams() const { return noiseParams; }
    unsigned getDensityParam() const { return densityParam; }

    float getBernoulliProbability() const { return bernoulliProb; }

    float getSRNoiseOffset() const { return srNoiseOffset; }
    float getSRNoiseScale() const { return srNoiseScale; }
    float getSRNoiseMax() const { return srNoiseMax; }
    float getSRNoiseMin() const { return srNoiseMin; }

    /// The noise's bit mask for the calculation type: numSRBits top bits of its mantissa.
    std::vector<unsigned> getSRBitMask() const { return srBitMask; }

  private:
    popfloat::experimental::RoundType roundModeType = popfloat::experimental::RoundType::INV;
    unsigned numSRBits = 0;
    popfloat::experimental::SRDensityType srNoiseDensity =
        popfloat::experimental::SRDensityType::INVALID;
    float bernoulliProb = 0.0f;
    float srNoiseOffset = 0.0f;
    float srNoiseScale = 0.0f;
    float srNoiseMax = 0.0f;
    float srNoiseMin = 0.0f;
    std::vector<unsigned> noiseParams;
    unsigned densityParam = 0;
    std::vector<unsigned> srBitMask;
    std::vector<unsigned> roundingParams;
  };

  /// One direction of the cast: its types, rounding and NaN-on-overflow mode.
  struct CastConfig {
    CastConfig() = default;

    static CastConfig createCastNativeToGF(popfloat::experimental::FormatType formatType,
                                           poplar::Type calculationType, poplar::Type storageType,
                                           RoundConfig roundCfg, bool enableNanooMode);

    static CastConfig createCastGFToNative(popfloat::experimental::FormatType formatType,
                                           poplar::Type calculationType, poplar::Type storageType);

    popfloat::experimental::RoundType getRoundMode() const { return roundConfig.getRoundMode(); }

    unsigned getNumSRBits() const { return roundConfig.getNumSRBits(); }

    popfloat::experimental::SRDensityType getSRNoiseDensity() const {
      return roundConfig.getSRNoiseDensity();
    }

    std::vector<unsigned> getNoiseParams() const { return roundConfig.getNoiseParams(); }

    unsigned getDensityParam() const { return roundConfig.getDensityParam(); }

    float getBernoulliProbability() const { return roundConfig.getBernoulliProbability(); }

    float getSRNoiseOffset() const { return roundConfig.getSRNoiseOffset(); }

    float getSRNoiseScale() const { return roundConfig.getSRNoiseScale(); }

    float getSRNoiseMax() const { return roundConfig.getSRNoiseMax(); }

    float getSRNoiseMin() const { return roundConfig.getSRNoiseMin(); }

    std::vector<unsigned> getSRBitMask() const { return roundConfig.getSRBitMask(); }

    bool isNanooModeEnabled() const { return enableNanooMode; }

    std::vector<unsigned> getCastParams() const { return castParams; }

    poplar::Type getCalculationType() const { return calculationType; }
    poplar::Type getStorageType() const { return storageType; }

    bool inPlaceOp(poplar::Type inType) const { return (inType == storageType); }

    popfloat::experimental::FormatType getFormatType() const { return floatFormatType; }

    bool getStoreAsNative() const { return storeAsNative; }

    std::vector<unsigned> getRoundingParams() const { return roundConfig.getRoundingParams(); }

  private:
    CastConfig(popfloat::experimental::FormatType floatFormatType, poplar::Type calculationType,
               poplar::Type storageType, RoundConfig roundCfg, bool enableNanooMode);

    poplar::Type calculationType = poplar::FLOAT;
    poplar::Type storageType = poplar::FLOAT;
    RoundConfig roundConfig;
    bool enableNanooMode = false;
    popfloat::experimental::FormatType floatFormatType =
        popfloat::experimental::FormatType::INVALID_FORMAT;
    bool storeAsNative = false;
    std::vector<unsigned> castParams;
  };

  /// GFType: the gfloat's storage (AUTO: the format's); NativeType: the native side's (AUTO:
  /// the format's native type).
  GfloatCast(
      const FormatConfig& formatCfg, const RoundConfig& roundCfg, const bool enableNanooMode,
      const popfloat::experimental::SpecType& GFType = popfloat::experimental::SpecType::AUTO,
      const popfloat::experimental::SpecType& NativeType = popfloat::experimental::SpecType::AUTO);

  GfloatCast(
      const GfloatFormatOptions& formatOtions, const GfloatCastOptions& castOptions,
      poplar::Type calculationType,
      const popfloat::experimental::SpecType& GFType = popfloat::experimental::SpecType::AUTO,
      const popfloat::experimental::SpecType& NativeType = popfloat::experimental::SpecType::AUTO);

  GfloatCast(const GfloatCast& gfloatCast);

  /// The cast parameter tensor (one INT, on tile 0) for the packed format word gfPacked.
  static poplar::Tensor createCastOpParamsTensor(poplar::Graph& graph, const poplar::ComputeSet& cs,
                                                 poplar::Type calculationType,
                                                 const unsigned gfPacked,
                                                 const poplar::DebugContext& debugContext = {});

  /// The same from a one-element INT tensor holding the word (the ComputeSet form adds a copy
  /// vertex to cs).
  static poplar::Tensor createCastOpParamsTensor(poplar::Graph& graph, const poplar::ComputeSet& cs,
                                                 poplar::Type calculationType,
                                                 poplar::Tensor gfPacked,
                                                 const poplar::DebugContext& debugContext = {});

  static poplar::Tensor createCastOpParamsTensor(poplar::Graph& graph,
                                                 poplar::program::Sequence& prog,
                                                 poplar::Type calculationType,
                                                 const unsigned gfStruct,
                                                 const poplar::DebugContext& debugContext = {});

  static poplar::Tensor createCastOpParamsTensor(poplar::Graph& graph,
                                                 poplar::program::Sequence& prog,
                                                 poplar::Type calculationType,
                                                 poplar::Tensor gfStruct,
                                                 const poplar::DebugContext& debugContext = {});

  /// This cast's parameter tensor, kept for the member casts below.
  void createCastOpParamsTensor(poplar::Graph& graph, poplar::program::Sequence& prog,
                                const poplar::DebugContext& debugContext = {});

  void createCastOpParamsTensor(poplar::Graph& graph, const poplar::ComputeSet& cs);

  /// input (calculation type) rounded to the format, in the cast's storage type.
  static poplar::Tensor castNativeToGfloat(poplar::Graph& graph, poplar::Tensor input,
                                           const poplar::Tensor& param,
                                           poplar::program::Sequence& prog,
                                           const CastConfig& gfCastCfg,
                                           const poplar::DebugContext& debugContext = {});

  static poplar::Tensor castNativeToGfloat(poplar::Graph& graph, poplar::Tensor input,
                                           const poplar::Tensor& param,
                                           const poplar::ComputeSet& cs,
                                           const CastConfig& gfCastCfg,
                                           const poplar::DebugContext& debugContext = {});

  poplar::Tensor castNativeToGfloat(poplar::Graph& graph, poplar::Tensor input,
                                    poplar::program::Sequence& prog,
                                    const poplar::DebugContext& debugContext = {});

  /// In place: only when the gfloat is stored as the input's type (quantised formats).
  static void castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                        const poplar::Tensor& param,
                                        poplar::program::Sequence& prog,
                                        const CastConfig& gfCastCfg,
                                        const poplar::DebugContext& debugContext = {});

  void castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                 poplar::program::Sequence& prog,
                                 const poplar::DebugContext& debugContext = {});

  static void castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                        const poplar::Tensor& param, const poplar::ComputeSet& cs,
                                        const CastConfig& gfCastCfg,
                                        const poplar::DebugContext& debugContext = {});

  void castNativeToGfloatInPlace(poplar::Graph& graph, poplar::Tensor input,
                                 const poplar::ComputeSet& cs);

  /// Gfloats (the cast's storage type) back to their native type.
  static poplar::Tensor castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                           const poplar::Tensor& param,
                                           poplar::program::Sequence& prog,
                                           const CastConfig& gfCastCfg,
                                           const poplar::DebugContext& debugContext = {});

  poplar::Tensor castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                    poplar::program::Sequence& prog,
                                    const poplar::DebugContext& debugContext = {});

  static poplar::Tensor castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                           const poplar::Tensor& param,
                                           const poplar::ComputeSet& cs,
                                           const CastConfig& gfCastCfg,
                                           const poplar::DebugContext& debugContext = {});

  poplar::Tensor castGfloatToNative(poplar::Graph& graph, poplar::Tensor input,
                                    const poplar::ComputeSet& cs);

  poplar::Type getGFStorageType() const { return nativeToGFCastCfg.getStorageType(); }

  poplar::Type getCalculationType() const { return nativeToGFCastCfg.getCalculationType(); }

  poplar::Type getNativeStorageType() const { return gfToNativeCastCfg.getStorageType(); }

  FormatConfig getFormatConfig() const { return formatCfg; }

  CastConfig getNativeToGFConfig() const { return nativeToGFCastCfg; }

  CastConfig getGFToNativeConfig() const { return gfToNativeCastCfg; }

  bool getStoreAsNative() const { return nativeToGFCastCfg.getStoreAsNative(); }

  /// The parameter tensor; throws poplibs_error before createCastOpParamsTensor.
  poplar::Tensor getCastOpParams() const {
    if (!gfParams)
      throw poputil::poplibs_error("GfloatCast::getCastOpParams: no parameter tensor yet "
                                   "(call createCastOpParamsTensor first)");
    return *gfParams;
  }

  bool isCastOpParamSet() const { return castOpParamSet; }

  void setGfloatCastParameters(poplar::Tensor* gfParams_) {
    gfParams.reset(gfParams_);
    castOpParamSet = gfParams != nullptr;
  }

  bool isNanooModeEnabled() const { return nativeToGFCastCfg.isNanooModeEnabled(); }

  std::vector<unsigned> getSRBitMask() const { return nativeToGFCastCfg.getSRBitMask(); }

  popfloat::experimental::RoundType getRoundMode() const {
    return nativeToGFCastCfg.getRoundMode();
  }

  bool inPlaceOp(poplar::Type outType) const { return nativeToGFCastCfg.inPlaceOp(outType); }

  std::vector<unsigned> getRoundingParams() const { return nativeToGFCastCfg.getRoundingParams(); }

protected:
  CastConfig nativeToGFCastCfg;
  CastConfig gfToNativeCastCfg;
  FormatConfig formatCfg;
  std::unique_ptr<poplar::Tensor> gfParams;
  bool castOpParamSet = false;
};

} // end namespace experimental
} // end namespace popfloat
