// Sums of the model and analysis layers saturate at 2^64 - 1 instead of wrapping around: a report's
// figures are whatever its file says, and a damaged (or hostile) file of huge values must give a
// huge figure, never a small one that passes a CI gate. Real reports stay far below the limit.
#pragma once

#include <cstdint>
#include <limits>

namespace pva::detail {

inline std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b) {
  std::uint64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<std::uint64_t>::max() : sum;
}

/// sum += value, saturated.
inline void addTo(std::uint64_t& sum, std::uint64_t value) {
  sum = saturatingAdd(sum, value);
}

} // namespace pva::detail
