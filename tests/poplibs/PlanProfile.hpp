// What the plan-versus-profile tests (matmul and convolution) share: reading a figure out of
// the planner's printed report, and the busiest tile of a profile's per-tile cycles.
#pragma once

#include "TestUtil.hpp"

#include <algorithm>
#include <cstdint>
#include <regex>
#include <string>
#include <vector>

namespace test::plan {

/// The first capture of `pattern` in the plan's text as a number; 0 when it is not there.
inline std::uint64_t number(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return 0;
  return std::stoull(m[1]);
}

inline bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

inline std::uint64_t busiest(const std::vector<std::uint64_t>& byTile) {
  return byTile.empty() ? 0 : *std::max_element(byTile.begin(), byTile.end());
}

/// Quarters in [-4, 4], exactly representable in half, so sums agree with the host's in any
/// order and precision.
inline std::vector<float> quarterValues(std::size_t n, unsigned seed) {
  auto v = test::randomValues(n, -4, 4, seed);
  for (auto& x : v)
    x = float(int(x)) / 4;
  return v;
}

} // namespace test::plan
