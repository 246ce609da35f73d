// Sortable read-only tables over TableModel subclasses.
#include "widgets/TableViews.hpp"

#include "models/TableModel.hpp"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>

namespace tessera::viewer {

QTableView* createSortableTable(QAbstractItemModel* model, QWidget* parent, int stretchColumn) {
  auto* view = new QTableView(parent);
  auto* proxy = new QSortFilterProxyModel(view);
  proxy->setSourceModel(model);
  proxy->setSortRole(TableModel::SortRole);
  proxy->setSortCaseSensitivity(Qt::CaseInsensitive);
  view->setModel(proxy);
  view->setSortingEnabled(true);
  view->sortByColumn(-1, Qt::AscendingOrder); // the model's own order until a header is clicked
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view->setAlternatingRowColors(true);
  view->verticalHeader()->setVisible(false);
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
  view->horizontalHeader()->setStretchLastSection(false);
  view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  view->horizontalHeader()->setDefaultSectionSize(120);
  // Column widths follow the content when rows arrive, except for very long tables where
  // measuring every row would stall the GUI thread.
  QObject::connect(model, &QAbstractItemModel::modelReset, view, [view, model, stretchColumn] {
    if (model->rowCount() > 0 && model->rowCount() < 5000) view->resizeColumnsToContents();
    if (stretchColumn < model->columnCount())
      view->horizontalHeader()->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
  });
  return view;
}

} // namespace tessera::viewer
