#include "Budget.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <sanitizer/allocator_interface.h>
#include <string>

namespace fuzz {

namespace {

// Heap bytes live since the budget started, counted by the sanitizer allocator's hooks. Only
// the fuzz target's thread allocates while an input runs; atomics keep it right if not.
std::atomic<std::int64_t> live{0};
std::atomic<std::int64_t> peak{0};
std::atomic<std::uint64_t> limitBytes{0}; // 0: no budget running
std::atomic<std::size_t> budgetInput{0};

void onMalloc(const volatile void*, std::size_t size) {
  if (!limitBytes.load(std::memory_order_relaxed)) return;
  const std::int64_t now =
      live.fetch_add(std::int64_t(size), std::memory_order_relaxed) + std::int64_t(size);
  std::int64_t p = peak.load(std::memory_order_relaxed);
  while (now > p && !peak.compare_exchange_weak(p, now, std::memory_order_relaxed)) {
  }
  // live may be below zero (see onFree): only a positive count can be over the budget, and it
  // must not be compared as unsigned, where -133 is 2^64 - 133 (a false finding, 2026-11-30).
  if (now > 0 && std::uint64_t(now) > limitBytes.load(std::memory_order_relaxed)) {
    std::fprintf(stderr,
                 "==fuzz budget== over the memory budget: %lld bytes live for an input of %zu "
                 "bytes (budget %llu)\n",
                 static_cast<long long>(now), budgetInput.load(),
                 static_cast<unsigned long long>(limitBytes.load()));
    std::abort();
  }
}

void onFree(const volatile void* p) {
  if (!limitBytes.load(std::memory_order_relaxed) || !p) return;
  // Blocks allocated before the budget started count too when freed: live may go below zero,
  // which only makes the budget more lenient.
  live.fetch_sub(std::int64_t(__sanitizer_get_allocated_size(const_cast<const void*>(p))),
                 std::memory_order_relaxed);
}

struct Hooks {
  Hooks() { __sanitizer_install_malloc_and_free_hooks(onMalloc, onFree); }
};

double threadSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// FUZZ_STAGE_TIMES=1: CPU seconds spent per stage (between two checks), summed over the inputs
// and printed at exit, to see where a target's executions go.
struct StageTimes {
  bool on = std::getenv("FUZZ_STAGE_TIMES") != nullptr;
  double last = 0;
  std::map<std::string, std::pair<double, std::uint64_t>> seconds;
  ~StageTimes() {
    for (const auto& [stage, s] : seconds)
      std::fprintf(stderr, "==fuzz stage== %-24s %9.3f s over %llu inputs (%.3f ms each)\n",
                   stage.c_str(), s.first, static_cast<unsigned long long>(s.second),
                   s.second ? 1e3 * s.first / double(s.second) : 0.0);
  }
};
StageTimes stageTimes;

} // namespace

Budget::Budget(std::size_t inputBytes) : inputBytes_(inputBytes) {
  static Hooks hooks;
  (void)hooks;
  startSeconds_ = threadSeconds();
  stageTimes.last = startSeconds_;
  limitSeconds_ = kBaseSeconds + kSecondsPerByte * double(inputBytes);
  live = 0;
  peak = 0;
  budgetInput = inputBytes;
  limitBytes = kBaseBytes + kBytesPerByte * std::uint64_t(inputBytes);
}

Budget::~Budget() {
  limitBytes = 0;
}

void Budget::check(const char* stage) const {
  const double now = threadSeconds(), used = now - startSeconds_;
  if (stageTimes.on) {
    auto& s = stageTimes.seconds[stage];
    s.first += now - stageTimes.last;
    ++s.second;
    stageTimes.last = now;
  }
  if (used > limitSeconds_) {
    std::fprintf(stderr,
                 "==fuzz budget== over the time budget after %s: %.2f s of CPU for an input of %zu "
                 "bytes (budget %.2f s)\n",
                 stage, used, inputBytes_, limitSeconds_);
    std::abort();
  }
}

std::uint64_t Budget::peakBytes() {
  return std::uint64_t(peak.load() < 0 ? 0 : peak.load());
}

} // namespace fuzz
