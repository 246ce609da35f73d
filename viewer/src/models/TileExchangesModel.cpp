// Exchange programs on the selected tiles as table rows.
#include "models/TileExchangesModel.hpp"

namespace tessera::viewer {

TileExchangesModel::TileExchangesModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Program"), tr("Type"), tr("Code"), tr("Tiles"), tr("Data moved")});
  setColumnTotals({Total::None, Total::None, Total::Bytes, Total::None, Total::Bytes});
}

QVariant TileExchangesModel::cell(const TileExchangeRow& row, int column, int role) const {
  switch (column) {
  case NameColumn:
    return textCell(row.name, role);
  case TypeColumn:
    return textCell(row.type, role);
  case CodeColumn:
    return bytesCell(row.codeBytes, role);
  case TilesColumn:
    return countCell(row.tiles, role);
  case DataColumn:
    return bytesCell(row.dataBytes, role);
  default:
    return {};
  }
}

} // namespace tessera::viewer
