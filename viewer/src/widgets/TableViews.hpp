// The sortable tables of the Memory and Liveness pages: a QTableView over a sort proxy that
// sorts by TableModel::SortRole (raw numbers, not formatted text).
#pragma once

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace tessera::viewer {

/// A read-only, sortable table showing `model`; the proxy is a child of the view. The column
/// `stretchColumn` (names, usually) takes the width left over.
QTableView* createSortableTable(QAbstractItemModel* model, QWidget* parent, int stretchColumn = 0);

} // namespace tessera::viewer
