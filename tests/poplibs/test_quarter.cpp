// QUARTER (8-bit floating point): QuarterMetadata, the F143 and F152 encodings on the host, the
// metadata tensors, and popops::cast to and from QUARTER on the simulated IPU, checked against a
// reference that finds the nearest code by search rather than by formula.
#include "TestUtil.hpp"
#include "poplibs_support/QuarterCycleEstimators.hpp"

#include <cmath>
#include <limits>
#include <poplar/MetadataCreation.hpp>
#include <poplar/Quarter.hpp>
#include <poplar/exceptions.hpp>
#include <popops/Cast.hpp>
#include <poputil/Util.hpp>
#include <poputil/exceptions.hpp>

using namespace poplar;
using Format = QuarterMetadata::Format;

namespace {

/// The value of a code, from the format's definition: sign, exponent field, mantissa field.
double refDecode(unsigned code, Format f, int scale) {
  const int expBits = f == Format::F143 ? 4 : 5, manBits = 7 - expBits;
  const int bias = f == Format::F143 ? 8 : 16;
  if (code == 0x80) return std::numeric_limits<double>::quiet_NaN();
  const int e = int(code >> manBits) & ((1 << expBits) - 1);
  const int m = int(code) & ((1 << manBits) - 1);
  double v = e == 0 ? std::ldexp(double(m) / (1 << manBits), 1 - bias)
                    : std::ldexp(1.0 + double(m) / (1 << manBits), e - bias);
  v = std::ldexp(v, scale);
  return (code & 0x80) ? -v : v;
}

/// The code nearest x by search over every positive code (ties to the even code; a value
/// nearer the first power of two past the largest code, or tied with it, overflows to NaN).
unsigned refEncode(double x, Format f, int scale) {
  if (!std::isfinite(x)) return 0x80;
  const double a = std::fabs(x);
  unsigned best = 0;
  double bestDiff = a;
  for (unsigned c = 1; c < 0x80; ++c) {
    const double d = std::fabs(refDecode(c, f, scale) - a);
    if (d < bestDiff || (d == bestDiff && (c & 1) == 0)) {
      best = c;
      bestDiff = d;
    }
  }
  const double beyond = std::ldexp(f == Format::F143 ? 256.0 : 65536.0, scale);
  if (std::fabs(beyond - a) <= bestDiff) return 0x80;
  return best == 0 ? 0 : best | (x < 0 ? 0x80u : 0u);
}

/// Values across the range of (f, scale): every code's value, the midpoints between codes
/// (ties), points a quarter of the way, beyond the largest, below the smallest, 0 and NaN.
std::vector<float> sweep(Format f, int scale) {
  std::vector<float> v;
  for (unsigned c = 0; c < 0x7f; ++c) {
    const double lo = refDecode(c, f, scale), hi = refDecode(c + 1, f, scale);
    for (double t : {0.0, 0.25, 0.5, 0.75}) {
      v.push_back(float(lo + t * (hi - lo)));
      v.push_back(-float(lo + t * (hi - lo)));
    }
  }
  const double max = refDecode(0x7f, f, scale);
  for (double k : {1.0, 1.03, 1.0625, 1.5, 4.0})
    v.push_back(float(max * k));
  v.push_back(float(std::ldexp(refDecode(1, f, scale), -2)));
  v.push_back(std::numeric_limits<float>::quiet_NaN());
  v.push_back(std::numeric_limits<float>::infinity());
  return v;
}

} // namespace

