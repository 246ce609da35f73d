#include "TickClock.hpp"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace pvti::detail {

bool tscTicks = false;

bool invariantTscUsable() {
  const char* forced = std::getenv("TESSERA_PVTI_CLOCK");
  if (forced && std::strcmp(forced, "steady") == 0) return false;
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u) return false;
  if (!__get_cpuid(0x80000007u, &a, &b, &c, &d)) return false;
  return (d >> 8) & 1u; // "Invariant TSC" (Intel SDM and AMD APM, same bit)
#else
  return false;
#endif
}

TickCalibration::Anchor TickCalibration::sample() {
  Anchor best;
  if (!tscTicks) {
    best.ns = best.ticks = steadyNs();
    return best;
  }
  std::uint64_t bestWidth = UINT64_MAX;
  for (int i = 0; i < 16; ++i) {
    const std::uint64_t before = ticks();
    const std::uint64_t ns = steadyNs();
    const std::uint64_t after = ticks();
    if (after - before < bestWidth) { // the least disturbed try (no interrupt, no preemption)
      bestWidth = after - before;
      best.ticks = before + (after - before) / 2;
      best.ns = ns;
    }
  }
  return best;
}

TickCalibration::TickCalibration(Anchor first, Anchor second) : anchor_(first) {
  if (second.ticks <= first.ticks || second.ns <= first.ns) return; // no usable rate: identity
  const long double rate = static_cast<long double>(second.ns - first.ns) /
                           static_cast<long double>(second.ticks - first.ticks);
  mult_ = static_cast<std::uint64_t>(rate * 4294967296.0L + 0.5L);
}

std::uint64_t TickCalibration::toTicks(std::uint64_t ns) const {
  if (ns == UINT64_MAX) return UINT64_MAX;
  const long double ticks = static_cast<long double>(static_cast<std::int64_t>(ns - anchor_.ns)) *
                            4294967296.0L / static_cast<long double>(mult_);
  const long double t = static_cast<long double>(anchor_.ticks) + ticks;
  return t >= 1.8446744073709551615e19L ? UINT64_MAX : t <= 0 ? 0 : static_cast<std::uint64_t>(t);
}

} // namespace pvti::detail
