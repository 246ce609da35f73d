#include <cmath>
#include <cstring>
#include <popfloat/experimental/CastToHalf.hpp>

namespace popfloat {
namespace experimental {

namespace {

constexpr unsigned kDroppedBits = 23 - 10; // single's mantissa bits past half's
constexpr uint16_t kHalfMax = 0x7bff;      // 65504
constexpr uint16_t kHalfInf = 0x7c00;
constexpr uint16_t kHalfQuietBit = 0x0200;

/// `v >> shift` rounded to nearest, ties to even.
uint32_t shiftRoundNearestEven(uint32_t v, unsigned shift) {
  const uint32_t q = v >> shift;
  const uint32_t rem = v & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  return (rem > halfway || (rem == halfway && (q & 1))) ? q + 1 : q;
}

} // namespace

uint16_t singleToHalf(float value, bool enNanoo) {
  // enNanoo changes nothing here: PopLibs' host conversion saturates overflow either way.
  (void)enNanoo;
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  const uint32_t magnitude = bits & 0x7fffffff;
  const uint32_t mantissa = magnitude & 0x7fffff;
  const int exponent = static_cast<int>(magnitude >> 23) - 127;

  if (magnitude > 0x7f800000) { // NaN: keep the top mantissa bits, the quiet bit and NaN-ness
    uint16_t m = static_cast<uint16_t>(shiftRoundNearestEven(mantissa, kDroppedBits) & 0x3ff);
    if (mantissa & 0x400000)
      m |= kHalfQuietBit;
    else {
      m &= ~kHalfQuietBit;
      if (m == 0) m = 1;
    }
    return sign | kHalfInf | m;
  }
  if (magnitude == 0x7f800000) return sign | kHalfInf;
  if (exponent >= 16) return sign | kHalfMax;
  // Below half the smallest denormal (2^-25) everything is zero; from 2^-25 up to the smallest
  // denormal, PopLibs rounds up to the smallest denormal (2^-25 itself included).
  if (exponent < -25) return sign;
  if (exponent == -25) return sign | 1;
  const uint32_t significand = mantissa | 0x800000; // with the implicit leading one
  if (exponent < -14) {
    // A half denormal counts units of 2^-24: significand * 2^(exponent - 23 + 24). Rounding
    // up to 0x400 lands on the smallest normal, which that bit pattern encodes.
    return sign | static_cast<uint16_t>(shiftRoundNearestEven(significand, -(exponent + 1)));
  }
  uint32_t m = shiftRoundNearestEven(significand, kDroppedBits); // 11 bits with the leading one
  int e = exponent;
  if (m >> 11) { // rounding carried into a new leading bit
    m >>= 1;
    ++e;
  }
  if (e > 15) return sign | kHalfMax;
  return sign | static_cast<uint16_t>(((e + 15) << 10) | (m & 0x3ff));
}

float halfToSingle(uint16_t ihalf) {
  const uint32_t sign = static_cast<uint32_t>(ihalf & 0x8000) << 16;
  const uint32_t exponent = (ihalf >> 10) & 0x1f;
  const uint32_t mantissa = ihalf & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    // Infinity keeps its sign; a NaN becomes a positive NaN, quiet or signalling as it was.
    if (mantissa == 0)
      bits = sign | 0x7f800000;
    else
      bits = (mantissa & kHalfQuietBit) ? 0x7fc00000u : 0x7f800001u;
  } else if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else { // denormal: normalise it, single precision has the range
      uint32_t m = mantissa;
      int e = -14;
      while (!(m & 0x400)) {
        m <<= 1;
        --e;
      }
      bits = sign | (static_cast<uint32_t>(e + 127) << 23) | ((m & 0x3ff) << kDroppedBits);
    }
  } else {
    bits = sign | ((exponent - 15 + 127) << 23) | (mantissa << kDroppedBits);
  }
  float result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

} // end namespace experimental
} // end namespace popfloat
