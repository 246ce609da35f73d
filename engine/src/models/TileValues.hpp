// A value for each of some tiles, held as runs of consecutive tiles with one value: what the
// program model keeps for every step (cycles, code bytes) and every compute set. (In memory only:
// the report's TileValues blobs, docs/formats.md, are written from these as before.)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace poplar::detail::models {

/// A value on one tile (sparse per-tile arrays: most programs touch few tiles).
struct TileValue {
  unsigned tile;
  std::uint64_t value;
};

// Why runs: a step's figures are mostly equal over long stretches of tiles (a sync's or a stream
// copy's every tile of an IPU, a compute set whose tiles each run the same vertices, the code
// bytes of a step), and a graph of 10 M vertices has tens of thousands of steps; a plain
// (tile, value) array was 205 bytes a vertex of the model (issue 38). A run is 16 bytes, as one
// (tile, value) pair was with its padding, so no array is ever larger than before.
//
// Reading yields TileValue by value, tile by tile in ascending order, as the arrays did.
class TileValues {
public:
  struct Run {
    unsigned first;      ///< first tile
    unsigned count;      ///< consecutive tiles from `first`
    std::uint64_t value; ///< on each of them
  };

  class const_iterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = TileValue;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = TileValue;

    const_iterator() = default;
    const_iterator(const Run* run, unsigned offset) : run_(run), offset_(offset) {}
    TileValue operator*() const { return {run_->first + offset_, run_->value}; }
    const_iterator& operator++() {
      if (++offset_ == run_->count) {
        ++run_;
        offset_ = 0;
      }
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const const_iterator& o) const {
      return run_ == o.run_ && offset_ == o.offset_;
    }
    bool operator!=(const const_iterator& o) const { return !(*this == o); }

  private:
    const Run* run_ = nullptr;
    unsigned offset_ = 0;
  };

  TileValues() = default;
  /// From (tile, value) pairs in any order: read back in ascending tiles (stable).
  TileValues(std::vector<TileValue> values) { // NOLINT: implicit, as the arrays it replaces
    std::stable_sort(values.begin(), values.end(),
                     [](const TileValue& a, const TileValue& b) { return a.tile < b.tile; });
    for (const TileValue& tv : values)
      push_back(tv);
    shrink();
  }

  /// Appends a value for a tile after every tile held so far (the caller keeps them ascending).
  void push_back(const TileValue& tv) {
    if (!runs_.empty()) {
      Run& last = runs_.back();
      if (tv.value == last.value && tv.tile == last.first + last.count) {
        ++last.count;
        ++size_;
        return;
      }
    }
    runs_.push_back({tv.tile, 1, tv.value});
    ++size_;
  }
  /// Appends `count` tiles from `first`, each with `value`.
  void appendRun(unsigned first, unsigned count, std::uint64_t value) {
    if (!count) return;
    if (!runs_.empty()) {
      Run& last = runs_.back();
      if (value == last.value && first == last.first + last.count) {
        last.count += count;
        size_ += count;
        return;
      }
    }
    runs_.push_back({first, count, value});
    size_ += count;
  }
  /// Drops spare capacity: the model keeps these for the engine's life.
  void shrink() { runs_.shrink_to_fit(); }

  /// Tiles held.
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const_iterator begin() const { return {runs_.data(), 0}; }
  const_iterator end() const { return {runs_.data() + runs_.size(), 0}; }
  const std::vector<Run>& runs() const { return runs_; }
  /// The values as (tile, value) pairs, ascending tiles.
  std::vector<TileValue> toVector() const { return std::vector<TileValue>(begin(), end()); }

private:
  std::vector<Run> runs_;
  std::size_t size_ = 0;
};

} // namespace poplar::detail::models
