// Summing a tile selection's memory by category and region for the Details tab.
#include "models/TileMemoryDetailsModel.hpp"

#include <QFont>

namespace tessera::viewer {

TileMemoryDetailsModel::TileMemoryDetailsModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Category"), tr("Non-interleaved"), tr("Interleaved"), tr("Overflowed"),
              tr("Total"), tr("of which shared")});
}

void TileMemoryDetailsModel::setSelection(std::shared_ptr<const MemoryData> data,
                                          const std::vector<unsigned>& tiles) {
  auto rows = std::make_shared<std::vector<MemoryDetailsRow>>();
  if (data) {
    std::vector<unsigned> all;
    const std::vector<unsigned>* list = &tiles;
    if (tiles.empty()) {
      all.resize(data->numTiles);
      for (unsigned t = 0; t < data->numTiles; ++t)
        all[t] = t;
      list = &all;
    }
    MemoryDetailsRow incl{tr("Total including gaps"), {}, true},
        excl{tr("Total excluding gaps"), {}, true};
    MemoryDetailsRow gaps{tr("Gaps"), {}, true}, al{tr("Always live"), {}, true},
        nal{tr("Not always live (peak)"), {}, true};
    rows->resize(kMemoryCategories);
    for (int c = 0; c < kMemoryCategories; ++c)
      (*rows)[std::size_t(c)].name = data->categoryNames.value(c);
    for (unsigned t : *list) {
      if (t >= data->numTiles) continue;
      for (int c = 0; c < kMemoryCategories; ++c) {
        MemoryDetailsRow& r = (*rows)[std::size_t(c)];
        for (int g = 0; g < kMemoryRegions; ++g) {
          const std::uint64_t own = data->cell(t, c, MemoryRegion(g), false),
                              shared = data->cell(t, c, MemoryRegion(g), true);
          r.values[g] += own + shared;
          r.values[3] += own + shared;
          r.values[4] += shared;
        }
      }
      incl.values[3] += data->includingGaps[t];
      excl.values[3] += data->excludingGaps[t];
      al.values[3] += data->alwaysLive[t];
      nal.values[3] += data->notAlwaysLive[t];
    }
    gaps.values[3] = incl.values[3] - std::min(incl.values[3], excl.values[3]);
    // The categories' sum is what was allocated, shared bytes once per variable placed on them:
    // it exceeds the memory used (excluding gaps) by the sharing, and the row says so.
    MemoryDetailsRow allocated{tr("Allocated (categories summed)"), {}, false};
    for (int c = 0; c < kMemoryCategories; ++c)
      for (std::size_t v = 0; v < 5; ++v)
        allocated.values[v] += (*rows)[std::size_t(c)].values[v];
    rows->insert(rows->end(), {allocated, incl, excl, gaps, al, nal});
  }
  own_ = rows;
  setRows(rows);
}

const MemoryDetailsRow* TileMemoryDetailsModel::find(const QString& name) const {
  if (!own_) return nullptr;
  for (const MemoryDetailsRow& r : *own_)
    if (r.name == name) return &r;
  return nullptr;
}

QVariant TileMemoryDetailsModel::cell(const MemoryDetailsRow& row, int column, int role) const {
  if (column == NameColumn) {
    if (role == Qt::FontRole && row.totalOnly) {
      QFont f;
      f.setBold(true);
      return f;
    }
    if (role == Qt::FontRole && row.name == tr("Allocated (categories summed)")) {
      QFont f;
      f.setItalic(true);
      return f;
    }
    if (role == Qt::ToolTipRole && column == NameColumn && !row.totalOnly)
      return tr("Shared bytes belong to variables whose lives do not overlap; they count once for "
                "each variable "
                "sharing them, so the categories add up to more than the memory used (Total "
                "excluding gaps).");
    return textCell(row.name, role);
  }
  if (row.totalOnly && column != TotalColumn) return {};
  return bytesCell(row.values[column - 1], role);
}

} // namespace tessera::viewer
