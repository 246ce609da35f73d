// Tables side by side in one tab as far as each fits whole, the rest in tabs of their own.
//
// The Execution page shows three tables under its timeline (run figures, per-IPU figures, the
// visible range). Side by side they need about 1,600 px in compare mode, where base, current and
// change columns widen them: squeezed into a 1,400 px window each scrolled sideways and its last
// column was cut. FittingPanels measures what every table needs to show all its columns (header
// and contents) and keeps side by side, in order, only the panels that fit the tab's width; a panel
// that does not fit moves to a tab of its own (before the tab widget's other tabs) and comes back
// when the window is wide enough again. A table never scrolls sideways unless it alone is wider
// than the window.
#pragma once

#include <QObject>
#include <QString>
#include <vector>

class QSplitter;
class QTabWidget;
class QTableView;
class QWidget;

namespace tessera::viewer {

class FittingPanels : public QObject {
  Q_OBJECT
public:
  /// The first tab, titled `title`, is inserted at `index` of `tabs`.
  FittingPanels(QTabWidget* tabs, int index, const QString& title);

  /// A panel holding `table` (and whatever heading), shown side by side in the first tab when it
  /// fits, else in a tab titled `ownTitle`. Panels keep the order they are added in.
  void addPanel(QWidget* panel, QTableView* table, const QString& ownTitle);

  /// Measures again and moves panels: call after the tables' contents or columns changed.
  void rearrange();

  /// The width `table` needs to show every column whole, its frame and a vertical scroll bar.
  static int neededWidth(const QTableView* table);
  /// How many panels share the first tab.
  int panelsSideBySide() const { return sideBySide_; }

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  struct Panel {
    QWidget* widget;
    QTableView* table;
    QString title;
  };
  QTabWidget* tabs_;
  QSplitter* splitter_;
  std::vector<Panel> panels_;
  int sideBySide_ = 0;
  std::vector<int> measured_; ///< the tables' widths and the room at the last arrangement
  bool arranging_ = false;
};

} // namespace tessera::viewer
