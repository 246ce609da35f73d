#include "Convert.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <poplar/Quarter.hpp>

namespace poplar::detail::graph {

namespace {
/// Element i of an array of T at data, which may be unaligned: values handed over by users and
/// vertex connection values live in byte buffers (a misaligned load is undefined behaviour).
template <typename T> T elementAt(const void* data, std::size_t i) {
  T v;
  std::memcpy(&v, static_cast<const unsigned char*>(data) + i * sizeof(T), sizeof(T));
  return v;
}
} // namespace

/// QUARTER and QUARTER_METADATA (ids past the enumeration, poplar/Quarter.hpp): the 8-bit code
/// itself, as the format and scale are not part of the type.
static bool isQuarterType(Type type) {
  return type == QUARTER || type == QUARTER_METADATA;
}

double loadAsDouble(Type type, const void* data, std::size_t i) {
  if (isQuarterType(type)) return elementAt<unsigned char>(data, i);
  switch (type.id()) {
  case Type::Id::Float:
    return elementAt<float>(data, i);
  case Type::Id::Half:
    return half::toFloat(elementAt<std::uint16_t>(data, i));
  case Type::Id::Int:
    return elementAt<std::int32_t>(data, i);
  case Type::Id::UnsignedInt:
    return elementAt<std::uint32_t>(data, i);
  case Type::Id::Short:
    return elementAt<std::int16_t>(data, i);
  case Type::Id::UnsignedShort:
    return elementAt<std::uint16_t>(data, i);
  case Type::Id::Char:
    return elementAt<char>(data, i);
  case Type::Id::SignedChar:
    return elementAt<signed char>(data, i);
  case Type::Id::UnsignedChar:
    return elementAt<unsigned char>(data, i);
  case Type::Id::Bool:
    return elementAt<unsigned char>(data, i) != 0;
  case Type::Id::LongLong:
    return static_cast<double>(elementAt<std::int64_t>(data, i));
  case Type::Id::UnsignedLongLong:
    return static_cast<double>(elementAt<std::uint64_t>(data, i));
  case Type::Id::Invalid:
    break;
  }
  return 0;
}

namespace {
/// A double as an integer of type I without undefined behaviour (a float-to-integer conversion
/// out of range is): NaN is 0; within 64 bits, the truncated value modulo 2^bits (what a C++
/// conversion of that integer gives: -41 as UNSIGNED_INT is 4294967255); beyond, the nearest
/// limit.
template <typename I> I toInteger(double v) {
  if (std::isnan(v)) return 0;
  v = std::trunc(v);
  if (v >= -9223372036854775808.0 && v < 9223372036854775808.0)
    return static_cast<I>(static_cast<std::int64_t>(v));
  if (v >= 0 && v < 18446744073709551616.0) return static_cast<I>(static_cast<std::uint64_t>(v));
  return v < 0 ? std::numeric_limits<I>::min() : std::numeric_limits<I>::max();
}

/// A double as a float: beyond FLOAT's range it is an infinity (the conversion itself would be
/// undefined).
float toFloat(double v) {
  if (v > std::numeric_limits<float>::max()) return std::numeric_limits<float>::infinity();
  if (v < -std::numeric_limits<float>::max()) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(v);
}

template <typename I> bool fits(double v) {
  const double t = std::trunc(v);
  return !std::isnan(v) && t >= double(std::numeric_limits<I>::min()) &&
         t <= double(std::numeric_limits<I>::max());
}
} // namespace

bool representable(Type type, double v) {
  if (isQuarterType(type)) return fits<unsigned char>(v);
  switch (type.id()) {
  case Type::Id::Int:
    return fits<std::int32_t>(v);
  case Type::Id::UnsignedInt:
    return fits<std::uint32_t>(v);
  case Type::Id::Short:
    return fits<std::int16_t>(v);
  case Type::Id::UnsignedShort:
    return fits<std::uint16_t>(v);
  case Type::Id::Char:
    return fits<char>(v);
  case Type::Id::SignedChar:
    return fits<signed char>(v);
  case Type::Id::UnsignedChar:
    return fits<unsigned char>(v);
  default:
    return true; // FLOAT and HALF take infinities and NaN; BOOL is v != 0
  }
}

void storeFromDouble(Type type, void* data, std::size_t i, double v) {
  if (isQuarterType(type)) { // values given for QUARTER elements are their 8-bit codes
    static_cast<unsigned char*>(data)[i] = toInteger<unsigned char>(v);
    return;
  }
  switch (type.id()) {
  case Type::Id::Float:
    static_cast<float*>(data)[i] = toFloat(v);
    break;
  case Type::Id::Half:
    static_cast<std::uint16_t*>(data)[i] = half::fromFloat(toFloat(v));
    break;
  case Type::Id::Int:
    static_cast<std::int32_t*>(data)[i] = toInteger<std::int32_t>(v);
    break;
  case Type::Id::UnsignedInt:
    static_cast<std::uint32_t*>(data)[i] = toInteger<std::uint32_t>(v);
    break;
  case Type::Id::Short:
    static_cast<std::int16_t*>(data)[i] = toInteger<std::int16_t>(v);
    break;
  case Type::Id::UnsignedShort:
    static_cast<std::uint16_t*>(data)[i] = toInteger<std::uint16_t>(v);
    break;
  case Type::Id::Char:
    static_cast<char*>(data)[i] = toInteger<char>(v);
    break;
  case Type::Id::SignedChar:
    static_cast<signed char*>(data)[i] = toInteger<signed char>(v);
    break;
  case Type::Id::UnsignedChar:
    static_cast<unsigned char*>(data)[i] = toInteger<unsigned char>(v);
    break;
  case Type::Id::Bool:
    static_cast<unsigned char*>(data)[i] = v != 0;
    break;
  case Type::Id::LongLong:
    static_cast<std::int64_t*>(data)[i] = static_cast<std::int64_t>(v);
    break;
  case Type::Id::UnsignedLongLong:
    static_cast<std::uint64_t*>(data)[i] = static_cast<std::uint64_t>(v);
    break;
  case Type::Id::Invalid:
    break;
  }
}

void convertElements(Type srcType, const void* src, Type dstType, void* dst, std::size_t n) {
  if (srcType == dstType) {
    std::memcpy(dst, src, n * srcType.size());
    return;
  }
  for (std::size_t i = 0; i < n; ++i)
    storeFromDouble(dstType, dst, i, loadAsDouble(srcType, src, i));
}

} // namespace poplar::detail::graph
