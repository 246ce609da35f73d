// The host representation of IEEE half precision, as codelets and host code use it. Its own
// header, as in Poplar; poplar/Type.hpp includes it.
#pragma once

#include <cstdint>

namespace poplar {

/// IEEE 754 binary16, stored as its bit pattern. Arithmetic converts to float and rounds back
/// (round to nearest even), which is what a vertex computing in half precision observes.
class half {
public:
  half() = default;
  half(float f) : bits_(fromFloat(f)) {} // NOLINT: implicit like the IPU compiler's half
  operator float() const { return toFloat(bits_); }
  static half fromBits(std::uint16_t b) {
    half h;
    h.bits_ = b;
    return h;
  }
  std::uint16_t bits() const { return bits_; }

  half& operator+=(float o) { return *this = float(*this) + o; }
  half& operator-=(float o) { return *this = float(*this) - o; }
  half& operator*=(float o) { return *this = float(*this) * o; }
  half& operator/=(float o) { return *this = float(*this) / o; }

  static std::uint16_t fromFloat(float f);
  static float toFloat(std::uint16_t h);

private:
  std::uint16_t bits_ = 0;
};
static_assert(sizeof(half) == 2, "half must be two bytes: it is the device layout");

} // namespace poplar
