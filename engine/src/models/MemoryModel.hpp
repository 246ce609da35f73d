// Where every byte on every tile goes: code and vertex state, always-live variables, and
// not-always-live variables (and message buffers) placed by interval allocation, so that
// variables whose lives do not overlap share addresses as a real allocator would. Totals per
// tile include or exclude gaps (alignment padding and holes), and bytes past the tile's
// memory are overflowed.
#pragma once

#include "Liveness.hpp"

#include <array>
#include <functional>

namespace poplar::detail::models {

using tessera::profiler::schema::MemoryCategory;

// The one-byte members last and the alignment (8 bytes here) in 32 bits: 32 bytes rather than 48,
// for the millions a large graph has (issue 38).
struct Allocation {
  unsigned tile;
  int var = -1; ///< variable (or message buffer) id; -1: code or state
  std::uint64_t bytes, offset;
  std::uint32_t alignment;
  MemoryCategory category;
  bool alwaysLive = true;
  bool overlapped = false; ///< shares addresses with another allocation
};

struct TileTotals {
  std::uint64_t includingGaps = 0, excludingGaps = 0, alwaysLive = 0, notAlwaysLivePeak = 0;
};

/// Bytes of one category on one tile, by region (non-interleaved, interleaved, overflowed) and
/// by whether they share addresses with other allocations.
struct CategoryBytes {
  std::array<std::array<std::uint64_t, 2>, 3> byRegion{}; ///< [region][overlapped]
  std::uint64_t total() const;
};

struct MemoryOptions {
  bool computeInstrumentation = false; ///< cycle counters per compute set per tile
  std::uint64_t blockBufferBytes = 0;  ///< lightweight-profiling buffer on block tiles
  std::vector<unsigned> blockTiles;
  /// Host threads laying out tiles (tiles are independent; the model is the same for any count).
  unsigned threads = 1;
  /// When set, called with each tile's allocations (by offset) in tile order, as soon as that
  /// tile and every tile before it are laid out, so a consumer (the report writer) can start on
  /// them while later tiles are still being placed. Calls never overlap; they may come from any
  /// of the threads above. `allocations` points at the tile's `count` allocations.
  std::function<void(unsigned tile, const Allocation* allocations, std::size_t count)> onTile;
};

struct MemoryModel {
  std::vector<Allocation> allocations; ///< by tile, then by offset
  std::vector<TileTotals> tiles;
  std::vector<std::array<CategoryBytes, 15>> categories; ///< [tile][MemoryCategory]
  std::uint64_t bytesPerTile = 0;
  std::vector<unsigned> overflowingTiles;         ///< worst first
  std::vector<std::uint64_t> notAlwaysLiveByStep; ///< over all tiles, per schedule step

  bool outOfMemory() const { return !overflowingTiles.empty(); }
  /// Calls f(step, bytesByTile) for every step of the schedule, with the not-always-live bytes
  /// live on each tile at that step. Streams: holds one array, not one per step.
  void forEachLivenessStep(
      const std::vector<VariableLiveness>& live, std::size_t numSteps,
      const std::function<void(unsigned, const std::vector<std::uint64_t>&)>& f) const;
};

MemoryModel buildMemoryModel(const compiler::CompiledGraph& g, const ProgramModel& m,
                             const std::vector<VariableLiveness>& live,
                             const MemoryOptions& options);

} // namespace poplar::detail::models
