// popfloat's host conversions between float and half bits, and the names of its gfloat kinds.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <popfloat/experimental/CastToHalf.hpp>
#include <popfloat/experimental/GfloatExprUtil.hpp>
#include <popfloat/experimental/codelets.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

using namespace popfloat::experimental;

namespace {
std::uint32_t bitsOf(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}
float fromBits(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}
} // namespace

TEST_CASE("singleToHalf encodes exact values and rounds to nearest even", "[popfloat]") {
  CHECK(singleToHalf(0.0f) == 0x0000);
  CHECK(singleToHalf(-0.0f) == 0x8000);
  CHECK(singleToHalf(1.0f) == 0x3c00);
  CHECK(singleToHalf(-2.0f) == 0xc000);
  CHECK(singleToHalf(0.5f) == 0x3800);
  CHECK(singleToHalf(65504.0f) == 0x7bff);
  CHECK(singleToHalf(std::ldexp(1.0f, -14)) == 0x0400); // smallest normal
  CHECK(singleToHalf(std::ldexp(1.0f, -24)) == 0x0001); // smallest denormal
  CHECK(singleToHalf(std::ldexp(3.0f, -24)) == 0x0003);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1).
  CHECK(singleToHalf(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9: up to the even one.
  CHECK(singleToHalf(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);
  CHECK(singleToHalf(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)) == 0x3c01);
  // Rounding that carries into the exponent: just below 2 becomes 2.
  CHECK(singleToHalf(std::nextafter(2.0f, 0.0f)) == 0x4000);
  // A denormal that rounds up to the smallest normal.
  CHECK(singleToHalf(std::nextafter(std::ldexp(1.0f, -14), 0.0f)) == 0x0400);
}

TEST_CASE("singleToHalf saturates overflow and keeps infinities and NaNs", "[popfloat]") {
  CHECK(singleToHalf(65520.0f) == 0x7bff); // would round to infinity in IEEE
  CHECK(singleToHalf(1e10f) == 0x7bff);
  CHECK(singleToHalf(-1e10f) == 0xfbff);
  CHECK(singleToHalf(1e10f, true) == 0x7bff);
  CHECK(singleToHalf(std::numeric_limits<float>::infinity()) == 0x7c00);
  CHECK(singleToHalf(-std::numeric_limits<float>::infinity()) == 0xfc00);
  const std::uint16_t qnan = singleToHalf(std::numeric_limits<float>::quiet_NaN());
  CHECK((qnan & 0x7c00) == 0x7c00);
  CHECK((qnan & 0x0200) != 0);
  // A signalling NaN whose payload lies below half's mantissa stays a (signalling) NaN.
  const std::uint16_t snan = singleToHalf(fromBits(0x7f800001));
  CHECK((snan & 0x7c00) == 0x7c00);
  CHECK((snan & 0x03ff) != 0);
  CHECK((snan & 0x0200) == 0);
  // Below half the smallest denormal: zero, keeping the sign.
  CHECK(singleToHalf(std::ldexp(1.0f, -26)) == 0x0000);
  CHECK(singleToHalf(-std::ldexp(1.0f, -26)) == 0x8000);
}

TEST_CASE("halfToSingle is exact and round-trips every finite half", "[popfloat]") {
  CHECK(halfToSingle(0x3c00) == 1.0f);
  CHECK(halfToSingle(0xc000) == -2.0f);
  CHECK(halfToSingle(0x7bff) == 65504.0f);
  CHECK(halfToSingle(0x0001) == std::ldexp(1.0f, -24));
  CHECK(halfToSingle(0x03ff) == std::ldexp(1023.0f, -24));
  CHECK(bitsOf(halfToSingle(0x8000)) == 0x80000000u);
  CHECK(halfToSingle(0x7c00) == std::numeric_limits<float>::infinity());
  CHECK(halfToSingle(0xfc00) == -std::numeric_limits<float>::infinity());
  CHECK(bitsOf(halfToSingle(0x7e00)) == 0x7fc00000u);
  CHECK(bitsOf(halfToSingle(0xfd01)) == 0x7f800001u);
  unsigned mismatches = 0;
  for (unsigned h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00) continue; // infinities and NaNs checked above
    if (singleToHalf(halfToSingle(static_cast<std::uint16_t>(h))) != h) ++mismatches;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("gfloat kinds have PopLibs' names and types", "[popfloat]") {
  CHECK(roundTypeToString(RoundType::SX) == "SX");
  CHECK(formatTypeToString(FormatType::MAX_NORM_ALIGN_GF8) == "MAX_NORM_ALIGN_GF8");
  CHECK(srDensityTypeToString(SRDensityType::TRUNCATED_LOGIT_NORMAL) == "TRUNCATED_LOGIT_NORMAL");
  CHECK(specTypeToString(SpecType::AUTO) == "AUTO");
  CHECK(specTypeToPoplarType(SpecType::FP16) == poplar::HALF);
  CHECK(specTypeToPoplarType(SpecType::BF16) == poplar::FLOAT);
  CHECK(specTypeToPoplarType(SpecType::INT8) == poplar::SIGNED_CHAR);
  CHECK_THROWS_AS(specTypeToPoplarType(SpecType::AUTO), poputil::poplibs_error);
  CHECK_THROWS_WITH(roundTypeToString(static_cast<RoundType>(42)),
                    Catch::Contains("42 is not a RoundType"));
  CHECK(poputil::templateVertex("popfloat::experimental::CastToGfloat16", poplar::FLOAT,
                                RoundType::RN, FormatType::BFLOAT16, 3u) ==
        "popfloat::experimental::CastToGfloat16<float,popfloat::experimental::RoundType::RN,"
        "popfloat::experimental::FormatType::BFLOAT16,3>");
}
