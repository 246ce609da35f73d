// The per-tile random number generator of the poprand vertices: xoroshiro128+, the algorithm of
// the IPU's hardware generator, with its 128-bit state held as four 32-bit words (the tile's row
// of the hardware-seeds variable). Shared by the codelets and the host-side seeding.
#pragma once

#include <cmath>
#include <cstdint>

namespace poprand {
namespace detail {

/// splitmix64: spreads a 64-bit value over the state space (seeding only).
inline std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The state every tile's generator starts from when the engine loads (the same on all tiles).
constexpr std::uint64_t kLoadSeed = 0x2545F4914F6CDD1Dull;

class Generator {
public:
  /// From a 64-bit seed (never the all-zero state).
  explicit Generator(std::uint64_t seed) {
    s0_ = splitmix64(seed);
    s1_ = splitmix64(seed);
    if ((s0_ | s1_) == 0) s1_ = 1;
  }
  /// From the four state words of a tile.
  explicit Generator(const unsigned* words)
      : s0_(std::uint64_t(words[0]) | std::uint64_t(words[1]) << 32),
        s1_(std::uint64_t(words[2]) | std::uint64_t(words[3]) << 32) {
    if ((s0_ | s1_) == 0) s1_ = 1;
  }
  void store(unsigned* words) const {
    words[0] = unsigned(s0_);
    words[1] = unsigned(s0_ >> 32);
    words[2] = unsigned(s1_);
    words[3] = unsigned(s1_ >> 32);
  }

  std::uint64_t next() {
    const std::uint64_t a = s0_;
    std::uint64_t b = s1_;
    const std::uint64_t result = a + b;
    b ^= a;
    s0_ = rotl(a, 24) ^ b ^ (b << 16);
    s1_ = rotl(b, 37);
    return result;
  }
  std::uint32_t next32() { return std::uint32_t(next() >> 32); }
  /// Uniform in [0, 1): the top 53 bits.
  double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
  /// Standard normal (Box-Muller; the second value of each pair is kept for the next call).
  double normal() {
    if (haveSpare_) {
      haveSpare_ = false;
      return spare_;
    }
    double u1;
    do
      u1 = uniform();
    while (u1 <= 0.0);
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1)), theta = 6.283185307179586 * u2;
    spare_ = r * std::sin(theta);
    haveSpare_ = true;
    return r * std::cos(theta);
  }

private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s0_, s1_;
  double spare_ = 0;
  bool haveSpare_ = false;
};

/// The generator of one vertex: seeded from (seed, modifier, tile) for a seeded call, else the
/// tile's running state.
inline Generator seededGenerator(unsigned seedLo, unsigned seedHi, unsigned modifier,
                                 unsigned tile) {
  std::uint64_t x =
      (std::uint64_t(seedHi) << 32 | seedLo) ^ (std::uint64_t(modifier) * 0xD1B54A32D192ED03ull);
  const std::uint64_t mixed = splitmix64(x) ^ (std::uint64_t(tile) * 0x8CB92BA72F3D8DD7ull);
  return Generator(mixed);
}

} // namespace detail
} // namespace poprand
