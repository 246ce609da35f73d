// A two-level tree over SummaryData: the internal id of a value row is its section + 1 (0 marks
// a section row), so no index needs an object of its own.
#include "models/SummaryModel.hpp"

#include "core/Settings.hpp"

#include <QFont>

namespace tessera::viewer {

SummaryModel::SummaryModel(QObject* parent) : QAbstractItemModel(parent) {
  connect(&Settings::instance(), &Settings::changed, this, [this] {
    if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    for (int s = 0; s < rowCount(); ++s) {
      const QModelIndex section = index(s, 0);
      if (rowCount(section) > 0)
        emit dataChanged(index(0, 0, section), index(rowCount(section) - 1, ColumnCount - 1, section));
    }
  });
}

void SummaryModel::setData(std::shared_ptr<const SummaryData> data) {
  beginResetModel();
  m_data = std::move(data);
  endResetModel();
}

QModelIndex SummaryModel::index(int row, int column, const QModelIndex& parent) const {
  if (!hasIndex(row, column, parent)) return {};
  if (!parent.isValid()) return createIndex(row, column, quintptr(0));
  return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex SummaryModel::parent(const QModelIndex& child) const {
  if (!child.isValid() || child.internalId() == 0) return {};
  return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int SummaryModel::rowCount(const QModelIndex& parent) const {
  if (!m_data) return 0;
  if (!parent.isValid()) return int(m_data->sections.size());
  if (parent.internalId() != 0 || parent.column() != 0) return 0;
  return int(m_data->sections[std::size_t(parent.row())].rows.size());
}

int SummaryModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant SummaryModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !m_data) return {};
  if (index.internalId() == 0) {
    const SummarySection& s = m_data->sections[std::size_t(index.row())];
    if (index.column() == NameColumn && role == Qt::DisplayRole) return s.title;
    if (role == Qt::FontRole) {
      QFont f;
      f.setBold(true);
      return f;
    }
    return {};
  }
  const SummaryRow& r = m_data->sections[index.internalId() - 1].rows[std::size_t(index.row())];
  switch (role) {
  case Qt::DisplayRole:
  case Qt::ToolTipRole:
    if (index.column() == NameColumn) return r.name;
    if (index.column() == NoteColumn) return r.note;
    switch (r.value.kind) {
    case SummaryValue::Kind::Text: return r.value.text;
    case SummaryValue::Kind::Count: return formatCount(r.value.number);
    case SummaryValue::Kind::Bytes: return formatBytes(r.value.number, Settings::instance().memoryUnits());
    }
    return {};
  case NumberRole:
    if (r.value.kind == SummaryValue::Kind::Text) return {};
    return QVariant::fromValue<qulonglong>(r.value.number);
  case Qt::TextAlignmentRole:
    if (index.column() == ValueColumn && r.value.kind != SummaryValue::Kind::Text)
      return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
  default: return {};
  }
}

QVariant SummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case NameColumn: return tr("Name");
  case ValueColumn: return tr("Value");
  case NoteColumn: return tr("Note");
  default: return {};
  }
}

} // namespace tessera::viewer
