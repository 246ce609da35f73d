// The arrays a recording thread fills beyond its ring, kept for reuse (issue 38).
//
// A thread that records fast fills its ring (768 KiB) in well under a millisecond and spills it
// (Record.hpp, ThreadBuffer). A fresh array can cost more than filling it: 192 pages that each
// fault on first touch, 0.5-0.7 ms of kernel time an array on this project's machine (page
// tables and memory accounting, not the zeroing), and glibc hands freed 768 KiB blocks back to
// the system, so they fault again. So:
// - drained arrays are kept and handed out again: a thread that spills steadily allocates
//   nothing once its pool has grown to what the writer's lag needs;
// - new arrays come kSlabArrays at a time (6 MiB, three 2 MiB-aligned huge pages where the
//   system offers transparent huge pages), faulted in at once: about 0.05-0.1 ms an array
//   instead of 0.5-0.7;
// - the pool is bounded: a thread owns at most kMaxArrays arrays (its ring, those waiting for or
//   being packed by the writer, and those kept), and arrays kept beyond kKeptIdle go back to
//   the system once none has come back for kHoldNs. Each array is unmapped on its own.
//
// Not thread-safe: the owner (ThreadBuffer) guards it with its spillMutex.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <sys/mman.h>
#include <vector>

namespace pvti::detail {

/// Arrays of N Ts straight from the operating system (mmap), each unmapped on its own: freed
/// memory goes back at once, whatever glibc's mmap threshold has become.
template <class T, std::size_t N> struct OsArrays {
  static constexpr std::size_t kBytes = N * sizeof(T);
  static constexpr std::size_t kHugePage = std::size_t(2) << 20;
  static_assert(kBytes % 4096 == 0, "arrays must be whole pages, to be unmapped one by one");

  struct Release {
    void operator()(T* p) const noexcept { ::munmap(p, kBytes); }
  };
  using Ptr = std::unique_ptr<T[], Release>;

  /// One array, its pages left to fault in as they are written (a thread may record three
  /// spans). Throws std::bad_alloc.
  static Ptr one() {
    void* p = ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return Ptr(static_cast<T*>(p)); // T is trivial: the zeroed pages are its objects
  }

  /// `count` arrays back to back, huge-page aligned and asked to be backed by huge pages, every
  /// page faulted in now (they are about to be filled). Throws std::bad_alloc.
  static std::vector<Ptr> run(std::size_t count) {
    std::vector<Ptr> out;
    out.reserve(count);
    const std::size_t bytes = count * kBytes;
    void* raw = ::mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    // Keep the huge-page-aligned `bytes` inside what was mapped; give back the rest.
    auto* const begin = static_cast<char*>(raw);
    auto* const aligned = reinterpret_cast<char*>(
        (reinterpret_cast<std::uintptr_t>(begin) + kHugePage - 1) & ~(kHugePage - 1));
    if (aligned != begin) ::munmap(begin, static_cast<std::size_t>(aligned - begin));
    const std::size_t tail = static_cast<std::size_t>(begin + bytes + kHugePage - aligned) - bytes;
    if (tail) ::munmap(aligned + bytes, tail);
      // Both advices are hints: without huge pages, or on a kernel older than 5.14 (no
      // MADV_POPULATE_WRITE), the pages are touched one by one instead.
#ifdef MADV_HUGEPAGE
    ::madvise(aligned, bytes, MADV_HUGEPAGE);
#endif
    bool populated = false;
#ifdef MADV_POPULATE_WRITE
    populated = ::madvise(aligned, bytes, MADV_POPULATE_WRITE) == 0;
#endif
    if (!populated)
      for (std::size_t i = 0; i < bytes; i += 4096)
        static_cast<volatile char*>(aligned)[i] = 0;
    for (std::size_t i = 0; i < count; ++i) // reserved: no allocation, no throw
      out.emplace_back(reinterpret_cast<T*>(aligned + i * kBytes));
    return out;
  }
};

template <class T, std::size_t N> class ArrayPool {
public:
  using Array = typename OsArrays<T, N>::Ptr;
  static constexpr std::size_t kMaxArrays = 65; ///< the ring and 64 more (48.75 MiB of records)
  static constexpr std::size_t kSlabArrays = 8; ///< new arrays at a time: 6 MiB, 3 huge pages
  static constexpr std::size_t kKeptIdle = 2;   ///< kept however long the thread is quiet
  static constexpr std::uint64_t kHoldNs = 10'000'000'000; ///< ten seconds without reuse

  /// Room in the kept list for every array the thread could own, so that give() and take()
  /// never allocate for it.
  ArrayPool() { kept_.reserve(kMaxArrays); }

  /// The ring a thread starts with (counted; not faulted in).
  Array first() {
    Array a = OsArrays<T, N>::one();
    ++arrays_;
    return a;
  }

  /// An empty array for a thread whose ring is full: a kept one, else one of kSlabArrays new
  /// ones (the rest are kept) while under kMaxArrays; null at the bound (the thread must wait
  /// for the writer). Throws std::bad_alloc, leaving the pool as it was.
  Array take() {
    if (kept_.empty()) {
      const std::size_t room = kMaxArrays - std::min(arrays_, kMaxArrays);
      if (room == 0) return nullptr;
      std::vector<Array> fresh = OsArrays<T, N>::run(std::min(kSlabArrays, room));
      arrays_ += fresh.size();
      for (auto it = fresh.rbegin(); it != fresh.rend(); ++it) // the lowest address first out
        kept_.push_back(std::move(*it));
    }
    Array a = std::move(kept_.back());
    kept_.pop_back();
    return a;
  }

  /// A drained array back for reuse, at steady_clock ns `nowNs`. Never allocates (the room is
  /// reserved), so the writer can call it under the lock without a way to fail.
  void give(Array a, std::uint64_t nowNs) noexcept {
    kept_.push_back(std::move(a));
    lastGivenNs_ = nowNs;
  }

  /// Arrays above kKeptIdle once none has come back for kHoldNs: the caller frees them outside
  /// its lock (munmap is a system call).
  std::vector<Array> trim(std::uint64_t nowNs) {
    std::vector<Array> out;
    if (kept_.size() <= kKeptIdle || nowNs - lastGivenNs_ < kHoldNs) return out;
    out.reserve(kept_.size() - kKeptIdle); // may throw; the moves below do not
    while (kept_.size() > kKeptIdle) {
      out.push_back(std::move(kept_.back()));
      kept_.pop_back();
    }
    arrays_ -= out.size();
    return out;
  }

  std::size_t arrays() const { return arrays_; } ///< owned by the thread, its ring included
  std::size_t kept() const { return kept_.size(); }

private:
  std::vector<Array> kept_;
  std::size_t arrays_ = 0;
  std::uint64_t lastGivenNs_ = 0;
};

} // namespace pvti::detail
