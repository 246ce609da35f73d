// What lives on the selected tiles, for the Memory page's tabs: lowered variables (with their
// addresses, for the memory map), vertex types, compute sets and exchange programs with code there.
// With no tile selected it describes all tiles (variables summed over tiles, no addresses).
//
// Threads: loadTileDetails() runs off the GUI thread with its own pva::Report; the result is
// immutable. Cost: one lowered-variable query per selected tile, plus one vertex-count array per
// (compute set, vertex type) and one code array per exchange program (a few ms on the samples).
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <QString>
#include <cstdint>
#include <vector>

namespace tessera::viewer {

struct TileVariableRow {
  QString name, category;
  std::uint64_t bytes = 0;
  std::uint64_t offset = 0; ///< address on the tile (only with a tile)
  std::uint64_t alignment = 0;
  unsigned tile = 0; ///< the tile (unused with all tiles)
  bool alwaysLive = false;
};

struct TileVertexRow {
  QString name;
  std::uint64_t count = 0;      ///< instances on the selection
  std::uint64_t stateBytes = 0; ///< instance state (count x the type's state size)
  std::uint64_t codeBytes = 0;  ///< code, once per tile holding the type
  unsigned tiles = 0;           ///< selected tiles holding the type
};

struct TileComputeSetRow {
  QString name;
  std::uint64_t vertices = 0; ///< instances on the selection
  unsigned types = 0;         ///< vertex types with instances there
  unsigned tiles = 0;         ///< selected tiles with instances
};

struct TileExchangeRow {
  QString name, type;          ///< type: DoExchange, GlobalExchange, StreamCopyBegin...
  std::uint64_t codeBytes = 0; ///< exchange code on the selection
  std::uint64_t dataBytes = 0; ///< bytes the program moves (whole replica)
  unsigned tiles = 0;
};

struct TileDetailsData {
  std::vector<unsigned> tiles; ///< empty: all tiles
  bool allTiles() const { return tiles.empty(); }
  /// One row per (tile, lowered variable) with tiles; with all tiles, one per variable (and one
  /// per code/state category) summed over tiles.
  std::vector<TileVariableRow> variables;
  std::vector<TileVertexRow> vertices;
  std::vector<TileComputeSetRow> computeSets;
  std::vector<TileExchangeRow> exchanges;
  // For the memory map of tiles.front().
  std::uint64_t bytesPerTile = 0, interleavedStart = 0;
};

/// Reads the details of `tiles` (tile numbers over the device; empty: all tiles). Throws
/// pva::Exception; throws Cancelled when progress is cancelled.
TileDetailsData loadTileDetails(const Document& doc, std::vector<unsigned> tiles,
                                Progress& progress);

} // namespace tessera::viewer
