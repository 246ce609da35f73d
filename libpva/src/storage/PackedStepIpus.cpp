#include "PackedStepIpus.hpp"

#include "PackedReader.hpp"

#include <algorithm>
#include <array>
#include <capnp/schema.h>
#include <cstdlib>
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

using packed::kFields;
using packed::truncated;
/// The portable reader: the head of a blob, and skipping to an entry.
using PackedReader = packed::Reader<packed::Spread::Loop>;

/// Where each field (by number, @0..@14) sits in an entry's data words, read from the compiled
/// schema so that this reader cannot drift from profile.capnp. A schema change this reader does
/// not handle (another field count or type, a non-zero default) fails loudly on first use.
const packed::Slots& slots() {
  static const packed::Slots table = [] {
    const auto fields = ::capnp::Schema::from<pcapnp::StepIpu>().getFields();
    if (fields.size() != kFields)
      throw std::logic_error("profile.capnp's StepIpu changed: update PackedStepIpus.cpp");
    packed::Slots t{};
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

namespace {
/// Whether to decode with SSSE3 byte shuffles.
bool shuffle() {
#if defined(TESSERA_PVA_SHUFFLE)
  // Every pass over the steps decodes 16 entries of about 14 words per step: a byte shuffle per
  // word instead of a branch per byte (docs/benchmarks.md, "bench_open_report", 1 M steps).
  // TESSERA_PVA_PORTABLE_DECODER=1 keeps the portable decoder, as on a processor without SSSE3
  // (the pva_tests_portable_decoder test runs the step tests so).
  static const bool yes =
      __builtin_cpu_supports("ssse3") && !std::getenv("TESSERA_PVA_PORTABLE_DECODER");
  return yes;
#else
  return false;
#endif
}
} // namespace

StepIpu readStepIpuAt(const unsigned char* data, std::size_t size, const StepIpusLayout& layout,
                      PackedPosition& at) {
#if defined(TESSERA_PVA_SHUFFLE)
  if (shuffle()) return packed::readEntryShuffled(data, size, layout, at, slots());
#endif
  return packed::readEntry<packed::Spread::Loop>(data, size, layout, at, slots());
}

void readStepIpus(const unsigned char* data, std::size_t size, const StepIpusLayout& layout,
                  PackedPosition& at, StepIpu* out, std::size_t count) {
#if defined(TESSERA_PVA_SHUFFLE)
  if (shuffle()) return packed::readEntriesShuffled(data, size, layout, at, slots(), out, count);
#endif
  packed::readEntries<packed::Spread::Loop>(data, size, layout, at, slots(), out, count);
}

PackedPosition stepIpuPosition(const unsigned char* data, std::size_t size,
                               const StepIpusLayout& layout, std::size_t i) {
  PackedReader r(data, size, layout.first);
  if (!r.skip(std::uint64_t(i) * (layout.dataWords + layout.pointerWords))) truncated(size);
  return r.position();
}

} // namespace pva::storage
