// A value in a debug record: a string, number, boolean, vector or map of values, as Poplar's
// ProfileValue is. PopLibs ops attach their arguments to their debug info as ProfileValues
// (poputil::toProfileValue, DI_ARGS); poplar::DebugInfo::setValue takes them.
// Differs from Poplar: Tessera keeps the values on the DebugInfo (DebugInfo::getValues) and does
// not yet write them to debug.cbor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace poplar {

class ProfileValue {
public:
  using String = std::string;
  using Map = std::map<std::string, ProfileValue>;
  using Vector = std::vector<ProfileValue>;
  using Number = double;
  using Boolean = bool;
  enum class Type { STRING, MAP, VECTOR, NUMBER, BOOLEAN };

  /// An empty map, as Poplar's default-constructed value.
  ProfileValue() : type_(Type::MAP), map_(std::make_shared<Map>()) {}
  ProfileValue(String s) : type_(Type::STRING), string_(std::move(s)) {}
  ProfileValue(const char* s) : type_(Type::STRING), string_(s ? s : "") {}
  ProfileValue(Map m) : type_(Type::MAP), map_(std::make_shared<Map>(std::move(m))) {}
  ProfileValue(Vector v) : type_(Type::VECTOR), vector_(std::make_shared<Vector>(std::move(v))) {}
  ProfileValue(bool b) : type_(Type::BOOLEAN), number_(b ? 1 : 0) {}
  /// Any arithmetic value other than bool is a Number (a double, as in Poplar).
  template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value &&
                                                           !std::is_same<T, bool>::value>::type>
  ProfileValue(T n) : type_(Type::NUMBER), number_(static_cast<double>(n)) {}

  Type type() const { return type_; }
  bool isString() const { return type_ == Type::STRING; }
  bool isMap() const { return type_ == Type::MAP; }
  bool isVector() const { return type_ == Type::VECTOR; }
  bool isNumber() const { return type_ == Type::NUMBER; }
  bool isBool() const { return type_ == Type::BOOLEAN; }

  /// Each accessor throws poplar::poplar_error naming both types when the value is another type.
  const String& asString() const;
  const Map& asMap() const;
  const Vector& asVector() const;
  double asDouble() const;
  std::int64_t asInt() const;
  std::uint64_t asUint() const;
  bool asBool() const;

  /// Elements of a map or vector (0 for the other types).
  std::size_t size() const;
  /// A map's element; throws when the value is not a map or has no such key.
  const ProfileValue& operator[](const std::string& key) const;
  /// A vector's element; throws when the value is not a vector or the index is past its end.
  const ProfileValue& operator[](std::size_t index) const;

  bool operator==(const ProfileValue& other) const;
  bool operator!=(const ProfileValue& other) const { return !(*this == other); }

private:
  Type type_;
  String string_;
  double number_ = 0;
  std::shared_ptr<const Map> map_; // shared: values are immutable once made, copies are cheap
  std::shared_ptr<const Vector> vector_;
};

/// "string", "map", "vector", "number", "boolean".
const char* toString(ProfileValue::Type type);

} // namespace poplar
