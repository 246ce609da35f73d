// Vertex types on the selected tiles (Memory page) or in a step's compute set (Liveness page):
// instances, state bytes, code bytes (once per tile holding the type) and tiles.
//
// Threads: GUI thread, over immutable rows. Cost: data() is O(1).
#pragma once

#include "core/TileDetailsData.hpp"
#include "models/TableModel.hpp"

namespace tessera::viewer {

class TileVerticesModel : public RowsModel<TileVertexRow> {
public:
  enum Column { NameColumn, CountColumn, StateColumn, CodeColumn, TilesColumn };
  explicit TileVerticesModel(QObject* parent = nullptr);

protected:
  QVariant cell(const TileVertexRow& row, int column, int role) const override;
};

} // namespace tessera::viewer
