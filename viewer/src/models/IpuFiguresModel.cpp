#include "models/IpuFiguresModel.hpp"

#include "core/Format.hpp"
#include "core/Settings.hpp"

#include <algorithm>

namespace tessera::viewer {

IpuFiguresModel::IpuFiguresModel(QObject* parent) : QAbstractTableModel(parent) {}

void IpuFiguresModel::setFigures(std::shared_ptr<const ExecutionFigures> figures, int run) {
  beginResetModel();
  figures_ = std::move(figures);
  span_ = figures_ ? ExecutionFigures::span(*figures_->current, run) : nullptr;
  endResetModel();
}

int IpuFiguresModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !span_) return 0;
  // tileCyclesByIpu and ipus are both per IPU of one replica; the longer one counts the IPUs.
  return int(std::max(span_->ipus.size(), span_->tileCyclesByIpu.size()));
}

int IpuFiguresModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant IpuFiguresModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const auto ipu = std::size_t(index.row());
  const int col = index.column();
  if (role == Qt::TextAlignmentRole)
    return col == IpuColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (col == IpuColumn)
    return role == Qt::DisplayRole ? QVariant(tr("IPU %1").arg(index.row())) : QVariant();
  if (col < StreamCopyInColumn) {
    if (ipu >= span_->tileCyclesByIpu.size()) return {};
    const pva::CycleKinds& c = span_->tileCyclesByIpu[ipu];
    const auto kind = pva::TileCycleTotals::Kind(col - FirstKindColumn);
    if (role == NumberRole) return qulonglong(c.of(kind));
    if (role == Qt::DisplayRole) return formatPercent(c.shareOfTileCycles(kind));
    if (role == Qt::ToolTipRole)
      return tr("%1 of %2 tile cycles on IPU %3")
          .arg(formatCount(c.of(kind)), formatCount(c.total()))
          .arg(index.row());
    return {};
  }
  if (ipu >= span_->ipus.size()) return {};
  const pva::IpuTraffic& t = span_->ipus[ipu];
  const std::uint64_t bytes = col == StreamCopyInColumn       ? t.streamCopyInBytes
                              : col == StreamCopyOutColumn    ? t.streamCopyOutBytes
                              : col == GlobalExchangeInColumn ? t.globalExchangeInBytes
                                                              : t.globalExchangeOutBytes;
  if (role == NumberRole) return qulonglong(bytes);
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
    return formatBytes(bytes, Settings::instance().memoryUnits());
  return {};
}

QVariant IpuFiguresModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole && section >= FirstKindColumn && section < StreamCopyInColumn)
    return tr("Share of the IPU's tile cycles (summed over its tiles)");
  if (role != Qt::DisplayRole) return {};
  if (section == IpuColumn) return tr("IPU");
  // Two-line headers keep the ten columns within the panel's width.
  if (section >= FirstKindColumn && section < StreamCopyInColumn)
    return QString::fromStdString(
               pva::CycleKinds::label(pva::TileCycleTotals::Kind(section - FirstKindColumn)))
        .replace(QLatin1Char(' '), QLatin1Char('\n'));
  switch (section) {
  case StreamCopyInColumn:
    return tr("Stream copy\nin");
  case StreamCopyOutColumn:
    return tr("Stream copy\nout");
  case GlobalExchangeInColumn:
    return tr("Global exch.\nin");
  case GlobalExchangeOutColumn:
    return tr("Global exch.\nout");
  default:
    return {};
  }
}

} // namespace tessera::viewer
