// The Execution page's figures of the selected run (or all runs) from pva::analyseExecution:
// cycles, steps, parallel efficiency and tile balance (per IPU figures are IpuFiguresModel's).
// Compare mode adds the base report's same run and the change.
#pragma once

#include "core/ExecutionFigures.hpp"

#include <QAbstractTableModel>
#include <memory>
#include <optional>
#include <vector>

namespace tessera::viewer {

class RunFiguresModel : public QAbstractTableModel {
  Q_OBJECT
public:
  /// Columns in compare mode, Base before Current as on every compare page; a single report
  /// shows Name and its value only (valueColumn()).
  enum Column { NameColumn, BaseColumn, ValueColumn, ChangeColumn };
  /// Where the value (the current report's) is: 1 for one report, ValueColumn in compare mode.
  int valueColumn() const { return compare_ ? int(ValueColumn) : 1; }
  /// The number behind Value, Base or Change (double).
  static constexpr int NumberRole = Qt::UserRole + 1;

  explicit RunFiguresModel(QObject* parent = nullptr);
  /// Shows run `run` (-1: all runs) of `figures` (null: nothing).
  void setFigures(std::shared_ptr<const ExecutionFigures> figures, int run);
  /// "run 'train0'" or "all runs" (empty without figures).
  QString scope() const { return scope_; }
  int rowOf(const QString& name) const; ///< the row named `name`, or -1 (tests)

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  struct Row {
    QString name;
    bool fraction = false; ///< a share in [0, 1], else a count
    std::optional<double> value, base;
  };
  std::shared_ptr<const ExecutionFigures> figures_;
  std::vector<Row> rows_;
  bool compare_ = false;
  QString scope_;
};

} // namespace tessera::viewer
