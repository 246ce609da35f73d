// Reading every tile's memory into flat arrays, the chart's breakdown bands, and tile lists.
#include "core/MemoryData.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

namespace tessera::viewer {

std::uint64_t MemoryData::ownBytes(unsigned tile, int category) const {
  std::uint64_t sum = 0;
  for (int r = 0; r < kMemoryRegions; ++r)
    sum += cell(tile, category, MemoryRegion(r), false);
  return sum;
}

std::uint64_t MemoryData::categoryBytes(unsigned tile, int category) const {
  std::uint64_t sum = 0;
  for (int r = 0; r < kMemoryRegions; ++r)
    sum +=
        cell(tile, category, MemoryRegion(r), false) + cell(tile, category, MemoryRegion(r), true);
  return sum;
}

std::pair<unsigned, unsigned> MemoryData::tileRange(int ipu) const {
  if (ipu < 0 || unsigned(ipu) >= numIpus) return {0, numTiles};
  return {unsigned(ipu) * tilesPerIpu, std::min(numTiles, unsigned(ipu + 1) * tilesPerIpu)};
}

unsigned MemoryData::largestTile() const {
  if (includingGaps.empty()) return 0;
  return unsigned(std::max_element(includingGaps.begin(), includingGaps.end()) -
                  includingGaps.begin());
}

MemoryData loadMemory(const Document& doc, Progress& progress) {
  const pva::Report& report = doc.report();
  const pva::CompilationReport compilation = report.compilation();
  const pva::Target target = compilation.target();
  MemoryData d;
  d.numTiles = target.numTiles();
  d.tilesPerIpu = target.tilesPerIpu();
  d.numIpus = target.numIPUs();
  d.bytesPerTile = target.bytesPerTile();
  d.interleavedStart = target.interleavedMemoryStart();
  d.outOfMemory = report.outOfMemory();
  for (const std::string& name : pva::MemoryCategories::names())
    d.categoryNames << QString::fromStdString(name);
  const std::size_t n = d.numTiles;
  d.includingGaps.resize(n);
  d.excludingGaps.resize(n);
  d.overflowedIncluding.resize(n);
  d.overflowedExcluding.resize(n);
  d.alwaysLive.resize(n);
  d.notAlwaysLive.resize(n);
  d.cells.resize(n * kMemoryCategories * kMemoryRegions * 2);

  const std::vector<pva::Tile> tiles = compilation.tiles();
  for (std::size_t i = 0; i < tiles.size() && i < n; ++i) {
    if ((i & 255) == 0) {
      if (progress.cancelled()) throw Cancelled{};
      progress.report(double(i) / double(n));
    }
    const unsigned t = unsigned(i);
    const pva::TileMemory m = tiles[i].memory();
    d.includingGaps[i] = m.total().includingGaps();
    d.excludingGaps[i] = m.total().excludingGaps();
    d.overflowedIncluding[i] = m.overflowed().includingGaps();
    d.overflowedExcluding[i] = m.overflowed().excludingGaps();
    d.alwaysLive[i] = m.alwaysLiveBytes();
    d.notAlwaysLive[i] = m.notAlwaysLiveBytes();
    const pva::MemoryCategories& cats = m.category();
    for (int c = 0; c < kMemoryCategories; ++c) {
      const pva::CategoryMemory& cm = cats.at(std::size_t(c));
      const pva::OverlapBytes* regions[kMemoryRegions] = {&cm.nonInterleaved(), &cm.interleaved(),
                                                          &cm.overflowed()};
      for (int r = 0; r < kMemoryRegions; ++r) {
        // A tile holds at most a few MiB even when out of memory: 32 bits are plenty.
        d.cells[MemoryData::cellIndex(t, c, MemoryRegion(r), false)] =
            std::uint32_t(regions[r]->nonOverlapped());
        d.cells[MemoryData::cellIndex(t, c, MemoryRegion(r), true)] =
            std::uint32_t(regions[r]->overlapped());
      }
    }
  }
  progress.report(1.0);
  return d;
}

// --- bands
// ----------------------------------------------------------------------------------------

QColor categoryColor(int category) {
  // Data first (blues/greens), code and state (oranges/purples), exchange, stack: close kinds
  // get related hues so a stack reads as groups.
  static const QColor colors[kMemoryCategories] = {
      QColor(0x4e79a7), QColor(0x76b7b2), QColor(0x59a14f), QColor(0xf28e2b), QColor(0xedc948),
      QColor(0xff9da7), QColor(0xb07aa1), QColor(0x9c755f), QColor(0xe15759), QColor(0x8f2d56),
      // No two alike (test_core checks): stack is a violet, not the light grey of gaps;
      // instrumentation results a navy, not a second yellow.
      QColor(0x00a6a0), QColor(0x8cd17d), QColor(0xa0cbe8), QColor(0x6a4c93), QColor(0x1d3557)};
  return colors[((category % kMemoryCategories) + kMemoryCategories) % kMemoryCategories];
}

static const QColor kSharedColor(0x7f7f7f);
static const QColor kGapsColor(0xc7c7c7);

QColor sharedBytesColor() {
  return kSharedColor;
}
QColor gapsColor() {
  return kGapsColor;
}

MemoryBands::MemoryBands(const MemoryData& data, MemoryBreakdown breakdown, bool includeGaps,
                         int maxCategories)
    : data_(data), breakdown_(breakdown), gaps_(includeGaps) {
  switch (breakdown) {
  case MemoryBreakdown::Total:
    names_ << (includeGaps ? QStringLiteral("Total (including gaps)")
                           : QStringLiteral("Total (excluding gaps)"));
    colors_.push_back(QColor(0x4e79a7));
    return;
  case MemoryBreakdown::Region:
    names_ << QStringLiteral("Non-interleaved") << QStringLiteral("Interleaved")
           << QStringLiteral("Overflowed");
    colors_ = {QColor(0x4e79a7), QColor(0x59a14f), QColor(0xe15759)};
    break;
  case MemoryBreakdown::Category: {
    std::vector<std::uint64_t> sums(kMemoryCategories, 0);
    for (unsigned t = 0; t < data.numTiles; ++t)
      for (int c = 0; c < kMemoryCategories; ++c)
        sums[std::size_t(c)] += data.ownBytes(t, c);
    std::vector<int> order(kMemoryCategories);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return sums[std::size_t(a)] > sums[std::size_t(b)]; });
    int used = 0;
    for (int c : order)
      used += sums[std::size_t(c)] > 0 ? 1 : 0;
    // "Other" only when it would hold two or more categories; one left over gets its own band.
    const int own = used <= maxCategories + 1 ? used : maxCategories;
    for (int i = 0; i < own; ++i) {
      topCategories_.push_back(order[std::size_t(i)]);
      names_ << data.categoryNames.value(order[std::size_t(i)]);
      colors_.push_back(categoryColor(order[std::size_t(i)]));
    }
    other_ = own < used;
    if (other_) {
      names_ << QStringLiteral("other categories");
      colors_.push_back(QColor(0x6b6ecf));
    }
    break;
  }
  case MemoryBreakdown::Liveness:
    names_ << QStringLiteral("Always live") << QStringLiteral("Not always live (peak)");
    colors_ = {QColor(0x4e79a7), QColor(0xf28e2b)};
    break;
  }
  if (breakdown != MemoryBreakdown::Liveness) {
    names_ << QStringLiteral("Shared (disjoint lives)");
    colors_.push_back(kSharedColor);
  }
  if (includeGaps) {
    names_ << QStringLiteral("Gaps");
    colors_.push_back(kGapsColor);
  }
}

