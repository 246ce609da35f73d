// The Summary tree over SummaryData (index arithmetic in SectionTreeModel).
#include "models/SummaryModel.hpp"

#include "core/Settings.hpp"

#include <QFont>

namespace tessera::viewer {

SummaryModel::SummaryModel(QObject* parent) : SectionTreeModel(parent) {
  // Bytes are formatted in the current units: values re-read when they change.
  connect(&Settings::instance(), &Settings::changed, this, [this] { valuesChanged(ValueColumn, ValueColumn); });
}

void SummaryModel::setData(std::shared_ptr<const SummaryData> data) {
  beginResetModel();
  m_data = std::move(data);
  endResetModel();
}

int SummaryModel::sectionCount() const { return m_data ? int(m_data->sections.size()) : 0; }

int SummaryModel::rowsInSection(int section) const {
  return int(m_data->sections[std::size_t(section)].rows.size());
}

int SummaryModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant SummaryModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !m_data) return {};
  if (isSection(index)) {
    const SummarySection& s = m_data->sections[std::size_t(index.row())];
    if (index.column() == NameColumn && role == Qt::DisplayRole) return s.title;
    // What the section's figures cover ("all runs, one replica"), beside its title.
    if (index.column() == NoteColumn && role == Qt::DisplayRole) return s.scope;
    if (role == Qt::FontRole) {
      QFont f;
      f.setBold(true);
      return f;
    }
    return {};
  }
  const SummaryRow& r = m_data->sections[std::size_t(sectionOf(index))].rows[std::size_t(index.row())];
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
