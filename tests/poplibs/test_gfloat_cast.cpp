// popfloat/experimental/CastToGfloat.hpp against a host reference that rounds to the nearest
// representable values found by listing every value of the format (independent of the
// vertices' exponent arithmetic): 8- and 16-bit packed formats, quantised formats, denormals,
// infinities and NaNs, the five directed and nearest modes, stochastic rounding's statistics,
// PopLibs' estimates, and misuse.
#include "TestUtil.hpp"
#include "poplibs_support/GfloatCycleEstimators.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <popfloat/experimental/CastToGfloat.hpp>
#include <popfloat/experimental/codelets.hpp>
#include <set>

using namespace poplar;
using namespace popfloat::experimental;
using Catch::Contains;

namespace {

/// Every finite non-negative value of a format, ascending; `oddMantissa` says which have an
/// odd mantissa field (the ones ties to even avoid).
std::vector<double> formatValues(unsigned man, unsigned exp, int bias, bool denorm, bool infNan,
                                 std::set<double>* oddMantissa = nullptr) {
  std::set<double> values{0.0};
  const unsigned maxField = (1u << exp) - 1 - (infNan ? 1 : 0);
  for (unsigned field = 0; field <= maxField; ++field)
    for (unsigned m = 0; m < (1u << man); ++m) {
      double v;
      if (field == 0) {
        if (!denorm) continue;
        v = double(m) * std::pow(2.0, 1 - bias - int(man));
      } else
        v = (1.0 + double(m) / double(1u << man)) * std::pow(2.0, int(field) - bias);
      values.insert(v);
      if (oddMantissa && m % 2 == 1) oddMantissa->insert(v);
    }
  return {values.begin(), values.end()};
}

/// x rounded to the format by the listed values: the neighbours below and above |x|, then the
/// mode; a result beyond the largest value is infinity (with infinities and NaN-on-overflow) or
/// the largest.
double hostRound(double x, const std::vector<double>& values, const std::set<double>& odd,
                 RoundType mode, bool infNan, bool nanoo) {
  if (std::isnan(x)) return infNan ? x : 0.0;
  const double a = std::fabs(x), maxV = values.back();
  const double inf = std::numeric_limits<double>::infinity();
  double r;
  if (std::isinf(a))
    r = infNan && nanoo ? inf : maxV;
  else {
    auto hiIt = std::lower_bound(values.begin(), values.end(), a);
    double lo, hi;
    if (hiIt == values.end()) {
      // Beyond the range: the next value the format would have with one more exponent.
      lo = maxV;
      hi = maxV + (maxV - values[values.size() - 2]);
    } else {
      hi = *hiIt;
      lo = hi == a ? a : *(hiIt - 1);
    }
    const bool neg = std::signbit(x);
    if (lo == hi)
      r = lo;
    else {
      const double mid = (lo + hi) / 2;
      bool up = false;
      switch (mode) {
      case RoundType::RZ:
        break;
      case RoundType::RU:
        up = !neg;
        break;
      case RoundType::RD:
        up = neg;
        break;
      case RoundType::RA:
        up = a >= mid;
        break;
      case RoundType::RN:
        up = a > mid || (a == mid && odd.count(lo));
        break;
      default:
        break;
      }
      r = up ? hi : lo;
    }
    if (r > maxV) r = infNan && nanoo ? inf : maxV;
  }
  return std::signbit(x) ? -r : r;
}

struct FormatCase {
  const char* name;
  unsigned man, exp;
  int bias;
  bool denorm, infNan;
  FormatType type;
  Type calc, storage;
};

const std::vector<FormatCase> kFormats = {
    {"1-5-2", 2, 5, 15, true, true, FormatType::ONE_FIVE_TWO_GF8, HALF, SIGNED_CHAR},
    {"gf8 4-3", 3, 4, 7, true, false, FormatType::MIN_NORM_ALIGN_GF8, HALF, SIGNED_CHAR},
    {"quantised half 5-5", 5, 5, 15, false, true, FormatType::QUANTISED_FP16, HALF, HALF},
    {"bfloat16", 7, 8, 127, true, true, FormatType::BFLOAT16, FLOAT, SHORT},
    {"gf16 6-9", 9, 6, 31, true, false, FormatType::ENABLE_DENORM_GF16, FLOAT, SHORT},
    {"gf16 6-9 no denormals", 9, 6, 31, false, true, FormatType::NO_DENORM_GF16, FLOAT, SHORT},
    {"quantised float 6-12", 12, 6, 40, true, true, FormatType::QUANTISED_FP32, FLOAT, FLOAT},
};

/// Inputs spanning a format: zeros, tiny values around its smallest, ordinary ones, values at
/// and beyond its largest, both signs, and exact ties.
std::vector<float> inputsFor(const std::vector<double>& values, Type calc) {
  std::vector<float> in = {0.0f, -0.0f};
  const double smallest = values[1], largest = values.back();
  for (double f : {0.3, 0.5, 0.75, 1.0, 1.5, 2.5, 3.0, 7.25})
    in.push_back(float(smallest * f));
  for (double v : {largest * 0.999, largest, largest * 1.01, largest * 4})
    in.push_back(float(v));
  for (std::size_t i = 2; i + 1 < values.size(); i += values.size() / 37 + 1)
    in.push_back(float((values[i] + values[i + 1]) / 2)); // a tie
  const auto r = test::randomValues(40, -4.0f, 4.0f, 3);
  for (float v : r)
    in.push_back(float(std::ldexp(v, int(std::fmod(std::fabs(v) * 1000, 12)) - 6)));
  for (std::size_t i = 0, n = in.size(); i < n; ++i)
    in.push_back(-in[i]);
  if (calc == HALF) // the device sees half inputs
    for (auto& v : in)
      v = float(half(v));
  return in;
}

struct CastResult {
  std::vector<float> gf, back;
};

CastResult runCast(const GfloatCast::GfloatFormatOptions& fmt, const FormatCase& fc,
                   const GfloatCast::GfloatCastOptions& opts, const std::vector<float>& in) {
  test::Harness h(4);
  addCodelets(h.graph());
  GfloatCast cast(fmt, opts, fc.calc);
  CHECK(cast.getFormatConfig().getFormatType() == fc.type);
  CHECK(cast.getGFStorageType() == fc.storage);
  const Tensor x = h.input("x", fc.calc, {in.size()}, in);
  cast.createCastOpParamsTensor(h.graph(), h.prog());
  CHECK(cast.isCastOpParamSet());
  const Tensor gf = cast.castNativeToGfloat(h.graph(), x, h.prog(), "toGf");
  const Tensor back = cast.castGfloatToNative(h.graph(), gf, h.prog(), "fromGf");
  CHECK(gf.elementType() == fc.storage);
  h.read("gf", gf);
  h.read("back", back);
  h.run();
  return {h.result("gf"), h.result("back")};
}

GfloatCast::GfloatFormatOptions formatOptions(const FormatCase& fc) {
  GfloatCast::GfloatFormatOptions f;
  f.numMantissaBits = fc.man;
  f.numExponentBits = fc.exp;
  f.numExponentBias = unsigned(fc.bias);
  f.enableDenorms = fc.denorm;
  f.enableInfsAndNans = fc.infNan;
  return f;
}

} // namespace

