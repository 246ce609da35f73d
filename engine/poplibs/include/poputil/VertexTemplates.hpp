// Names of templated vertex types, as codelets register them: "popops::Add<float>".
//
// The overload set follows PopLibs' own: templateVertexParams(first, arg, rest...) renders one
// template argument and recurses, with overloads for poplar::Type, strings, bool and a generic
// one that goes through VertexTemplateToString<T> (std::to_string by default). Libraries
// specialise VertexTemplateToString for their enums (popnn::NonLinearityType,
// popops::expr::UnaryOpType, ...) so those print as their vertex template names.
#pragma once

#include <poplar/StringRef.hpp>
#include <poplar/Type.hpp>
#include <string>
#include <utility>

namespace poputil {

/// The closing part: "" when there were no arguments at all, else ">".
inline std::string templateVertexParams(bool first) {
  return first ? "" : ">";
}

// Declared before any definition so that each overload sees all the others when recursing.
template <typename... Args>
inline std::string templateVertexParams(bool first, const std::string& val, Args&&... args);
template <typename... Args>
inline std::string templateVertexParams(bool first, const char* val, Args&&... args);
template <typename... Args>
inline std::string templateVertexParams(bool first, const poplar::Type& type, Args&&... args);
template <typename... Args>
inline std::string templateVertexParams(bool first, bool b, Args&&... args);

/// How a template argument of type T prints; specialise it for enums.
template <typename T> struct VertexTemplateToString {
  static std::string to_string(const T& x) { return std::to_string(x); }
};

template <> struct VertexTemplateToString<poplar::StringRef> {
  static std::string to_string(const poplar::StringRef& ref) { return ref.cloneAsString(); }
};

template <typename T, typename... Args>
inline std::string templateVertexParams(bool first, const T& val, Args&&... args) {
  return std::string(first ? "<" : ",") + VertexTemplateToString<T>::to_string(val) +
         templateVertexParams(false, std::forward<Args>(args)...);
}

template <typename... Args>
inline std::string templateVertexParams(bool first, const poplar::Type& type, Args&&... args) {
  return std::string(first ? "<" : ",") + type.toString() +
         templateVertexParams(false, std::forward<Args>(args)...);
}

template <typename... Args>
inline std::string templateVertexParams(bool first, const std::string& val, Args&&... args) {
  return std::string(first ? "<" : ",") + val +
         templateVertexParams(false, std::forward<Args>(args)...);
}

template <typename... Args>
inline std::string templateVertexParams(bool first, const char* val, Args&&... args) {
  return std::string(first ? "<" : ",") + val +
         templateVertexParams(false, std::forward<Args>(args)...);
}

template <typename... Args>
inline std::string templateVertexParams(bool first, bool b, Args&&... args) {
  return std::string(first ? "<" : ",") + (b ? "true" : "false") +
         templateVertexParams(false, std::forward<Args>(args)...);
}

/// "name<arg1,arg2,...>", or just "name" without arguments: types print as their Poplar names
/// (float, half, unsigned int), bools as true/false, numbers as decimals.
template <typename... Args>
inline std::string templateVertex(const std::string& name, Args&&... args) {
  return name + templateVertexParams(true, std::forward<Args>(args)...);
}

} // namespace poputil
