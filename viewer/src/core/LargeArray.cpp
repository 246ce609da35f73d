// Large write-once arrays: anonymous mappings with transparent huge pages asked for (Linux).
#include "core/LargeArray.hpp"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tessera::viewer::detail {

namespace {
constexpr std::size_t kHugePage = std::size_t(2) << 20;
}

void* allocateLarge(std::size_t bytes) {
  if (bytes == 0) bytes = 1; // a valid, distinct pointer for an empty array
#if defined(__linux__)
  if (bytes >= kHugePage) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    // Advice only: where transparent huge pages are disabled this fails and changes nothing.
    madvise(p, bytes, MADV_HUGEPAGE);
    return p;
  }
#endif
  void* p = std::calloc(1, bytes);
  if (!p) throw std::bad_alloc();
  return p;
}

void freeLarge(void* p, std::size_t bytes) noexcept {
  if (!p) return;
  if (bytes == 0) bytes = 1;
#if defined(__linux__)
  if (bytes >= kHugePage) {
    munmap(p, bytes);
    return;
  }
#endif
  std::free(p);
}

} // namespace tessera::viewer::detail
