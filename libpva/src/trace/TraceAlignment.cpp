// alignTraces: where each trace's start lies on a common axis, by the best clock all share.
#include <algorithm>
#include <pva/Exception.hpp>
#include <pva/TraceAlignment.hpp>

namespace pva {

namespace {

/// Steady clocks are comparable when every trace has one and each pair of starts is as far apart
/// on the steady clocks as on the wall clocks.
bool shareSteadyClock(const std::vector<Trace>& traces) {
  const Trace& first = traces.front();
  for (const Trace& t : traces) {
    if (t.startSteadyNs() == 0) return false;
    const std::int64_t steady =
        static_cast<std::int64_t>(t.startSteadyNs() - first.startSteadyNs());
    const std::int64_t wall = (static_cast<std::int64_t>(t.startTimestamp()) -
                               static_cast<std::int64_t>(first.startTimestamp())) *
                              1000;
    if (steady - wall > kSameHostToleranceNs || wall - steady > kSameHostToleranceNs) return false;
  }
  return true;
}

} // namespace

TraceAlignment alignTraces(const std::vector<Trace>& traces) {
  if (traces.empty()) throw InvalidArgumentError("alignTraces: no trace to align");
  TraceAlignment a;
  const std::size_t n = traces.size();
  a.offsetNs.resize(n);
  // The earliest start is the axis' 0.
  std::size_t earliest = 0;
  if (n > 1 && shareSteadyClock(traces)) {
    a.clock = TraceAlignment::Clock::Steady;
    for (std::size_t i = 1; i < n; ++i)
      if (traces[i].startSteadyNs() < traces[earliest].startSteadyNs()) earliest = i;
    for (std::size_t i = 0; i < n; ++i)
      a.offsetNs[i] =
          static_cast<std::int64_t>(traces[i].startSteadyNs() - traces[earliest].startSteadyNs());
    a.description = std::to_string(n) +
                    " traces aligned by their steady clocks (written on one host): exact to the ns";
  } else {
    a.clock = n > 1 ? TraceAlignment::Clock::WallClock : TraceAlignment::Clock::Steady;
    for (std::size_t i = 1; i < n; ++i)
      if (traces[i].startTimestamp() < traces[earliest].startTimestamp()) earliest = i;
    for (std::size_t i = 0; i < n; ++i)
      a.offsetNs[i] = static_cast<std::int64_t>(traces[i].startTimestamp() -
                                                traces[earliest].startTimestamp()) *
                      1000;
    a.description =
        n == 1 ? std::string("one trace")
               : std::to_string(n) +
                     " traces aligned by their wall clocks (different hosts or boots, or no "
                     "steady start recorded): to the µs, and only as well as the hosts' clocks "
                     "agree";
  }
  a.originUnixUs = traces[earliest].startTimestamp();
  return a;
}

} // namespace pva
