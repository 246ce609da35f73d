// The main window: a side list of the pages that fit the open document, the pages in a stack,
// menus with shortcuts, drag and drop, progress in the status bar, and errors in dialogs.
#pragma once

#include "core/Document.hpp"
#include "core/Settings.hpp"

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <functional>
#include <map>
#include <memory>
#include <vector>

class QAction;
class QComboBox;
class QProgressDialog;
class QListWidget;
class QProgressBar;
class QStackedWidget;
class QLabel;

namespace tessera::viewer {

class HomePage;
class Page;
class RemoteFetch;
class UserGuide;

class MainWindow : public QMainWindow {
  Q_OBJECT
public:
  explicit MainWindow(QWidget* parent = nullptr);

  /// Opens a report directory or file, or a trace. On failure shows an error dialog (and
  /// returns false); the document already open stays open. A remote "[user@]host:/path" is
  /// copied into the cache first (core/RemoteFetch, progress and Cancel in a dialog): true
  /// means the copy started, and documentOpened() or an error dialog follows.
  bool openPath(const QString& path);
  /// Opens several host traces (.pvti, local) on one time axis, a lane group each (one path:
  /// openPath). Not remembered as a recent file. On failure shows an error dialog, returns false.
  bool openTraces(const QStringList& paths);
  /// Opens two reports, `current` compared against `base` (either may be remote).
  bool openComparison(const QString& basePath, const QString& currentPath);
  /// File > Reopen last session: the document (or comparison) open when the viewer last
  /// closed, on the view it showed. False when there is none or it cannot be opened.
  bool reopenLastSession();
  /// Whether this window takes part in the remembered session (Settings): it restores its
  /// geometry, opens a report on the view it was last shown in (else Insights for an
  /// out-of-memory report, else the Preferences' default view) and records the session. The
  /// interactive viewer turns it on; --screenshot and tests leave it off unless they test it.
  void setSessionEnabled(bool enabled);
  bool sessionEnabled() const { return sessionEnabled_; }
  /// The remote copy in progress and its dialog, or null (for tests).
  RemoteFetch* remoteFetch() const;
  QProgressDialog* remoteProgress() const;
  /// The open document's remote name ("host:/path"), or empty for a local one.
  const QString& remoteName() const { return remoteTitle_; }
  /// Help > User guide (F1) and Edit > Preferences; the guide is created on first use.
  UserGuide* showUserGuide();
  void showPreferences();
  void setDocument(std::shared_ptr<const Document> doc);
  const std::shared_ptr<const Document>& document() const { return doc_; }
  void closeDocument();

  /// A job folder's document (or two jobs compared): shows instance `instance` in every view
  /// (both sides in compare mode), on the view shown now. False, with an error dialog, when the
  /// document is not a job or has no such instance. The instance selector above the side list
  /// calls it.
  bool selectInstance(unsigned instance);
  /// The instance selector; shown only while a job is open.
  QComboBox* instanceSelector() const { return instanceBox_; }

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

signals:
  /// A document was opened (after a remote copy, once it is cached and read).
  void documentOpened();

protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

private:
  void createMenus();
  void chooseAndOpen();
  void chooseAndCompare();
  void chooseRemote();
  /// Copies the remote paths among `paths` (in turn) and calls `then` with local paths and
  /// what to call each (the remote text, or empty for a local path).
  void fetchRemote(QStringList paths, QStringList shownAs,
                   std::function<void(const QStringList&, const QStringList&)> then);
  /// The view a freshly opened document starts on (session, out of memory, default).
  QString initialView(const Document& doc) const;
  /// Records the shown view for the open document and the session.
  void rememberView();
  bool openResolved(const QString& path, const QString& shownAs);
  bool openComparisonResolved(const QStringList& paths, const QStringList& shownAs);
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
  /// Above the side list: "Instance" and the selector, for a job.
  QWidget* sidePanel_;
  QWidget* instanceRow_;
  QComboBox* instanceBox_;
  QLabel* instanceLabel_ = nullptr;
  void updateInstanceSelector();
  /// Background tasks still running, by name (several may share one), and the one shown.
  struct RunningTask {
    int count = 0, percent = 0;
  };
  std::map<QString, RunningTask> tasks_;
  QString shownTask_;
  QPointer<QMessageBox> errorBox_;
  bool rememberRecent_ = true;
  bool sessionEnabled_ = false;
  /// Remembered-session key of the open document: its absolute path (a remote one as
  /// "host:/path"), or "base|current".
  QString documentKey_;
  /// A remote document's name ("host:/path", or "base → current"), or empty: the title says it.
  QString remoteTitle_;

  QString wantedView_;            ///< the view setDocument() opens the next document on
  QString forcedView_;            ///< Reopen last session: its view, whatever the preferences say
  Settings::LastSession session_; ///< what is open, as the session records it
  QPointer<RemoteFetch> remote_;
  QPointer<QProgressDialog> remoteProgress_;
  QPointer<UserGuide> guide_;
  bool showsProgress_ = true;
};

} // namespace tessera::viewer
