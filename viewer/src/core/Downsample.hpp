// Level of detail for charts: a series of any length reduced to one min/max pair per pixel
// column, so painting costs the same for 1,472 tiles or a million steps and no spike is lost.
#pragma once

#include <algorithm>
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

} // namespace tessera::viewer
