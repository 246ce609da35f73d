// Names of templated vertex types, as codelets register them: "popops::Add<float>".
#pragma once

#include <poplar/Type.hpp>
#include <string>

namespace poputil {

namespace detail {
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
} // namespace detail

/// "name<arg1,arg2,...>": types print as their Poplar names (float, half, unsigned int).
template <typename... Args>
std::string templateVertex(const std::string& name, const Args&... args) {
  std::string s = name + '<';
  bool first = true;
  ((s += (first ? "" : ",") + detail::templateArg(args), first = false), ...);
  return s + '>';
}

} // namespace poputil
