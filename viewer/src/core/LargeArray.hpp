// Arrays of hundreds of MiB that are written once, front to back (the Execution page's index:
// 16 M (step, IPU) entries on the bench's 1 M-step report). Allocated as anonymous memory that
// is resident only once written, as `new T[n]` is, but on Linux asking for transparent huge pages
// (madvise(MADV_HUGEPAGE)): the kernel then faults such an array in 2 MiB at a time instead of
// 4 KiB, 512 times fewer page faults for the same zeroed memory. Where huge pages are off (or
// not Linux) it is plain memory; nothing depends on getting them.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>

namespace tessera::viewer {

namespace detail {
/// Anonymous zeroed memory of `bytes` (huge pages asked for from 2 MiB up); throws std::bad_alloc.
void* allocateLarge(std::size_t bytes);
void freeLarge(void* p, std::size_t bytes) noexcept;
} // namespace detail

/// Frees what allocateLargeArray allocated (it remembers the size, as munmap needs it).
struct LargeArrayFree {
  std::size_t bytes = 0;
  void operator()(void* p) const noexcept { detail::freeLarge(p, bytes); }
};

template <class T> using LargeArray = std::unique_ptr<T[], LargeArrayFree>;

/// `n` zeroed elements of a plain type (all-zero bytes must be a valid value: numbers, arrays of
/// them); untouched pages cost no resident memory.
template <class T> LargeArray<T> allocateLargeArray(std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "LargeArray holds plain numbers: its memory is not constructed element by element");
  if (n > ~std::size_t(0) / sizeof(T)) throw std::bad_alloc();
  const std::size_t bytes = n * sizeof(T);
  return LargeArray<T>(static_cast<T*>(detail::allocateLarge(bytes)), LargeArrayFree{bytes});
}

} // namespace tessera::viewer
