// The packed-stream word reader behind PackedStepIpus.cpp, and the decoding of one IPU entry
// with it. A template on how a word's present bytes are put in place: one step per byte
// (portable), or one SSSE3 byte shuffle per word (PackedStepIpusShuffle.cpp, compiled for SSSE3
// and chosen at run time when the processor has it). Internal to libpva: no public header
// includes it, and each translation unit instantiates only the variant it is compiled for.
#pragma once

#include "PackedStepIpus.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <profiler/schema/profile.capnp.h>
#include <string>

#if defined(__SSSE3__)
#include <tmmintrin.h>
#endif

namespace pva::storage::packed {

/// Bytes that follow a tag byte in the packed stream (the tag's set bits; GCC's popcount is a
/// library call unless the target has the instruction).
inline constexpr std::array<std::uint8_t, 256> kTagBytes = [] {
  std::array<std::uint8_t, 256> n{};
  for (unsigned t = 0; t < 256; ++t)
    for (unsigned b = t; b; b &= b - 1)
      ++n[t];
  return n;
}();

/// Per tag, where each byte of the word comes from among the bytes that follow the tag (0x80:
/// nowhere, the byte is zero), as a byte shuffle takes it.
inline constexpr std::array<std::array<std::uint8_t, 8>, 256> kSpread = [] {
  std::array<std::array<std::uint8_t, 8>, 256> s{};
  for (unsigned t = 0; t < 256; ++t) {
    std::uint8_t next = 0;
    for (unsigned b = 0; b < 8; ++b)
      s[t][b] = (t >> b & 1) ? next++ : std::uint8_t(0x80);
  }
  return s;
}();

/// How a word's present bytes (those its tag marks) are put in place.
enum class Spread { Loop, Shuffle };

/// Reads words of a packed stream. Packing writes each word as a tag byte whose bits say which
/// of the word's 8 bytes are non-zero, then those bytes; tag 0 is followed by a count of further
/// zero words, tag 0xff by the 8 bytes and a count of further words stored verbatim. Every read is
/// checked against the end of the bytes: a read past it returns false.
template <Spread kSpreadBy> class Reader {
public:
  Reader(const unsigned char* data, std::size_t size, PackedPosition at)
      : begin_(data), p_(data + std::min<std::size_t>(at.byte, size)), end_(data + size),
        zeros_(at.zeros), verbatim_(at.verbatim) {}

  bool next(std::uint64_t& word) {
    if (zeros_) {
      --zeros_;
      word = 0;
      return true;
    }
    if (verbatim_) {
      if (end_ - p_ < 8) return false;
      --verbatim_;
      word = load(p_);
      p_ += 8;
      return true;
    }
    if (p_ == end_) return false;
    const unsigned tag = *p_++;
    if (tag == 0) {
      if (p_ == end_) return false;
      zeros_ = *p_++;
      word = 0;
      return true;
    }
    if (tag == 0xff) {
      if (end_ - p_ < 9) return false;
      word = load(p_);
      verbatim_ = p_[8];
      p_ += 9;
      return true;
    }
    const std::ptrdiff_t n = kTagBytes[tag];
    if (end_ - p_ < n) return false;
#if defined(__SSSE3__)
    // 8 bytes loaded (more than the n present when the stream goes on: those are not used), and
    // shuffled into place in one instruction, without a branch per byte to mispredict.
    if constexpr (kSpreadBy == Spread::Shuffle)
      if (end_ - p_ >= 8) {
        const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p_));
        const __m128i where =
            _mm_loadl_epi64(reinterpret_cast<const __m128i*>(kSpread[tag].data()));
        word = std::uint64_t(_mm_cvtsi128_si64(_mm_shuffle_epi8(bytes, where)));
        p_ += n;
        return true;
      }
#endif
    // One step per present byte (measured faster than spreading 8 loaded bytes without branches).
    word = 0;
    const unsigned char* q = p_;
    for (unsigned bits = tag; bits; bits &= bits - 1)
      word |= std::uint64_t(*q++) << (8 * __builtin_ctz(bits));
    p_ += n;
    return true;
  }

  /// Passes over `words` words without assembling them; runs are passed over whole.
  bool skip(std::uint64_t words) {
    while (words) {
      if (zeros_) {
        const auto k = std::min<std::uint64_t>(words, zeros_);
        zeros_ = static_cast<std::uint8_t>(zeros_ - k);
        words -= k;
      } else if (verbatim_) {
        const auto k = std::min<std::uint64_t>(words, verbatim_);
        if (std::uint64_t(end_ - p_) / 8 < k) return false;
        p_ += 8 * k;
        verbatim_ = static_cast<std::uint8_t>(verbatim_ - k);
        words -= k;
      } else {
        if (p_ == end_) return false;
        const unsigned tag = *p_++;
        const std::ptrdiff_t follow = tag == 0 ? 1 : tag == 0xff ? 9 : kTagBytes[tag];
        if (end_ - p_ < follow) return false;
        if (tag == 0) zeros_ = p_[0];
        if (tag == 0xff) verbatim_ = p_[8];
        p_ += follow;
        --words;
      }
    }
    return true;
  }

  PackedPosition position() const {
    return {static_cast<std::uint32_t>(p_ - begin_), zeros_, verbatim_};
  }

