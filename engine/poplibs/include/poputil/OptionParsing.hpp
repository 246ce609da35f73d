// Option-string parsing as PopLibs' operations do it: an OptionSpec maps each option name to an
// OptionHandler that turns the value string into a typed field of the caller's options struct,
// throwing poplar::invalid_option that names the option, the value and what was expected.
//
// The header compiles as C++11 (as Poplar programs' Makefiles may ask); the handlers for
// std::optional fields, like std::optional itself, need C++17.
#pragma once

#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#if __cplusplus >= 201703L
#include <optional>
#endif
#include <poplar/StringRef.hpp>
#include <poplar/exceptions.hpp>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace poplibs {

namespace parse {

/// An integer, decimal or (with "0x") hexadecimal; the whole string must be the number.
template <typename T> T asInteger(const poplar::StringRef& str) {
  const std::string s = str.cloneAsString();
  std::istringstream in(s);
  T result{};
  in >> (s.find("0x") != std::string::npos ? std::hex : std::dec) >> result;
  if (in.fail() || !in.eof()) throw poplar::invalid_option("Not a valid integer");
  return result;
}

/// A floating-point number (leading part of the string).
template <typename T> T asFloatingPoint(const poplar::StringRef& str) {
  std::istringstream in(str.cloneAsString());
  T result{};
  in >> result;
  if (in.fail()) throw poplar::invalid_option("Not a floating point number");
  return result;
}

/// "['a', 'b', 'c']": the accepted names of an enum option, for error messages.
template <typename T>
static inline std::string describeEnumValues(const std::map<std::string, T>& valueMap) {
  std::string s = "[";
  for (auto it = valueMap.begin(); it != valueMap.end(); ++it)
    s += (it == valueMap.begin() ? "'" : ", '") + it->first + "'";
  return s + "]";
}

/// The value `map` gives for `value`; other strings are an invalid_option listing the names.
template <typename T>
T asEnum(const poplar::StringRef& value, const std::map<std::string, T>& map) {
  const auto it = map.find(value.cloneAsString());
  if (it == map.end())
    throw poplar::invalid_option("Not one of the values: " + describeEnumValues(map));
  return it->second;
}

/// "true" or "false".
inline bool asBool(const poplar::StringRef& value) {
  static const std::map<std::string, bool> names = {{"true", true}, {"false", false}};
  return asEnum<bool>(value, names);
}

} // namespace parse

/// Parses one option's value into the caller's storage.
class OptionHandler {
  std::function<void(poplar::StringRef)> valueHandler;

public:
  template <typename T>
  OptionHandler(T&& handler) // NOLINT: any callable taking the value converts
      : valueHandler(std::forward<T>(handler)) {}
  void parseValue(poplar::StringRef value) const { valueHandler(value); }

  template <typename T, typename ValueMapT = std::map<std::string, T>>
  static inline OptionHandler createWithEnum(T& output, ValueMapT&& valueMap) {
    // A copy of the map lives in the handler (no init-capture: C++11).
    const typename std::decay<ValueMapT>::type map(std::forward<ValueMapT>(valueMap));
    return OptionHandler{
        [map, &output](poplar::StringRef value) { output = parse::asEnum<T>(value, map); }};
  }

  /// Parsed as an int (as PopLibs does), then stored in `output`.
  template <typename T> static inline OptionHandler createWithInteger(T& output) {
    return OptionHandler{
        [&output](poplar::StringRef value) { output = T(parse::asInteger<int>(value)); }};
  }

  template <typename T> static inline OptionHandler createWithBool(T& output) {
    static std::map<std::string, T> names{{"true", static_cast<T>(true)},
                                          {"false", static_cast<T>(false)}};
    return createWithEnum(output, names);
  }

  template <typename T>
  static inline void ensureValueIsWithinBounds(T value, const T& lowerBound,
                                               bool lowerBoundIsInclusive, const T& upperBound,
                                               bool upperBoundIsInclusive) {
    if (value < lowerBound || (!lowerBoundIsInclusive && value == lowerBound))
      throw poplar::invalid_option("Value must be greater than " +
                                   std::string(lowerBoundIsInclusive ? "or equal to " : "") +
                                   std::to_string(lowerBound));
    if (value > upperBound || (!upperBoundIsInclusive && value == upperBound))
      throw poplar::invalid_option("Value must be less than " +
                                   std::string(upperBoundIsInclusive ? "or equal to " : "") +
                                   std::to_string(upperBound));
  }