void MemoryBands::values(unsigned tile, std::uint64_t* out) const {
  const MemoryData& d = data_;
  const std::uint64_t excl = d.excludingGaps[tile];
  const std::uint64_t gaps = d.includingGaps[tile] > excl ? d.includingGaps[tile] - excl : 0;
  int k = 0;
  std::uint64_t own = 0;
  switch (breakdown_) {
  case MemoryBreakdown::Total:
    out[0] = d.total(tile, gaps_);
    return;
  case MemoryBreakdown::Region:
    for (int r = 0; r < kMemoryRegions; ++r) {
      std::uint64_t sum = 0;
      for (int c = 0; c < kMemoryCategories; ++c)
        sum += d.cell(tile, c, MemoryRegion(r), false);
      out[k++] = sum;
      own += sum;
    }
    break;
  case MemoryBreakdown::Category: {
    for (int c : topCategories_) {
      out[k] = d.ownBytes(tile, c);
      own += out[k++];
    }
    if (other_) {
      std::uint64_t all = 0;
      for (int c = 0; c < kMemoryCategories; ++c)
        all += d.ownBytes(tile, c);
      out[k++] = all - own;
      own = all;
    }
    break;
  }
  case MemoryBreakdown::Liveness:
    out[k++] = d.alwaysLive[tile];
    out[k++] = d.notAlwaysLive[tile];
    own = excl; // always live + peak not-always-live is the total excluding gaps by definition
    break;
  }
  if (breakdown_ != MemoryBreakdown::Liveness) out[k++] = excl > own ? excl - own : 0;
  if (gaps_) out[k++] = gaps;
}

