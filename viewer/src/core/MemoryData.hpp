// The Memory page's snapshot: every tile's memory figures (totals with and without gaps,
// overflowed, always live / not-always-live peak, and each category by region and overlap),
// read once off the GUI thread into flat arrays, and the breakdowns the chart stacks.
//
// Threads: loadMemory() runs on any thread with its own pva::Report; the snapshot is immutable
// afterwards and is shared read-only by the GUI thread. Cost: one pass over the tiles (libpva reads
// each column for all tiles at once); 15 x 3 x 2 values per tile (~23k tiles x 90 x 4 bytes = 8
// MB).
#pragma once

#include "core/Background.hpp"
#include "core/Document.hpp"

#include <QColor>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::viewer {

enum class MemoryRegion { NonInterleaved = 0, Interleaved = 1, Overflowed = 2 };
constexpr int kMemoryRegions = 3;
constexpr int kMemoryCategories = 15; ///< pva::MemoryCategories::size()

struct MemoryData {
  unsigned numTiles = 0, tilesPerIpu = 0, numIpus = 0;
  std::uint64_t bytesPerTile = 0, interleavedStart = 0;
  bool outOfMemory = false;
  QStringList categoryNames; ///< pva::MemoryCategories::names()

  // Per tile (index = tile number over the whole device).
  std::vector<std::uint64_t> includingGaps, excludingGaps, overflowedIncluding, overflowedExcluding;
  std::vector<std::uint64_t> alwaysLive, notAlwaysLive;
  /// [tile][category][region][overlapped? 1 : 0], flattened; see cell().
  std::vector<std::uint32_t> cells;

  static std::size_t cellIndex(unsigned tile, int category, MemoryRegion region, bool overlapped) {
    return ((std::size_t(tile) * kMemoryCategories + std::size_t(category)) * kMemoryRegions +
            std::size_t(region)) *
               2 +
           (overlapped ? 1 : 0);
  }
  std::uint64_t cell(unsigned tile, int category, MemoryRegion region, bool overlapped) const {
    return cells[cellIndex(tile, category, region, overlapped)];
  }
  /// Bytes of the category on the tile that have addresses of their own (all regions).
  std::uint64_t ownBytes(unsigned tile, int category) const;
  /// All the category's bytes on the tile (shared bytes count in every category sharing them).
  std::uint64_t categoryBytes(unsigned tile, int category) const;
  std::uint64_t total(unsigned tile, bool includeGaps) const {
    return includeGaps ? includingGaps[tile] : excludingGaps[tile];
  }
  /// Tiles of one IPU [first, last), or all tiles when ipu < 0.
  std::pair<unsigned, unsigned> tileRange(int ipu) const;
  unsigned ipuOf(unsigned tile) const { return tilesPerIpu ? tile / tilesPerIpu : 0; }
  /// The tile with the most memory (including gaps).
  unsigned largestTile() const;
};

/// Reads every tile's memory. Throws pva::Exception (the message names the file).
MemoryData loadMemory(const Document& doc, Progress& progress);

/// What the chart stacks for each tile.
enum class MemoryBreakdown { Total, Region, Category, Liveness };

/// The bands of a breakdown, bottom first, and how to compute them for a tile. Bands always add
/// up to the tile's total: bytes shared by variables whose lives do not overlap form one band of
/// their own ("shared"), gaps another (when included), so stacks match the Total view.
class MemoryBands {
public:
  /// `maxCategories`: the categories with the most bytes over all tiles get a band each, the
  /// rest are summed into "other categories".
  MemoryBands(const MemoryData& data, MemoryBreakdown breakdown, bool includeGaps,
              int maxCategories = 8);
  int size() const { return int(names_.size()); }
  const QStringList& names() const { return names_; }
  QColor color(int band) const { return colors_[std::size_t(band)]; }
  /// Fills out[0..size()) with the tile's bytes in each band.
  void values(unsigned tile, std::uint64_t* out) const;

private:
  const MemoryData& data_;
  MemoryBreakdown breakdown_;
  bool gaps_;
  QStringList names_;
  std::vector<QColor> colors_;
  std::vector<int> topCategories_; ///< category indices with their own band
  bool other_ = false;
};

/// Parses a tile list typed by the user: "0,5,17", "3-7", "1, 4-6". Returns the sorted, unique
/// tiles, or nullopt with *error set ("tile 99999 does not exist (1472 tiles)").
std::optional<std::vector<unsigned>> parseTileList(const QString& text, unsigned numTiles,
                                                   QString* error);
/// The inverse: "0, 5, 17" (runs of three or more as "3-7").
QString formatTileList(const std::vector<unsigned>& tiles);

/// Colour of a memory category (stable: the same category has the same colour everywhere).
QColor categoryColor(int category);
/// The bands of bytes shared by variables with disjoint lives, and of gaps.
QColor sharedBytesColor();
QColor gapsColor();

} // namespace tessera::viewer
