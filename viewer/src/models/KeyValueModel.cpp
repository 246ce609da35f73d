// Name/value rows for details panels.
#include "models/KeyValueModel.hpp"

namespace tessera::viewer {

void KeyValueModel::setRows(Rows rows) {
  beginResetModel();
  rows_ = std::move(rows);
  endResetModel();
}

QString KeyValueModel::value(const QString& name) const {
  for (const auto& [k, v] : rows_)
    if (k == name) return v;
  return {};
}

int KeyValueModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}
int KeyValueModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : 2;
}

QVariant KeyValueModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::ToolTipRole)) return {};
  const auto& row = rows_[std::size_t(index.row())];
  return index.column() == 0 ? row.first : row.second;
}

QVariant KeyValueModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == 0 ? tr("Name") : tr("Value");
}

} // namespace tessera::viewer
