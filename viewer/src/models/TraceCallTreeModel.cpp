// The call tree under a selected trace event, answered by index arithmetic over TraceIndex.
#include "models/TraceCallTreeModel.hpp"

#include "core/Format.hpp"

namespace tessera::viewer {

TraceCallTreeModel::TraceCallTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void TraceCallTreeModel::setEvent(std::shared_ptr<const TraceIndex> index, TraceEventRef event) {
  beginResetModel();
  index_ = std::move(index);
  root_ = index_ && event.valid() && !event.instant ? event : TraceEventRef{};
  endResetModel();
}

const TraceEventRecord& TraceCallTreeModel::record(std::uint32_t event) const {
  return index_->threads[std::size_t(root_.thread)].events[event];
}

int TraceCallTreeModel::rowOf(std::uint32_t event) const {
  if (event == root_.index) return 0;
  const std::uint32_t parent = record(event).parent;
  // Siblings are consecutive in their depth's row, from the parent's first child (parent + 1).
  return int(record(event).rowPos - record(parent + 1).rowPos);
}

QModelIndex TraceCallTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!hasIndex(row, column, parent)) return {};
  if (!parent.isValid()) return createIndex(row, column, quintptr(root_.index));
  const auto p = std::uint32_t(parent.internalId());
  return createIndex(row, column, quintptr(index_->child(root_.thread, p, std::uint32_t(row))));
}

QModelIndex TraceCallTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid()) return {};
  const auto e = std::uint32_t(child.internalId());
  if (e == root_.index) return {};
  const std::uint32_t p = record(e).parent;
  return createIndex(rowOf(p), 0, quintptr(p));
}

int TraceCallTreeModel::rowCount(const QModelIndex& parent) const {
  if (!root_.valid()) return 0;
  if (!parent.isValid()) return 1;
  if (parent.column() != 0) return 0;
  return int(record(std::uint32_t(parent.internalId())).childCount);
}

int TraceCallTreeModel::columnCount(const QModelIndex&) const {
  return ColumnCount;
}

QVariant TraceCallTreeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !root_.valid()) return {};
  const TraceEventRecord& r = record(std::uint32_t(index.internalId()));
  const std::int64_t rootDuration = record(root_.index).duration();
  if (role == NanosecondsRole) {
    switch (index.column()) {
    case DurationColumn:
      return qlonglong(r.duration());
    case SelfColumn:
      return qlonglong(r.self);
    case BeginColumn:
      return qlonglong(r.begin);
    default:
      return {};
    }
  }
  if (role == Qt::TextAlignmentRole && index.column() != LabelColumn &&
      index.column() != ChannelColumn)
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (index.column()) {
  case LabelColumn:
    return index_->labels[r.label];
  case DurationColumn:
    return r.finished ? formatDurationNs(double(r.duration()))
                      : formatDurationNs(double(r.duration())) + tr(" (unfinished)");
  case SelfColumn:
    return formatDurationNs(double(r.self));
  case ShareColumn:
    return rootDuration > 0 ? formatPercent(double(r.duration()) / double(rootDuration))
                            : QStringLiteral("-");
  case BeginColumn:
    return formatDurationNs(double(r.begin));
  case ChannelColumn:
    return index_->channels[r.channel];
  default:
    return {};
  }
}

QVariant TraceCallTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
  case LabelColumn:
    return tr("Event");
  case DurationColumn:
    return tr("Duration");
  case SelfColumn:
    return tr("Self time");
  case ShareColumn:
    return tr("% of selected");
  case BeginColumn:
    return tr("Begin");
  case ChannelColumn:
    return tr("Channel");
  default:
    return {};
  }
}

} // namespace tessera::viewer
