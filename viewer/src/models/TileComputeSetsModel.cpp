// Compute sets on the selected tiles as table rows.
#include "models/TileComputeSetsModel.hpp"

namespace tessera::viewer {

TileComputeSetsModel::TileComputeSetsModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Compute set"), tr("Vertices"), tr("Vertex types"), tr("Tiles")});
  setColumnTotals({Total::None, Total::Count});
}

QVariant TileComputeSetsModel::cell(const TileComputeSetRow& row, int column, int role) const {
  switch (column) {
  case NameColumn:
    return textCell(row.name, role);
  case VerticesColumn:
    return countCell(row.vertices, role);
  case TypesColumn:
    return countCell(row.types, role);
  case TilesColumn:
    return countCell(row.tiles, role);
  default:
    return {};
  }
}

} // namespace tessera::viewer
