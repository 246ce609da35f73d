// The "Call tree" tab of the Host trace page: the selected event as the one top-level row and
// everything nested in it below, recursively; columns Label, Duration, Self time, % of the
// selected event, Begin (from the trace start), Channel.
//
// Over the immutable TraceIndex: a QModelIndex's internal id is the event's position in its
// thread, and rows come from the index's per-depth arrays, so index(), parent() and rowCount()
// are O(1) whatever the fan-out, and no item objects are made. GUI thread only.
#pragma once

#include "core/TraceIndex.hpp"

#include <QAbstractItemModel>
#include <memory>

namespace tessera::viewer {

class TraceCallTreeModel : public QAbstractItemModel {
  Q_OBJECT
public:
  enum Column {
    LabelColumn,
    DurationColumn,
    SelfColumn,
    ShareColumn,
    BeginColumn,
    ChannelColumn,
    ColumnCount
  };
  /// Nanoseconds behind Duration, Self time and Begin (for sorting and tests).
  static constexpr int NanosecondsRole = Qt::UserRole + 1;

  explicit TraceCallTreeModel(QObject* parent = nullptr);
  /// Shows `event` and its descendants; an instant event or an invalid ref empties the model.
  void setEvent(std::shared_ptr<const TraceIndex> index, TraceEventRef event);
  TraceEventRef event() const { return root_; }

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  const TraceEventRecord& record(std::uint32_t event) const;
  /// The row of `event` under its parent (0 for the root).
  int rowOf(std::uint32_t event) const;

  std::shared_ptr<const TraceIndex> index_;
  TraceEventRef root_;
};

} // namespace tessera::viewer
