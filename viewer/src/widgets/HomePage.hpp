// The first screen: open a report or a trace, compare two reports, the demo report, recent files
// and recent comparisons.
#pragma once

#include <QWidget>

class QListWidget;
class QPushButton;

namespace tessera::viewer {

class HomePage : public QWidget {
  Q_OBJECT
public:
  explicit HomePage(QWidget* parent = nullptr);
  QListWidget* recentList() const { return recent_; }
  QListWidget* recentComparisonsList() const { return comparisons_; }
  /// Opens the demo report (core/DemoReport); hidden when this build has none.
  QPushButton* demoButton() const { return demo_; }

signals:
  void openRequested();
  void compareRequested();
  void openPathRequested(const QString& path);
  void comparisonRequested(const QString& base, const QString& current);

private:
  void refreshRecent();
  QListWidget* recent_;
  QListWidget* comparisons_;
  QPushButton* demo_;
};

} // namespace tessera::viewer
