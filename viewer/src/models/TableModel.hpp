// Base of the flat tables of the Memory and Liveness pages: a QAbstractTableModel over an
// immutable vector of rows (shared with the snapshot it came from, no copies), with the helpers
// every table needs: bytes formatted in the current units (re-formatted when Settings change), a
// SortRole carrying the raw number for QSortFilterProxyModel, right-aligned numbers.
//
// Threads: GUI thread. Cost: data() is O(1) index arithmetic.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <vector>

namespace tessera::viewer {

class TableModel : public QAbstractTableModel {
  Q_OBJECT
public:
  /// The raw value behind a cell (numbers as qulonglong / qlonglong, text as QString).
  static constexpr int SortRole = Qt::UserRole + 1;
  /// Asked of a column's header: how its cells add up in a totals line (a Total, as int).
  static constexpr int TotalRole = Qt::UserRole + 2;
  /// How a column's cells add up: not at all (names, addresses, tile counts that overlap), as
  /// bytes, as a count, or as signed bytes (a change).
  enum class Total { None = 0, Bytes, Count, BytesDelta };

  explicit TableModel(QObject* parent = nullptr);
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

protected:
  /// Column titles; changing them is a reset (call inside begin/endResetModel).
  void setHeaders(QStringList headers) { headers_ = std::move(headers); }
  /// How each column adds up, by column (missing ones: Total::None). Only parts of a whole
  /// qualify: a table's totals line sums these over the rows it shows.
  void setColumnTotals(std::vector<Total> totals) { totals_ = std::move(totals); }
  static QVariant bytesCell(std::uint64_t bytes, int role);
  static QVariant bytesDeltaCell(std::int64_t bytes, int role);
  static QVariant countCell(std::uint64_t n, int role);
  /// A number that names something (a tile, an IPU): "1475", not the quantity "1,475".
  static QVariant idCell(std::uint64_t id, int role);
  static QVariant textCell(const QString& text, int role);

private:
  QStringList headers_;
  std::vector<Total> totals_;
};

/// A table over `std::vector<Row>`; subclasses say what each cell of a row shows.
template <class Row> class RowsModel : public TableModel {
public:
  using TableModel::TableModel;
  /// The rows (typically aliasing a snapshot: shared_ptr<const Row-vector>(snapshot,
  /// &snapshot->rows)).
  void setRows(std::shared_ptr<const std::vector<Row>> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
  }
  int rowCount(const QModelIndex& parent = {}) const override {
    return parent.isValid() || !rows_ ? 0 : int(rows_->size());
  }
  const Row& row(int i) const { return (*rows_)[std::size_t(i)]; }
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override {
    if (!index.isValid() || !rows_ || index.row() >= rowCount()) return {};
    return cell(row(index.row()), index.column(), role);
  }

protected:
  virtual QVariant cell(const Row& row, int column, int role) const = 0;
  /// For subclasses that change headers too: call between begin/endResetModel.
  void replaceRows(std::shared_ptr<const std::vector<Row>> rows) { rows_ = std::move(rows); }

private:
  std::shared_ptr<const std::vector<Row>> rows_;
};

} // namespace tessera::viewer
