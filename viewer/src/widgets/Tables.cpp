// The shared table look.
#include "widgets/Tables.hpp"

#include <QHeaderView>
#include <QTableView>

namespace tessera::viewer {

void makeCompact(QTableView* view) {
  view->setWordWrap(false);
  view->setTextElideMode(Qt::ElideMiddle);
  view->verticalHeader()->hide();
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
  view->horizontalHeader()->setStretchLastSection(true);
  view->setAlternatingRowColors(true);
}

} // namespace tessera::viewer
