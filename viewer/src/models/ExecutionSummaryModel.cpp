// Rows of the Summary tab derived once per snapshot; data() formats them.
#include "models/ExecutionSummaryModel.hpp"

#include "core/Format.hpp"

#include <QFont>
#include <algorithm>
#include <cmath>
#include <optional>

namespace tessera::viewer {

ExecutionSummaryModel::ExecutionSummaryModel(QObject* parent) : QAbstractTableModel(parent) {}

void ExecutionSummaryModel::setSnapshot(std::shared_ptr<const ExecutionSummarySnapshot> snapshot) {
  beginResetModel();
  snapshot_ = std::move(snapshot);
  rows_.clear();
  if (const ExecutionSummarySnapshot* s = snapshot_.get()) {
    auto opt = [&](double v) { return std::optional<double>(v); };
    const bool cmp = s->compare;
    const double total = double(s->current.total());
    // Every (step, IPU) pair's cycles: IPUs that run at the same time each count, so this is
    // not the run's length (the Figures panel's "Length"); the label says what it sums.
    rows_.push_back({tr("IPU cycles in view (Σ IPUs)"), false, opt(total),
                     cmp ? opt(double(s->base.total())) : std::nullopt, 0});
    for (int k = 0; k < kStepKinds; ++k) {
      const double v = double(s->current.cycles[std::size_t(k)]);
      const double b = double(s->base.cycles[std::size_t(k)]);
      if (v == 0 && (!cmp || b == 0) && StepKind(k) == StepKind::Other)
        continue; // no "Other" steps
      // "Compute steps": steps by kind, shares of the IPU cycles in view (the Summary's shares
      // are of tile cycles, a different denominator, and say so).
      rows_.push_back({QStringLiteral("  ") + tr("%1 steps").arg(stepKindName(StepKind(k))), false,
                       opt(v), cmp ? opt(b) : std::nullopt, total});
    }
    rows_.push_back({tr("Steps in view"), false, opt(double(s->current.steps)),
                     cmp ? opt(double(s->base.steps)) : std::nullopt, 0});
    rows_.push_back({tr("(Step, IPU) pairs in view"), false, opt(double(s->current.ipuSteps)),
                     cmp ? opt(double(s->base.ipuSteps)) : std::nullopt, 0});
    // No balance here: the run's tile balance and parallel efficiency (cycle-weighted, from
    // pva::analyseExecution) sit beside this table; an unweighted mean of the range would differ.
    const std::size_t runs = std::max(s->runs.size(), cmp ? s->baseRuns.size() : std::size_t(0));
    for (std::size_t r = 0; r < runs; ++r) {
      const ExecRunInfo* cur = r < s->runs.size() ? &s->runs[r] : nullptr;
      const ExecRunInfo* base = cmp && r < s->baseRuns.size() ? &s->baseRuns[r] : nullptr;
      const QString name = cur ? cur->name : base->name;
      rows_.push_back({tr("Run %1 (%2): cycles").arg(r).arg(name), false,
                       cur ? opt(double(cur->cycles)) : std::nullopt,
                       base ? opt(double(base->cycles)) : std::nullopt, 0});
      rows_.push_back({tr("Run %1 (%2): steps").arg(r).arg(name), false,
                       cur ? opt(double(cur->numSteps)) : std::nullopt,
                       base ? opt(double(base->numSteps)) : std::nullopt, 0});
    }
  }
  endResetModel();
}

int ExecutionSummaryModel::rowOf(const QString& name) const {
  for (std::size_t i = 0; i < rows_.size(); ++i)
    if (rows_[i].name.trimmed() == name) return int(i);
  return -1;
}

int ExecutionSummaryModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}

int ExecutionSummaryModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return snapshot_ && snapshot_->compare ? 5 : 3;
}

QVariant ExecutionSummaryModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const Row& r = rows_[std::size_t(index.row())];
  auto number = [&](double v) {
    return r.fraction ? formatPercent(v) : formatCount(std::uint64_t(std::llround(v)));
  };
  const int col = logical(index.column());
  if (role == NumberRole) {
    if (col == ValueColumn && r.value) return *r.value;
    if (col == BaseColumn && r.base) return *r.base;
    if (col == ChangeColumn && r.value && r.base) return *r.value - *r.base;
    return {};
  }
  if (role == Qt::TextAlignmentRole)
    return col == NameColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::FontRole && !r.name.startsWith(QLatin1Char(' ')) && col == NameColumn &&
      index.row() == 0) {
    QFont f;
    f.setBold(true);
    return f;
  }
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (col) {
  case NameColumn:
    return r.name;
  case ValueColumn:
    return r.value ? number(*r.value) : QStringLiteral("—");
  case ShareColumn:
    return r.shareOf > 0 && r.value ? formatPercent(*r.value / r.shareOf) : QString();
  case BaseColumn:
    return r.base ? number(*r.base) : QStringLiteral("—");
  case ChangeColumn: {
    if (!r.value || !r.base) return QString();
    const double d = *r.value - *r.base;
    if (r.fraction) return (d > 0 ? QStringLiteral("+") : QString()) + formatPercent(d);
    QString s = formatCountDelta(std::llround(d));
    if (*r.base != 0)
      s += QStringLiteral(" (%1%2)").arg(d > 0 ? QStringLiteral("+") : QString(),
                                         formatPercent(d / *r.base));
    return s;
  }
  default:
    return {};
  }
}

QVariant ExecutionSummaryModel::headerData(int section, Qt::Orientation orientation,
                                           int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  const bool cmp = compare();
  switch (logical(section)) {
  case NameColumn:
    return tr("Figure");
  case ValueColumn:
    return cmp ? tr("Current") : tr("Value");
  case ShareColumn:
    return tr("Share of\nIPU cycles in view"); // two lines: never clipped
  case BaseColumn:
    return tr("Base");
  case ChangeColumn:
    return tr("Change");
  default:
    return {};
  }
}

} // namespace tessera::viewer
