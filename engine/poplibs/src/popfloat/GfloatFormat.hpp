// The arithmetic of gfloat formats, shared by the cast vertices: rounding a value to a format,
// and packing a format's values into sign | exponent | mantissa bits and back. Values are
// doubles (every float and half is one exactly).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace popfloat {
namespace experimental {
namespace gf {

/// A format as the packed word of FormatConfig::getPackedFloatParameters describes it.
struct Format {
  unsigned man = 0, exp = 0;
  int bias = 0;
  bool denorm = false, infNan = false;

  static Format fromPacked(std::uint32_t w) {
    Format f;
    f.man = w & 0xFF;
    f.exp = (w >> 8) & 0xFF;
    f.bias = int(std::int8_t((w >> 16) & 0xFF));
    f.denorm = (w >> 24) & 1;
    f.infNan = (w >> 25) & 1;
    return f;
  }
  static std::uint32_t pack(unsigned man, unsigned exp, int bias, bool denorm, bool infNan) {
    return (man & 0xFF) | ((exp & 0xFF) << 8) | ((std::uint32_t(bias) & 0xFF) << 16) |
           (std::uint32_t(denorm) << 24) | (std::uint32_t(infNan) << 25);
  }
  /// The largest exponent field of a finite value.
  int maxExpField() const { return (1 << exp) - 1 - (infNan ? 1 : 0); }
  int minExp() const { return 1 - bias; }
  int maxExp() const { return maxExpField() - bias; }
  double maxValue() const { return std::ldexp(2.0 - std::ldexp(1.0, -int(man)), maxExp()); }
  double minNorm() const { return std::ldexp(1.0, minExp()); }
  /// Whether the format has a finite range to round to (at least one exponent for normals).
  bool valid() const { return exp >= 1 && man <= 23 && exp <= 8 && maxExpField() >= 1; }
};

enum class Round : unsigned { RZ = 1, RN, RA, RU, RD, SR, SX };

/// `draw()` gives the stochastic modes their noise: for SR a uniform value in [0, 1) of the
/// configured bits, for SX the configured density's sample; only read when the value is
/// inexact.
template <typename Draw>
double quantise(double x, const Format& f, Round mode, bool nanoo, Draw draw) {
  if (std::isnan(x)) return f.infNan ? std::numeric_limits<double>::quiet_NaN() : 0.0;
  const bool negative = std::signbit(x);
  const double a = std::fabs(x);
  const double inf = std::numeric_limits<double>::infinity();
  if (std::isinf(a)) {
    const double r = f.infNan && nanoo ? inf : f.maxValue();
    return negative ? -r : r;
  }
  double ulp;
  if (a >= f.minNorm()) {
    int k;
    std::frexp(a, &k); // a = m * 2^k, m in [0.5, 1)
    ulp = std::ldexp(1.0, k - 1 - int(f.man));
  } else
    ulp = f.denorm ? std::ldexp(1.0, f.minExp() - int(f.man)) : f.minNorm();
  const double r = a / ulp, n = std::floor(r), frac = r - n;
  double q = n;
  if (frac > 0) {
    bool up = false;
    switch (mode) {
    case Round::RZ:
      break;
    case Round::RN:
      up = frac > 0.5 || (frac == 0.5 && std::fmod(n, 2.0) != 0);
      break;
    case Round::RA:
      up = frac >= 0.5;
      break;
    case Round::RU:
      up = !negative;
      break;
    case Round::RD:
      up = negative;
      break;
    case Round::SR:
    case Round::SX:
      up = frac + draw() >= 1.0;
      break;
    }
    q = up ? n + 1 : n;
  }
  double v = q * ulp;
  if (v > f.maxValue()) {
    // Beyond the largest value: the directed modes that round towards zero stop there, as IEEE
    // rounding does; the others overflow.
    const bool towardZero =
        mode == Round::RZ || (mode == Round::RD && !negative) || (mode == Round::RU && negative);
    v = f.infNan && nanoo && !towardZero ? inf : f.maxValue();
  }
  return negative ? -v : v;
}

/// A value of the format as sign | exponent field | mantissa, right-aligned.
inline std::uint32_t packBits(double v, const Format& f) {
  const std::uint32_t sign = std::signbit(v) ? 1u << (f.exp + f.man) : 0u;
  const std::uint32_t expAll = (1u << f.exp) - 1;
  if (std::isnan(v)) return (expAll << f.man) | (f.man ? 1u << (f.man - 1) : 0u);
  const double a = std::fabs(v);
  if (std::isinf(a)) return sign | (expAll << f.man);
  if (a == 0) return sign;
  if (a < f.minNorm()) // a denormal: exponent field 0
    return sign | std::uint32_t(std::llround(a / std::ldexp(1.0, f.minExp() - int(f.man))));
  int k;
  const double m = std::frexp(a, &k); // a = m * 2^k
  const std::uint32_t field = std::uint32_t(k - 1 + f.bias);
  const std::uint32_t mant = std::uint32_t(std::llround((2 * m - 1) * std::ldexp(1.0, f.man)));
  return sign | (field << f.man) | mant;
}

inline double unpackBits(std::uint32_t bits, const Format& f) {
  const std::uint32_t mantMask = (1u << f.man) - 1, expAll = (1u << f.exp) - 1;
  const std::uint32_t mant = bits & mantMask, field = (bits >> f.man) & expAll;
  const bool negative = (bits >> (f.exp + f.man)) & 1;
  double a;
  if (field == expAll && f.infNan)
    a = mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (field == 0)
    a = f.denorm ? std::ldexp(double(mant), f.minExp() - int(f.man)) : 0.0;
  else
    a = std::ldexp(1.0 + std::ldexp(double(mant), -int(f.man)), int(field) - f.bias);
  return negative ? -a : a;
}

} // namespace gf
} // namespace experimental
} // namespace popfloat
