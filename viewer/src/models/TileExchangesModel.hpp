// Exchange programs (DoExchange, GlobalExchange, stream copies) with code on the selected tiles:
// code bytes there, tiles, and the bytes each moves.
//
// Threads: GUI thread, over immutable rows. Cost: data() is O(1).
#pragma once

#include "core/TileDetailsData.hpp"
#include "models/TableModel.hpp"

namespace tessera::viewer {

class TileExchangesModel : public RowsModel<TileExchangeRow> {
public:
  enum Column { NameColumn, TypeColumn, CodeColumn, TilesColumn, DataColumn };
  explicit TileExchangesModel(QObject* parent = nullptr);

protected:
  QVariant cell(const TileExchangeRow& row, int column, int role) const override;
};

} // namespace tessera::viewer