TEST_CASE("gfloat casts round as the formats' listed values do", "[popfloat][gfloat]") {
  const RoundType mode =
      GENERATE(RoundType::RZ, RoundType::RN, RoundType::RA, RoundType::RU, RoundType::RD);
  const bool nanoo = GENERATE(true, false);
  for (const FormatCase& fc : kFormats) {
    INFO(fc.name << ", mode " << roundTypeToString(mode) << ", nanoo " << nanoo);
    std::set<double> odd;
    const auto values = formatValues(fc.man, fc.exp, fc.bias, fc.denorm, fc.infNan, &odd);
    GfloatCast::GfloatCastOptions opts;
    opts.roundMode = mode;
    opts.enableNanooMode = nanoo;
    std::vector<float> in = inputsFor(values, fc.calc);
    in.push_back(std::numeric_limits<float>::infinity());
    in.push_back(-std::numeric_limits<float>::infinity());
    in.push_back(std::numeric_limits<float>::quiet_NaN());
    const CastResult r = runCast(formatOptions(fc), fc, opts, in);
    std::vector<float> expected;
    for (float v : in)
      expected.push_back(float(hostRound(v, values, odd, mode, fc.infNan, nanoo)));
    CHECK_THAT(r.back, test::CloseTo(expected, 0.0f, 0.0f));
    if (fc.type == FormatType::BFLOAT16 || fc.type == FormatType::ONE_FIVE_TWO_GF8)
      // PopLibs' layout for these: the top bits of the float or half.
      for (std::size_t i = 0; i + 3 < in.size(); ++i) {
        std::uint32_t top;
        if (fc.type == FormatType::BFLOAT16) {
          const float e = expected[i];
          std::uint32_t u;
          std::memcpy(&u, &e, 4);
          top = u >> 16;
          CHECK(std::uint16_t(std::int16_t(r.gf[i])) == top);
        } else {
          const half e(expected[i]);
          std::uint16_t u;
          std::memcpy(&u, &e, 2);
          top = u >> 8;
          CHECK(std::uint8_t(std::int8_t(r.gf[i])) == top);
        }
      }
  }
}

