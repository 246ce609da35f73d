// Sums of values per tile for the few tiles a program touches.
#pragma once

#include "ProgramModel.hpp"

#include <map>

namespace poplar::detail::profile {

class TileAccumulator {
public:
  void add(unsigned tile, std::uint64_t v) { sums_[tile] += v; }
  void addAll(const TileAccumulator& o) {
    for (const auto& [t, v] : o.sums_) sums_[t] += v;
  }
  bool empty() const { return sums_.empty(); }
  std::uint64_t at(unsigned tile) const {
    auto it = sums_.find(tile);
    return it == sums_.end() ? 0 : it->second;
  }
  const std::map<unsigned, std::uint64_t>& sums() const { return sums_; }
  /// The sums as (tile, value) in ascending tile order.
  std::vector<TileValue> values() const {
    std::vector<TileValue> v;
    v.reserve(sums_.size());
    for (const auto& [t, s] : sums_) v.push_back({t, s});
    return v;
  }
  template <class F> TileAccumulator mapped(F f) const {
    TileAccumulator r;
    for (const auto& [t, s] : sums_) r.sums_[t] = f(s);
    return r;
  }

private:
  std::map<unsigned, std::uint64_t> sums_;
};

} // namespace poplar::detail::profile