TEST_CASE("QuarterMetadata holds a format and a six-bit scale", "[quarter]") {
  const QuarterMetadata m(Format::F152, -7);
  CHECK(m.getFormat() == Format::F152);
  CHECK(m.getScale() == -7);
  CHECK(m == QuarterMetadata(Format::F152, -7));
  CHECK(m != QuarterMetadata(Format::F143, -7));
  CHECK(m.toString() == "F152, scale -7");
  CHECK(QuarterMetadata().getFormat() == Format::F143);
  CHECK_THROWS_MATCHES(QuarterMetadata(Format::F143, 32), poplar_error,
                       test::What(Catch::Contains("scale 32 is outside [-32, 31]")));
  CHECK_THROWS_AS(QuarterMetadata(Format::F143, -33), poplar_error);
  for (Format f : {Format::F143, Format::F152})
    for (int s = -32; s <= 31; ++s) {
      const QuarterMetadata q(f, s);
      CHECK(detail::unpackQuarterMetadata(detail::packQuarterMetadata(q)) == q);
    }
  CHECK(detail::packQuarterMetadata(QuarterMetadata(Format::F152, -1)) == 0xbf);
  CHECK(QUARTER.size() == 1);
  CHECK(QUARTER_METADATA.size() == 1);
  CHECK(QUARTER.toString() == "quarter");
  CHECK(QUARTER_METADATA.toString() == "quarter_metadata");
  CHECK(QUARTER != UNSIGNED_CHAR);
}

TEST_CASE("quarter codes decode as F143 and F152 are defined", "[quarter]") {
  CHECK(detail::quarterMax(Format::F143) == 240.0f);
  CHECK(detail::quarterMax(Format::F152) == 57344.0f);
  const QuarterMetadata f143(Format::F143, 0), f152(Format::F152, 0);
  CHECK(detail::quarterToFloat(0x40, f143) == 1.0f);
  CHECK(detail::quarterToFloat(0x40, f152) == 1.0f);
  CHECK(detail::quarterToFloat(0x01, f143) == std::ldexp(1.0f, -10));
  CHECK(detail::quarterToFloat(0x01, f152) == std::ldexp(1.0f, -17));
  CHECK(detail::quarterToFloat(0x7f, f143) == 240.0f);
  CHECK(detail::quarterToFloat(0xff, f152) == -57344.0f);
  CHECK(std::isnan(detail::quarterToFloat(0x80, f143)));
  CHECK(detail::quarterToFloat(0x40, QuarterMetadata(Format::F143, 3)) == 8.0f);
  for (Format f : {Format::F143, Format::F152})
    for (int s : {-32, -5, 0, 4, 31}) {
      const QuarterMetadata m(f, s);
      for (unsigned c = 0; c < 256; ++c) {
        if (c == 0x80) continue;
        INFO("code " << c << " " << m);
        CHECK(double(detail::quarterToFloat(std::uint8_t(c), m)) == refDecode(c, f, s));
        CHECK(detail::floatToQuarter(detail::quarterToFloat(std::uint8_t(c), m), m) ==
              (c == 0 ? 0u : c));
      }
    }
}

TEST_CASE("floatToQuarter rounds to the nearest code, ties to even, NaN past the range",
          "[quarter]") {
  for (Format f : {Format::F143, Format::F152})
    for (int s : {-12, 0, 6}) {
      const QuarterMetadata m(f, s);
      for (float x : sweep(f, s)) {
        INFO(x << " as " << m);
        CHECK(unsigned(detail::floatToQuarter(x, m)) == refEncode(x, f, s));
      }
    }
  // A few by hand: 1.0625 is halfway between 1 and 1.125 (F143), and goes to 1 (even).
  const QuarterMetadata f143(Format::F143, 0);
  CHECK(detail::floatToQuarter(1.0625f, f143) == 0x40);
  CHECK(detail::floatToQuarter(1.1875f, f143) == 0x42); // halfway 1.125/1.25: to 1.25
  CHECK(detail::floatToQuarter(247.9f, f143) == 0x7f);
  CHECK(detail::floatToQuarter(248.0f, f143) == 0x80); // ties up, past 240: NaN
  CHECK(detail::floatToQuarter(-0.0f, f143) == 0x00);  // no negative zero
}

TEST_CASE("metadata tensors are one QUARTER_METADATA byte", "[quarter]") {
  test::Harness h(2);
  auto& g = h.graph();
  const Tensor c = poputil::createConstantMetadataTensor(g, Format::F152, -3);
  const Tensor v = poplar::createVariableMetadataTensor(g, Format::F143, 5);
  CHECK(c.elementType() == QUARTER_METADATA);
  CHECK(v.elementType() == QUARTER_METADATA);
  CHECK(c.shape() == std::vector<std::size_t>{1});
  h.read("v", v.reinterpret(UNSIGNED_CHAR));
  h.run();
  CHECK(h.result("v")[0] == float(detail::packQuarterMetadata({Format::F143, 5})));
  CHECK_THROWS_AS(poputil::createVariableMetadataTensor(g, Format::F143, 40), poplar_error);
}