private:
  static std::uint64_t load(const unsigned char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, sizeof w);
    return w;
  }
  const unsigned char* begin_;
  const unsigned char* p_;
  const unsigned char* end_;
  std::uint8_t zeros_, verbatim_;
};

/// StepIpu's data section and fields as the compiled schema declares them.
inline constexpr unsigned kDataWords =
    tessera::profiler::capnp::StepIpu::_capnpPrivate::dataWordSize;
inline constexpr unsigned kFields = 15;

struct Slot {
  unsigned word = 0, shift = 0;
  bool wide = false; ///< 64 bits; otherwise 32 (UInt32 and Float32)
};
using Slots = std::array<Slot, kFields>;

[[noreturn]] inline void truncated(std::size_t size) {
  throw tessera::profiler::BlobError("cannot decode StepIpus (" + std::to_string(size) +
                                     " bytes): the data ends inside an IPU entry");
}

/// Decodes the entry at `at` (fields placed as `slot` says) and moves `at` past it.
template <Spread kSpreadBy>
tessera::profiler::StepIpu readEntry(const unsigned char* data, std::size_t size,
                                     const StepIpusLayout& layout, PackedPosition& at,
                                     const Slots& slot) {
  Reader<kSpreadBy> r(data, size, at);
  // Fields past the entry's data section (an older, shorter StepIpu) read as zero, their default.
  std::uint64_t words[kDataWords] = {};
  const unsigned n = std::min<unsigned>(layout.dataWords, kDataWords);
  for (unsigned i = 0; i < n; ++i)
    if (!r.next(words[i])) truncated(size);
  if (!r.skip(std::uint64_t(layout.dataWords - n) + layout.pointerWords)) truncated(size);
  at = r.position();

  auto field = [&](unsigned f) {
    const Slot& s = slot[f];
    const std::uint64_t v = words[s.word] >> s.shift;
    return s.wide ? v : v & 0xffffffffu;
  };
  auto real = [&](unsigned f) {
    const auto bits = static_cast<std::uint32_t>(field(f));
    float x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
  };
  tessera::profiler::StepIpu e;
  e.ipu = static_cast<std::uint32_t>(field(0));
  e.cycles = field(1);
  e.activeTiles = static_cast<std::uint32_t>(field(2));
  e.activeFromMin = field(3);
  e.activeFromMax = field(4);
  e.activeToMin = field(5);
  e.activeToMax = field(6);
  e.allFromMin = field(7);
  e.allFromMax = field(8);
  e.allToMin = field(9);
  e.allToMax = field(10);
  e.dataIn = field(11);
  e.dataOut = field(12);
  e.tileBalance = real(13);
  e.activeTileBalance = real(14);
  return e;
}

/// readEntry over `count` consecutive entries.
template <Spread kSpreadBy>
void readEntries(const unsigned char* data, std::size_t size, const StepIpusLayout& layout,
                 PackedPosition& at, const Slots& slot, tessera::profiler::StepIpu* out,
                 std::size_t count) {
  for (std::size_t i = 0; i < count; ++i)
    out[i] = readEntry<kSpreadBy>(data, size, layout, at, slot);
}

/// readEntries<Spread::Shuffle>, compiled for SSSE3 as readEntryShuffled.
void readEntriesShuffled(const unsigned char* data, std::size_t size, const StepIpusLayout& layout,
                         PackedPosition& at, const Slots& slot, tessera::profiler::StepIpu* out,
                         std::size_t count);

/// readEntry<Spread::Shuffle>, in the translation unit compiled for SSSE3 (only where the build
/// has one: TESSERA_PVA_SHUFFLE). Call it only when the processor has SSSE3.
tessera::profiler::StepIpu readEntryShuffled(const unsigned char* data, std::size_t size,
                                             const StepIpusLayout& layout, PackedPosition& at,
                                             const Slots& slot);

} // namespace pva::storage::packed
