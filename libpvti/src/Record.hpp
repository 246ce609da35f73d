// What the hot path writes: fixed-size records in a single-producer/single-consumer ring owned
// by the recording thread and drained by the writer thread (Tracy-style: ids, never strings).
#pragma once

#include "ArrayPool.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace pvti::detail {

enum class RecordKind : std::uint8_t { Begin, End, Instant, Sample };

struct Record {
  std::uint64_t
      ts; ///< ticks() (TSC or steady ns; the writer converts and subtracts the session start)
  union Payload {
    struct Event {
      std::uint32_t label;    ///< interned label id
      std::uint32_t metadata; ///< 0: none
    } event;
    double value; ///< Sample
  } payload;
  std::uint32_t channel; ///< channel id, or series id for a Sample
  RecordKind kind;
  std::uint8_t reserved[3];
};
// The ring, the writer and the benchmarks all assume this size: keep it at three words.
static_assert(sizeof(Record) == 24, "pvti::detail::Record must stay 24 bytes");

/// Label text -> id, for one thread: an open-addressing table plus a one-entry memo (a begin and
/// its end usually carry the same label). Only the owning thread touches it, so no lock; it
/// allocates only when it meets a label for the first time.
class LabelCache {
public:
  LabelCache() : slots_(64) {}
  /// 0 when the label has not been seen by this thread.
  std::uint32_t find(const char* s, std::size_t n) const {
    if (n == memoLen_ && memoId_ && std::memcmp(s, memoText_, n) == 0) return memoId_;
    const std::size_t mask = slots_.size() - 1;
    const std::uint64_t h = hash(s, n);
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (!slot.id) return 0;
      if (slot.hash == h && slot.text.size() == n && std::memcmp(slot.text.data(), s, n) == 0) {
        memoId_ = slot.id;
        memoLen_ = n;
        memoText_ = slot.text.data();
        return slot.id;
      }
    }
  }
  void insert(const char* s, std::size_t n, std::uint32_t id) {
    if ((count_ + 1) * 2 > slots_.size()) grow();
    place(Slot{hash(s, n), id, std::string(s, n)});
    ++count_;
  }

private:
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t id = 0; ///< 0: empty
    std::string text;
  };
  static std::uint64_t hash(const char* s, std::size_t n) {
    std::uint64_t h = 1469598103934665603ull; // FNV-1a: labels are short
    for (std::size_t i = 0; i < n; ++i)
      h = (h ^ static_cast<unsigned char>(s[i])) * 1099511628211ull;
    return h;
  }
  void place(Slot&& s) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = s.hash & mask;
    while (slots_[i].id)
      i = (i + 1) & mask;
    slots_[i] = std::move(s);
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (Slot& s : old)
      if (s.id) place(std::move(s));
    memoId_ = 0; // memoText_ pointed into a moved string
  }
  std::vector<Slot> slots_;
  std::size_t count_ = 0;
  mutable std::uint32_t memoId_ = 0;
  mutable std::size_t memoLen_ = 0;
  mutable const char* memoText_ = nullptr;
};

/// The writer's view of one thread's stream: only needed to apply the `duration` deadline
/// without breaking nesting (every record within the deadline is written as it came).
struct StreamState {
  std::vector<std::uint32_t> openLabels; ///< labels of the begins written and not yet ended
  std::uint64_t skippedBegins = 0;       ///< begins dropped as late whose ends must go too
  /// Records taken out of the ring before the clock was calibrated (Session::holdOnce), written
  /// ahead of the ring's at the first flush: the ring's thread never waits for calibration.
  std::vector<Record> held;
};

/// One recording thread's ring. The producer fields are touched only by that thread, the
/// writer fields only by the writer thread; head/tail hand records over.
///
/// A full ring does not make its thread wait while the writer is away (descheduled on a busy
/// machine, or writing): the thread *spills* it, under spillMutex, moving the whole array aside
/// as a Spill and going on in an empty one from its pool (ArrayPool.hpp: an array the writer
/// has drained, else a new one). The writer drains spills, oldest first, before the ring, and
/// gives their arrays back to the pool. Only when the thread owns Pool::kMaxArrays arrays
/// (96.75 MiB), none of them free, does it wait, and then its stream says so
/// (Session::pushWhenRoom).
struct ThreadBuffer {
  static constexpr std::size_t kCapacity = std::size_t(1) << 15; // 32768 records, 768 KiB
  static constexpr std::size_t kMask = kCapacity - 1;
  using Pool = ArrayPool<Record, kCapacity>;

  /// Ring records [begin, end) (sequence numbers, as head and tail) in an array set aside.
  struct Spill {
    Pool::Array slots;
    std::uint64_t begin, end;
  };

  ThreadBuffer(std::uint32_t index_, long tid_) : index(index_), tid(tid_) {
    slots = pool.first();
    pool.reserveKept();
    // A spill allocates nothing but, while the pool grows, its array.
    spills.reserve(Pool::kMaxArrays);
    packing.reserve(Pool::kMaxArrays);
  }

  /// False when full (the writer has not caught up).
  bool push(const Record& r) {
    const std::uint64_t h = head.load(std::memory_order_relaxed);
    if (h - cachedTail == kCapacity) {
      cachedTail = tail.load(std::memory_order_acquire);
      if (h - cachedTail == kCapacity) return false;
    }
    slots[h & kMask] = r;
    head.store(h + 1, std::memory_order_release);
    return true;
  }

  const std::uint32_t index; ///< threads.id
  const long tid;

  // producer side
  alignas(64) std::atomic<std::uint64_t> head{0};
  std::uint64_t cachedTail = 0;
  LabelCache labels;

  // consumer side
  alignas(64) std::atomic<std::uint64_t> tail{0};
  StreamState stream;

  std::atomic<bool> retired{false}; ///< the thread has exited: drain, then drop
  /// Written by the producer; replaced only by a spill, under spillMutex, which the writer holds
  /// while it reads records.
  Pool::Array slots;

  std::mutex spillMutex;     ///< guards what follows, `slots` replacement and tail moves
  std::vector<Spill> spills; ///< oldest first
  Pool pool;                 ///< every array the thread owns is counted here
  /// The writer's: spills it is packing (swapped with `spills`, so neither allocates).
  std::vector<Spill> packing;
};

} // namespace pvti::detail
