// Element types of tensors, and the host representation of IEEE half precision.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace poplar {

/// An element type. Compare with the constants FLOAT, HALF, INT, ... below.
class Type {
public:
  enum class Id : std::uint8_t { Invalid, Float, Half, Int, UnsignedInt, Short, UnsignedShort,
                                 Char, UnsignedChar, SignedChar, Bool };
  constexpr Type() = default;
  constexpr explicit Type(Id id) : id_(id) {}
  constexpr Id id() const { return id_; }
  /// Bytes per element on the IPU (and in host buffers given to read/write/stream calls).
  std::size_t size() const;
  const std::string& toString() const;
  bool isFloatingPoint() const { return id_ == Id::Float || id_ == Id::Half; }
  constexpr bool operator==(Type o) const { return id_ == o.id_; }
  constexpr bool operator!=(Type o) const { return id_ != o.id_; }
  constexpr bool operator<(Type o) const { return id_ < o.id_; }

private:
  Id id_ = Id::Invalid;
};

std::ostream& operator<<(std::ostream& os, Type t);

inline constexpr Type FLOAT{Type::Id::Float};
inline constexpr Type HALF{Type::Id::Half};
inline constexpr Type INT{Type::Id::Int};
inline constexpr Type UNSIGNED_INT{Type::Id::UnsignedInt};
inline constexpr Type SHORT{Type::Id::Short};
inline constexpr Type UNSIGNED_SHORT{Type::Id::UnsignedShort};
inline constexpr Type CHAR{Type::Id::Char};
inline constexpr Type UNSIGNED_CHAR{Type::Id::UnsignedChar};
inline constexpr Type SIGNED_CHAR{Type::Id::SignedChar};
inline constexpr Type BOOL{Type::Id::Bool};

/// IEEE 754 binary16, stored as its bit pattern. Arithmetic converts to float and rounds back
/// (round to nearest even), which is what a vertex computing in half precision observes.
class half {
public:
  half() = default;
  half(float f) : bits_(fromFloat(f)) {} // NOLINT: implicit like the IPU compiler's half
  operator float() const { return toFloat(bits_); }
  static half fromBits(std::uint16_t b) { half h; h.bits_ = b; return h; }
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

/// The poplar::Type of a host C++ type, for templates over element types.
template <typename T> struct TypeOf;
template <> struct TypeOf<float> { static constexpr Type value = FLOAT; };
template <> struct TypeOf<half> { static constexpr Type value = HALF; };
template <> struct TypeOf<int> { static constexpr Type value = INT; };
template <> struct TypeOf<unsigned> { static constexpr Type value = UNSIGNED_INT; };
template <> struct TypeOf<short> { static constexpr Type value = SHORT; };
template <> struct TypeOf<unsigned short> { static constexpr Type value = UNSIGNED_SHORT; };
template <> struct TypeOf<char> { static constexpr Type value = CHAR; };
template <> struct TypeOf<signed char> { static constexpr Type value = SIGNED_CHAR; };
template <> struct TypeOf<unsigned char> { static constexpr Type value = UNSIGNED_CHAR; };
template <> struct TypeOf<bool> { static constexpr Type value = BOOL; };
template <typename T> inline constexpr Type equivalent_device_type_v = TypeOf<T>::value;

/// Converts host floats to device halves and back (Poplar's helpers for HALF tensors).
void copyFloatToDeviceHalf(const class Target& target, const float* src, void* dst,
                           std::size_t numElements);
void copyDeviceHalfToFloat(const class Target& target, const void* src, float* dst,
                           std::size_t numElements);

} // namespace poplar
