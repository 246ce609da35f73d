#include "Pack.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

// Words are read with plain loads and taken apart with shifts: Cap'n Proto is little-endian.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "Pack.cpp assumes a little-endian host");

namespace tessera::profiler::detail {

namespace {

#define PACK_INLINE inline __attribute__((always_inline))

PACK_INLINE std::uint64_t load(const unsigned char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// 0x80 in each byte of w that is non-zero, 0x00 elsewhere (branch-free).
PACK_INLINE std::uint64_t nonZeroHighBits(std::uint64_t w) {
  constexpr std::uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
  return (((w & low7) + low7) | w) & ~low7;
}

// Set bits of a byte. A table, because without -mpopcnt __builtin_popcount is a library call.
constexpr std::array<unsigned char, 256> kBitCount = [] {
  std::array<unsigned char, 256> t{};
  for (unsigned i = 0; i < 256; ++i)
    t[i] = static_cast<unsigned char>((i & 1) + t[i / 2]);
  return t;
}();

// The tag: bit i set when byte i is non-zero. The multiply gathers the eight flags (bits 0, 8,
// ..., 56) into the top byte.
PACK_INLINE unsigned tagOf(std::uint64_t w) {
  return static_cast<unsigned>(((nonZeroHighBits(w) >> 7) * 0x0102040810204080ULL) >> 56);
}

PACK_INLINE unsigned zeroBytes(std::uint64_t w) {
  return 8 - kBitCount[tagOf(w)];
}

// Bit i of the result's word i/64 is set when word i is non-zero (bits past n stay clear).
// Portable version: one compare per word, the mask kept in a register.
void nonZeroWordBitsScalar(const unsigned char* in, std::size_t n, std::uint64_t* bits) {
  for (std::size_t c = 0; c < (n + 63) / 64; ++c) {
    const std::size_t first = 64 * c, count = std::min<std::size_t>(64, n - first);
    std::uint64_t mask = 0;
    for (std::size_t k = 0; k < count; ++k)
      mask |= std::uint64_t(load(in + 8 * (first + k)) != 0) << k;
    bits[c] = mask;
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same with AVX2 where the CPU has it: four words per compare, their zero flags gathered by
// one movemask. This pass touches every word of a step (1472 on an Mk2 IPU) and was half the
// packer's instructions; now it is a fraction of the time spent on the busy words.
__attribute__((target("avx2"))) void nonZeroWordBitsAvx2(const unsigned char* in, std::size_t n,
                                                         std::uint64_t* bits) {
  const __m256i zero = _mm256_setzero_si256();
  const std::size_t full = n / 64;
  for (std::size_t c = 0; c < full; ++c) {
    std::uint64_t zeroMask = 0;
    const unsigned char* p = in + 512 * c;
    for (unsigned k = 0; k < 16; ++k) {
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32 * k));
      const unsigned z = static_cast<unsigned>(
          _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(v, zero))));
      zeroMask |= std::uint64_t(z) << (4 * k);
    }
    bits[c] = ~zeroMask;
  }
  if (n % 64) nonZeroWordBitsScalar(in + 512 * full, n % 64, bits + full);
}

void nonZeroWordBits(const unsigned char* in, std::size_t n, std::vector<std::uint64_t>& bits) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  bits.resize((n + 63) / 64);
  if (avx2)
    nonZeroWordBitsAvx2(in, n, bits.data());
  else
    nonZeroWordBitsScalar(in, n, bits.data());
}
#else
void nonZeroWordBits(const unsigned char* in, std::size_t n, std::vector<std::uint64_t>& bits) {
  bits.resize((n + 63) / 64);
  nonZeroWordBitsScalar(in, n, bits.data());
}
#endif

// `zeros` consecutive zero words: tag 0x00 and a count of up to 255 further zero words, as many
// times as needed. No branch for the common case of at most 256 (including none).
PACK_INLINE unsigned char* emitZeros(unsigned char* out, std::size_t zeros) {
  while (__builtin_expect(zeros > 256, 0)) { // rare: long idle stretches
    out[0] = 0;
    out[1] = 255;
    out += 2;
    zeros -= 256;
  }
  out[0] = 0;
  out[1] = static_cast<unsigned char>(zeros - 1);
  return out + (zeros ? 2 : 0);
}

