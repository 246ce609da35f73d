// The general path of the block encoder, and the checked decoder of event_blocks.records.
// Decoding errors are std::invalid_argument with the byte offset; the reader adds the file,
// block and thread.
#include <cstdio>
#include <limits>
#include <profiler/TraceBlock.hpp>
#include <stdexcept>
#include <string>

namespace tessera::profiler::schema::trace {

namespace {

[[noreturn]] void bad(const std::string& what, std::size_t at) {
  throw std::invalid_argument(what + " at byte " + std::to_string(at));
}

std::uint8_t* putVarint(std::uint8_t* p, std::uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<std::uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<std::uint8_t>(v);
  return p;
}

} // namespace

void BlockEncoder::addAny(const BlockRecord& r) {
  reserve(1);
  std::uint8_t* p = bytes_.get() + size_;
  std::uint8_t* header = p++;
  std::uint8_t h = static_cast<std::uint8_t>(r.kind);
  std::int64_t ts = r.tsNs;
  if (count_ == 0) {
    firstNs_ = lastNs_ = ts;
  } else {
    if (ts < lastNs_) ts = lastNs_;
    if (r.channel == channel_) h |= block::kSameChannel;
    if (r.label == label_) h |= block::kSameLabel;
  }
  p = putVarint(p, static_cast<std::uint64_t>(ts - lastNs_));
  if (!(h & block::kSameChannel)) p = putVarint(p, r.channel);
  if (!(h & block::kSameLabel)) p = putVarint(p, r.label);
  if (r.metadata && r.kind != BlockRecordKind::end) {
    h |= block::kHasMetadata;
    p = putVarint(p, r.metadata);
  }
  *header = h;
  size_ = static_cast<std::size_t>(p - bytes_.get());
  lastNs_ = ts;
  channel_ = r.channel;
  label_ = r.label;
  ++count_;
}

BlockDecoder::BlockDecoder(const void* data, std::size_t size, std::int64_t firstNs)
    : data_(static_cast<const std::uint8_t*>(data)), size_(size), ts_(firstNs) {
  if (firstNs < 0)
    throw std::invalid_argument("first_ns " + std::to_string(firstNs) +
                                " is before the trace started");
  if (size && !data)
    throw std::invalid_argument("no data for a blob of " + std::to_string(size) + " bytes");
}

std::uint64_t BlockDecoder::varint(const char* what) {
  std::uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (at_ == size_) bad(std::string("truncated record (") + what + " cut short)", at_);
    const std::uint8_t b = data_[at_++];
    // The tenth byte of a 64-bit varint may hold only its top bit.
    if (shift == 63 && b > 1) bad(std::string(what) + " varint longer than 64 bits", at_ - 1);
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
}

bool BlockDecoder::next(BlockRecord& r) {
  if (at_ == size_) return false;
  const std::size_t start = at_;
  const std::uint8_t h = data_[at_++];
  if (h & block::kReservedBits) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", h);
    bad(std::string("record header ") + hex + " has reserved bits set", start);
  }
  const unsigned kind = h & block::kKindMask;
  if (kind > static_cast<unsigned>(BlockRecordKind::instant))
    bad("unknown record kind " + std::to_string(kind), start);
  r.kind = static_cast<BlockRecordKind>(kind);
  if (records_ == 0 && (h & (block::kSameChannel | block::kSameLabel)))
    bad("the first record of a block refers to a previous record", start);
  if (r.kind == BlockRecordKind::end && (h & block::kHasMetadata))
    bad("an end record carries metadata", start);

  const std::uint64_t delta = varint("time delta");
  // ts_ >= 0 (first_ns is checked, deltas only add), so this cannot overflow.
  if (delta > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() - ts_))
    bad("time overflows 64 bits", start);
  ts_ += static_cast<std::int64_t>(delta);

  auto id = [&](const char* what) {
    const std::uint64_t v = varint(what);
    if (v > std::numeric_limits<std::uint32_t>::max())
      bad(std::string(what) + " id above 2^32-1", start);
    return static_cast<std::uint32_t>(v);
  };
  if (!(h & block::kSameChannel)) channel_ = id("channel");
  if (!(h & block::kSameLabel)) label_ = id("label");
  r.metadata = (h & block::kHasMetadata) ? id("metadata") : 0;
  r.tsNs = ts_;
  r.channel = channel_;
  r.label = label_;
  ++records_;
  return true;
}

} // namespace tessera::profiler::schema::trace
