// A read-only view of a character string, as Poplar's API takes names: a string literal, a
// std::string or a pointer and a length convert to it, and it converts back to std::string.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstring>
#include <ostream>
#include <poplar/ArrayRef.hpp>
#include <string>

namespace poplar {

class StringRef : public ArrayRef<char> {
public:
  StringRef() : ArrayRef<char>("", std::size_t(0)) {}
  StringRef(std::nullptr_t) = delete;
  StringRef(const std::string& s) : ArrayRef<char>(s.data(), s.size()) {} // NOLINT
  StringRef(const char* s) : ArrayRef<char>(s, std::strlen(s)) {}         // NOLINT
  StringRef(const char* s, std::size_t size) : ArrayRef<char>(s, size) {}

  std::string cloneAsString() const { return std::string(data(), size()); }
  operator std::string() const { return cloneAsString(); } // NOLINT: as Poplar's
};

inline bool operator==(StringRef a, StringRef b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}
inline bool operator!=(StringRef a, StringRef b) {
  return !(a == b);
}
inline bool operator==(StringRef a, const char* b) {
  return a == StringRef(b);
}
inline bool operator==(StringRef a, const std::string& b) {
  return a == StringRef(b);
}
inline std::string operator+(const std::string& a, StringRef b) {
  return a + b.cloneAsString();
}
inline std::string operator+(StringRef a, const std::string& b) {
  return a.cloneAsString() + b;
}
inline std::ostream& operator<<(std::ostream& os, StringRef s) {
  return os.write(s.data(), std::streamsize(s.size()));
}

} // namespace poplar
