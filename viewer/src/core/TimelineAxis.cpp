#include "core/TimelineAxis.hpp"

#include "core/Format.hpp"

#include <cmath>
#include <cstdint>

namespace tessera::viewer {

namespace {

bool neighboursRepeat(const QStringList& labels) {
  for (int i = 1; i < labels.size(); ++i)
    if (labels[i] == labels[i - 1]) return true;
  return false;
}

} // namespace

QStringList timelineTickLabels(const std::vector<double>& cycles, double clockHz) {
  QStringList shortCycles, full, times;
  for (const double t : cycles) {
    shortCycles << formatCyclesShort(t);
    full << formatCount(std::uint64_t(std::llround(std::max(t, 0.0))));
    times << (clockHz > 0 ? formatDurationNs(t / clockHz * 1e9) : QString());
  }
  const QStringList& c = neighboursRepeat(shortCycles) ? full : shortCycles;
  const bool withTime = clockHz > 0 && !neighboursRepeat(times);
  QStringList out;
  for (int i = 0; i < c.size(); ++i)
    out << (withTime ? c[i] + QStringLiteral(" · ") + times[i] : c[i]);
  return out;
}

} // namespace tessera::viewer
