// The hot path's clock. Where the CPU's time-stamp counter is invariant (CPUID says it ticks at
// a constant rate through frequency changes and sleep states), a record's timestamp is one RDTSC:
// a few ns, against ~20-30 ns for steady_clock::now() even through the vDSO. The writer converts
// ticks to steady_clock nanoseconds with one calibration per trace (TickCalibration below), so
// the file's times are in the same units as ever. Elsewhere (no invariant TSC, not x86-64, or
// TESSERA_PVTI_CLOCK=steady in the environment) a tick *is* a steady_clock nanosecond.
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace pvti::detail {

__extension__ typedef __int128 Int128; // GCC and Clang on 64-bit targets

/// True when ticks() reads the TSC. Decided once, before the session starts (see Session.cpp).
extern bool tscTicks;

inline std::uint64_t steadyNs() {
  static_assert(std::is_same_v<std::chrono::steady_clock::period, std::nano>,
                "steady_clock must count ns");
  return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
}

/// A record's timestamp: TSC ticks or steady ns (see tscTicks).
inline std::uint64_t ticks() {
#if defined(__x86_64__)
  if (__builtin_expect(tscTicks, 1)) return __rdtsc();
#endif
  return steadyNs();
}

/// Whether this CPU has an invariant TSC (CPUID 0x80000007, EDX bit 8) and the environment does
/// not ask for steady_clock.
bool invariantTscUsable();

/// Ticks -> steady_clock ns: ns = anchorNs + (t - anchorTicks) * nsPerTick, the rate measured
/// between two (ticks, steady ns) pairs taken at least kWindow apart at the start of the trace.
/// Fixed point (32 fractional bits, 128-bit product) so that conversion is exact to the
/// calibration and monotonic. The identity when ticks are already ns.
class TickCalibration {
public:
  static constexpr std::chrono::milliseconds kWindow{20};

  /// A (ticks, ns) pair read as close together as the machine allows: the ns read bracketed by
  /// two tick reads, keeping the tightest bracket of a few tries.
  struct Anchor {
    std::uint64_t ticks = 0, ns = 0;
  };
  static Anchor sample();

  /// Ticks are ns (fall-back): the identity.
  TickCalibration() = default;
  /// From two anchors (second later than the first).
  TickCalibration(Anchor first, Anchor second);

  std::uint64_t toNs(std::uint64_t t) const {
    const Int128 d = static_cast<Int128>(static_cast<std::int64_t>(t - anchor_.ticks)) * mult_;
    return anchor_.ns + static_cast<std::uint64_t>(static_cast<std::int64_t>(d >> 32));
  }
  /// The inverse, for comparing raw ticks with a deadline in ns.
  std::uint64_t toTicks(std::uint64_t ns) const;
  double nsPerTick() const { return static_cast<double>(mult_) / 4294967296.0; }

private:
  Anchor anchor_{};
  std::uint64_t mult_ = std::uint64_t(1) << 32; ///< ns per tick, 32 fractional bits
};

} // namespace pvti::detail
