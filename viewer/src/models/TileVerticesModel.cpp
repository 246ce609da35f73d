// Vertex types as table rows.
#include "models/TileVerticesModel.hpp"

namespace tessera::viewer {

TileVerticesModel::TileVerticesModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Vertex type"), tr("Instances"), tr("State"), tr("Code"), tr("Tiles")});
  setColumnTotals({Total::None, Total::Count, Total::Bytes,
                   Total::Bytes}); // tiles hold several types: no total
}

QVariant TileVerticesModel::cell(const TileVertexRow& row, int column, int role) const {
  switch (column) {
  case NameColumn:
    return textCell(row.name, role);
  case CountColumn:
    return countCell(row.count, role);
  case StateColumn:
    return bytesCell(row.stateBytes, role);
  case CodeColumn:
    return bytesCell(row.codeBytes, role);
  case TilesColumn:
    return countCell(row.tiles, role);
  default:
    return {};
  }
}

} // namespace tessera::viewer
