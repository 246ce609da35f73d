#include <cmath>
#include <cstring>
#include <ostream>
#include <poplar/Quarter.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

namespace poplar {

// QUARTER and QUARTER_METADATA (poplar/Quarter.hpp) take the two ids after the last one here.
static_assert(static_cast<int>(Type::Id::UnsignedLongLong) == 12,
              "a new Type::Id would collide with QUARTER's id (13): renumber poplar/Quarter.hpp");

std::size_t Type::size() const {
  if (*this == QUARTER || *this == QUARTER_METADATA) return 1;
  switch (id_) {
  case Id::LongLong:
  case Id::UnsignedLongLong:
    return 8;
  case Id::Float:
  case Id::Int:
  case Id::UnsignedInt:
    return 4;
  case Id::Half:
  case Id::Short:
  case Id::UnsignedShort:
    return 2;
  case Id::Char:
  case Id::UnsignedChar:
  case Id::SignedChar:
  case Id::Bool:
    return 1;
  case Id::Invalid:
    break;
  }
  return 0;
}

const std::string& Type::toString() const {
  static const std::string names[] = {"invalid",
                                      "float",
                                      "half",
                                      "int",
                                      "unsigned int",
                                      "short",
                                      "unsigned short",
                                      "char",
                                      "unsigned char",
                                      "signed char",
                                      "bool",
                                      "long long",
                                      "unsigned long long",
                                      "quarter",
                                      "quarter_metadata"};
  const auto i = static_cast<std::size_t>(id_);
  return i < sizeof(names) / sizeof(names[0]) ? names[i] : names[0];
}

std::ostream& operator<<(std::ostream& os, Type t) {
  return os << t.toString();
}

std::uint16_t half::fromFloat(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) // Inf or NaN (keep a quiet NaN payload bit)
    return static_cast<std::uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
  if (absx >= 0x477ff000u) // rounds to >= 65520: overflow to infinity
    return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (absx < 0x38800000u) { // below the smallest normal half: subnormal or zero
    if (absx < 0x33000000u) return static_cast<std::uint16_t>(sign); // < half of smallest subnormal
    const std::uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
    const int shift = 126 - static_cast<int>(absx >> 23); // 14..24 for the subnormal range
    std::uint32_t h = mant >> shift;
    const std::uint32_t rem = mant & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = ((absx >> 13) - (112u << 10)); // rebias exponent 127 -> 15
  const std::uint32_t rem = absx & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h; // round to nearest even
  return static_cast<std::uint16_t>(sign | h);
}

float half::toFloat(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu, bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else { // subnormal: normalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while (!(mant & 0x400u));
      bits = sign | ((112u - e) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

void copyFloatToDeviceHalf(const Target&, const float* src, void* dst, std::size_t n) {
  auto* out = static_cast<std::uint16_t*>(dst);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = half::fromFloat(src[i]);
}

void copyDeviceHalfToFloat(const Target&, const void* src, float* dst, std::size_t n) {
  const auto* in = static_cast<const std::uint16_t*>(src);
  for (std::size_t i = 0; i < n; ++i)
    dst[i] = half::toFloat(in[i]);
}

} // namespace poplar
