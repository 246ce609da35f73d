// Reduces flame rows, instant events and graph series to the pixel width of the view.
#include "core/TraceLod.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::viewer {

void visibleBlocks(const TraceDepthRow& row, const TraceViewport& view,
                   std::vector<TraceBlock>& out) {
  if (row.size() == 0 || view.width <= 0 || !(view.nsPerPx > 0)) return;
  // Start a little early: a sub-microsecond event just left of the view is drawn wider.
  auto [i, last] = row.overlapping(std::int64_t(std::floor(view.t0 - kMinEventDrawNs)),
                                   std::int64_t(std::ceil(view.t1())));
  const auto beginIt = row.begin.begin();
  while (i < last) {
    const double x0 = view.x(double(row.begin[i]));
    double x1 = view.x(double(row.end[i]));
    // A sub-microsecond event is drawn 0.5 µs wide, but never over the next event of the row.
    const auto single = [&](std::size_t at, double a, double b) {
      const bool sub = row.end[at] - row.begin[at] < 1000;
      if (sub) {
        double limit = kMinEventDrawNs / view.nsPerPx;
        if (at + 1 < row.size()) limit = std::min(limit, view.x(double(row.begin[at + 1])) - a);
        b = std::max(b, a + limit);
      }
      out.push_back({a, std::max(b, a + 1.0), row.event[at], 1, sub});
    };
    if (x1 - x0 >= 1.0) {
      single(i, x0, x1);
      ++i;
      continue;
    }
    // Narrow: everything that begins in this pixel column goes together.
    const double columnEnd = view.time(std::floor(x0) + 1);
    auto j =
        std::size_t(std::lower_bound(beginIt + std::ptrdiff_t(i), beginIt + std::ptrdiff_t(last),
                                     std::int64_t(std::ceil(columnEnd))) -
                    beginIt);
    j = std::max(j, i + 1);
    // Only the column's last event can reach beyond it; a wide one is drawn on its own.
    std::size_t k = j;
    if (k - i > 1 && view.x(double(row.end[k - 1])) - view.x(double(row.begin[k - 1])) >= 1.0) --k;
    if (k - i == 1) {
      single(i, x0, x1);
    } else {
      out.push_back({x0, std::max(view.x(double(row.end[k - 1])), x0 + 1.0), row.event[i],
                     std::uint32_t(k - i), false});
    }
    i = k;
  }
}

void visibleMarkers(const std::vector<TraceInstant>& instants, const TraceViewport& view,
                    std::vector<TraceMarker>& out) {
  if (instants.empty() || view.width <= 0 || !(view.nsPerPx > 0)) return;
  auto byTime = [](const TraceInstant& e, std::int64_t t) { return e.time < t; };
  // Markers have a radius: include those a few pixels outside.
  auto it = std::lower_bound(instants.begin(), instants.end(),
                             std::int64_t(std::floor(view.time(-6))), byTime);
  const auto end = std::lower_bound(it, instants.end(),
                                    std::int64_t(std::ceil(view.time(view.width + 6))), byTime);
  while (it != end) {
    const double x = view.x(double(it->time));
    const auto next = std::lower_bound(
        it + 1, end, std::int64_t(std::ceil(view.time(std::floor(x) + 1))), byTime);
    out.push_back({x, std::uint32_t(it - instants.begin()), std::uint32_t(next - it)});
    it = next;
  }
}

std::vector<TraceColumnRange> visibleSamples(const std::vector<pva::SeriesSample>& samples,
                                             const TraceViewport& view) {
  std::vector<TraceColumnRange> out;
  if (samples.empty() || view.width <= 0 || !(view.nsPerPx > 0)) return out;
  auto byTime = [](const pva::SeriesSample& s, double t) { return double(s.timestampNs) < t; };
  auto it = std::lower_bound(samples.begin(), samples.end(), view.t0, byTime);
  if (it != samples.begin()) --it; // the sample before the view, so the line enters from the left
  auto end = std::lower_bound(it, samples.end(), view.t1(), byTime);
  if (end != samples.end()) ++end; // and the one after
  while (it != end) {
    const double x = std::floor(view.x(double(it->timestampNs)));
    const auto next = std::max(it + 1, std::lower_bound(it, end, view.time(x + 1), byTime));
    TraceColumnRange c;
    c.x = int(std::clamp(x, -1.0e6, 1.0e6));
    c.first = it->value;
    c.last = (next - 1)->value;
    c.min = c.max = c.first;
    for (auto s = it; s != next; ++s) {
      c.min = std::min(c.min, s->value);
      c.max = std::max(c.max, s->value);
    }
    out.push_back(c);
    it = next;
  }
  return out;
}

} // namespace tessera::viewer
