#include <cmath>
#include <limits>
#include <poplar/ProfileValue.hpp>
#include <poplar/exceptions.hpp>

namespace poplar {

const char* toString(ProfileValue::Type type) {
  switch (type) {
  case ProfileValue::Type::STRING:
    return "string";
  case ProfileValue::Type::MAP:
    return "map";
  case ProfileValue::Type::VECTOR:
    return "vector";
  case ProfileValue::Type::NUMBER:
    return "number";
  case ProfileValue::Type::BOOLEAN:
    return "boolean";
  }
  return "unknown";
}

namespace {
[[noreturn]] void wrongType(const char* wanted, ProfileValue::Type actual) {
  throw poplar_error(std::string("ProfileValue: asked for a ") + wanted + " but the value is a " +
                     toString(actual));
}
} // namespace

const ProfileValue::String& ProfileValue::asString() const {
  if (type_ != Type::STRING) wrongType("string", type_);
  return string_;
}

const ProfileValue::Map& ProfileValue::asMap() const {
  if (type_ != Type::MAP) wrongType("map", type_);
  return *map_;
}

const ProfileValue::Vector& ProfileValue::asVector() const {
  if (type_ != Type::VECTOR) wrongType("vector", type_);
  return *vector_;
}

double ProfileValue::asDouble() const {
  if (type_ != Type::NUMBER) wrongType("number", type_);
  return number_;
}

std::int64_t ProfileValue::asInt() const {
  const double d = asDouble();
  if (std::trunc(d) != d || d < double(std::numeric_limits<std::int64_t>::min()) ||
      d >= double(std::numeric_limits<std::int64_t>::max()))
    throw poplar_error("ProfileValue::asInt: " + std::to_string(d) + " is not a 64-bit integer");
  return static_cast<std::int64_t>(d);
}

std::uint64_t ProfileValue::asUint() const {
  const double d = asDouble();
  if (std::trunc(d) != d || d < 0 || d >= double(std::numeric_limits<std::uint64_t>::max()))
    throw poplar_error("ProfileValue::asUint: " + std::to_string(d) +
                       " is not an unsigned 64-bit integer");
  return static_cast<std::uint64_t>(d);
}

bool ProfileValue::asBool() const {
  if (type_ != Type::BOOLEAN) wrongType("boolean", type_);
  return number_ != 0;
}

std::size_t ProfileValue::size() const {
  if (type_ == Type::MAP) return map_->size();
  if (type_ == Type::VECTOR) return vector_->size();
  return 0;
}

const ProfileValue& ProfileValue::operator[](const std::string& key) const {
  const Map& m = asMap();
  auto it = m.find(key);
  if (it == m.end()) throw poplar_error("ProfileValue: the map has no key '" + key + "'");
  return it->second;
}

const ProfileValue& ProfileValue::operator[](std::size_t index) const {
  const Vector& v = asVector();
  if (index >= v.size())
    throw poplar_error("ProfileValue: index " + std::to_string(index) +
                       " is past the end of a vector of " + std::to_string(v.size()));
  return v[index];
}

bool ProfileValue::operator==(const ProfileValue& other) const {
  if (type_ != other.type_) return false;
  switch (type_) {
  case Type::STRING:
    return string_ == other.string_;
  case Type::MAP:
    return *map_ == *other.map_;
  case Type::VECTOR:
    return *vector_ == *other.vector_;
  case Type::NUMBER:
  case Type::BOOLEAN:
    return number_ == other.number_;
  }
  return false;
}

} // namespace poplar
