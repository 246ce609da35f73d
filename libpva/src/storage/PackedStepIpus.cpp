#include "PackedStepIpus.hpp"

#include <algorithm>
#include <array>
#include <capnp/schema.h>
#include <cstring>
#include <profiler/schema/profile.capnp.h>
#include <stdexcept>
#include <string>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "Cap'n Proto words are little-endian: words are loaded as they are");

namespace pva::storage {

namespace pcapnp = tessera::profiler::capnp;
using tessera::profiler::BlobError;
using tessera::profiler::StepIpu;

namespace {

/// Bytes that follow a tag byte in the packed stream (the tag's set bits; GCC's popcount is a
/// library call unless the target has the instruction).
constexpr std::array<std::uint8_t, 256> kTagBytes = [] {
  std::array<std::uint8_t, 256> n{};
  for (unsigned t = 0; t < 256; ++t)
    for (unsigned b = t; b; b &= b - 1)
      ++n[t];
  return n;
}();

/// Reads words of a packed stream. Packing writes each word as a tag byte whose bits say which
/// of the word's 8 bytes are non-zero, then those bytes; tag 0 is followed by a count of further
/// zero words, tag 0xff by the 8 bytes and a count of further words stored verbatim. Every read is
/// checked against the end of the bytes: a read past it returns false.
class PackedReader {
public:
  PackedReader(const unsigned char* data, std::size_t size, PackedPosition at)
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
constexpr unsigned kDataWords = pcapnp::StepIpu::_capnpPrivate::dataWordSize;
constexpr unsigned kFields = 15;

struct Slot {
  unsigned word = 0, shift = 0;
  bool wide = false; ///< 64 bits; otherwise 32 (UInt32 and Float32)
};

/// Where each field (by number, @0..@14) sits in an entry's data words, read from the compiled
/// schema so that this reader cannot drift from profile.capnp. A schema change this reader does
/// not handle (another field count or type, a non-zero default) fails loudly on first use.
const std::array<Slot, kFields>& slots() {
  static const std::array<Slot, kFields> table = [] {
    const auto fields = ::capnp::Schema::from<pcapnp::StepIpu>().getFields();
    if (fields.size() != kFields)
      throw std::logic_error("profile.capnp's StepIpu changed: update PackedStepIpus.cpp");
    std::array<Slot, kFields> t{};
    for (const auto field : fields) {
      const auto slot = field.getProto().getSlot();
      const auto type = slot.getType();
      if (!(type.isUint64() || type.isUint32() || type.isFloat32()) || slot.getHadExplicitDefault())
        throw std::logic_error(
            "profile.capnp's StepIpu has a field PackedStepIpus.cpp cannot read");
      const unsigned width = type.isUint64() ? 64 : 32;
      const unsigned bit = slot.getOffset() * width;
      t[field.getIndex()] = {bit / 64, bit % 64, width == 64};
    }
    return t;
  }();
  return table;
}

[[noreturn]] void truncated(std::size_t size) {
  throw BlobError("cannot decode StepIpus (" + std::to_string(size) +
                  " bytes): the data ends inside an IPU entry");
}

} // namespace

bool readStepIpusLayout(const unsigned char* data, std::size_t size, StepIpusLayout& out) {
  out = StepIpusLayout();
  PackedReader r(data, size, {});
  // The segment table: one segment (count - 1 == 0) of `segment` words.
  std::uint64_t table = 0, root = 0, list = 0, tag = 0;
  if (!r.next(table) || (table & 0xffffffffu) != 0) return false;
  const std::uint64_t segment = table >> 32;
  // The full decoder bounds the words it reads by the blob's size; accept nothing it would refuse.
  if (segment > (std::uint64_t(size) / 2 + 1) * 256 + 64) return false;
  if (segment == 0 || !r.next(root)) return false;
  if (root == 0) return true; // a null root: the default StepIpus, no IPUs
  // Root: a struct pointer (kind 0) forward to the struct; its first pointer is the list.
  const std::int64_t rootOffset = std::int32_t(std::uint32_t(root)) >> 2;
  const std::uint64_t rootData = (root >> 32) & 0xffff, rootPointers = root >> 48;
  if ((root & 3) != 0 || rootOffset < 0 ||
      1 + std::uint64_t(rootOffset) + rootData + rootPointers > segment)
    return false;
  if (rootPointers == 0) return true; // written before the list existed: no IPUs
  const std::uint64_t listAt = 1 + std::uint64_t(rootOffset) + rootData;
  if (!r.skip(std::uint64_t(rootOffset) + rootData) || !r.next(list)) return false;
  if (list == 0) return true;
  // A list pointer (kind 1) to a composite list (element size 7): a tag word, then the entries.
  const std::int64_t listOffset = std::int32_t(std::uint32_t(list)) >> 2;
  const std::uint64_t listWords = list >> 35;
  if ((list & 3) != 1 || ((list >> 32) & 7) != 7 || listOffset < 0) return false;
  const std::uint64_t tagAt = listAt + 1 + std::uint64_t(listOffset);
  if (tagAt + 1 + listWords > segment || !r.skip(std::uint64_t(listOffset)) || !r.next(tag))
    return false;
  const std::uint64_t count = std::uint32_t(tag) >> 2, dataWords = (tag >> 32) & 0xffff,
                      pointerWords = tag >> 48;
  // Entries of no words (or a count the list cannot hold) are the full decoder's to judge.
  if ((tag & 3) != 0 || count * (dataWords + pointerWords) > listWords ||
      (count && dataWords + pointerWords == 0))
    return false;
  out.first = r.position();
  out.count = static_cast<std::uint32_t>(count);
  out.dataWords = static_cast<std::uint16_t>(dataWords);
  out.pointerWords = static_cast<std::uint16_t>(pointerWords);
  return true;
}

StepIpu readStepIpuAt(const unsigned char* data, std::size_t size, const StepIpusLayout& layout,
                      PackedPosition& at) {
  const auto& slot = slots();
  PackedReader r(data, size, at);
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
  StepIpu e;
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

PackedPosition stepIpuPosition(const unsigned char* data, std::size_t size,
                               const StepIpusLayout& layout, std::size_t i) {
  PackedReader r(data, size, layout.first);
  if (!r.skip(std::uint64_t(i) * (layout.dataWords + layout.pointerWords))) truncated(size);
  return r.position();
}

} // namespace pva::storage
