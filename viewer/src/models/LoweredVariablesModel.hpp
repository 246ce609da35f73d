// The Memory page's Variables tab as a table: the lowered variables on the selected tiles
// (tile, name, size, address, category, always live), or every variable summed over tiles when
// no tile is selected (no tile or address then).
//
// Threads: GUI thread, over an immutable TileDetailsData. Cost: data() is O(1).
#pragma once

#include "core/TileDetailsData.hpp"
#include "models/TableModel.hpp"

namespace tessera::viewer {

class LoweredVariablesModel : public RowsModel<TileVariableRow> {
public:
  enum Column {
    TileColumn,
    NameColumn,
    SizeColumn,
    OffsetColumn,
    CategoryColumn,
    AlwaysLiveColumn
  };
  explicit LoweredVariablesModel(QObject* parent = nullptr);
  void setDetails(std::shared_ptr<const TileDetailsData> details);
  bool allTiles() const { return !details_ || details_->allTiles(); }

protected:
  QVariant cell(const TileVariableRow& row, int column, int role) const override;

private:
  std::shared_ptr<const TileDetailsData> details_;
};

} // namespace tessera::viewer
