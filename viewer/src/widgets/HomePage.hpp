// The first screen: open a report or a trace, compare two reports, recent files.
#pragma once

#include <QWidget>

class QListWidget;

namespace tessera::viewer {

class HomePage : public QWidget {
  Q_OBJECT
public:
  explicit HomePage(QWidget* parent = nullptr);
  QListWidget* recentList() const { return m_recent; }

signals:
  void openRequested();
  void compareRequested();
  void openPathRequested(const QString& path);

private:
  void refreshRecent();
  QListWidget* m_recent;
};

} // namespace tessera::viewer
