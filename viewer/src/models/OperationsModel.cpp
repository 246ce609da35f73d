// Filtering, sorting and formatting of the Operations table.
#include "models/OperationsModel.hpp"

#include "core/Format.hpp"
#include "core/RunBasisText.hpp"
#include "core/Settings.hpp"

#include <QBrush>
#include <QColor>
#include <algorithm>
#include <limits>
#include <map>
#include <pva/Compare.hpp>

namespace tessera::viewer {

OperationsModel::OperationsModel(QObject* parent) : QAbstractTableModel(parent) {
  connect(&Settings::instance(), &Settings::changed, this, [this] {
    if (!rows_.empty())
      emit dataChanged(index(0, AlwaysLiveColumn), index(rowCount() - 1, ColumnCount - 1));
  });
}

void OperationsModel::setData(std::shared_ptr<const OperationsData> data) {
  data_ = std::move(data);
  rebuild();
}

void OperationsModel::setLayer(const QString& layer) {
  layer_ = layer;
  rebuild();
}

void OperationsModel::setTextFilter(const QString& text) {
  text_ = text;
  rebuild();
}

void OperationsModel::rebuild() {
  beginResetModel();
  rows_.clear();
  if (data_)
    for (std::size_t i = 0; i < data_->operations.size(); ++i) {
      const OperationInfo& op = data_->operations[i];
      if (!layer_.isEmpty() && op.layer != layer_) continue;
      if (!text_.isEmpty() && !op.name.contains(text_, Qt::CaseInsensitive) &&
          !op.type.contains(text_, Qt::CaseInsensitive))
        continue;
      rows_.push_back(i);
    }
  endResetModel();
  sort(sortColumn_, sortOrder_);
}

const OperationInfo* OperationsModel::operationAt(int row) const {
  if (!data_ || row < 0 || row >= int(rows_.size())) return nullptr;
  return &data_->operations[rows_[std::size_t(row)]];
}

QString flopsTip(const OperationInfo& op) {
  if (!op.estimatedFlops)
    return OperationsModel::tr(
        "No estimate: the report was written without profiler.includeFlopEstimates");
  if (op.verticesWithoutFlopEstimate)
    return OperationsModel::tr(
               "At least this many: %1 vertices (user codelets) have no FLOP estimate")
        .arg(formatCount(op.verticesWithoutFlopEstimate));
  return OperationsModel::tr("Estimated FLOPs of one execution of each of its compute sets");
}

namespace {

/// Totals of some operations (see OperationsModel::totals).
OperationInfo totalsOf(const std::vector<const OperationInfo*>& ops, bool hasFlopEstimates) {
  OperationInfo t;
  if (hasFlopEstimates) t.estimatedFlops = 0;
  for (const OperationInfo* op : ops) {
    t.executedCycles += op->executedCycles;
    t.estimatedCycles += op->estimatedCycles;
    t.alwaysLiveBytes += op->alwaysLiveBytes;
    t.codeBytes += op->codeBytes;
    t.vertices += op->vertices;
    t.exchangeBytes += op->exchangeBytes;
    if (op->estimatedFlops) t.estimatedFlops = t.estimatedFlops.value_or(0) + *op->estimatedFlops;
    t.verticesWithoutFlopEstimate += op->verticesWithoutFlopEstimate;
  }
  // Not a sum: variables of different operations whose lives do not meet share addresses.
  t.notAlwaysLiveBytes = peakNotAlwaysLiveBytes(ops);
  return t;
}

} // namespace

OperationInfo OperationsModel::totals() const {
  std::vector<const OperationInfo*> shown;
  if (!data_) return {};
  for (std::size_t r : rows_)
    shown.push_back(&data_->operations[r]);
  return totalsOf(shown, data_->hasFlopEstimates);
}

std::vector<LayerTotals> OperationsModel::layerTotals() const {
  std::vector<LayerTotals> out;
  if (!data_) return out;
  std::map<QString, std::vector<const OperationInfo*>> byLayer;
  for (std::size_t r : rows_)
    byLayer[data_->operations[r].layer].push_back(&data_->operations[r]);
  for (const auto& [layer, ops] : byLayer)
    out.push_back({layer, ops.size(), totalsOf(ops, data_->hasFlopEstimates)});
  return out;
}

int OperationsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}
int OperationsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

namespace {

/// A figure in the base and the current report (pva::ComparedValue's arithmetic).
pva::ComparedValue compared(const OperationInfo& op, int column) {
  const OperationInfo::Change& c = *op.change;
  switch (column) {
  case OperationsModel::BaseExecutedColumn:
  case OperationsModel::ExecutedDeltaColumn:
    return {c.executedCycles, op.executedCycles};
  case OperationsModel::BaseAlwaysLiveColumn:
  case OperationsModel::AlwaysLiveDeltaColumn:
    return {c.alwaysLiveBytes, op.alwaysLiveBytes};
  default:
    return {c.codeBytes, op.codeBytes};
  }
}

bool isDeltaColumn(int column) {
  return column == OperationsModel::ExecutedDeltaColumn ||
         column == OperationsModel::AlwaysLiveDeltaColumn ||
         column == OperationsModel::CodeDeltaColumn;
}

/// The current report's figure columns, which say "missing" for an operation only the base has.
bool isCurrentFigure(int column) {
  return column >= OperationsModel::ExecutedColumn && column <= OperationsModel::StepsColumn;
}

} // namespace