TEST_CASE("cast to and from QUARTER rounds as the formats are defined", "[quarter][cast]") {
  for (Format f : {Format::F143, Format::F152}) {
    const int scale = f == Format::F143 ? -4 : 3;
    const auto values = sweep(f, scale);
    const std::size_t n = values.size();
    test::Harness h(4);
    auto& g = h.graph();
    auto& p = h.prog();
    const Tensor x = h.input("x", FLOAT, {n}, values);
    const Tensor metadata = poputil::createConstantMetadataTensor(g, f, scale);
    const Tensor q = popops::cast(g, x, QUARTER, metadata, p, "toQuarter");
    CHECK(q.elementType() == QUARTER);
    CHECK(detail::getQuarterMetadata(q).elementsAreEqual(metadata));
    const Tensor back = popops::cast(g, q, FLOAT, p);
    const Tensor asHalf = popops::cast(g, q, HALF, p);
    h.read("codes", q.reinterpret(UNSIGNED_CHAR));
    h.read("back", back);
    h.read("half", asHalf);
    h.run();
    std::vector<float> codes(n), expected(n), expectedHalf(n);
    for (std::size_t i = 0; i < n; ++i) {
      codes[i] = float(refEncode(values[i], f, scale));
      expected[i] = float(refDecode(unsigned(codes[i]), f, scale));
      expectedHalf[i] = float(half(expected[i]));
    }
    CHECK_THAT(h.result("codes"), test::CloseTo(codes, 0.0f));
    CHECK_THAT(h.result("back"), test::CloseTo(expected, 0.0f));
    CHECK_THAT(h.result("half"), test::CloseTo(expectedHalf, 0.0f));
  }
}

TEST_CASE("cast from HALF to QUARTER in a compute set, and between quarter metadata",
          "[quarter][cast]") {
  const std::vector<float> values = {0.1f, -0.37f, 1.0f, 3.3f, 17.0f, -100.0f, 0.004f, 2.5f};
  const std::size_t n = values.size();
  test::Harness h(2);
  auto& g = h.graph();
  auto& p = h.prog();
  const Tensor x = h.input("x", HALF, {n}, values);
  const Tensor m152 = poputil::createVariableMetadataTensor(g, Format::F152, -2);
  const Tensor m143 = poputil::createConstantMetadataTensor(g, Format::F143, 1);
  const ComputeSet cs = g.addComputeSet("toQuarter");
  const Tensor q152 = popops::cast(g, x, QUARTER, m152, cs);
  p.add(program::Execute(cs));
  // QUARTER to QUARTER under other metadata: decoded and encoded again.
  const Tensor q143 = popops::cast(g, x, QUARTER, m143, p); // only to have a target
  p.add(popops::cast(g, q152, q143));
  h.read("q152", popops::cast(g, q152, FLOAT, p));
  h.read("q143", popops::cast(g, q143, FLOAT, p));
  h.run();
  std::vector<float> e152(n), e143(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float hx = float(half(values[i]));
    e152[i] = float(refDecode(refEncode(hx, Format::F152, -2), Format::F152, -2));
    e143[i] = float(refDecode(refEncode(e152[i], Format::F143, 1), Format::F143, 1));
  }
  CHECK_THAT(h.result("q152"), test::CloseTo(e152, 0.0f));
  CHECK_THAT(h.result("q143"), test::CloseTo(e143, 0.0f));
}

