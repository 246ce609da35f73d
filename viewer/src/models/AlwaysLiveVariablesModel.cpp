// Always-live variables as table rows.
#include "models/AlwaysLiveVariablesModel.hpp"

namespace tessera::viewer {

AlwaysLiveVariablesModel::AlwaysLiveVariablesModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Variable"), tr("Size"), tr("Category")});
  setColumnTotals({Total::None, Total::Bytes});
}

QVariant AlwaysLiveVariablesModel::cell(const AlwaysLiveRow& row, int column, int role) const {
  switch (column) {
  case NameColumn:
    return textCell(row.name, role);
  case SizeColumn:
    return bytesCell(row.bytes, role);
  case CategoryColumn:
    return textCell(row.category, role);
  default:
    return {};
  }
}

} // namespace tessera::viewer
