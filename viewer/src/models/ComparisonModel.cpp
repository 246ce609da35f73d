// Formatting of ComparisonData (index arithmetic in SectionTreeModel).
#include "models/ComparisonModel.hpp"

#include "core/Format.hpp"
#include "core/RunBasisText.hpp"
#include "core/Settings.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace tessera::viewer {

ComparisonModel::ComparisonModel(QObject* parent) : SectionTreeModel(parent) {
  connect(&Settings::instance(), &Settings::changed, this,
          [this] { valuesChanged(BaseColumn, DeltaColumn); });
}

void ComparisonModel::setData(std::shared_ptr<const ComparisonData> data) {
  beginResetModel();
  data_ = std::move(data);
  endResetModel();
}

int ComparisonModel::sectionCount() const {
  return data_ ? int(data_->sections.size()) : 0;
}

int ComparisonModel::rowsInSection(int section) const {
  return int(data_->sections[std::size_t(section)].rows.size());
}

int ComparisonModel::columnCount(const QModelIndex&) const {
  return ColumnCount;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
  if (!data_ || !index.isValid()) return {};
  if (isSection(index)) {
    const ComparisonSection& s = data_->sections[std::size_t(index.row())];
    if (role == Qt::DisplayRole && index.column() == NameColumn)
      return s.rowsHidden ? s.title + tr(" — rows by name left out: unrelated reports") : s.title;
    if (role == Qt::FontRole) {
      QFont f;
      f.setBold(true);
      return f;
    }
    return {};
  }
  const ComparisonSection& s = data_->sections[std::size_t(sectionOf(index))];
  const ComparisonRow& r = s.rows[std::size_t(index.row())];
  const MemoryUnits units = Settings::instance().memoryUnits();
  const bool text = r.unit == ComparisonRow::Unit::Text,
             bytes = r.unit == ComparisonRow::Unit::Bytes;
  const bool target = s.title == compare_sections::targets;
  auto value = [&](std::uint64_t v) { return bytes ? formatBytes(v, units) : formatCount(v); };
  switch (role) {
  case DeltaRole:
    if (!text && (!r.inBoth() || !r.comparable)) return {}; // no change to sort or filter by
    return QVariant::fromValue<qlonglong>(text ? (r.differs() ? 1 : 0) : r.delta());
  case TotalRole:
    return r.total;
  case Qt::TextAlignmentRole:
    return index.column() == NameColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  case Qt::FontRole:
    if (r.total || (target && r.differs())) {
      QFont f;
      f.setBold(true);
      return f;
    }
    return {};
  case Qt::ForegroundRole:
    // A target that differs is a warning whatever its direction; other rows: growth is a cost.
    if (target)
      return r.differs() && index.column() >= DeltaColumn ? QBrush(QColor(0xc0, 0x6a, 0x00))
                                                          : QVariant();
    // Missing from one side, or not comparable: no change, so no colour of one.
    if (!r.inBoth() || !r.comparable) return {};
    if ((index.column() == DeltaColumn || index.column() == RelativeColumn) && r.delta() != 0)
      return QBrush(r.delta() > 0 ? QColor(0xd0, 0x3a, 0x3a) : QColor(0x2e, 0x9a, 0x4a));
    return {};
  case Qt::ToolTipRole:
    if (index.column() == NameColumn) return r.name;
    if ((index.column() == DeltaColumn || index.column() == RelativeColumn) && r.inBoth())
      return perRunTip(r.basis, {r.base, r.current});
    return {};
  case Qt::DisplayRole:
    switch (index.column()) {
    case NameColumn:
      return r.name;
    case BaseColumn:
      if (text) return r.baseText;
      return r.inBase ? value(r.base) : QStringLiteral("missing");
    case CurrentColumn:
      if (text) return r.currentText;
      return r.inCurrent ? value(r.current) : QStringLiteral("missing");
    case DeltaColumn:
      // Targets: only what differs is worth a mark; "0" on every equal property is noise.
      if (text || (target && !r.differs()))
        return r.differs() ? QStringLiteral("differs") : QString();
      if (!r.inBoth())
        return r.inBase ? QStringLiteral("missing in current") : QStringLiteral("missing in base");
      if (!r.comparable) return r.comparisonNote;
      return (bytes ? formatBytesDelta(r.delta(), units) : formatCountDelta(r.delta())) +
             perRunSuffix(r.basis);
    case RelativeColumn:
      if (text || (target && !r.differs()) || !r.inBoth() || !r.comparable) return QString();
      if (r.base == 0) return r.current == 0 ? QStringLiteral("0.0 %") : QStringLiteral("new");
      return (r.delta() > 0 ? QStringLiteral("+") : QString()) + formatPercent(r.relative()) +
             perRunSuffix(r.basis);
    default:
      return {};
    }
  default:
    return {};
  }
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case NameColumn:
    return tr("Name");
  case BaseColumn:
    return tr("Base");
  case CurrentColumn:
    return tr("Current");
  case DeltaColumn:
    return tr("Difference");
  case RelativeColumn:
    return tr("Change");
  default:
    return {};
  }
}

} // namespace tessera::viewer
