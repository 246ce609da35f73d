// Rows derived once per setFigures(); data() only formats them.
#include "models/RunFiguresModel.hpp"

#include "core/Format.hpp"

#include <cmath>

namespace tessera::viewer {

RunFiguresModel::RunFiguresModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunFiguresModel::setFigures(std::shared_ptr<const ExecutionFigures> figures, int run) {
  beginResetModel();
  figures_ = std::move(figures);
  rows_.clear();
  scope_.clear();
  compare_ = figures_ && figures_->base;
  const pva::SpanFigures* cur =
      figures_ ? ExecutionFigures::span(*figures_->current, run) : nullptr;
  const pva::SpanFigures* base = compare_ ? ExecutionFigures::span(*figures_->base, run) : nullptr;
  if (cur || base) {
    scope_ = ExecutionFigures::describe(cur ? *cur : *base);
    using F = std::optional<double>;
    auto of = [](const pva::SpanFigures* s, auto get) { return s ? F(double(get(*s))) : F(); };
    auto add = [&](const QString& name, bool fraction, auto get) {
      rows_.push_back({name, fraction, of(cur, get), of(base, get)});
    };
    // The length is the one figure of a run's cycles shown everywhere (Summary, run list); the
    // sum of each step's slowest IPU counts again the cycles where IPUs overlap (a pipeline), so
    // it is labelled as what it sums.
    add(tr("Length (cycles)"), false, [](const pva::SpanFigures& s) { return s.lengthCycles; });
    add(tr("Σ steps' slowest IPU (cycles)"), false,
        [](const pva::SpanFigures& s) { return s.cycles; });
    add(tr("Steps"), false, [](const pva::SpanFigures& s) { return s.steps; });
    add(tr("Parallel efficiency"), true,
        [](const pva::SpanFigures& s) { return s.parallelEfficiency; });
    add(tr("Tile balance"), true, [](const pva::SpanFigures& s) { return s.tileBalance; });
    // Stream-copy steps' cycles (each at its slowest IPU) by what they copy to or from; mixed and
    // unknown (a report before format 1.3) only when some are.
    add(tr("Stream copies: host (cycles)"), false,
        [](const pva::SpanFigures& s) { return s.streamCopyCycles.host; });
    add(tr("Stream copies: remote buffers (cycles)"), false,
        [](const pva::SpanFigures& s) { return s.streamCopyCycles.remoteBuffer; });
    auto any = [&](auto get) { return (cur && get(*cur) > 0) || (base && get(*base) > 0); };
    const auto mixed = [](const pva::SpanFigures& s) { return s.streamCopyCycles.mixed; };
    const auto unknown = [](const pva::SpanFigures& s) { return s.streamCopyCycles.unknown; };
    if (any(mixed)) add(tr("Stream copies: host and remote buffers (cycles)"), false, mixed);
    if (any(unknown)) add(tr("Stream copies: destination unknown (cycles)"), false, unknown);
  }
  endResetModel();
}

int RunFiguresModel::rowOf(const QString& name) const {
  for (std::size_t i = 0; i < rows_.size(); ++i)
    if (rows_[i].name == name) return int(i);
  return -1;
}

int RunFiguresModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}

int RunFiguresModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : (compare_ ? 4 : 2);
}

QVariant RunFiguresModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const Row& r = rows_[std::size_t(index.row())];
  const int col = !compare_ && index.column() == 1 ? int(ValueColumn) : index.column();
  const std::optional<double> change =
      r.value && r.base ? std::optional<double>(*r.value - *r.base) : std::nullopt;
  const std::optional<double> shown = col == ValueColumn    ? r.value
                                      : col == BaseColumn   ? r.base
                                      : col == ChangeColumn ? change
                                                            : std::nullopt;
  if (role == NumberRole) return shown ? QVariant(*shown) : QVariant();
  if (role == Qt::TextAlignmentRole)
    return col == NameColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  if (col == NameColumn) return r.name;
  if (!shown) return col == ChangeColumn ? QString() : QStringLiteral("—");
  if (col == ChangeColumn) {
    if (r.fraction) return (*shown > 0 ? QStringLiteral("+") : QString()) + formatPercent(*shown);
    QString s = formatCountDelta(std::llround(*shown));
    if (*r.base != 0)
      s += QStringLiteral(" (%1%2)").arg(*shown > 0 ? QStringLiteral("+") : QString(),
                                         formatPercent(*shown / *r.base));
    return s;
  }
  return r.fraction ? formatPercent(*shown) : formatCount(std::uint64_t(std::llround(*shown)));
}

QVariant RunFiguresModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  if (!compare_ && section == 1) return tr("Value");
  switch (section) {
  case NameColumn:
    return tr("Figure");
  case ValueColumn:
    return tr("Current");
  case BaseColumn:
    return tr("Base");
  case ChangeColumn:
    return tr("Change");
  default:
    return {};
  }
}

} // namespace tessera::viewer
