// Shared cell formatting of the flat tables, and re-formatting when the memory units change.
#include "models/TableModel.hpp"

#include "core/Format.hpp"
#include "core/Settings.hpp"

namespace tessera::viewer {

TableModel::TableModel(QObject* parent) : QAbstractTableModel(parent) {
  connect(&Settings::instance(), &Settings::changed, this, [this] {
    if (rowCount() > 0 && columnCount() > 0)
      emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
  });
}

int TableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(headers_.size());
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= headers_.size()) return {};
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole) return headers_[section];
  if (role == TotalRole)
    return int(std::size_t(section) < totals_.size() ? totals_[std::size_t(section)] : Total::None);
  return {};
}

QVariant TableModel::bytesCell(std::uint64_t bytes, int role) {
  switch (role) {
  case Qt::DisplayRole:
    return formatBytes(bytes, Settings::instance().memoryUnits());
  case Qt::ToolTipRole:
    return formatCount(bytes) + QStringLiteral(" B");
  case SortRole:
    return QVariant::fromValue<qulonglong>(bytes);
  case Qt::TextAlignmentRole:
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  default:
    return {};
  }
}

QVariant TableModel::bytesDeltaCell(std::int64_t bytes, int role) {
  switch (role) {
  case Qt::DisplayRole:
    return formatBytesDelta(bytes, Settings::instance().memoryUnits());
  case SortRole:
    return QVariant::fromValue<qlonglong>(bytes);
  case Qt::TextAlignmentRole:
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  default:
    return {};
  }
}

QVariant TableModel::idCell(std::uint64_t id, int role) {
  if (role == Qt::DisplayRole) return QString::number(id);
  return countCell(id, role); // sorted and aligned as a number
}

QVariant TableModel::countCell(std::uint64_t n, int role) {
  switch (role) {
  case Qt::DisplayRole:
    return formatCount(n);
  case SortRole:
    return QVariant::fromValue<qulonglong>(n);
  case Qt::TextAlignmentRole:
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  default:
    return {};
  }
}

QVariant TableModel::textCell(const QString& text, int role) {
  switch (role) {
  case Qt::DisplayRole:
  case Qt::ToolTipRole:
  case SortRole:
    return text;
  default:
    return {};
  }
}

} // namespace tessera::viewer