// Packs n words at `in` into `out`, returning the end; `out` needs room for packedBound(n) and
// `bits` is scratch space. The encoding, per word: a tag byte whose bit i says byte i is
// non-zero, then those bytes. Tag 0x00 is followed by a count of further zero words (up to 255);
// tag 0xff by a count of words copied verbatim (up to 255), chosen like capnp: the following
// words with at most one zero byte. Runs never cross the end of the piece, as in capnp.
//
// Profiles mix idle (zero) and busy tiles at random, so "is this word zero?" is a branch the CPU
// cannot predict, and scanning word by word makes each step wait for the previous one. Instead a
// first pass marks the non-zero words in a bitmap, and the second visits only those (lowest set
// bit first), emitting the zero run before each one from the distance to the previous one.
PACK_INLINE unsigned char* encodeBusyWords(const unsigned char* in, std::size_t n,
                                           unsigned char* out,
                                           const std::vector<std::uint64_t>& bits) {
  std::size_t next = 0; // first word not yet encoded
  for (std::size_t c = 0; c < bits.size(); ++c) {
    for (std::uint64_t m = bits[c]; m != 0; m &= m - 1) {
      const std::size_t j = 64 * c + static_cast<std::size_t>(__builtin_ctzll(m));
      if (__builtin_expect(j < next, 0))
        continue; // already copied as part of a verbatim run (rare)
      out = emitZeros(out, j - next);
      const std::uint64_t w = load(in + 8 * j);
      next = j + 1;
      const unsigned tag = tagOf(w);
      out[0] = static_cast<unsigned char>(tag);
      if (__builtin_expect((tag & (tag + 1)) == 0,
                           1)) { // the non-zero bytes are the low ones (most small values)
        std::memcpy(out + 1, &w, 8);
        out += 1 + kBitCount[tag];
      } else {
        unsigned char* p = out + 1;
        for (unsigned b = 0; b < 8; ++b) {
          const unsigned char byte = static_cast<unsigned char>(w >> (8 * b));
          *p = byte;
          p += byte != 0;
        }
        out = p;
      }
      if (__builtin_expect(tag == 0xff, 0)) { // all eight bytes set: then a run of verbatim words
        std::size_t k = next;
        const std::size_t limit = std::min(n, next + 255);
        while (k < limit && zeroBytes(load(in + 8 * k)) < 2)
          ++k;
        *out++ = static_cast<unsigned char>(k - next);
        std::memcpy(out, in + 8 * next, 8 * (k - next));
        out += 8 * (k - next);
        next = k;
      }
    }
  }
  return emitZeros(out, n - next);
}

#if defined(__x86_64__) && defined(__GNUC__)
// The busy-word loop built for CPUs with BMI and POPCNT as well (tzcnt for the next set bit,
// one-instruction popcount), chosen at run time like the bitmap pass. Same output either way.
__attribute__((target("avx2,bmi,bmi2,popcnt,lzcnt"))) unsigned char*
encodeBusyWordsModern(const unsigned char* in, std::size_t n, unsigned char* out,
                      const std::vector<std::uint64_t>& bits) {
  return encodeBusyWords(in, n, out, bits);
}
#endif

unsigned char* packWords(const unsigned char* in, std::size_t n, unsigned char* out,
                         std::vector<std::uint64_t>& bits) {
  nonZeroWordBits(in, n, bits);
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool modern = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                             __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
  if (modern) return encodeBusyWordsModern(in, n, out, bits);
#endif
  return encodeBusyWords(in, n, out, bits);
}

// Worst case: a tag, eight bytes and a run count for every word.
std::size_t packedBound(std::size_t words) {
  return 10 * words + 16;
}

} // namespace

// Buffers live per thread and keep their size, so packing allocates nothing once they have grown
// (and the output buffer is not zero-filled again for every message).
struct PackedWriter::Buffers {
  std::vector<unsigned char> out;
  std::vector<std::uint64_t> zeroBits;
};

PackedWriter::PackedWriter(std::size_t totalWords) {
  thread_local Buffers buffers;
  b_ = &buffers;
  if (b_->out.size() < packedBound(totalWords)) b_->out.resize(packedBound(totalWords));
  end_ = b_->out.data();
}

void PackedWriter::pack(const void* words, std::size_t n) {
  end_ = packWords(static_cast<const unsigned char*>(words), n, end_, b_->zeroBits);
}

void PackedWriter::finish(std::string& out) {
  out.assign(reinterpret_cast<const char*>(b_->out.data()),
             static_cast<std::size_t>(end_ - b_->out.data()));
}

void writePacked(::capnp::MessageBuilder& message, std::string& out) {
  const auto segments = message.getSegmentsForOutput();
  // Segment table: count - 1, each size (32-bit little-endian words), padded to a whole word.
  const std::size_t tableWords = (segments.size() + 2) / 2;
  std::vector<std::uint32_t> table(tableWords * 2, 0);
  table[0] = static_cast<std::uint32_t>(segments.size() - 1);
  std::size_t words = tableWords;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    table[i + 1] = static_cast<std::uint32_t>(segments[i].size());
    words += segments[i].size();
  }
  // One piece per write, as capnp's writer does: runs never span the table and a segment.
  PackedWriter writer(words);
  writer.pack(table.data(), tableWords);
  for (const auto& segment : segments)
    writer.pack(segment.begin(), segment.size());
  writer.finish(out);
}

} // namespace tessera::profiler::detail
