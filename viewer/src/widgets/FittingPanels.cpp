// Panels side by side while their tables fit whole, else in tabs of their own.
#include "widgets/FittingPanels.hpp"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <algorithm>

namespace tessera::viewer {

FittingPanels::FittingPanels(QTabWidget* tabs, int index, const QString& title)
    : QObject(tabs), tabs_(tabs), splitter_(new QSplitter(Qt::Horizontal)) {
  splitter_->setObjectName(QStringLiteral("fittingPanels"));
  splitter_->setChildrenCollapsible(false);
  tabs_->insertTab(index, splitter_, title);
  // The room is the tab pages' (the tab widget's stack), known once the stack has been resized.
  if (QWidget* stack = splitter_->parentWidget()) stack->installEventFilter(this);
}

void FittingPanels::addPanel(QWidget* panel, QTableView* table, const QString& ownTitle) {
  panels_.push_back({panel, table, ownTitle});
  splitter_->addWidget(panel);
  sideBySide_ = int(panels_.size());
}

int FittingPanels::neededWidth(const QTableView* table) {
  int width = 2 * table->frameWidth();
  const QHeaderView* header = table->horizontalHeader();
  const int columns = table->model() ? table->model()->columnCount() : 0;
  int last = columns - 1;
  while (last >= 0 && header->isSectionHidden(last))
    --last;
  for (int c = 0; c < columns; ++c) {
    if (header->isSectionHidden(c)) continue;
    int w = std::max(header->sectionSizeHint(c),
                     static_cast<const QAbstractItemView*>(table)->sizeHintForColumn(c));
    // A stretched last section never narrows below the default section size.
    if (c == last && header->stretchLastSection()) w = std::max(w, header->defaultSectionSize());
    width += w;
  }
  if (!table->verticalHeader()->isHidden()) width += table->verticalHeader()->sizeHint().width();
  // Rows that overflow the height bring a vertical scroll bar, which takes its width from the
  // columns: room for it when they do, so the columns still fit with it.
  const int rowsHeight = table->verticalHeader()->length() +
                         table->horizontalHeader()->sizeHint().height() + 2 * table->frameWidth();
  if (rowsHeight > table->height() || table->verticalScrollBar()->isVisible())
    width += table->verticalScrollBar()->sizeHint().width();
  return width;
}

void FittingPanels::rearrange() {
  QWidget* stack = splitter_->parentWidget();
  if (arranging_ || panels_.empty() || !stack) return;
  arranging_ = true;
  const int available = stack->width();
  const int handle = splitter_->handleWidth();
  std::vector<int> need;
  for (const Panel& p : panels_)
    need.push_back(neededWidth(p.table));
  // Nothing changed (the visible range's table refills on every pan): keep the sizes, a handle
  // the user dragged included.
  std::vector<int> measured = need;
  measured.push_back(available);
  if (measured == measured_) {
    arranging_ = false;
    return;
  }
  measured_ = std::move(measured);
  // The first panel always stays (alone it scrolls when even it does not fit); the next ones
  // join it while they fit whole.
  int n = 1, used = need[0];
  while (n < int(panels_.size()) && used + handle + need[std::size_t(n)] <= available)
    used += handle + need[std::size_t(n++)];

  if (n != sideBySide_) {
    QWidget* current = tabs_->currentWidget();
    for (int i = 1; i < n; ++i) {
      QWidget* w = panels_[std::size_t(i)].widget;
      const int tab = tabs_->indexOf(w);
      if (tab < 0) continue;
      tabs_->removeTab(tab);
      splitter_->insertWidget(i, w);
      w->show(); // the tab widget's stack hid it when it was not the current tab
      if (current == w) tabs_->setCurrentWidget(splitter_);
    }
    const int first = tabs_->indexOf(splitter_);
    for (int i = n; i < int(panels_.size()); ++i) {
      const Panel& p = panels_[std::size_t(i)];
      if (tabs_->indexOf(p.widget) < 0) tabs_->insertTab(first + 1 + (i - n), p.widget, p.title);
    }
    sideBySide_ = n;
  }
  // Each panel its table's width; what is left goes to the last one.
  QList<int> sizes;
  for (int i = 0; i < n; ++i)
    sizes << need[std::size_t(i)];
  sizes.back() += std::max(0, available - used);
  splitter_->setSizes(sizes);
  arranging_ = false;
}

bool FittingPanels::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Resize && watched == splitter_->parentWidget()) rearrange();
  return QObject::eventFilter(watched, event);
}

} // namespace tessera::viewer
