// Compute sets with vertices on the selected tiles: instances there, vertex types, tiles.
//
// Threads: GUI thread, over immutable rows. Cost: data() is O(1).
#pragma once

#include "core/TileDetailsData.hpp"
#include "models/TableModel.hpp"

namespace tessera::viewer {

class TileComputeSetsModel : public RowsModel<TileComputeSetRow> {
public:
  enum Column { NameColumn, VerticesColumn, TypesColumn, TilesColumn };
  explicit TileComputeSetsModel(QObject* parent = nullptr);

protected:
  QVariant cell(const TileComputeSetRow& row, int column, int role) const override;
};

} // namespace tessera::viewer
