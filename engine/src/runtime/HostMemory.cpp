#include "HostMemory.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <poplar/exceptions.hpp>
#include <sys/resource.h>
#include <unistd.h>

namespace poplar::detail::runtime {

namespace {
constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kProcessReserve = std::uint64_t(256) << 20;

std::uint64_t softLimit(int resource) {
  rlimit l{};
  if (getrlimit(resource, &l) != 0 || l.rlim_cur == RLIM_INFINITY) return kUnlimited;
  return static_cast<std::uint64_t>(l.rlim_cur);
}
} // namespace

std::uint64_t saturatingProduct(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  std::uint64_t ab;
  if (__builtin_mul_overflow(a, b, &ab)) return kUnlimited;
  std::uint64_t abc;
  if (__builtin_mul_overflow(ab, c, &abc)) return kUnlimited;
  return abc;
}

std::uint64_t saturatingSum(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? kUnlimited : r;
}

std::uint64_t hostMemoryBudget() {
  std::uint64_t limit = kUnlimited;
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  // Half the physical memory: a device taking more would leave the host (and the other users
  // of a shared machine) swapping or killed.
  if (pages > 0 && pageSize > 0)
    limit =
        saturatingProduct(static_cast<std::uint64_t>(pages), static_cast<std::uint64_t>(pageSize)) /
        2;
  limit = std::min({limit, softLimit(RLIMIT_AS), softLimit(RLIMIT_DATA)});
  if (const char* env = std::getenv("TESSERA_HOST_MEMORY_LIMIT")) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(env, &end, 10);
    if (end != env && *end == '\0') limit = std::min<std::uint64_t>(limit, v);
  }
  return limit > kProcessReserve ? limit - kProcessReserve : 0;
}

void requireHostMemory(const std::string& where, const std::string& what, std::uint64_t bytes) {
  const std::uint64_t budget = hostMemoryBudget();
  if (bytes <= budget) return;
  throw poplar_error(where + ": " + what + " needs " +
                     (bytes == kUnlimited ? std::string("more than 2^64") : std::to_string(bytes)) +
                     " bytes of host memory; this process can give at most " +
                     std::to_string(budget) +
                     " (physical memory and ulimit -v/-d; TESSERA_HOST_MEMORY_LIMIT)");
}

} // namespace poplar::detail::runtime
