// Cells of the job table: replicas as the half-open range the instance holds, cycles and memory
// as libpva gives them, the slowest/fastest mark.
#include "models/JobSummaryModel.hpp"

#include "core/Format.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace tessera::viewer {

JobSummaryModel::JobSummaryModel(QObject* parent) : RowsModel(parent) {
  setHeaders({tr("Instance"), tr("Replicas [offset, offset+n)"), tr("Total cycles (all runs)"),
              tr("Collectives (tile average cycles)"), tr("Collectives share"),
              tr("Memory (excl. gaps)"), tr("Slowest / fastest")});
}

void JobSummaryModel::setTable(std::shared_ptr<const JobTable> table, unsigned shown) {
  table_ = std::move(table);
  shown_ = shown;
  // The rows alias the table: no copy.
  setRows(table_ ? std::shared_ptr<const std::vector<pva::InstanceSummary>>(
                       table_, &table_->summary.instances)
                 : nullptr);
}

void JobSummaryModel::setShownInstance(unsigned shown) {
  shown_ = shown;
  if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

QString JobSummaryModel::mark(unsigned instance) const {
  if (!table_) return {};
  const pva::JobSummary& s = table_->summary;
  // Instances of equal cycles: none is slower (summarizeJob names the lowest index for both).
  if (s.numInstances > 1 && s.maxCycles == s.minCycles) return tr("all equal");
  const bool slowest = instance == s.slowestInstance, fastest = instance == s.fastestInstance;
  if (slowest && fastest) return tr("slowest and fastest");
  return slowest ? tr("slowest") : fastest ? tr("fastest") : QString();
}

QVariant JobSummaryModel::cell(const pva::InstanceSummary& r, int column, int role) const {
  if (role == Qt::FontRole && r.index == shown_) {
    QFont f;
    f.setBold(true);
    return f;
  }
  if (role == Qt::ToolTipRole && r.index == shown_)
    return tr("The instance every view shows (click another row to switch)");
  if (role == Qt::ToolTipRole) return tr("Click to show instance %1 in every view").arg(r.index);
  switch (column) {
  case InstanceColumn:
    return idCell(r.index, role);
  case ReplicasColumn:
    if (role == SortRole) return qulonglong(r.replicaOffset);
    return textCell(QStringLiteral("[%1, %2)  (%3)")
                        .arg(r.replicaOffset)
                        .arg(r.replicaOffset + r.replicas)
                        .arg(r.replicas),
                    role);
  case CyclesColumn:
    if (!r.profiled) return textCell(tr("not profiled"), role);
    return countCell(r.totalCycles, role);
  case CollectiveCyclesColumn:
    if (!r.profiled) return textCell(QStringLiteral("-"), role);
    return countCell(std::uint64_t(r.collectiveCycles + 0.5), role);
  case CollectiveShareColumn:
    if (!r.profiled) return textCell(QStringLiteral("-"), role);
    if (role == SortRole) return r.collectiveShare;
    if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return role == Qt::DisplayRole ? QVariant(formatPercent(r.collectiveShare)) : QVariant();
  case MemoryColumn:
    return bytesCell(r.memoryBytes, role);
  case MarkColumn: {
    const QString m = mark(r.index);
    const bool ranked = table_ && table_->summary.numInstances > 1 &&
                        table_->summary.maxCycles != table_->summary.minCycles;
    if (role == Qt::ForegroundRole && ranked && !m.isEmpty())
      return QBrush(r.index == table_->summary.slowestInstance ? QColor(0xc0, 0x39, 0x2b)
                                                               : QColor(0x1e, 0x84, 0x49));
    return textCell(m, role);
  }
  default:
    return {};
  }
}

} // namespace tessera::viewer
