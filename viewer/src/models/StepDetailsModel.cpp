// Index arithmetic over StepDetails::fields: row i is field i.
#include "models/StepDetailsModel.hpp"

#include "core/Settings.hpp"

namespace tessera::viewer {

StepDetailsModel::StepDetailsModel(QObject* parent) : QAbstractTableModel(parent) {
  connect(&Settings::instance(), &Settings::changed, this, [this] {
    if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
  });
}

void StepDetailsModel::setDetails(std::shared_ptr<const StepDetails> details) {
  beginResetModel();
  details_ = std::move(details);
  endResetModel();
}

QString StepDetailsModel::value(const QString& name) const {
  for (int r = 0; r < rowCount(); ++r)
    if (details_->fields[std::size_t(r)].name == name)
      return data(index(r, ValueColumn)).toString();
  return {};
}

int StepDetailsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !details_ ? 0 : int(details_->fields.size());
}

int StepDetailsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant StepDetailsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
      !details_)
    return {};
  const StepDetails::Field& f = details_->fields[std::size_t(index.row())];
  switch (role) {
  case Qt::DisplayRole:
  case Qt::ToolTipRole:
    if (index.column() == NameColumn) return f.name;
    switch (f.kind) {
    case StepDetails::Field::Text:
      return f.value.toString();
    case StepDetails::Field::Count:
      return formatCount(f.value.toULongLong());
    case StepDetails::Field::Fraction:
      return formatPercent(f.value.toDouble());
    case StepDetails::Field::Bytes:
      return formatBytes(f.value.toULongLong(), Settings::instance().memoryUnits());
    }
    return {};
  case RawRole:
    return index.column() == ValueColumn ? f.value : QVariant(f.name);
  case Qt::TextAlignmentRole:
    if (index.column() == ValueColumn && f.kind != StepDetails::Field::Text)
      return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
  default:
    return {};
  }
}

QVariant StepDetailsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == NameColumn ? tr("Property") : section == ValueColumn ? tr("Value") : QVariant();
}

} // namespace tessera::viewer
