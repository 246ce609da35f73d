// Level of detail for timelines: a sorted sequence of intervals (steps, flame runs) reduced to
// what one row of pixels can show. Items at least a pixel wide come out one by one; items that
// share a pixel column come out as one merged column. The walk jumps by binary search, so it
// costs O(pixels * log n) whatever the number of items visible: a full zoom-out over a million
// steps costs about as much as a few hundred.
#pragma once

#include "core/ExecutionIndex.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tessera::viewer {

/// What to draw in one row: columns [x0, x1) showing items [first, first + count).
struct TimelineSpan {
  int x0 = 0, x1 = 0;
  std::size_t first = 0, count = 0;
  bool merged() const { return count > 1 || x1 - x0 <= 1; }
};

/// Items [0, n) with non-decreasing begin(k); end(k) >= begin(k). The view shows [t0, t1) in
/// `width` columns. `lowerBound(t)` returns the first item beginning at or after t;
/// `columnEnd(t)`, used to close a merged column, may return a later index than that (an
/// approximation by whole blocks when a column holds hundreds of items).
template <class Begin, class End, class LowerBound, class ColumnEnd>
std::vector<TimelineSpan> reduceIntervals(std::size_t n, Begin begin, End end,
                                          LowerBound lowerBound, ColumnEnd columnEnd, double t0,
                                          double t1, int width) {
  std::vector<TimelineSpan> out;
  if (n == 0 || width <= 0 || t1 <= t0) return out;
  const double scale = width / (t1 - t0);
  auto xOf = [&](double t) { return (t - t0) * scale; };
  std::size_t i = lowerBound(t0);
  if (i > 0 && double(end(i - 1)) > t0) --i; // the item under the left edge
  int x = 0;
  while (i < n && x < width) {
    const double b = double(begin(i));
    if (b >= t1) break;
    const int px = std::max(x, int(std::floor(xOf(b))));
    if (px >= width) break;
    const double xe = xOf(double(end(i)));
    if (xe >= px + 1.0) { // at least a column of its own
      const int x1 = std::min(width, std::max(px + 1, int(std::lround(xe))));
      out.push_back({px, x1, i, 1});
      x = x1;
      ++i;
      continue;
    }
    // Everything beginning before the next column shares this one, except a last item that
    // reaches beyond the next column: it is drawn as itself from there.
    std::size_t j = std::max(i + 1, columnEnd(t0 + (px + 1) / scale));
    j = std::min(j, n);
    if (j - 1 > i && xOf(double(end(j - 1))) >= px + 2.0) --j;
    out.push_back({px, px + 1, i, j - i});
    x = px + 1;
    i = j;
  }
  // Items squeezed behind the last column (rounding at the right edge) join the last span, so
  // every visible item is accounted for once.
  if (!out.empty() && i < n && out.back().first + out.back().count == i) {
    const std::size_t j = std::min(n, std::max(i, lowerBound(t1)));
    out.back().count += j - i;
  }
  return out;
}

/// One lane of the index (the entries loaded so far).
inline std::vector<TimelineSpan> reduceLane(const ExecutionIndex& index, unsigned lane, double t0,
                                            double t1, int width) {
  const std::size_t n = index.entries(lane);
  // The walk asks for increasing times: each search starts from the previous answer.
  double lastT = -1;
  std::size_t last = 0;
  auto lowerBound = [&](double t) {
    last = t >= lastT && lastT >= 0 && last > 0 ? index.lowerBoundFrom(lane, n, t, last - 1)
                                                : index.lowerBound(lane, n, t);
    lastT = t;
    return last;
  };
  // With hundreds of steps per column, columns end on block boundaries: the search stays in
  // the cache-resident block starts and the column sums are whole prefix blocks (a column may
  // take up to one block of steps from the next: less than half a pixel at that density).
  const std::size_t inView =
      width > 0 ? index.lowerBound(lane, n, t1) - index.lowerBound(lane, n, t0) : 0;
  const bool coarse = inView > std::size_t(width) * 4 * ExecutionIndex::kBlock;
  std::size_t block = 0;
  auto columnEnd = [&](double t) {
    if (!coarse) return lowerBound(t);
    block = index.blockLowerBound(lane, n, t, block);
    return std::min(n, block * ExecutionIndex::kBlock);
  };
  return reduceIntervals(
      n, [&](std::size_t k) { return index.begin(lane, k); },
      [&](std::size_t k) { return index.end(lane, k); }, lowerBound, columnEnd, t0, t1, width);
}

/// One flame row of a lane: runs of entries under the same ancestor. `loaded` limits the entries.
inline std::vector<TimelineSpan> reduceFlameRow(const ExecutionIndex& index, unsigned lane,
                                                const std::vector<FlameRun>& runs, double t0,
                                                double t1, int width) {
  const std::size_t loaded = index.entries(lane);
  std::size_t n = runs.size();
  while (n > 0 && runs[n - 1].firstEntry >= loaded)
    --n;
  auto lastEntry = [&](std::size_t r) {
    const std::size_t next = r + 1 < runs.size() ? runs[r + 1].firstEntry : loaded;
    return std::min(next, loaded) - 1;
  };
  return reduceIntervals(
      n, [&](std::size_t r) { return index.begin(lane, runs[r].firstEntry); },
      [&](std::size_t r) { return index.end(lane, lastEntry(r)); },
      [&](double t) {
        // First run whose first entry begins at or after t.
        const std::size_t e = index.lowerBound(lane, loaded, t);
        return std::size_t(
            std::lower_bound(runs.begin(), runs.begin() + std::ptrdiff_t(n), e,
                             [](const FlameRun& r, std::size_t v) { return r.firstEntry < v; }) -
            runs.begin());
      },
      [&](double t) {
        const std::size_t e = index.lowerBound(lane, loaded, t);
        return std::size_t(
            std::lower_bound(runs.begin(), runs.begin() + std::ptrdiff_t(n), e,
                             [](const FlameRun& r, std::size_t v) { return r.firstEntry < v; }) -
            runs.begin());
      },
      t0, t1, width);
}

} // namespace tessera::viewer