  template <typename T>
  static inline OptionHandler
  createWithDouble(T& output, double lowerBound = std::numeric_limits<double>::min(),
                   bool lowerBoundIsInclusive = true,
                   double upperBound = std::numeric_limits<double>::max(),
                   bool upperBoundIsInclusive = true) {
    return OptionHandler{[&output, lowerBound, lowerBoundIsInclusive, upperBound,
                          upperBoundIsInclusive](poplar::StringRef value) {
      const double v = parse::asFloatingPoint<double>(value);
      ensureValueIsWithinBounds(v, lowerBound, lowerBoundIsInclusive, upperBound,
                                upperBoundIsInclusive);
      output = v;
    }};
  }

  static inline OptionHandler createWithString(std::string& output) {
    return OptionHandler{[&output](poplar::StringRef value) { output = value.cloneAsString(); }};
  }

  /// A comma-separated list of integers (decimal or 0x-hexadecimal), appended to `output`.
  template <typename T> static inline OptionHandler createWithList(std::vector<T>& output) {
    return OptionHandler{[&output](poplar::StringRef values) {
      std::istringstream in(values.cloneAsString());
      for (std::string element; std::getline(in, element, ',');) {
        std::istringstream e(element);
        T v{};
        e >> (element.find("0x") != std::string::npos ? std::hex : std::dec) >> v;
        if (e.fail() || !e.eof())
          throw poplar::invalid_option("Not a comma-separated list of integers");
        output.emplace_back(v);
      }
    }};
  }
};

/// The options an operation accepts, each with its handler.
class OptionSpec {
  using value_type = std::pair<const std::string, OptionHandler>;
  using map_type = std::map<const std::string, OptionHandler>;
  using initializer_list_t = std::initializer_list<value_type>;
  map_type handlers;

public:
  OptionSpec(initializer_list_t&& specs) : handlers(std::move(specs)) {}

  /// Parses `value` for `option`; an unknown option is an error unless ignoreUnknown.
  void parse(poplar::StringRef option, poplar::StringRef value, bool ignoreUnknown = false) const {
    const auto it = handlers.find(option.cloneAsString());
    if (it == handlers.end()) {
      if (ignoreUnknown) return;
      throw poplar::invalid_option("Unrecognised option '" + option.cloneAsString() + "'");
    }
    try {
      it->second.parseValue(value);
    } catch (const poplar::invalid_option& e) {
      throw poplar::invalid_option("Invalid value '" + value.cloneAsString() + "' for option '" +
                                   option.cloneAsString() + "': " + e.what());
    }
  }
};

#if __cplusplus >= 201703L
/// A bounded floating-point option kept in a std::optional.
template <typename T>
inline OptionHandler createOptionalDoubleHandler(
    std::optional<T>& output, double lowerBound = std::numeric_limits<double>::min(),
    bool lowerBoundIsInclusive = true, double upperBound = std::numeric_limits<double>::max(),
    bool upperBoundIsInclusive = true) {
  return OptionHandler{[&output, lowerBound, lowerBoundIsInclusive, upperBound,
                        upperBoundIsInclusive](poplar::StringRef value) {
    const double v = parse::asFloatingPoint<double>(value);
    OptionHandler::ensureValueIsWithinBounds(v, lowerBound, lowerBoundIsInclusive, upperBound,
                                             upperBoundIsInclusive);
    output = T(v);
  }};
}

/// An enum option kept in a std::optional; "none" empties it.
template <typename T, typename ValueMapT = std::map<std::string, T>>
inline OptionHandler createOptionalEnumHandler(std::optional<T>& output, ValueMapT&& valueMap) {
  const typename std::decay<ValueMapT>::type map(std::forward<ValueMapT>(valueMap));
  return OptionHandler{[&output, map](poplar::StringRef value) {
    if (value == "none") {
      output = std::nullopt;
      return;
    }
    output = parse::asEnum(value, map);
  }};
}
#endif // C++17

} // namespace poplibs
