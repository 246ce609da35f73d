// The packed records of event_blocks.records (layout in TraceSchema.hpp, "event block records"):
// BlockEncoder for libpvti's writer thread, BlockDecoder for readers. The encoder's common case
// is inline because the writer runs it once per record (millions a second); the decoder checks
// every byte because a reader's input may be truncated, corrupted or hostile.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <profiler/TraceSchema.hpp>

namespace tessera::profiler::schema::trace {

/// One record, as the encoder takes it and the decoder gives it back.
struct BlockRecord {
  BlockRecordKind kind;
  std::int64_t tsNs;      ///< ns since start_steady_ns
  std::uint32_t channel;  ///< channels.id
  std::uint32_t label;    ///< labels.id
  std::uint32_t metadata; ///< metadata.id, 0: none (always 0 on an end)
};

/// Builds one block; reusable (clear) so a steady writer does not allocate.
class BlockEncoder {
public:
  void clear() {
    size_ = 0;
    count_ = 0;
  }
  /// Room for `records` more records without growing (the writer knows how many it will add).
  /// Grows to at least twice the capacity: room is asked for at the worst case, 26 bytes a
  /// record, while most take two, so growing to the bare need made every call of a long flush
  /// reallocate and copy (and fault in fresh pages): quadratic in the flush.
  void reserve(std::size_t records) {
    const std::size_t need = size_ + records * block::kMaxRecordBytes;
    if (need <= capacity_) return;
    const std::size_t grown = std::max(need, capacity_ * 2);
    std::unique_ptr<std::uint8_t[]> bigger(new std::uint8_t[grown]);
    if (size_) std::copy(bytes_.get(), bytes_.get() + size_, bigger.get());
    bytes_ = std::move(bigger);
    capacity_ = grown;
  }
  /// Appends a record. Times must not go back within a block (the steady clock does not); one
  /// that did would be stored at its predecessor's time, as deltas are unsigned.
  void add(BlockRecordKind kind, std::int64_t tsNs, std::uint32_t channel, std::uint32_t label,
           std::uint32_t metadata) {
    // The common case inline, two bytes: same channel and label as the previous record, no
    // metadata, less than 128 ns later (a begin and its end, or back-to-back spans). A time
    // that went back wraps to a huge delta and takes the general path.
    const std::uint64_t delta =
        static_cast<std::uint64_t>(tsNs) - static_cast<std::uint64_t>(lastNs_);
    if (count_ && delta < 0x80 && channel == channel_ && label == label_ &&
        (metadata == 0 || kind == BlockRecordKind::end) && size_ + 2 <= capacity_) {
      std::uint8_t* p = bytes_.get() + size_;
      p[0] = static_cast<std::uint8_t>(static_cast<std::uint8_t>(kind) | block::kSameChannel |
                                       block::kSameLabel);
      p[1] = static_cast<std::uint8_t>(delta);
      size_ += 2;
      lastNs_ = tsNs;
      ++count_;
      return;
    }
    addAny({kind, tsNs, channel, label, metadata});
  }
  /// Any record (add's out-of-line path).
  void addAny(const BlockRecord& r);

  const std::uint8_t* data() const { return bytes_.get(); }
  std::size_t size() const { return size_; }
  std::size_t count() const { return count_; }
  std::size_t capacity() const { return capacity_; } ///< bytes allocated
  std::int64_t firstNs() const { return firstNs_; }  ///< valid when count() > 0
  std::int64_t lastNs() const { return lastNs_; }

private:
  std::unique_ptr<std::uint8_t[]> bytes_;
  std::size_t capacity_ = 0, size_ = 0, count_ = 0;
  std::int64_t firstNs_ = 0, lastNs_ = 0;
  std::uint32_t channel_ = 0, label_ = 0;
};

/// Reads one block's records in order. Every read is bounds-checked: a truncated or malformed
/// blob throws std::invalid_argument saying what is wrong and at which byte, never reads past
/// the end. Ids are returned as stored; checking them against the trace's tables is the
/// caller's job.
class BlockDecoder {
public:
  /// `firstNs` is the block's first_ns column (must be >= 0).
  BlockDecoder(const void* data, std::size_t size, std::int64_t firstNs);
  /// The next record into `r`; false after the last byte.
  bool next(BlockRecord& r);
  std::size_t offset() const { return at_; }
  std::int64_t lastNs() const { return ts_; } ///< time of the last record read

private:
  std::uint64_t varint(const char* what);

  const std::uint8_t* data_;
  std::size_t size_, at_ = 0, records_ = 0;
  std::int64_t ts_;
  std::uint32_t channel_ = 0, label_ = 0;
};

} // namespace tessera::profiler::schema::trace
