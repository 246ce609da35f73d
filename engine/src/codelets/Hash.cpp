#include "Hash.hpp"

#include <cstdio>
#include <cstring>

namespace poplar::detail::codelets {
namespace {

std::uint64_t
mix(std::uint64_t x) { // the finaliser of SplitMix64: every input bit affects every output bit
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

} // namespace

Hasher& Hasher::add(const void* data, std::size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
  // Eight bytes at a time into two lanes with different multipliers; the tail is zero-padded
  // and the total length goes into hex(), so padding cannot collide with real zero bytes.
  while (size > 0) {
    std::uint64_t w = 0;
    const std::size_t n = size < 8 ? size : 8;
    std::memcpy(&w, p, n);
    a_ = mix(a_ ^ w) * 0x9fb21c651e98df25ULL;
    b_ = mix(b_ + w) ^ (a_ >> 17);
    p += n;
    size -= n;
    length_ += n;
  }
  return *this;
}

Hasher& Hasher::add(const std::string& s) {
  const std::uint64_t n = s.size();
  add(&n, sizeof n);
  return add(s.data(), s.size());
}

bool Hasher::addFile(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    add(buf, n);
  const bool ok = !std::ferror(f);
  std::fclose(f);
  return ok;
}

std::string Hasher::hex() const {
  const std::uint64_t parts[2] = {mix(a_ ^ length_), mix(b_ ^ (length_ * 0x9e3779b97f4a7c15ULL))};
  char out[33];
  std::snprintf(out, sizeof out, "%016llx%016llx", static_cast<unsigned long long>(parts[0]),
                static_cast<unsigned long long>(parts[1]));
  return out;
}

} // namespace poplar::detail::codelets
