// Sums of values per tile for the tiles a program touches.
#pragma once

#include "ProgramModel.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace poplar::detail::models {

// Dense by tile, with the list of tiles touched: adding is an index, not a tree walk (a million
// vertices' exchanges add several values per edge), and reading visits only the touched tiles,
// in ascending order as before. A tile added with 0 still counts as present.
class TileAccumulator {
public:
  void add(unsigned tile, std::uint64_t v) {
    if (tile >= sums_.size()) {
      sums_.resize(tile + 1, 0);
      present_.resize(tile + 1, 0);
    }
    if (!present_[tile]) {
      present_[tile] = 1;
      if (!tiles_.empty() && tile < tiles_.back()) sorted_ = false;
      tiles_.push_back(tile);
    }
    sums_[tile] += v;
  }
  void addAll(const TileAccumulator& o) {
    for (unsigned t : o.tiles_)
      add(t, o.sums_[t]);
  }
  bool empty() const { return tiles_.empty(); }
  std::uint64_t at(unsigned tile) const { return tile < sums_.size() ? sums_[tile] : 0; }
  /// The sums as (tile, value) pairs in ascending tile order.
  std::vector<std::pair<unsigned, std::uint64_t>> sums() const {
    std::vector<std::pair<unsigned, std::uint64_t>> v;
    v.reserve(tiles_.size());
    for (unsigned t : sortedTiles())
      v.emplace_back(t, sums_[t]);
    return v;
  }
  /// The sums as (tile, value) in ascending tile order.
  std::vector<TileValue> values() const {
    std::vector<TileValue> v;
    v.reserve(tiles_.size());
    for (unsigned t : sortedTiles())
      v.push_back({t, sums_[t]});
    return v;
  }
  /// The same, as runs (what the program model keeps).
  TileValues tileValues() const {
    TileValues v;
    for (unsigned t : sortedTiles())
      v.push_back({t, sums_[t]});
    v.shrink();
    return v;
  }
  template <class F> TileAccumulator mapped(F f) const {
    TileAccumulator r;
    for (unsigned t : sortedTiles())
      r.add(t, f(sums_[t]));
    return r;
  }

private:
  const std::vector<unsigned>& sortedTiles() const {
    if (!sorted_) {
      std::sort(tiles_.begin(), tiles_.end());
      sorted_ = true;
    }
    return tiles_;
  }
  std::vector<std::uint64_t> sums_;
  std::vector<unsigned char> present_;
  mutable std::vector<unsigned> tiles_; ///< touched tiles, in the order first added until sorted
  mutable bool sorted_ = true;
};

} // namespace poplar::detail::models
