#include "core/TileMapData.hpp"

#include "core/MemoryData.hpp"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace tessera::viewer {

QString TileMapData::figureName(Figure f) {
  return f == Cycles ? QCoreApplication::translate("TileMap", "Compute cycles (all runs)")
                     : QCoreApplication::translate("TileMap", "Memory (including gaps)");
}

unsigned TileMapData::columns() const {
  return std::max(1u, unsigned(std::ceil(std::sqrt(double(std::max(1u, tilesPerIpu))))));
}

unsigned TileMapData::rows() const {
  return (std::max(1u, tilesPerIpu) + columns() - 1) / columns();
}

QPoint TileMapData::cellOf(unsigned tile) const {
  const unsigned per = std::max(1u, tilesPerIpu);
  const unsigned ipu = tile / per, t = tile % per;
  const unsigned blockX = ipu % kIpusPerRow, blockY = ipu / kIpusPerRow;
  return QPoint(int(blockX * (columns() + 1) + t % columns()),
                int(blockY * (rows() + 1) + t / columns()));
}

QPoint TileMapData::mapCells() const {
  const unsigned ipus = std::max(1u, numIpus);
  const unsigned across = std::min(ipus, kIpusPerRow),
                 down = (ipus + kIpusPerRow - 1) / kIpusPerRow;
  return QPoint(int(across * (columns() + 1) - 1), int(down * (rows() + 1) - 1));
}

long long TileMapData::tileAt(QPoint cell) const {
  if (cell.x() < 0 || cell.y() < 0) return -1;
  const unsigned bx = unsigned(cell.x()) / (columns() + 1),
                 x = unsigned(cell.x()) % (columns() + 1);
  const unsigned by = unsigned(cell.y()) / (rows() + 1), y = unsigned(cell.y()) % (rows() + 1);
  if (x >= columns() || y >= rows() || bx >= kIpusPerRow) return -1; // the gap between blocks
  const unsigned inIpu = y * columns() + x;
  if (inIpu >= tilesPerIpu) return -1;
  const unsigned long long tile = (unsigned long long)(by * kIpusPerRow + bx) * tilesPerIpu + inIpu;
  return tile < numTiles ? (long long)tile : -1;
}

TileMapData loadTileMap(const Document& doc, Progress& progress) {
  const MemoryData memory = loadMemory(doc, progress); // the Memory view's per-tile figures
  if (progress.cancelled()) throw Cancelled{};
  TileMapData d;
  d.numTiles = memory.numTiles;
  d.tilesPerIpu = memory.tilesPerIpu;
  d.numIpus = memory.numIpus;
  d.bytesPerTile = memory.bytesPerTile;
  d.memory = memory.includingGaps;
  const pva::Report& report = doc.report();
  d.tilesPerReplica = report.compilation().target().tilesPerReplica();
  d.cycles.assign(d.numTiles, 0);
  d.profiled = !report.execution().runs().empty();
  if (d.profiled && d.tilesPerReplica > 0) {
    // libpva's stored per-tile compute cycles of all runs, as the Summary's cycle kinds count them.
    const pva::TileCycleTotals totals = report.execution().tileCycleTotals();
    const std::vector<std::uint64_t>& byTile = totals.byTile(pva::TileCycleTotals::Kind::Compute);
    for (unsigned t = 0; t < d.numTiles; ++t) {
      const unsigned inReplica = t % d.tilesPerReplica;
      if (inReplica < byTile.size()) d.cycles[t] = byTile[inReplica];
    }
  }
  return d;
}

} // namespace tessera::viewer
