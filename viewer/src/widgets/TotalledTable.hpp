// A table of parts of a whole (variables, vertex types, exchanges) with a line under it that
// totals the rows shown: "Total of the 6 variables shown (of 120): Size 4.61 MiB". The columns
// that add up are the ones the model marks (TableModel::TotalRole on the header); the sum is of
// the cells on screen, so a name filter changes the total and the line says how many rows it
// covers. The table is createSortableTable's, filtered by the name column.
//
// Threads: GUI thread. Cost: the totals are O(rows shown x columns), recomputed when the model
// resets, the filter changes or the memory units change.
#pragma once

#include <QString>
#include <QVariant>
#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace tessera::viewer {

class TableModel;

class TotalledTable : public QWidget {
  Q_OBJECT
public:
  /// `rowsNoun`: what a row is, plural ("variables"); `nameColumn`: the column the name filter
  /// matches and the one that stretches.
  TotalledTable(TableModel* model, QString rowsNoun, int nameColumn, QWidget* parent = nullptr);

  /// Shows only rows whose name contains `text` (case-insensitive); empty: every row. Several
  /// names separated by ';' show the rows containing any of them (core/NameTerms).
  void setNameFilter(const QString& text);
  /// A few words after the totals saying what they count ("shared addresses count once per
  /// variable").
  void setTotalsNote(const QString& note);

  QTableView* view() const { return view_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QLabel* totalsLabel() const { return totals_; }
  int rowsShown() const;
  /// The sum of a column over the rows shown (qulonglong, or qlonglong for changes); invalid for
  /// a column that does not add up.
  QVariant total(int column) const;

private:
  void updateTotals();

  TableModel* model_;
  QString noun_, note_;
  QTableView* view_;
  QSortFilterProxyModel* proxy_;
  QLabel* totals_;
};

} // namespace tessera::viewer