pva::RunBasis OperationsModel::basisOf(int column) const {
  // Executed cycles sum over all runs; memory and code are the compiled program's.
  return data_ && column == ExecutedDeltaColumn ? data_->basis : pva::RunBasis();
}

std::int64_t OperationsModel::deltaOf(int column, const pva::ComparedValue& v) const {
  return roundedDelta(basisOf(column), v);
}

QVariant OperationsModel::sortValue(const OperationInfo& op, int column) const {
  if (isCompareColumn(column)) {
    if (!op.change) return {};
    const pva::ComparedValue v = compared(op, column);
    if (!isDeltaColumn(column))
      return op.change->inBase ? QVariant::fromValue<qulonglong>(v.base) : QVariant();
    // Missing on one side is not a change: such rows sort below every change.
    if (!op.change->inBase || !op.change->inCurrent)
      return QVariant::fromValue<qlonglong>(std::numeric_limits<qlonglong>::min());
    return QVariant::fromValue<qlonglong>(deltaOf(column, v));
  }
  switch (column) {
  case NameColumn:
    return op.name;
  case TypeColumn:
    return op.type;
  case LayerColumn:
    return op.layer;
  case ExecutedColumn:
    return QVariant::fromValue<qulonglong>(op.executedCycles);
  case EstimatedColumn:
    return QVariant::fromValue<qulonglong>(op.estimatedCycles);
  case AlwaysLiveColumn:
    return QVariant::fromValue<qulonglong>(op.alwaysLiveBytes);
  case NotAlwaysLiveColumn:
    return QVariant::fromValue<qulonglong>(op.notAlwaysLiveBytes);
  case CodeColumn:
    return QVariant::fromValue<qulonglong>(op.codeBytes);
  case VerticesColumn:
    return QVariant::fromValue<qulonglong>(op.vertices);
  case ExchangeColumn:
    return QVariant::fromValue<qulonglong>(op.exchangeBytes);
  // No estimate sorts below every estimate (-1), and is not shown as a 0.
  case FlopsColumn:
    return op.estimatedFlops ? QVariant::fromValue<qlonglong>(qlonglong(*op.estimatedFlops))
                             : QVariant::fromValue<qlonglong>(-1);
  case ProgramsColumn:
    return QVariant::fromValue<qulonglong>(op.programs.size());
  case StepsColumn:
    return QVariant::fromValue<qlonglong>(op.firstStep);
  default:
    return {};
  }
}

QVariant OperationsModel::data(const QModelIndex& index, int role) const {
  const OperationInfo* op = index.isValid() ? operationAt(index.row()) : nullptr;
  if (!op) return {};
  if (role == SortRole) return sortValue(*op, index.column());
  if (role == Qt::TextAlignmentRole && index.column() >= ExecutedColumn)
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && index.column() == NameColumn) return op->debugPath;
  if (role == Qt::ToolTipRole && index.column() == FlopsColumn) return flopsTip(*op);
  const MemoryUnits units = Settings::instance().memoryUnits();
  if (op->change &&
      (isCompareColumn(index.column()) || (op->onlyInBase() && isCurrentFigure(index.column()))))
    return compareData(*op, index.column(), role, units);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
  case NameColumn:
    return op->name;
  case TypeColumn:
    return op->type;
  case LayerColumn:
    return op->layer;
  case ExecutedColumn:
    return formatCount(op->executedCycles);
  case EstimatedColumn:
    return formatCount(op->estimatedCycles);
  case AlwaysLiveColumn:
    return formatBytes(op->alwaysLiveBytes, units);
  case NotAlwaysLiveColumn:
    return formatBytes(op->notAlwaysLiveBytes, units);
  case CodeColumn:
    return formatBytes(op->codeBytes, units);
  case VerticesColumn:
    return formatCount(op->vertices);
  case ExchangeColumn:
    return formatBytes(op->exchangeBytes, units);
  case FlopsColumn:
    return formatFlops(op->estimatedFlops, op->verticesWithoutFlopEstimate);
  case ProgramsColumn:
    return formatCount(op->programs.size());
  case StepsColumn:
    if (op->firstStep < 0) return QStringLiteral("-");
    return QStringLiteral("%1 – %2").arg(op->firstStep).arg(op->lastStep);
  default:
    return {};
  }
}

