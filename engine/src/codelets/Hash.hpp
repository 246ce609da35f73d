// A fast 128-bit content hash for the codelet cache keys (not cryptographic: it only has to
// tell different sources, flags and headers apart).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace poplar::detail::codelets {

class Hasher {
public:
  Hasher& add(const void* data, std::size_t size);
  /// Adds the string and its length, so "ab"+"c" and "a"+"bc" differ.
  Hasher& add(const std::string& s);
  /// Adds a file's bytes; false if it cannot be read.
  bool addFile(const std::string& path);
  /// 32 hex digits.
  std::string hex() const;

private:
  std::uint64_t a_ = 0x9e3779b97f4a7c15ULL, b_ = 0xc2b2ae3d27d4eb4fULL;
  std::uint64_t length_ = 0;
};

} // namespace poplar::detail::codelets
