// The Tile Map view's data: every tile's memory (including gaps, libpva's per-tile figure the
// Memory view shows) and its compute cycles over all runs (libpva's TileCycleTotals, compute),
// and where each tile sits on the map.
//
// Where a tile sits: software order. Each IPU is a block of tiles in rows of
// TileMapData::columns() tiles, tile numbers increasing left to right and top to bottom (tile
// t of IPU i at row (t - i * tilesPerIpu) / columns, column (t - ...) % columns); IPUs side by
// side, at most four in a row of blocks, then the next row. This is the order Poplar numbers
// tiles in, not the silicon's floor plan: the physical order is not implemented (no published
// mapping from tile number to place on the die was found to follow).
//
// Threads: loadTileMap() runs off the GUI thread with its own pva::Report; immutable after.
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <QPoint>
#include <QString>
#include <cstdint>
#include <vector>

namespace tessera::viewer {

struct TileMapData {
  enum Figure { MemoryIncludingGaps = 0, Cycles, FigureCount };
  static QString figureName(Figure f);

  unsigned numTiles = 0, tilesPerIpu = 0, numIpus = 0, tilesPerReplica = 0;
  std::uint64_t bytesPerTile = 0;    ///< a tile's memory (the scale's top for memory)
  bool profiled = false;             ///< the report has an execution
  std::vector<std::uint64_t> memory; ///< per tile of the device, including gaps
  std::vector<std::uint64_t>
      cycles; ///< compute cycles per tile of the device (replicas repeat one replica's)

  /// The value of a tile for a figure.
  std::uint64_t value(Figure f, unsigned tile) const {
    return f == Cycles ? cycles[tile] : memory[tile];
  }
  /// Tiles per row of an IPU's block: the whole number nearest a square block.
  unsigned columns() const;
  unsigned rows() const; ///< of an IPU's block
  static constexpr unsigned kIpusPerRow = 4;
  /// The cell of a tile on the whole map (column, row), gaps between IPU blocks included:
  /// one empty cell between blocks.
  QPoint cellOf(unsigned tile) const;
  /// The map's size in cells.
  QPoint mapCells() const;
  /// The tile at a cell, or -1 for a gap or past the last tile.
  long long tileAt(QPoint cell) const;
};

TileMapData loadTileMap(const Document& doc, Progress& progress);

} // namespace tessera::viewer
