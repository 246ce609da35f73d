// Level of detail for the trace timeline: what one flame row, one instant row or one graph
// series looks like at a given zoom, reduced to the pixel width. Events at least a pixel wide
// stay themselves; runs of narrower ones that start in the same pixel column become one
// "merged" block. Each step either emits an event wider than a pixel (events of a row never
// overlap, so there are at most ~width of them) or jumps by binary search past a pixel column,
// so a row costs O(width x log n) whatever the number of events.
#pragma once

#include "core/TraceIndex.hpp"

#include <cstdint>
#include <pva/Trace.hpp>
#include <vector>

namespace tessera::viewer {

/// The time -> pixel mapping of a view: x = (t - t0) / nsPerPx, for x in [0, width).
struct TraceViewport {
  double t0 = 0, nsPerPx = 1;
  int width = 0;
  double x(double t) const { return (t - t0) / nsPerPx; }
  double time(double x) const { return t0 + x * nsPerPx; }
  double t1() const { return time(width); }
};

struct TraceBlock {
  double x0 = 0, x1 = 0;
  std::uint32_t event = kNoTraceEvent; ///< the event (merged blocks: the first one)
  std::uint32_t count = 1;             ///< events merged into the block (1: the event itself)
  bool subMicrosecond = false;         ///< drawn wider than it lasted (at least 0.5 µs)
};

/// Sub-microsecond events are drawn this long (unless the next event begins sooner).
inline constexpr double kMinEventDrawNs = 500;

/// Appends the blocks of `row` visible in the viewport to `out`.
void visibleBlocks(const TraceDepthRow& row, const TraceViewport& view,
                   std::vector<TraceBlock>& out);

struct TraceMarker {
  double x = 0;
  std::uint32_t instant = 0; ///< the first instant event at this pixel
  std::uint32_t count = 1;
};

/// One marker per pixel column holding instant events (instants sorted by time).
void visibleMarkers(const std::vector<TraceInstant>& instants, const TraceViewport& view,
                    std::vector<TraceMarker>& out);

struct TraceColumnRange {
  int x = 0;
  double first = 0, last = 0, min = 0, max = 0;
};

/// Per pixel column holding samples of the series: first, last, min and max value, plus the
/// samples just outside the view (so lines run to the edges). O(width x log n + samples in view):
/// every visible sample is looked at once so no spike is lost.
std::vector<TraceColumnRange> visibleSamples(const std::vector<pva::SeriesSample>& samples,
                                             const TraceViewport& view);

} // namespace tessera::viewer
