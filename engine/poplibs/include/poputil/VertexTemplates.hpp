// Names of templated vertex types, as codelets register them: "popops::Add<float>".
#pragma once

#include <poplar/StringRef.hpp>
#include <poplar/Type.hpp>
#include <string>

namespace poputil {

/// How a template argument of another kind prints: numbers as std::to_string prints them.
/// Libraries specialise it for their enumerations (popfloat's RoundType prints
/// "popfloat::experimental::RoundType::RN"), as PopLibs does.
template <typename T> struct VertexTemplateToString {
  static std::string to_string(const T& x) { return std::to_string(x); }
};
template <> struct VertexTemplateToString<poplar::StringRef> {
  static std::string to_string(const poplar::StringRef& ref) { return ref; }
};

namespace detail {
template <typename T> std::string templateArg(const T& x) {
  return VertexTemplateToString<T>::to_string(x);
}
inline std::string templateArg(const poplar::Type& t) {
  return t.toString();
}
inline std::string templateArg(const std::string& s) {
  return s;
}
inline std::string templateArg(const char* s) {
  return s;
}
inline std::string templateArg(bool b) {
  return b ? "true" : "false";
}

// Recursion over the arguments rather than a fold expression: this header compiles as C++11.
inline void appendTemplateArgs(std::string&) {}
template <typename First, typename... Rest>
void appendTemplateArgs(std::string& s, const First& first, const Rest&... rest) {
  s += templateArg(first);
  if (sizeof...(rest) != 0) s += ',';
  appendTemplateArgs(s, rest...);
}
} // namespace detail

/// "name<arg1,arg2,...>": types print as their Poplar names (float, half, unsigned int).
template <typename... Args>
std::string templateVertex(const std::string& name, const Args&... args) {
  std::string s = name + '<';
  detail::appendTemplateArgs(s, args...);
  return s + '>';
}

} // namespace poputil