QVariant OperationsModel::compareData(const OperationInfo& op, int column, int role,
                                      MemoryUnits units) const {
  const OperationInfo::Change& c = *op.change;
  const bool oneSide = !c.inBase || !c.inCurrent;
  if (role == Qt::ForegroundRole) {
    if (oneSide) return QBrush(QColor(0x80, 0x80, 0x80));
    const std::int64_t d = deltaOf(column, compared(op, column));
    if (isDeltaColumn(column) && d != 0)
      return QBrush(d > 0 ? QColor(0xd0, 0x3a, 0x3a) : QColor(0x2e, 0x9a, 0x4a));
    return {};
  }
  if (role == Qt::ToolTipRole && isDeltaColumn(column) && !oneSide)
    return perRunTip(basisOf(column), compared(op, column));
  if (role != Qt::DisplayRole) return {};
  if (!isCompareColumn(column))
    return tr("missing"); // a current figure of an operation only the base has
  const pva::ComparedValue v = compared(op, column);
  const bool bytes = column != BaseExecutedColumn && column != ExecutedDeltaColumn;
  if (!isDeltaColumn(column))
    return c.inBase ? (bytes ? formatBytes(v.base, units) : formatCount(v.base)) : tr("missing");
  if (!c.inBase) return tr("new");
  if (!c.inCurrent) return tr("missing in current");
  const std::int64_t d = deltaOf(column, v);
  return (bytes ? formatBytesDelta(d, units) : formatCountDelta(d)) + perRunSuffix(basisOf(column));
}

QVariant OperationsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  static const char* const names[] = {"Operation",
                                      "Type",
                                      "Layer",
                                      "Cycles (all runs)",
                                      "Estimate (each step once)",
                                      "Always live",
                                      "Live at its peak",
                                      "Code",
                                      "Vertices",
                                      "Exchanged",
                                      "FLOPs (estimate)",
                                      "Programs",
                                      "Steps",
                                      "Cycles (base)",
                                      "Cycles Δ",
                                      "Always live (base)",
                                      "Always live Δ",
                                      "Code (base)",
                                      "Code Δ"};
  static const char* const tips[] = {
      "The operation's name (its debug context)",
      "The operation type (PopLibs op or user context)",
      "The software layer that made it",
      "Cycles of its steps in the execution, slowest IPU, all runs",
      "Compile-time estimate, slowest tile per step, summed",
      "Bytes of its always-live variables",
      "The most bytes of its not-always-live variables live at one step (at most the report's "
      "liveness peak)",
      "Control and exchange code of its programs, all tiles (vertex code is shared between "
      "operations)",
      "Vertices of the compute sets it runs",
      "Bytes its exchanges and stream copies move, each once",
      "Compile-time estimate of the floating-point operations of its compute sets, each run once "
      "(engine option profiler.includeFlopEstimates; — when the report has no estimates)",
      "Programs it made",
      "First and last liveness step of its programs",
      "Cycles (all runs) in the base report",
      "Cycles in the current report minus the base's",
      "Always-live bytes in the base report",
      "Always-live bytes in the current report minus the base's",
      "Code bytes in the base report",
      "Code bytes in the current report minus the base's"};
  static_assert(sizeof names / sizeof *names == ColumnCount &&
                    sizeof tips / sizeof *tips == ColumnCount,
                "a title and a tip for every column");
  if (section < 0 || section >= ColumnCount) return {};
  // Comparing, the figures without "(base)" are the current report's.
  if (role == Qt::DisplayRole && data_ && data_->compared &&
      (section == ExecutedColumn || section == AlwaysLiveColumn || section == CodeColumn))
    return tr(names[section]) + tr(" (current)");
  // Reports with different numbers of runs: the cycles' change is per run (pva::RunBasis).
  if (section == ExecutedDeltaColumn && data_ && data_->basis.perRun()) {
    if (role == Qt::DisplayRole) return tr(names[section]) + tr(" per run");
    if (role == Qt::ToolTipRole)
      return tr("Cycles per run in the current report minus the base's: the base ran %1 runs, "
                "the current %2, so each report's cycles are divided by its runs")
          .arg(data_->basis.baseRuns)
          .arg(data_->basis.currentRuns);
  }
  if (role == Qt::DisplayRole) return tr(names[section]);
  if (role == Qt::ToolTipRole) return tr(tips[section]);
  return {};
}

void OperationsModel::sort(int column, Qt::SortOrder order) {
  if (column < 0 || column >= ColumnCount) return;
  sortColumn_ = column;
  sortOrder_ = order;
  if (!data_ || rows_.empty()) return;
  emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
  const QModelIndexList before = persistentIndexList();
  std::vector<std::size_t> oldRows = rows_;
  std::stable_sort(rows_.begin(), rows_.end(), [&](std::size_t a, std::size_t b) {
    const QVariant va = sortValue(data_->operations[a], column),
                   vb = sortValue(data_->operations[b], column);
    const auto c = QVariant::compare(va, vb);
    return order == Qt::AscendingOrder ? c == QPartialOrdering::Less
                                       : c == QPartialOrdering::Greater;
  });
  // Persistent indexes (the view's selection) follow their operation.
  QModelIndexList after;
  for (const QModelIndex& idx : before) {
    const std::size_t op = oldRows[std::size_t(idx.row())];
    const auto it = std::find(rows_.begin(), rows_.end(), op);
    after << index(int(it - rows_.begin()), idx.column());
  }
  changePersistentIndexList(before, after);
  emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace tessera::viewer
