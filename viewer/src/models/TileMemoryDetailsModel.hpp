// The Memory page's Details tab: bytes of each memory category by region (non-interleaved,
// interleaved, overflowed) summed over the selected tiles (all tiles when none is selected), how
// many of them are shared with variables whose lives do not overlap, and the totals with and
// without gaps, always live and not-always-live peak.
//
// Threads: GUI thread. Cost: setSelection() sums the MemoryData snapshot over the tiles
// (O(tiles x 90)); data() is index arithmetic over the 20-odd summed rows.
#pragma once

#include "core/MemoryData.hpp"
#include "models/TableModel.hpp"

namespace tessera::viewer {

struct MemoryDetailsRow {
  QString name;
  /// Non-interleaved, interleaved, overflowed, total, shared (of the total).
  std::uint64_t values[5] = {0, 0, 0, 0, 0};
  bool totalOnly = false; ///< a summary row: only the Total column has a value
};

class TileMemoryDetailsModel : public RowsModel<MemoryDetailsRow> {
public:
  enum Column {
    NameColumn,
    NonInterleavedColumn,
    InterleavedColumn,
    OverflowedColumn,
    TotalColumn,
    SharedColumn
  };
  explicit TileMemoryDetailsModel(QObject* parent = nullptr);
  /// Sums `data` over `tiles` (empty: all tiles).
  void setSelection(std::shared_ptr<const MemoryData> data, const std::vector<unsigned>& tiles);
  /// The row named `name` ("variable", "Total including gaps"...), or null.
  const MemoryDetailsRow* find(const QString& name) const;

protected:
  QVariant cell(const MemoryDetailsRow& row, int column, int role) const override;

private:
  std::shared_ptr<const std::vector<MemoryDetailsRow>> own_;
};

} // namespace tessera::viewer