// --- tile lists
// -------------------------------------------------------------------------------------

std::optional<std::vector<unsigned>> parseTileList(const QString& text, unsigned numTiles,
                                                   QString* error) {
  std::vector<unsigned> tiles;
  auto fail = [&](const QString& message) -> std::optional<std::vector<unsigned>> {
    if (error) *error = message;
    return std::nullopt;
  };
  auto number = [&](const QString& s, unsigned* out) {
    bool ok = false;
    const qulonglong v = s.trimmed().toULongLong(&ok);
    if (!ok) return false;
    *out = unsigned(std::min<qulonglong>(v, 0xffffffffu));
    return true;
  };
  const QStringList parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
  for (const QString& raw : parts) {
    const QString part = raw.trimmed();
    if (part.isEmpty()) continue;
    const int dash = part.indexOf(QLatin1Char('-'), 1);
    unsigned first = 0, last = 0;
    if (dash > 0) {
      if (!number(part.left(dash), &first) || !number(part.mid(dash + 1), &last) || last < first)
        return fail(QStringLiteral("'%1' is not a tile range like 3-7").arg(part));
    } else if (!number(part, &first)) {
      return fail(QStringLiteral("'%1' is not a tile number").arg(part));
    } else {
      last = first;
    }
    if (last >= numTiles)
      return fail(QStringLiteral("tile %1 does not exist (%2 tiles: 0-%3)")
                      .arg(last)
                      .arg(numTiles)
                      .arg(numTiles ? numTiles - 1 : 0));
    if (last - first > 100000) return fail(QStringLiteral("'%1' is too long a range").arg(part));
    for (unsigned t = first; t <= last; ++t)
      tiles.push_back(t);
  }
  std::sort(tiles.begin(), tiles.end());
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  return tiles;
}

QString formatTileList(const std::vector<unsigned>& tiles) {
  QStringList parts;
  for (std::size_t i = 0; i < tiles.size();) {
    std::size_t j = i;
    while (j + 1 < tiles.size() && tiles[j + 1] == tiles[j] + 1)
      ++j;
    if (j - i >= 2) {
      parts << QStringLiteral("%1-%2").arg(tiles[i]).arg(tiles[j]);
    } else {
      for (std::size_t k = i; k <= j; ++k)
        parts << QString::number(tiles[k]);
    }
    i = j + 1;
  }
  return parts.join(QStringLiteral(", "));
}

} // namespace tessera::viewer
