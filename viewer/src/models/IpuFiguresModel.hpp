// Per IPU of the selected run (or all runs), from pva::analyseExecution: the share of the IPU's
// tile cycles of each kind (compute, internal exchange, global exchange, stream copy, sync; the
// cycles themselves under NumberRole and in the tooltip), and the bytes its stream copies and
// global exchanges moved in and out. In compare mode it shows the current report.
#pragma once

#include "core/ExecutionFigures.hpp"

#include <QAbstractTableModel>
#include <memory>

namespace tessera::viewer {

class IpuFiguresModel : public QAbstractTableModel {
  Q_OBJECT
public:
  static constexpr int kKinds = int(pva::CycleKinds::numKinds);
  /// IPU, one column per cycle kind (TileCycleTotals::Kind order), then the four byte counts.
  enum Column {
    IpuColumn,
    FirstKindColumn,
    StreamCopyInColumn = FirstKindColumn + kKinds,
    StreamCopyOutColumn,
    GlobalExchangeInColumn,
    GlobalExchangeOutColumn,
    ColumnCount
  };
  /// The number behind a cell: cycles (kind columns) or bytes.
  static constexpr int NumberRole = Qt::UserRole + 1;

  explicit IpuFiguresModel(QObject* parent = nullptr);
  /// Shows run `run` (-1: all runs) of the current report of `figures` (null: nothing).
  void setFigures(std::shared_ptr<const ExecutionFigures> figures, int run);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  std::shared_ptr<const ExecutionFigures> figures_;
  const pva::SpanFigures* span_ = nullptr; ///< in figures_
};

} // namespace tessera::viewer