TEST_CASE("a cast reads its metadata when the program runs", "[quarter][cast]") {
  test::Harness h(2);
  auto& g = h.graph();
  auto& p = h.prog();
  const Tensor x = h.input("x", FLOAT, {4}, {1.0f, 2.0f, 3.0f, 1000.0f});
  const Tensor metadata = poputil::createVariableMetadataTensor(g, Format::F143, 0);
  // The program changes the scale to 3 before the cast: 1000 / 8 = 125 rounds to 128, so 1024
  // (with scale 0, 1000 is past F143's 240: NaN).
  const Tensor scale3 = poputil::createConstantMetadataTensor(g, Format::F143, 3);
  p.add(program::Copy(scale3, metadata));
  const Tensor q = popops::cast(g, x, QUARTER, metadata, p);
  h.read("codes", q.reinterpret(UNSIGNED_CHAR));
  h.read("back", popops::cast(g, q, FLOAT, p));
  h.run();
  CHECK_THAT(h.result("back"), test::CloseTo({1.0f, 2.0f, 3.0f, 1024.0f}, 0.0f));
  CHECK(h.result("codes")[0] == float(refEncode(1.0, Format::F143, 3)));
}

TEST_CASE("quarter cast misuse is a poplibs_error naming the problem", "[quarter][cast][errors]") {
  test::Harness h(2);
  auto& g = h.graph();
  auto& p = h.prog();
  const Tensor x = h.input("x", FLOAT, {4}, {1, 2, 3, 4});
  const Tensor i = h.input("i", INT, {4}, {1, 2, 3, 4});
  const Tensor m = poputil::createConstantMetadataTensor(g, Format::F143, 0);
  CHECK_THROWS_MATCHES(popops::cast(g, x, QUARTER, p), poputil::poplibs_error,
                       test::What(Catch::Contains("needs a metadata tensor")));
  CHECK_THROWS_MATCHES(popops::cast(g, x, QUARTER, x, p), poputil::poplibs_error,
                       test::What(Catch::Contains("one-element quarter_metadata")));
  CHECK_THROWS_MATCHES(popops::cast(g, x, HALF, m, p), poputil::poplibs_error,
                       test::What(Catch::Contains("for casts to quarter, not to half")));
  CHECK_THROWS_MATCHES(popops::cast(g, i, QUARTER, m, p), poputil::poplibs_error,
                       test::What(Catch::Contains("int to quarter is not supported")));
  const Tensor bare = g.addVariable(QUARTER, {4}, "bare");
  g.setTileMapping(bare, 0);
  CHECK_THROWS_MATCHES(popops::cast(g, bare, FLOAT, p), poputil::poplibs_error,
                       test::What(Catch::Contains("quarter tensor without metadata")));
  CHECK_THROWS_AS(detail::setQuarterMetadata(x, m), poplar_error);
}

TEST_CASE("quarter cast vertices follow PopLibs' cast estimator", "[quarter][cycles]") {
  using poplibs_support::castQuarterWorkerCycles;
  // QUARTER <-> HALF on the auxiliary pipeline: 4 per 64-bit store of halves, one cycle each.
  CHECK(castQuarterWorkerCycles(64, QUARTER, HALF, 8) == 19 + 2 + 1 + 1);
  CHECK(castQuarterWorkerCycles(64, QUARTER, HALF, 10) == 19 + 2 + 1 + 3);
  // HALF -> QUARTER: two 64-bit loads of halves per store of 8 codes, 2 cycles a vector.
  CHECK(castQuarterWorkerCycles(64, HALF, QUARTER, 12) == 19 + 2 + 1 + 1 + 3);
  // QUARTER <-> FLOAT: one element per vector, one cycle more.
  CHECK(castQuarterWorkerCycles(64, FLOAT, QUARTER, 10) == 19 + 2 * 10);
  CHECK(castQuarterWorkerCycles(64, QUARTER, FLOAT, 3) == 19 + 2 * 3);
  // QUARTER -> QUARTER: 8-element atoms.
  CHECK(castQuarterWorkerCycles(64, QUARTER, QUARTER, 16) == 4 + 13 + 2);
  CHECK(castQuarterWorkerCycles(64, QUARTER, QUARTER, 20) == 4 + 13 + 5);
  CHECK(castQuarterWorkerCycles(64, QUARTER, QUARTER, 3) == 4 + 5);
}
