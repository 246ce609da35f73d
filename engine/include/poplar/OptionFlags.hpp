// String key/value options, as passed to Engine and to PopLibs operations.
#pragma once

#include <cstdlib>
#include <initializer_list>
#include <istream>
#include <iterator>
#include <map>
#include <ostream>
#include <string>
#include <utility>

namespace poplar {

class OptionFlags {
public:
  using value_type = std::pair<const std::string, std::string>;
  using const_iterator = std::map<std::string, std::string>::const_iterator;

  OptionFlags() = default;
  OptionFlags(std::initializer_list<value_type> init) : map_(init) {}

  void set(const std::string& option, const std::string& value) { map_[option] = value; }
  void set(std::initializer_list<value_type> values) {
    for (const auto& kv : values)
      map_[kv.first] = kv.second;
  }
  /// The value of an option; throws invalid_option if it is not set.
  const std::string& at(const std::string& option) const;
  bool contains(const std::string& option) const { return map_.count(option) != 0; }
  void remove(const std::string& option) { map_.erase(option); }
  void clear() { map_.clear(); }
  bool empty() const { return map_.empty(); }
  std::size_t size() const { return map_.size(); }
  const_iterator begin() const { return map_.begin(); }
  const_iterator end() const { return map_.end(); }
  bool operator==(const OptionFlags& o) const { return map_ == o.map_; }

private:
  std::map<std::string, std::string> map_;
};

/// Parses a JSON object of options ({"key": "value" | true | 3, ...}) into flags.
/// `origin` names where the text came from (e.g. "POPLAR_ENGINE_OPTIONS") in error messages.
OptionFlags parseOptionFlagsJson(const std::string& json, const std::string& origin);

/// Adds the options of a JSON object ({"key": "value", ...}) to `flags`, as Poplar's readJSON
/// does; throws invalid_option on text that is not such an object.
inline void readJSON(const std::string& json, OptionFlags& flags) {
  for (const auto& kv : parseOptionFlagsJson(json, "readJSON"))
    flags.set(kv.first, kv.second);
}
inline void readJSON(std::istream& stream, OptionFlags& flags) {
  readJSON(std::string(std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()),
           flags);
}

/// Adds the options of the JSON object in environment variable `envVarName` to `flags`
/// (SDK programs read POPLAR_ENGINE_OPTIONS this way before adding their own); an unset
/// variable leaves `flags` as they are, text that is not such an object throws invalid_option
/// naming the variable.
inline void readJSONFromEnv(const std::string& envVarName, OptionFlags& flags) {
  const char* text = std::getenv(envVarName.c_str());
  if (!text) return;
  for (const auto& kv : parseOptionFlagsJson(text, envVarName))
    flags.set(kv.first, kv.second);
}

/// Prints the options as a JSON object, which readJSON reads back.
inline std::ostream& operator<<(std::ostream& os, const OptionFlags& flags) {
  auto quoted = [&os](const std::string& s) {
    os << '"';
    for (char c : s) {
      if (c == '"' || c == '\\')
        os << '\\' << c;
      else if (static_cast<unsigned char>(c) < 0x20) {
        static const char hex[] = "0123456789abcdef";
        os << "\\u00" << hex[(c >> 4) & 0xf] << hex[c & 0xf];
      } else
        os << c;
    }
    os << '"';
  };
  os << '{';
  bool first = true;
  for (const auto& kv : flags) {
    if (!first) os << ", ";
    first = false;
    quoted(kv.first);
    os << ": ";
    quoted(kv.second);
  }
  return os << '}';
}

} // namespace poplar
