// Lowered variables of the selected tiles as table rows.
#include "models/LoweredVariablesModel.hpp"

namespace tessera::viewer {

LoweredVariablesModel::LoweredVariablesModel(QObject* parent) : RowsModel(parent) {
  setHeaders(
      {tr("Tile"), tr("Variable"), tr("Size"), tr("Address"), tr("Category"), tr("Always live")});
  setColumnTotals({Total::None, Total::None, Total::Bytes});
}

void LoweredVariablesModel::setDetails(std::shared_ptr<const TileDetailsData> details) {
  details_ = details;
  setRows(details
              ? std::shared_ptr<const std::vector<TileVariableRow>>(details, &details->variables)
              : nullptr);
}

QVariant LoweredVariablesModel::cell(const TileVariableRow& row, int column, int role) const {
  switch (column) {
  case TileColumn:
    return allTiles() ? textCell(tr("all"), role) : idCell(row.tile, role);
  case NameColumn:
    return textCell(row.name, role);
  case SizeColumn:
    return bytesCell(row.bytes, role);
  case OffsetColumn:
    if (allTiles()) return {};
    if (role == Qt::DisplayRole)
      return QStringLiteral("0x%1").arg(row.offset, 5, 16, QLatin1Char('0'));
    if (role == Qt::ToolTipRole)
      return tr("%1 bytes from the start of the tile's memory, aligned to %2")
          .arg(row.offset)
          .arg(row.alignment);
    if (role == SortRole) return QVariant::fromValue<qulonglong>(row.offset);
    if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
  case CategoryColumn:
    return textCell(row.category, role);
  case AlwaysLiveColumn:
    return textCell(row.alwaysLive ? tr("yes") : tr("no"), role);
  default:
    return {};
  }
}

} // namespace tessera::viewer