TEST_CASE("stochastic rounding picks a neighbour, up as often as the remainder says",
          "[popfloat][gfloat]") {
  const FormatCase fc = kFormats[3]; // bfloat16
  GfloatCast::GfloatCastOptions opts;
  opts.roundMode = RoundType::SR;
  opts.numSRBits = 23;
  // 1 + a quarter of bfloat16's step at 1 (2^-7): rounds up a quarter of the time.
  const float x = 1.0f + 0.25f / 128;
  const std::vector<float> in(4096, x);
  const CastResult r = runCast(formatOptions(fc), fc, opts, in);
  std::size_t ups = 0;
  for (float v : r.back) {
    CHECK((v == 1.0f || v == 1.0f + 1.0f / 128));
    ups += v != 1.0f;
  }
  CHECK(double(ups) / double(in.size()) == Approx(0.25).margin(0.03));
}

TEST_CASE("SX rounding with Bernoulli noise", "[popfloat][gfloat]") {
  const FormatCase fc = kFormats[3];
  const float p = GENERATE(0.0f, 1.0f);
  GfloatCast::GfloatCastOptions opts(
      {{"roundMode", "SX"}, {"srNoiseDensity", "BERNOULLI"}, {"bernoulliProb", std::to_string(p)}});
  CHECK(opts.srNoiseDensity == SRDensityType::BERNOULLI);
  const std::vector<float> in = {1.0f + 0.5f / 128, -(1.0f + 0.1f / 128), 2.0f};
  const CastResult r = runCast(formatOptions(fc), fc, opts, in);
  // p = 0 never rounds away from zero; p = 1 always does; exact values stay.
  const std::vector<float> expected =
      p == 0.0f ? std::vector<float>{1.0f, -1.0f, 2.0f}
                : std::vector<float>{1.0f + 1.0f / 128, -(1.0f + 1.0f / 128), 2.0f};
  CHECK(r.back == expected);
}

TEST_CASE("in-place casts, options and configs", "[popfloat][gfloat]") {
  GfloatCast::GfloatFormatOptions fmt({{"numMantissaBits", "12"},
                                       {"numExponentBits", "6"},
                                       {"numExponentBias", "40"},
                                       {"enableDenorms", "false"}});
  CHECK(fmt.numMantissaBits == 12);
  CHECK(fmt.enableInfsAndNans); // the default kept
  GfloatCast::GfloatCastOptions opts({{"roundMode", "RN"}, {"enableNanooMode", "false"}});
  test::Harness h(4);
  addCodelets(h.graph());
  GfloatCast cast(fmt, opts, FLOAT);
  CHECK(cast.getStoreAsNative());
  CHECK(cast.inPlaceOp(FLOAT));
  CHECK(!cast.isNanooModeEnabled());
  CHECK(cast.getRoundingParams() == std::vector<unsigned>{unsigned(RoundType::RN), 24});
  const auto cfg = cast.getFormatConfig();
  CHECK(cfg.getPackedFloatParameters() == (12u | (6u << 8) | (40u << 16) | (1u << 25)));
  CHECK(!cfg.isPackedFloatFormat());
  CHECK(!cfg.isBlockFloat());
  const std::vector<float> in = {1.0f + 1.0f / 8192, 3.14159f, 1e-20f};
  const Tensor x = h.input("x", FLOAT, {3}, in);
  cast.createCastOpParamsTensor(h.graph(), h.prog());
  cast.castNativeToGfloatInPlace(h.graph(), x, h.prog());
  h.read("x", x);
  h.run();
  std::set<double> odd;
  const auto values = formatValues(12, 6, 40, false, true, &odd);
  std::vector<float> expected;
  for (float v : in)
    expected.push_back(float(hostRound(v, values, odd, RoundType::RN, true, false)));
  CHECK(expected[0] == 1.0f); // a tie, to the even mantissa
  CHECK(h.result("x") == expected);
  CHECK(expected[2] == 0.0f); // below the smallest normal, no denormals
}

