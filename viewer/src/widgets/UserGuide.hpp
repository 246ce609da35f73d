// Help > User guide (F1): the viewer's documentation (docs/viewer.md and the pages it links,
// bundled as Qt resources under :/docs/) rendered from Markdown, with a search box that
// highlights every match and steps through them (Enter / Shift+Enter, or F3 / Shift+F3).
#pragma once

#include <QDialog>
#include <QTextCursor>

class QLabel;
class QLineEdit;
class QTextBrowser;

namespace tessera::viewer {

class UserGuide : public QDialog {
  Q_OBJECT
public:
  explicit UserGuide(QWidget* parent = nullptr);

  /// Searches for `text` (case-insensitive): highlights every match and selects the first.
  void search(const QString& text);
  /// Selects the next (or previous) match, wrapping around.
  void step(bool forward);
  int matchCount() const { return int(matches_.size()); }
  /// The match selected (0-based), or -1.
  int currentMatch() const { return current_; }
  QTextBrowser* browser() const { return browser_; }
  QLineEdit* searchBox() const { return searchBox_; }

  /// The guide's start page.
  static QString homeUrl() { return QStringLiteral("qrc:/docs/viewer.md"); }

private:
  void highlight();
  QTextBrowser* browser_;
  QLineEdit* searchBox_;
  QLabel* status_;
  QList<QTextCursor> matches_;
  int current_ = -1;
};

} // namespace tessera::viewer
