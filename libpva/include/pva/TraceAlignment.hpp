// pva::alignTraces: several host traces (.pvti) on one time axis, as System Analyser lays out
// the traces of a job's processes. Each trace counts its timestamps from its own start; this says
// where each start lies on a common axis and how sure that is.
//
//   std::vector<pva::Trace> traces{pva::openTrace("a.pvti"), pva::openTrace("b.pvti")};
//   pva::TraceAlignment a = pva::alignTraces(traces);
//   std::int64_t onAxis = a.offsetNs[1] + someEventOfB.beginNs();
#pragma once

#include <cstdint>
#include <pva/Trace.hpp>
#include <string>
#include <vector>

namespace pva {

struct TraceAlignment {
  /// Which clock placed the traces' starts.
  enum class Clock {
    /// Their steady clocks (start_steady_ns): the traces were written on one host since its last
    /// boot, so the starts compare exactly, to the nanosecond.
    Steady,
    /// Their wall clocks (start_unix_us): traces of different hosts (or boots), or without a
    /// steady start. Good to a microsecond at best, and to how well the hosts' clocks agree (NTP
    /// keeps them within about a millisecond on a LAN).
    WallClock
  };
  Clock clock = Clock::Steady;
  /// Per trace, in the order given: what to add to its times (ns since its own start) to place
  /// them on the common axis, whose 0 is the earliest start. Never negative.
  std::vector<std::int64_t> offsetNs;
  /// Wall-clock time of the axis' 0, microseconds since the Unix epoch.
  std::uint64_t originUnixUs = 0;
  /// One sentence for a status line: "2 traces aligned by their steady clocks (one host):
  /// exact to the ns".
  std::string description;
};

/// Places every trace's start on one axis: by their steady clocks when each trace records one
/// and, for every trace, the steady clocks' difference from the first trace agrees with the wall
/// clocks' within kSameHostToleranceNs (the sign of one host and boot: two hosts' uptimes agreeing
/// by chance to 50 ms is unlikely); else by their wall clocks. Throws InvalidArgumentError when
/// `traces` is empty.
TraceAlignment alignTraces(const std::vector<Trace>& traces);

/// How far a steady-clock difference may stray from the wall-clock one for the traces to count
/// as written by one host: both clocks are read within microseconds of each other at a trace's
/// start, but NTP may slew the wall clock between two starts.
constexpr std::int64_t kSameHostToleranceNs = 50 * 1000 * 1000;

} // namespace pva
