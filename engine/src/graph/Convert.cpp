#include "Convert.hpp"

#include <cstdint>
#include <cstring>

namespace poplar::detail {

double loadAsDouble(Type type, const void* data, std::size_t i) {
  switch (type.id()) {
  case Type::Id::Float:
    return static_cast<const float*>(data)[i];
  case Type::Id::Half:
    return half::toFloat(static_cast<const std::uint16_t*>(data)[i]);
  case Type::Id::Int:
    return static_cast<const std::int32_t*>(data)[i];
  case Type::Id::UnsignedInt:
    return static_cast<const std::uint32_t*>(data)[i];
  case Type::Id::Short:
    return static_cast<const std::int16_t*>(data)[i];
  case Type::Id::UnsignedShort:
    return static_cast<const std::uint16_t*>(data)[i];
  case Type::Id::Char:
    return static_cast<const char*>(data)[i];
  case Type::Id::SignedChar:
    return static_cast<const signed char*>(data)[i];
  case Type::Id::UnsignedChar:
    return static_cast<const unsigned char*>(data)[i];
  case Type::Id::Bool:
    return static_cast<const unsigned char*>(data)[i] != 0;
  case Type::Id::LongLong:
    return static_cast<double>(static_cast<const std::int64_t*>(data)[i]);
  case Type::Id::UnsignedLongLong:
    return static_cast<double>(static_cast<const std::uint64_t*>(data)[i]);
  case Type::Id::Invalid:
    break;
  }
  return 0;
}

void storeFromDouble(Type type, void* data, std::size_t i, double v) {
  switch (type.id()) {
  case Type::Id::Float:
    static_cast<float*>(data)[i] = static_cast<float>(v);
    break;
  case Type::Id::Half:
    static_cast<std::uint16_t*>(data)[i] = half::fromFloat(static_cast<float>(v));
    break;
  case Type::Id::Int:
    static_cast<std::int32_t*>(data)[i] = static_cast<std::int32_t>(v);
    break;
  case Type::Id::UnsignedInt:
    static_cast<std::uint32_t*>(data)[i] = static_cast<std::uint32_t>(v);
    break;
  case Type::Id::Short:
    static_cast<std::int16_t*>(data)[i] = static_cast<std::int16_t>(v);
    break;
  case Type::Id::UnsignedShort:
    static_cast<std::uint16_t*>(data)[i] = static_cast<std::uint16_t>(v);
    break;
  case Type::Id::Char:
    static_cast<char*>(data)[i] = static_cast<char>(v);
    break;
  case Type::Id::SignedChar:
    static_cast<signed char*>(data)[i] = static_cast<signed char>(v);
    break;
  case Type::Id::UnsignedChar:
    static_cast<unsigned char*>(data)[i] = static_cast<unsigned char>(v);
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

} // namespace poplar::detail
