// The Execution page's Summary tab: for the visible time range, cycles by kind (summed over
// IPUs) with their share, steps, (step, IPU) pairs and mean tile balance, then each run's
// cycles and steps. In compare mode two more columns give the base report's figures and the
// change. A table over an immutable snapshot; setSnapshot() is cheap (a few dozen rows).
#pragma once

#include "core/ExecutionDetails.hpp"
#include "core/ExecutionIndex.hpp"

#include <QAbstractTableModel>
#include <memory>
#include <optional>

namespace tessera::viewer {

struct ExecutionSummarySnapshot {
  ExecutionRangeSummary current;
  std::vector<ExecRunInfo> runs;
  bool compare = false; ///< base figures present
  ExecutionRangeSummary base;
  std::vector<ExecRunInfo> baseRuns;
};

class ExecutionSummaryModel : public QAbstractTableModel {
  Q_OBJECT
public:
  /// Columns in compare mode (Base before Current, as on every compare page); one report shows
  /// Name, Value, Share: valueColumn() and shareColumn() say where.
  enum Column { NameColumn, BaseColumn, ValueColumn, ShareColumn, ChangeColumn };
  int valueColumn() const { return compare() ? int(ValueColumn) : 1; }
  int shareColumn() const { return compare() ? int(ShareColumn) : 2; }
  /// The number behind Value, Base or Change (qulonglong / double / qlonglong).
  static constexpr int NumberRole = Qt::UserRole + 1;

  explicit ExecutionSummaryModel(QObject* parent = nullptr);
  void setSnapshot(std::shared_ptr<const ExecutionSummarySnapshot> snapshot);
  const ExecutionSummarySnapshot* snapshot() const { return snapshot_.get(); }
  /// The row named `name`, or -1 (for tests).
  int rowOf(const QString& name) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  bool compare() const { return snapshot_ && snapshot_->compare; }
  int logical(int column) const {
    return compare() || column == 0 ? column : column == 1 ? int(ValueColumn) : int(ShareColumn);
  }
  struct Row {
    QString name;
    bool fraction = false;             ///< a balance (0..1), else a count
    std::optional<double> value, base; ///< absent: that report has no such row (runs)
    double shareOf = 0;                ///< > 0: Share column = value / shareOf
  };
  std::shared_ptr<const ExecutionSummarySnapshot> snapshot_;
  std::vector<Row> rows_; ///< derived from the snapshot in setSnapshot()
};

} // namespace tessera::viewer
