// The arrays a recording thread fills beyond its ring, kept for reuse (issue 38).
//
// A thread that records fast fills its ring (768 KiB) in well under a millisecond and spills it
// (Record.hpp, ThreadBuffer). A fresh array costs more than filling it: its 192 pages each fault
// on first touch, about 0.5-0.7 ms of kernel time an array on this project's machine, and glibc
// hands back and re-faults freed 768 KiB blocks. So drained arrays are kept and handed out
// again; a thread that spills steadily allocates nothing once its pool has grown to what the
// writer's lag needs. The pool is bounded: a thread owns at most kMaxArrays arrays (its ring,
// those waiting for or being packed by the writer, and those kept), and arrays beyond kKeptIdle
// are given back to the system once none has come back for kHoldNs.
//
// Not thread-safe: the owner (ThreadBuffer) guards it with its spillMutex.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <sys/mman.h>
#include <vector>

namespace pvti::detail {

/// Arrays of N Ts straight from the operating system (mmap): freed memory goes back at once,
/// whatever glibc's mmap threshold has become, and `populate` faults every page in with one
/// system call (cheaper than a fault a page) for an array that is about to be filled.
template <class T, std::size_t N> struct OsArray {
  static constexpr std::size_t kBytes = N * sizeof(T);
  struct Release {
    void operator()(T* p) const noexcept { ::munmap(p, kBytes); }
  };
  using Ptr = std::unique_ptr<T[], Release>;
  /// Throws std::bad_alloc when the system has no memory for it.
  static Ptr allocate(bool populate) {
    void* p = ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0), -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return Ptr(static_cast<T*>(p)); // T is trivial: the zeroed pages are its objects
  }
};

template <class T, std::size_t N> class ArrayPool {
public:
  using Array = typename OsArray<T, N>::Ptr;
  /// The ring and 128 more (96.75 MiB of records): what the spill limit allowed before the
  /// pool (64 arrays waiting while as many were being packed), now a true bound. A bound of 65
  /// made a thread wait in 4 of 10 loop runs on a loaded machine, once for 0.2 s.
  static constexpr std::size_t kMaxArrays = 129;
  static constexpr std::size_t kKeptIdle = 2; ///< kept however long the thread is quiet
  static constexpr std::uint64_t kHoldNs = 10'000'000'000; ///< ten seconds without reuse

  /// The ring a thread starts with (counted; not faulted in: a thread may record three spans).
  Array first() {
    Array a = OsArray<T, N>::allocate(false);
    ++arrays_;
    return a;
  }

  /// An empty array for a thread whose ring is full: a kept one, else a new one (faulted in
  /// already) while under kMaxArrays; null at the bound (the thread must wait for the writer).
  /// Throws std::bad_alloc, leaving the pool as it was.
  Array take() {
    if (!kept_.empty()) {
      Array a = std::move(kept_.back());
      kept_.pop_back();
      return a;
    }
    if (arrays_ >= kMaxArrays) return nullptr;
    Array a = OsArray<T, N>::allocate(true);
    ++arrays_;
    return a;
  }

  /// A drained array back for reuse, at steady_clock ns `nowNs`. Never allocates beyond the
  /// room reserved here, so it cannot fail half-way (the writer calls it under the lock).
  void give(Array a, std::uint64_t nowNs) noexcept {
    kept_.push_back(std::move(a)); // capacity reserved below: no allocation
    lastGivenNs_ = nowNs;
  }
  /// Room in the kept list for every array the thread could own, so give() never allocates.
  void reserveKept() { kept_.reserve(kMaxArrays); }

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