TEST_CASE("gfloat misuse gives clear errors", "[popfloat][gfloat][errors]") {
  CHECK_THROWS_MATCHES(GfloatCast::FormatConfig(24, 8, 127, true, true, FLOAT),
                       poputil::poplibs_error, test::What(Contains("Invalid Gfloat format")));
  CHECK_THROWS_MATCHES(GfloatCast::FormatConfig(7, 0, 0, true, false, FLOAT),
                       poputil::poplibs_error, test::What(Contains("block float")));
  CHECK_THROWS_MATCHES(GfloatCast::FormatConfig(7, 8, 127, true, true, INT), poputil::poplibs_error,
                       test::What(Contains("calculationType")));
  const GfloatCast::GfloatFormatOptions half16;
  CHECK_THROWS_MATCHES(GfloatCast(half16, GfloatCast::GfloatCastOptions(), FLOAT),
                       poputil::poplibs_error, test::What(Contains("INV")));
  CHECK_THROWS_MATCHES(GfloatCast::RoundConfig(RoundType::SX, 8, FLOAT, SRDensityType::LAPLACE),
                       poputil::poplibs_error, test::What(Contains("LAPLACE")));
  CHECK_THROWS_MATCHES(GfloatCast::GfloatCastOptions({{"roundMode", "NEAREST"}}),
                       poplar::invalid_option, test::What(Contains("roundMode")));
  CHECK_THROWS_MATCHES(GfloatCast::GfloatFormatOptions({{"mantissa", "3"}}), poplar::invalid_option,
                       test::What(Contains("mantissa")));

  test::Harness h(4);
  addCodelets(h.graph());
  GfloatCast::GfloatFormatOptions bf16(
      {{"numMantissaBits", "7"}, {"numExponentBits", "8"}, {"numExponentBias", "127"}});
  GfloatCast cast(bf16, GfloatCast::GfloatCastOptions({{"roundMode", "RZ"}}), FLOAT);
  const Tensor x = h.graph().addVariable(FLOAT, {4}, "x");
  const Tensor xh = h.graph().addVariable(HALF, {4}, "xh");
  h.graph().setTileMapping(x, 0);
  h.graph().setTileMapping(xh, 0);
  CHECK_THROWS_MATCHES(cast.castNativeToGfloat(h.graph(), x, h.prog()), poputil::poplibs_error,
                       test::What(Contains("createCastOpParamsTensor")));
  cast.createCastOpParamsTensor(h.graph(), h.prog());
  CHECK_THROWS_MATCHES(cast.castNativeToGfloat(h.graph(), xh, h.prog()), poputil::poplibs_error,
                       test::What(Contains("calculation type")));
  CHECK_THROWS_MATCHES(cast.castNativeToGfloatInPlace(h.graph(), x, h.prog()),
                       poputil::poplibs_error, test::What(Contains("not in place")));
  CHECK_THROWS_MATCHES(
      GfloatCast::castNativeToGfloat(h.graph(), x, x, h.prog(), cast.getNativeToGFConfig()),
      poputil::poplibs_error, test::What(Contains("param")));
}

TEST_CASE("gfloat cast estimates follow PopLibs' formulas", "[poplibs][cycles][gfloat]") {
  using namespace poplibs_support;
  // CastToGfloat32: 35 (+ 11 not saving float) + per pair 7 + 7 + 10 + 3 / 5.
  CHECK(castToGfloat32Cycles(10, true) == 35 + 5 * 27);
  CHECK(castToGfloat32Cycles(9, false) == 35 + 11 + 5 * 29);
  // CastToGfloat16: 5 or 4 + 8, 15, per 4: 1 + (7 | 6 + 7) + 4 + 8 + 7 + 5 + 6.
  CHECK(castToGfloat16Cycles(8, false, true) == 12 + 15 + 2 * 44);
  CHECK(castToGfloat16Cycles(5, true, false) == 5 + 15 + 2 * 38);
  // Unpacking: 25 + per pair 3 / 25 / 24; 14 + per 4: 5 / 17 / 23.
  CHECK(castGf16ToFloatCycles(4, true, false) == 25 + 2 * 3);
  CHECK(castGf16ToFloatCycles(3, false, true) == 25 + 2 * 25);
  CHECK(castGf8ToHalfCycles(9, false, false) == 14 + 3 * 23);
  CHECK(castGf8ToHalfCycles(4, true, false) == 14 + 5);
}
