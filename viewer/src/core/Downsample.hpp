// Level of detail for charts: a series of any length reduced to one min/max pair per pixel
// column, so painting costs the same for 1,472 tiles or a million steps and no spike is lost.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace tessera::viewer {

struct MinMax {
  double min = 0, max = 0;
  std::size_t first = 0, last = 0; ///< the range of input indices [first, last) in the bucket
};

/// Splits values[begin, end) into `buckets` equal index ranges (fewer when there are fewer
/// values than buckets) and returns each range's min and max. O(end - begin).
template <class T>
std::vector<MinMax> downsampleMinMax(const T* values, std::size_t begin, std::size_t end,
                                     std::size_t buckets) {
  std::vector<MinMax> out;
  if (end <= begin || buckets == 0) return out;
  const std::size_t n = end - begin;
  buckets = std::min(buckets, n);
  out.reserve(buckets);
  for (std::size_t b = 0; b < buckets; ++b) {
    // Integer bounds so every value falls in exactly one bucket.
    const std::size_t first = begin + n * b / buckets;
    const std::size_t last = begin + n * (b + 1) / buckets;
    MinMax m;
    m.first = first;
    m.last = last;
    m.min = m.max = static_cast<double>(values[first]);
    for (std::size_t i = first + 1; i < last; ++i) {
      const double v = static_cast<double>(values[i]);
      m.min = std::min(m.min, v);
      m.max = std::max(m.max, v);
    }
    out.push_back(m);
  }
  return out;
}

template <class T>
std::vector<MinMax> downsampleMinMax(const std::vector<T>& values, std::size_t buckets) {
  return downsampleMinMax(values.data(), 0, values.size(), buckets);
}

/// The items each pixel column of a chart touches: the window [from, to) of an item axis is drawn
/// over `pixels` columns, and column k covers [from + k * w, from + (k + 1) * w) with w = (to -
/// from) / pixels. Each range holds every item the column touches, even partly, clamped to
/// [first, last): neighbouring columns share the item on their border, so an item narrower than a
/// pixel always shares its column with a neighbour and a column's highest item is never dropped
/// (a pixel never reads as a dip the items around it do not have). O(pixels).
struct ItemRange {
  std::size_t first = 0, last = 0; ///< items [first, last); empty past the data
};
inline std::vector<ItemRange> pixelItemRanges(double from, double to, std::size_t pixels,
                                              std::size_t first, std::size_t last) {
  std::vector<ItemRange> out(pixels);
  if (pixels == 0 || !(to > from)) return out;
  const double w = (to - from) / double(pixels);
  for (std::size_t k = 0; k < pixels; ++k) {
    const double a = from + double(k) * w, b = a + w;
    const double lo = std::max(double(first), std::floor(a + 1e-9));
    const double hi = std::min(double(last), std::ceil(b - 1e-9));
    if (hi > lo)
      out[k] = {std::size_t(lo), std::size_t(hi)};
    else
      out[k] = {std::size_t(std::min(lo, double(last))), std::size_t(std::min(lo, double(last)))};
  }
  return out;
}

/// The min and max of values[r.first - base, r.last - base) (values[i] is item base + i).
template <class T> MinMax minMaxOf(const T* values, std::size_t base, ItemRange r) {
  MinMax m;
  m.first = r.first;
  m.last = r.last;
  if (r.last <= r.first) return m;
  m.min = m.max = static_cast<double>(values[r.first - base]);
  for (std::size_t i = r.first + 1; i < r.last; ++i) {
    const double v = static_cast<double>(values[i - base]);
    m.min = std::min(m.min, v);
    m.max = std::max(m.max, v);
  }
  return m;
}

} // namespace tessera::viewer
