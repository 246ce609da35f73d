#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>
#include <poplar/ProfileValue.hpp>
#include <poplar/exceptions.hpp>
#include <variant>

namespace poplar {

struct ProfileValue::Storage {
  std::variant<String, Number, Boolean, Vector, Map> v;
};

namespace {
const char* typeName(ProfileValue::Type t) {
  switch (t) {
  case ProfileValue::Type::STRING:
    return "a string";
  case ProfileValue::Type::NUMBER:
    return "a number";
  case ProfileValue::Type::BOOL_:
    return "a boolean";
  case ProfileValue::Type::VECTOR:
    return "a vector";
  case ProfileValue::Type::MAP:
    return "a map";
  }
  return "?";
}

[[noreturn]] void wrongType(const char* what, ProfileValue::Type t) {
  throw poplar_error(std::string("ProfileValue::") + what + ": the value is " + typeName(t));
}

nlohmann::json toJson(const ProfileValue& v) {
  switch (v.type()) {
  case ProfileValue::Type::STRING:
    return v.asString();
  case ProfileValue::Type::NUMBER: {
    const double d = v.asDouble();
    // Counts (cycles, bytes) print as integers, as Poplar's JSON does.
    if (std::nearbyint(d) == d && std::fabs(d) < 9.0e15)
      return d < 0 ? nlohmann::json(static_cast<std::int64_t>(d))
                   : nlohmann::json(static_cast<std::uint64_t>(d));
    return d;
  }
  case ProfileValue::Type::BOOL_:
    return v.asBool();
  case ProfileValue::Type::VECTOR: {
    auto a = nlohmann::json::array();
    for (const auto& e : v.asVector())
      a.push_back(toJson(e));
    return a;
  }
  case ProfileValue::Type::MAP: {
    auto o = nlohmann::json::object();
    for (const auto& [k, e] : v.asMap())
      o[k] = toJson(e);
    return o;
  }
  }
  return nullptr;
}
} // namespace

ProfileValue::ProfileValue(String s) : type_(Type::STRING), s_(new Storage{std::move(s)}) {}
ProfileValue::ProfileValue(Vector v) : type_(Type::VECTOR), s_(new Storage{std::move(v)}) {}
ProfileValue::ProfileValue(Map m) : type_(Type::MAP), s_(new Storage{std::move(m)}) {}
ProfileValue::ProfileValue(Boolean b) : type_(Type::BOOL_), s_(new Storage{b}) {}
ProfileValue::ProfileValue(Number n) : type_(Type::NUMBER), s_(new Storage{n}) {}
ProfileValue::ProfileValue(const ProfileValue& o) : type_(o.type_), s_(new Storage(*o.s_)) {}
ProfileValue::ProfileValue(ProfileValue&& o) noexcept
    : type_(o.type_), s_(std::make_unique<Storage>()) {
  std::swap(s_, o.s_);
  o.type_ = Type::MAP;
  o.s_->v = Map{};
}
ProfileValue& ProfileValue::operator=(const ProfileValue& o) {
  if (this != &o) {
    type_ = o.type_;
    s_ = std::make_unique<Storage>(*o.s_);
  }
  return *this;
}
ProfileValue& ProfileValue::operator=(ProfileValue&& o) noexcept {
  std::swap(type_, o.type_);
  std::swap(s_, o.s_);
  return *this;
}
ProfileValue::~ProfileValue() = default;

const ProfileValue::String& ProfileValue::asString() const {
  if (type_ != Type::STRING) wrongType("asString", type_);
  return std::get<String>(s_->v);
}
double ProfileValue::asDouble() const {
  if (type_ != Type::NUMBER) wrongType("asDouble", type_);
  return std::get<Number>(s_->v);
}
std::int64_t ProfileValue::asInt() const {
  if (type_ != Type::NUMBER) wrongType("asInt", type_);
  return static_cast<std::int64_t>(std::get<Number>(s_->v));
}
std::uint64_t ProfileValue::asUint() const {
  if (type_ != Type::NUMBER) wrongType("asUint", type_);
  const double d = std::get<Number>(s_->v);
  if (d < 0) throw poplar_error("ProfileValue::asUint: the value is negative");
  return static_cast<std::uint64_t>(d);
}
bool ProfileValue::asBool() const {
  if (type_ != Type::BOOL_) wrongType("asBool", type_);
  return std::get<Boolean>(s_->v);
}
const ProfileValue::Vector& ProfileValue::asVector() const {
  if (type_ != Type::VECTOR) wrongType("asVector", type_);
  return std::get<Vector>(s_->v);
}
const ProfileValue::Map& ProfileValue::asMap() const {
  if (type_ != Type::MAP) wrongType("asMap", type_);
  return std::get<Map>(s_->v);
}

const ProfileValue& ProfileValue::operator[](const std::string& key) const {
  if (const auto* v = getOrNull(key)) return *v;
  if (type_ != Type::MAP) wrongType(("operator[](\"" + key + "\")").c_str(), type_);
  throw poplar_error("ProfileValue: the map has no entry '" + key + "'");
}
const ProfileValue& ProfileValue::operator[](std::size_t i) const {
  const auto& v = asVector();
  if (i >= v.size())
    throw poplar_error("ProfileValue: index " + std::to_string(i) + " of a vector of " +
                       std::to_string(v.size()));
  return v[i];
}
const ProfileValue* ProfileValue::getOrNull(const std::string& key) const {
  if (type_ != Type::MAP) return nullptr;
  const auto& m = std::get<Map>(s_->v);
  const auto it = m.find(key);
  return it == m.end() ? nullptr : &it->second;
}
std::size_t ProfileValue::size() const {
  switch (type_) {
  case Type::STRING:
    return asString().size();
  case Type::VECTOR:
    return asVector().size();
  case Type::MAP:
    return asMap().size();
  default:
    wrongType("size", type_);
  }
}

std::uint64_t ProfileValue::sumUint() const {
  std::uint64_t s = 0;
  for (const auto& e : asVector())
    s += e.asUint();
  return s;
}
std::int64_t ProfileValue::sumInt() const {
  std::int64_t s = 0;
  for (const auto& e : asVector())
    s += e.asInt();
  return s;
}
double ProfileValue::sumDouble() const {
  double s = 0;
  for (const auto& e : asVector())
    s += e.asDouble();
  return s;
}
std::uint64_t ProfileValue::sum2DUint() const {
  std::uint64_t s = 0;
  for (const auto& e : asVector())
    s += e.sumUint();
  return s;
}
std::int64_t ProfileValue::sum2DInt() const {
  std::int64_t s = 0;
  for (const auto& e : asVector())
    s += e.sumInt();
  return s;
}
std::vector<std::uint64_t> ProfileValue::toUintVector() const {
  std::vector<std::uint64_t> out;
  for (const auto& e : asVector())
    out.push_back(e.asUint());
  return out;
}

bool ProfileValue::operator==(const ProfileValue& o) const {
  return type_ == o.type_ && s_->v == o.s_->v;
}

void serializeToJSON(std::ostream& out, const ProfileValue& value, bool prettyPrint) {
  out << toJson(value).dump(prettyPrint ? 2 : -1);
}

} // namespace poplar
