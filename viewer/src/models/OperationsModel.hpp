// The Operations table: one row per operation of the chosen layer whose name matches the filter,
// sortable by any column. Filtering and sorting permute a vector of row numbers over the
// immutable OperationsData (no copies of the operations).
#pragma once

#include "core/Format.hpp"
#include "core/OperationsData.hpp"

#include <QAbstractTableModel>
#include <memory>

namespace tessera::viewer {

/// Tooltip of a FLOPs figure: what it counts, why there is none, or why it is a lower bound.
QString flopsTip(const OperationInfo& op);

class OperationsModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column {
    NameColumn,
    TypeColumn,
    LayerColumn,
    ExecutedColumn,
    EstimatedColumn,
    AlwaysLiveColumn,
    NotAlwaysLiveColumn,
    CodeColumn,
    VerticesColumn,
    ExchangeColumn,
    FlopsColumn,
    ProgramsColumn,
    StepsColumn,
    // Comparing only (OperationsData::compared; the page hides them otherwise and shows each
    // beside its current column): the base report's figure and current - base.
    BaseExecutedColumn,
    ExecutedDeltaColumn,
    BaseAlwaysLiveColumn,
    AlwaysLiveDeltaColumn,
    BaseCodeColumn,
    CodeDeltaColumn,
    ColumnCount
  };
  /// The raw number behind a numeric column (sorting, tests).
  static constexpr int SortRole = Qt::UserRole + 1;
  static bool isCompareColumn(int column) {
    return column >= BaseExecutedColumn && column < ColumnCount;
  }

  explicit OperationsModel(QObject* parent = nullptr);
  void setData(std::shared_ptr<const OperationsData> data);
  const OperationsData* operations() const { return data_.get(); }
  /// Only operations of this layer (empty: every layer).
  void setLayer(const QString& layer);
  /// Only operations whose name or type contains the text (case-insensitive).
  void setTextFilter(const QString& text);
  /// The operation shown at a row.
  const OperationInfo* operationAt(int row) const;
  /// Totals over the rows shown: cycles, code, vertices, exchanged bytes and FLOPs summed (FLOPs
  /// stay "no estimate" when the report has none); the
  /// not-always-live bytes of all their variables at one step (not a sum).
  OperationInfo totals() const;
  /// The same for each layer of the rows shown, by layer name.
  std::vector<LayerTotals> layerTotals() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
  void rebuild();
  QVariant sortValue(const OperationInfo& op, int column) const;
  QVariant compareData(const OperationInfo& op, int column, int role, MemoryUnits units) const;
  /// How a compare column's two values compare (per run for executed cycles when the run counts
  /// differ), and its change so (rounded).
  pva::RunBasis basisOf(int column) const;
  std::int64_t deltaOf(int column, const pva::ComparedValue& v) const;
  std::shared_ptr<const OperationsData> data_;
  std::vector<std::size_t> rows_;
  QString layer_, text_;
  int sortColumn_ = ExecutedColumn;
  Qt::SortOrder sortOrder_ = Qt::DescendingOrder;
};

} // namespace tessera::viewer
