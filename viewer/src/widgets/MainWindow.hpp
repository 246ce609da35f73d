// The main window: a side list of the pages that fit the open document, the pages in a stack,
// menus with shortcuts, drag and drop, progress in the status bar, and errors in dialogs.
#pragma once

#include "core/Document.hpp"

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <map>
#include <memory>
#include <vector>

class QAction;
class QListWidget;
class QProgressBar;
class QStackedWidget;
class QLabel;

namespace tessera::viewer {

class HomePage;
class Page;

class MainWindow : public QMainWindow {
  Q_OBJECT
public:
  explicit MainWindow(QWidget* parent = nullptr);

  /// Opens a report directory or file, or a trace. On failure shows an error dialog (and
  /// returns false); the document already open stays open.
  bool openPath(const QString& path);
  /// Opens two reports, `current` compared against `base`.
  bool openComparison(const QString& basePath, const QString& currentPath);
  void setDocument(std::shared_ptr<const Document> doc);
  const std::shared_ptr<const Document>& document() const { return doc_; }
  void closeDocument();

  /// The page with this --view key ("memory"), or null.
  Page* page(const QString& viewKey) const;
  const std::vector<Page*>& pages() const { return pages_; }
  /// Shows a page; false when there is no such page or it does not fit the document.
  bool showView(const QString& viewKey);
  Page* currentPage() const;
  /// The last error dialog, while it is open (for tests).
  QMessageBox* errorDialog() const { return errorBox_; }
  void showError(const QString& title, const QString& message);
  /// Whether opened paths go to the recent-files list (headless runs leave it alone).
  void setRememberRecent(bool remember) { rememberRecent_ = remember; }
  /// Whether background loading shows in the status bar. A headless screenshot turns it off: an
  /// image of a ready view must not show another page's work in progress ("Reading tile
  /// details 0%").
  void setShowsProgress(bool shows);
  bool showsProgress() const { return showsProgress_; }

protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

private:
  void createMenus();
  void chooseAndOpen();
  void chooseAndCompare();
  void saveCurrentImage();
  void updateTitle();
  /// Shows `task` (or another running task; nothing when none runs) in the status bar.
  void showProgress(const QString& task);

  std::shared_ptr<const Document> doc_;
  HomePage* home_;
  QListWidget* sideList_;
  QStackedWidget* stack_;
  std::vector<Page*> pages_;
  /// View > page actions, by page: enabled for the pages of the open document, whose Ctrl+1…9
  /// follow the side list's visible order.
  std::vector<QAction*> viewActions_;
  void updateViewActions();
  /// Staged loading: pages that get the document after the first shown one is ready.
  void loadPage(Page* page);
  void loadDeferredPages();
  std::vector<Page*> deferred_;
  QMetaObject::Connection firstReady_;
  void linkGraphSelection();
  QProgressBar* progress_;
  QLabel* progressLabel_;
  /// Background tasks still running, by name (several may share one), and the one shown.
  struct RunningTask {
    int count = 0, percent = 0;
  };
  std::map<QString, RunningTask> tasks_;
  QString shownTask_;
  QPointer<QMessageBox> errorBox_;
  bool rememberRecent_ = true;
  bool showsProgress_ = true;
};

} // namespace tessera::viewer
