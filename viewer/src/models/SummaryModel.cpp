// The Summary tree over SummaryData (index arithmetic in SectionTreeModel).
#include "models/SummaryModel.hpp"

#include "core/RunBasisText.hpp"
#include "core/Settings.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <cmath>

namespace tessera::viewer {

SummaryModel::SummaryModel(QObject* parent) : SectionTreeModel(parent) {
  // Bytes are formatted in the current units: values re-read when they change.
  connect(&Settings::instance(), &Settings::changed, this, [this] {
    if (data_ && data_->compared)
      valuesChanged(BaseColumn, DeltaColumn);
    else
      valuesChanged(ValueColumn, ValueColumn);
  });
}

void SummaryModel::setData(std::shared_ptr<const SummaryData> data) {
  beginResetModel();
  data_ = std::move(data);
  endResetModel();
}

int SummaryModel::sectionCount() const {
  return data_ ? int(data_->sections.size()) : 0;
}

int SummaryModel::rowsInSection(int section) const {
  return int(data_->sections[std::size_t(section)].rows.size());
}

int SummaryModel::columnCount(const QModelIndex&) const {
  return data_ && data_->compared ? int(CompareColumnCount) : int(ColumnCount);
}

namespace {

QString formatValue(const SummaryValue& v) {
  switch (v.kind) {
  case SummaryValue::Kind::Text:
    return v.text;
  case SummaryValue::Kind::Count:
    return formatCycles(v.number, v.clockHz); // a count unless it is cycles shown as time
  case SummaryValue::Kind::Bytes:
    return formatBytes(v.number, Settings::instance().memoryUnits());
  }
  return {};
}

} // namespace

QVariant SummaryModel::compareData(const SummaryRow& r, int column, int role) const {
  const bool number = r.value.kind != SummaryValue::Kind::Text ||
                      (!r.inCurrent && r.baseValue.kind != SummaryValue::Kind::Text);
  if (role == Qt::ToolTipRole && column == DeltaColumn && r.inBoth() && number && r.basis.perRun())
    return perRunTip(r.basis, {r.baseValue.number, r.value.number});
  switch (role) {
  case Qt::DisplayRole:
  case Qt::ToolTipRole:
    switch (column) {
    case NameColumn:
      return r.name;
    case BaseColumn:
      return r.inBase ? formatValue(r.baseValue) : tr("missing");
    case CurrentColumn:
      return r.inCurrent ? formatValue(r.value) : tr("missing");
    case CompareNoteColumn:
      // Each report's note (a file's size, a largest tile): one when they agree or one side
      // has none.
      if (!r.inBoth() || r.baseNote == r.note || r.baseNote.isEmpty()) return r.note;
      if (r.note.isEmpty()) return tr("base: %1").arg(r.baseNote);
      return tr("base: %1; current: %2").arg(r.baseNote, r.note);
    case DeltaColumn: {
      if (!r.inBase) return tr("missing in base");
      if (!r.inCurrent) return tr("missing in current");
      if (!r.comparable) return r.comparisonNote;
      if (!r.differs()) return tr("same");
      if (r.value.kind == SummaryValue::Kind::Text || r.baseValue.kind == SummaryValue::Kind::Text)
        return tr("differs");
      const std::int64_t d = r.delta();
      const QString amount = r.value.kind == SummaryValue::Kind::Bytes
                                 ? formatBytesDelta(d, Settings::instance().memoryUnits())
                                 : formatCountDelta(d);
      const double rel = r.relative();
      const QString perRun = perRunSuffix(r.basis);
      return std::isfinite(rel)
                 ? QStringLiteral("%1%2 (%3%4)")
                       .arg(amount, perRun, rel > 0 ? QStringLiteral("+") : QString(),
                            formatPercent(rel))
                 : amount + perRun;
    }
    default:
      return {};
    }
  case NumberRole:
    if (column == BaseColumn && r.inBase && r.baseValue.kind != SummaryValue::Kind::Text)
      return QVariant::fromValue<qulonglong>(r.baseValue.number);
    if (column == CurrentColumn && r.inCurrent && r.value.kind != SummaryValue::Kind::Text)
      return QVariant::fromValue<qulonglong>(r.value.number);
    return {};
  case DeltaRole:
    if (column == DeltaColumn && r.inBoth() && r.comparable &&
        r.value.kind != SummaryValue::Kind::Text && r.baseValue.kind != SummaryValue::Kind::Text)
      return QVariant::fromValue<qlonglong>(r.delta());
    return {};
  case Qt::TextAlignmentRole:
    if (column >= BaseColumn && column <= DeltaColumn && number)
      return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
  case Qt::FontRole:
    if (r.differs() || !r.inBoth()) { // what changed stands out
      QFont f;
      f.setBold(true);
      return f;
    }
    return {};
  case Qt::ForegroundRole:
    // Only the difference is coloured, and only a change of a number: more is amber (a cost to
    // look at; a count of runs or tiles is not better or worse), less blue.
    if (column == DeltaColumn && r.inBoth() && r.comparable && r.delta() != 0)
      return QBrush(r.delta() > 0 ? QColor(0xc0, 0x6a, 0x00) : QColor(0x1f, 0x6f, 0xb4));
    if (column == DeltaColumn && !r.inBoth()) return QBrush(QColor(0x80, 0x80, 0x80));
    return {};
  default:
    return {};
  }
}

QVariant SummaryModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !data_) return {};
  if (isSection(index)) {
    const SummarySection& s = data_->sections[std::size_t(index.row())];
    if (index.column() == NameColumn && role == Qt::DisplayRole) return s.title;
    // What the section's figures cover ("all runs, one replica"), beside its title.
    const int note = data_->compared ? int(CompareNoteColumn) : int(NoteColumn);
    if (index.column() == note && role == Qt::DisplayRole) return s.scope;
    if (role == Qt::FontRole) {
      QFont f;
      f.setBold(true);
      return f;
    }
    return {};
  }
  const SummaryRow& r =
      data_->sections[std::size_t(sectionOf(index))].rows[std::size_t(index.row())];
  if (data_->compared) return compareData(r, index.column(), role);
  switch (role) {
  case Qt::DisplayRole:
  case Qt::ToolTipRole:
    if (index.column() == NameColumn) return r.name;
    if (index.column() == NoteColumn) return r.note;
    switch (r.value.kind) {
    case SummaryValue::Kind::Text:
      return r.value.text;
    case SummaryValue::Kind::Count:
      return formatCycles(r.value.number, r.value.clockHz);
    case SummaryValue::Kind::Bytes:
      return formatBytes(r.value.number, Settings::instance().memoryUnits());
    }
    return {};
  case NumberRole:
    if (r.value.kind == SummaryValue::Kind::Text) return {};
    return QVariant::fromValue<qulonglong>(r.value.number);
  case Qt::TextAlignmentRole:
    if (index.column() == ValueColumn && r.value.kind != SummaryValue::Kind::Text)
      return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
  default:
    return {};
  }
}

QVariant SummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  if (data_ && data_->compared) switch (section) {
    case NameColumn:
      return tr("Name");
    case BaseColumn:
      return tr("Base");
    case CurrentColumn:
      return tr("Current");
    case DeltaColumn:
      return tr("Difference");
    case CompareNoteColumn:
      return tr("Notes");
    default:
      return {};
    }
  switch (section) {
  case NameColumn:
    return tr("Name");
  case ValueColumn:
    return tr("Value");
  case NoteColumn:
    return tr("Note");
  default:
    return {};
  }
}

} // namespace tessera::viewer
