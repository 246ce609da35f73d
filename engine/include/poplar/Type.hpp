// Element types of tensors (the host half type is in poplar/HalfFloat.hpp, included here).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <poplar/HalfFloat.hpp>
#include <string>

namespace poplar {

/// An element type. Compare with the constants FLOAT, HALF, INT, ... below.
class Type {
public:
  enum class Id : std::uint8_t {
    Invalid,
    Float,
    Half,
    Int,
    UnsignedInt,
    Short,
    UnsignedShort,
    Char,
    UnsignedChar,
    SignedChar,
    Bool,
    LongLong,
    UnsignedLongLong
  };
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

// The type constants are constexpr in every language mode. C++17 makes them inline variables
// (one object program-wide); C++11/14 have no inline variables, so there each translation unit
// gets its own internal-linkage copy, which is indistinguishable since Type is a value.
#if __cplusplus >= 201703L
#define POPLAR_TYPE_CONSTANT_ inline constexpr
#else
#define POPLAR_TYPE_CONSTANT_ constexpr
#endif
POPLAR_TYPE_CONSTANT_ Type FLOAT{Type::Id::Float};
POPLAR_TYPE_CONSTANT_ Type HALF{Type::Id::Half};
POPLAR_TYPE_CONSTANT_ Type INT{Type::Id::Int};
POPLAR_TYPE_CONSTANT_ Type UNSIGNED_INT{Type::Id::UnsignedInt};
POPLAR_TYPE_CONSTANT_ Type SHORT{Type::Id::Short};
POPLAR_TYPE_CONSTANT_ Type UNSIGNED_SHORT{Type::Id::UnsignedShort};
POPLAR_TYPE_CONSTANT_ Type CHAR{Type::Id::Char};
POPLAR_TYPE_CONSTANT_ Type UNSIGNED_CHAR{Type::Id::UnsignedChar};
POPLAR_TYPE_CONSTANT_ Type SIGNED_CHAR{Type::Id::SignedChar};
POPLAR_TYPE_CONSTANT_ Type BOOL{Type::Id::Bool};
POPLAR_TYPE_CONSTANT_ Type LONGLONG{Type::Id::LongLong};
POPLAR_TYPE_CONSTANT_ Type UNSIGNED_LONGLONG{Type::Id::UnsignedLongLong};
#undef POPLAR_TYPE_CONSTANT_

namespace detail {
/// Type::Id of each host type that has a device type; other types are incomplete, so asking
/// for them is a compile error.
template <typename T> struct TypeIdOf;
template <> struct TypeIdOf<float> { static constexpr Type::Id id = Type::Id::Float; };
template <> struct TypeIdOf<half> { static constexpr Type::Id id = Type::Id::Half; };
template <> struct TypeIdOf<int> { static constexpr Type::Id id = Type::Id::Int; };
template <> struct TypeIdOf<unsigned> { static constexpr Type::Id id = Type::Id::UnsignedInt; };
template <> struct TypeIdOf<short> { static constexpr Type::Id id = Type::Id::Short; };
template <> struct TypeIdOf<unsigned short> {
  static constexpr Type::Id id = Type::Id::UnsignedShort;
};
template <> struct TypeIdOf<char> { static constexpr Type::Id id = Type::Id::Char; };
template <> struct TypeIdOf<signed char> { static constexpr Type::Id id = Type::Id::SignedChar; };
template <> struct TypeIdOf<unsigned char> {
  static constexpr Type::Id id = Type::Id::UnsignedChar;
};
template <> struct TypeIdOf<bool> { static constexpr Type::Id id = Type::Id::Bool; };
// 64-bit host integers (std::size_t, long, std::int64_t...) are the 64-bit device types; values
// of them given to setInitialValue, addConstant or connect are converted to the tensor's type.
template <> struct TypeIdOf<long> {
  static constexpr Type::Id id = sizeof(long) == 8 ? Type::Id::LongLong : Type::Id::Int;
};
template <> struct TypeIdOf<unsigned long> {
  static constexpr Type::Id id =
      sizeof(unsigned long) == 8 ? Type::Id::UnsignedLongLong : Type::Id::UnsignedInt;
};
template <> struct TypeIdOf<long long> { static constexpr Type::Id id = Type::Id::LongLong; };
template <> struct TypeIdOf<unsigned long long> {
  static constexpr Type::Id id = Type::Id::UnsignedLongLong;
};
} // namespace detail

/// The poplar::Type of a host C++ type, for templates over element types.
///
/// One primary template rather than a specialisation per type: passing `value` by value binds
/// it to Type's copy constructor (an odr-use), and before C++17 a static constexpr member that
/// is odr-used needs a namespace-scope definition. A template's definition may sit in the header
/// (below); an explicit specialisation's would be defined once per translation unit.
template <typename T> struct TypeOf { static constexpr Type value{detail::TypeIdOf<T>::id}; };
#if __cplusplus < 201703L
template <typename T> constexpr Type TypeOf<T>::value;
#endif
/// Poplar's spelling: equivalent_device_type<T>().value is the poplar::Type of host type T.
template <typename T> struct equivalent_device_type : TypeOf<T> {};

/// Same as TypeOf<T>::value. Needs variable templates (C++14); inline from C++17.
#if __cplusplus >= 201703L
template <typename T> inline constexpr Type equivalent_device_type_v = TypeOf<T>::value;
#elif __cplusplus >= 201402L
template <typename T> constexpr Type equivalent_device_type_v = TypeOf<T>::value;
#endif

/// Converts host floats to device halves and back (Poplar's helpers for HALF tensors).
void copyFloatToDeviceHalf(const class Target& target, const float* src, void* dst,
                           std::size_t numElements);
void copyDeviceHalfToFloat(const class Target& target, const void* src, float* dst,
                           std::size_t numElements);

} // namespace poplar

// QUARTER and QUARTER_METADATA, visible wherever Poplar's Type.hpp makes them visible (its own
// header keeps the 8-bit format's helpers beside them).
#include <poplar/Quarter.hpp>
