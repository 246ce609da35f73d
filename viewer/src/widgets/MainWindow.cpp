// Main window: navigation between pages, menus, opening documents.
#include "widgets/MainWindow.hpp"

#include "charts/ChartWidget.hpp"
#include "core/Background.hpp"
#include "core/RemoteFetch.hpp"
#include "core/Settings.hpp"
#include "widgets/ExecutionPage.hpp"
#include "widgets/GraphPage.hpp"
#include "widgets/HomePage.hpp"
#include "widgets/MemoryPage.hpp"
#include "widgets/OperationsPage.hpp"
#include "widgets/Page.hpp"
#include "widgets/PageRegistry.hpp"
#include "widgets/PreferencesDialog.hpp"
#include "widgets/ProgramTreePage.hpp"
#include "widgets/ReportFileDialog.hpp"
#include "widgets/SummaryPage.hpp"
#include "widgets/Theme.hpp"
#include "widgets/UserGuide.hpp"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace tessera::viewer {

namespace {

/// The side list of views. Qt's list jumps to the item starting with a typed letter: in a
/// viewer whose pages have search boxes, a letter typed while the list has focus ("m", meant
/// for a filter) would switch views unasked. Views change by click, arrows and Ctrl+1…9 only.
class SideList : public QListWidget {
public:
  using QListWidget::QListWidget;
  void keyboardSearch(const QString&) override {}
};

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), home_(new HomePage(this)), sideList_(new SideList(this)),
      stack_(new QStackedWidget(this)), progress_(new QProgressBar(this)),
      progressLabel_(new QLabel(this)), sidePanel_(new QWidget(this)),
      instanceRow_(new QWidget(sidePanel_)), instanceBox_(new QComboBox(instanceRow_)) {
  setAcceptDrops(true);
  stack_->addWidget(home_);
  pages_ = createPages(stack_);
  for (Page* p : pages_) {
    stack_->addWidget(p);
    auto* item = new QListWidgetItem(p->title(), sideList_);
    item->setData(Qt::UserRole, p->viewKey());
    item->setHidden(true);
    connect(p, &Page::errorOccurred, this,
            [this, p](const QString& message) { showError(p->title(), message); });
  }
  linkGraphSelection();
  // A row of the Summary's job table switches the instance, as the selector does. Queued: the
  // switch replaces the table's model while the click is still being delivered to it.
  if (auto* summary = qobject_cast<SummaryPage*>(page(QStringLiteral("summary"))))
    connect(
        summary, &SummaryPage::instanceRequested, this,
        [this](unsigned instance) {
          if (doc_ && doc_->instanceIndex() != instance) selectInstance(instance);
        },
        Qt::QueuedConnection);
  sideList_->setObjectName(QStringLiteral("pageList"));
  connect(sideList_, &QListWidget::currentRowChanged, this, [this](int row) {
    if (row < 0 || row >= int(pages_.size())) return;
    loadPage(pages_[std::size_t(row)]); // a page shown before its turn loads now
    stack_->setCurrentWidget(pages_[std::size_t(row)]);
    rememberView();
  });
  connect(home_, &HomePage::openRequested, this, &MainWindow::chooseAndOpen);
  connect(home_, &HomePage::compareRequested, this, &MainWindow::chooseAndCompare);
  connect(home_, &HomePage::openPathRequested, this, &MainWindow::openPath);
  connect(home_, &HomePage::comparisonRequested, this, &MainWindow::openComparison);

  // The side list keeps room for its longest title: at 1000 px a page with a wide minimum size
  // squeezed it to "Summ…"/"Liven…". Pages scroll or wrap instead; the list never shrinks or
  // collapses below its names.
  int widest = 0;
  for (int i = 0; i < sideList_->count(); ++i)
    widest =
        std::max(widest, sideList_->fontMetrics().horizontalAdvance(sideList_->item(i)->text()));
  sideList_->setMinimumWidth(widest + 2 * sideList_->frameWidth() +
                             sideList_->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 16);
  // A job's instance selector sits above the side list: it switches every view (both sides in
  // compare mode), so it belongs to the window, not to one page.
  instanceBox_->setObjectName(QStringLiteral("instanceSelector"));
  instanceBox_->setToolTip(tr("The instance of the poprun job every view shows (in compare mode, "
                              "instance i of each job)"));
  auto* instanceLayout = new QHBoxLayout(instanceRow_);
  instanceLayout->setContentsMargins(4, 4, 4, 0);
  instanceLayout->addWidget(instanceLabel_ = new QLabel(tr("Instance"), instanceRow_));
  instanceLayout->addWidget(instanceBox_, 1);
  instanceRow_->hide();
  connect(instanceBox_, qOverload<int>(&QComboBox::activated), this, [this](int index) {
    if (index >= 0 && doc_ && unsigned(index) != doc_->instanceIndex())
      selectInstance(unsigned(index));
  });
  auto* sideLayout = new QVBoxLayout(sidePanel_);
  sideLayout->setContentsMargins(0, 0, 0, 0);
  sideLayout->setSpacing(2);
  sideLayout->addWidget(instanceRow_);
  sideLayout->addWidget(sideList_, 1);
  auto* splitter = new QSplitter(this);
  splitter->addWidget(sidePanel_);
  splitter->addWidget(stack_);
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  splitter->setCollapsible(0, false);
  splitter->setSizes({170, 1100});
  setCentralWidget(splitter);
  sideList_->hide();
  sidePanel_->hide();

  // Progress of background loading, in the status bar.
  progress_->setMaximumWidth(200);
  progress_->setRange(0, 100);
  progress_->hide();
  statusBar()->addPermanentWidget(progressLabel_);
  statusBar()->addPermanentWidget(progress_);
  ProgressHub& hub = ProgressHub::instance();
  connect(&hub, &ProgressHub::started, this, [this](const QString& task) { ++tasks_[task].count; });
  connect(&hub, &ProgressHub::progress, this, [this](const QString& task, int percent) {
    const auto it = tasks_.find(task);
    if (it == tasks_.end()) return; // finished already (its last report arrived late)
    it->second.percent = percent;
    showProgress(task);
  });
  connect(&hub, &ProgressHub::finished, this, [this](const QString& task) {
    const auto it = tasks_.find(task);
    if (it != tasks_.end() && --it->second.count == 0) tasks_.erase(it);
    // A finished task no longer shows; another still loading does, with its own percentage.
    showProgress(tasks_.count(shownTask_) ? shownTask_ : QString());
  });

  createMenus();
  resize(1280, 800);
  updateTitle();
  followThemeSetting();
}

void MainWindow::setSessionEnabled(bool enabled) {
  sessionEnabled_ = enabled;
  if (!enabled || !Settings::instance().restoreSession()) return;
  const QByteArray geometry = Settings::instance().windowGeometry();
  if (!geometry.isEmpty()) restoreGeometry(geometry);
  const QByteArray state = Settings::instance().windowState();
  if (!state.isEmpty()) restoreState(state);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (sessionEnabled_) {
    Settings::instance().setWindow(saveGeometry(), saveState());
    rememberView();
  }
  QMainWindow::closeEvent(event);
}

void MainWindow::rememberView() {
  if (!sessionEnabled_ || !doc_ || documentKey_.isEmpty()) return;
  const Page* p = currentPage();
  if (!p) return;
  Settings::instance().setLastView(documentKey_, p->viewKey());
  session_.view = p->viewKey();
  Settings::instance().setLastSession(session_);
}

QString MainWindow::initialView(const Document& doc) const {
  if (!forcedView_.isEmpty()) return forcedView_;
  if (!sessionEnabled_) return {}; // tests and --screenshot: the first view that fits
  if (Settings::instance().restoreSession()) {
    const QString last = Settings::instance().lastView(documentKey_);
    if (!last.isEmpty()) return last;
  }
  // The page an out-of-memory user needs first (GA opens such a report on its Insights too).
  if (doc.isReport() && doc.report().outOfMemory()) return QStringLiteral("insights");
  return doc.isReport() ? Settings::instance().defaultView() : QString();
}

bool MainWindow::reopenLastSession() {
  const Settings::LastSession last = Settings::instance().lastSession();
  if (last.isEmpty()) {
    showError(tr("Reopen last session"), tr("No session has been recorded yet."));
    return false;
  }
  forcedView_ = last.view;
  const bool ok =
      last.compare ? openComparison(last.paths[0], last.paths[1]) : openPath(last.paths.front());
  if (!ok || !remote_) forcedView_.clear(); // a remote copy clears it once opened
  return ok;
}

UserGuide* MainWindow::showUserGuide() {
  if (!guide_) guide_ = new UserGuide(this);
  guide_->show();
  guide_->raise();
  guide_->activateWindow();
  return guide_;
}

void MainWindow::showPreferences() {
  std::vector<std::pair<QString, QString>> views;
  for (const Page* p : pages_)
    if (p->viewKey() != QLatin1String("trace") && p->viewKey() != QLatin1String("compare"))
      views.emplace_back(p->viewKey(), p->title());
  auto* dialog = new PreferencesDialog(views, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->open();
}

void MainWindow::setShowsProgress(bool shows) {
  showsProgress_ = shows;
  showProgress(shownTask_);
}

void MainWindow::showProgress(const QString& task) {
  if (tasks_.empty() || !showsProgress_) {
    shownTask_.clear();
    progressLabel_->clear();
    progress_->hide();
    return;
  }
  const auto it = tasks_.count(task) ? tasks_.find(task) : tasks_.begin();
  shownTask_ = it->first;
  const std::size_t others = tasks_.size() - 1;
  progressLabel_->setText(others ? tr("%1 (and %n more)", "", int(others)).arg(it->first)
                                 : it->first);
  progress_->setValue(it->second.percent);
  progress_->show();
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::chooseAndOpen);
  file->addAction(tr("&Compare two reports…"), QKeySequence(tr("Ctrl+Shift+O")), this,
                  &MainWindow::chooseAndCompare);
  file->addAction(tr("Open re&mote…"), QKeySequence(tr("Ctrl+Shift+R")), this,
                  &MainWindow::chooseRemote)
      ->setObjectName(QStringLiteral("openRemote"));
  QMenu* recent = file->addMenu(tr("Open &recent"));
  connect(recent, &QMenu::aboutToShow, this, [this, recent] {
    recent->clear();
    for (const QString& path : Settings::instance().recentFiles())
      recent->addAction(path, this, [this, path] { openPath(path); });
    const auto comparisons = Settings::instance().recentComparisons();
    if (!comparisons.isEmpty()) recent->addSection(tr("Comparisons"));
    for (const Settings::Comparison& c : comparisons)
      recent->addAction(tr("%1 ↔ %2").arg(c.base, c.current), this,
                        [this, c] { openComparison(c.base, c.current); });
    if (recent->isEmpty()) recent->addAction(tr("(none)"))->setEnabled(false);
  });
  QAction* reopen =
      file->addAction(tr("Reopen last &session"), this, [this] { reopenLastSession(); });
  reopen->setObjectName(QStringLiteral("reopenLastSession"));
  connect(file, &QMenu::aboutToShow, this,
          [reopen] { reopen->setEnabled(!Settings::instance().lastSession().isEmpty()); });
  file->addAction(tr("&Reload"), QKeySequence::Refresh, this, [this] {
    if (doc_) setDocument(doc_);
  });
  file->addAction(tr("Save &image of this view…"), QKeySequence::Save, this,
                  &MainWindow::saveCurrentImage);
  file->addAction(tr("&Close"), QKeySequence::Close, this, &MainWindow::closeDocument);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(tr("&Preferences…"), QKeySequence(tr("Ctrl+,")), this,
                  &MainWindow::showPreferences)
      ->setObjectName(QStringLiteral("preferences"));

  QMenu* view = menuBar()->addMenu(tr("&View"));
  for (std::size_t i = 0; i < pages_.size(); ++i) {
    Page* p = pages_[i];
    QAction* a = view->addAction(p->title(), this, [this, p] { showView(p->viewKey()); });
    a->setObjectName(QStringLiteral("view-") + p->viewKey());
    viewActions_.push_back(a);
  }
  updateViewActions();
  view->addSeparator();
  QMenu* units = view->addMenu(tr("Memory &units"));
  auto* group = new QActionGroup(units);
  const std::pair<MemoryUnits, QString> choices[] = {
      {MemoryUnits::Bytes, tr("Bytes")},
      {MemoryUnits::Binary, tr("Binary (KiB, MiB)")},
      {MemoryUnits::Decimal, tr("Decimal (kB, MB)")}};
  for (const auto& [u, name] : choices) {
    QAction* a = units->addAction(name, this, [u = u] { Settings::instance().setMemoryUnits(u); });
    a->setCheckable(true);
    a->setChecked(Settings::instance().memoryUnits() == u);
    group->addAction(a);
    // Preferences change the units too: the menu follows.
    connect(&Settings::instance(), &Settings::changed, a,
            [a, u = u] { a->setChecked(Settings::instance().memoryUnits() == u); });
  }

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&User guide"), QKeySequence::HelpContents, this, [this] { showUserGuide(); })
      ->setObjectName(QStringLiteral("userGuide"));
  help->addAction(tr("&Keyboard shortcuts"), this, [this] {
    QMessageBox::information(
        this, tr("Keyboard shortcuts"),
        tr("<table>"
           "<tr><td>Ctrl+O</td><td>open a report or trace</td></tr>"
           "<tr><td>Ctrl+Shift+O</td><td>compare two reports</td></tr>"
           "<tr><td>Ctrl+Shift+R</td><td>open a report on another machine (ssh)</td></tr>"
           "<tr><td>Ctrl+,</td><td>preferences</td></tr>"
           "<tr><td>F1</td><td>user guide</td></tr>"
           "<tr><td>Ctrl+1 … Ctrl+9</td><td>switch view</td></tr>"
           "<tr><td>F5</td><td>reload</td></tr>"
           "<tr><td>Ctrl+S</td><td>save an image of the view</td></tr>"
           "<tr><td>Mouse wheel, + / -</td><td>zoom charts and timelines</td></tr>"
           "<tr><td>Drag, arrow keys</td><td>pan</td></tr>"
           "<tr><td>Click, Shift+click</td><td>select, add to the selection</td></tr>"
           "<tr><td>0 or Home</td><td>zoom to fit</td></tr>"
           "</table>"));
  });
  help->addAction(tr("&About Tessera"), this, [this] {
    QMessageBox::about(
        this, tr("About Tessera"),
        tr("<b>Tessera viewer</b><p>Profile reports (profile.pop, debug.cbor) and host traces "
           "(.pvti) of programs for the simulated IPU.</p>"));
  });
}

bool MainWindow::openPath(const QString& path) {
  if (RemoteSpec::parse(path)) {
    fetchRemote({path}, {QString()}, [this](const QStringList& local, const QStringList& shown) {
      openResolved(local[0], shown[0]);
    });
    return true;
  }
  return openResolved(path, {});
}

bool MainWindow::openResolved(const QString& path, const QString& shownAs) {
  try {
    auto doc = Document::resolve(path);
    const QString recent = shownAs.isEmpty() ? Settings::absolutePath(path) : shownAs;
    remoteTitle_ = shownAs;
    documentKey_ = recent;
    session_ = {{recent}, false, {}};
    wantedView_ = initialView(*doc);
    forcedView_.clear();
    setDocument(std::move(doc));
    if (rememberRecent_) Settings::instance().addRecentFile(recent);
    rememberView();
    emit documentOpened();
    return true;
  } catch (const DocumentError& e) {
    forcedView_.clear();
    QString message = QString::fromUtf8(e.what());
    // A remote report's problem names it as the user typed it, not its cache.
    if (!shownAs.isEmpty()) message.replace(path, shownAs);
    showError(tr("Cannot open"), message);
    // A recent file that has moved or gone: offer to forget it.
    const QString recent = Settings::absolutePath(path);
    if (shownAs.isEmpty() && !QFileInfo::exists(path) &&
        (Settings::instance().recentFiles().contains(path) ||
         Settings::instance().recentFiles().contains(recent))) {
      QPushButton* forget =
          errorBox_->addButton(tr("Remove from recent files"), QMessageBox::ActionRole);
      connect(forget, &QPushButton::clicked, this,
              [path] { Settings::instance().removeRecentFile(path); });
    }
    return false;
  }
}

bool MainWindow::openTraces(const QStringList& paths) {
  if (paths.size() == 1) return openPath(paths.front());
  try {
    auto doc = Document::traces(paths);
    QStringList absolute;
    for (const QString& p : paths)
      absolute << Settings::absolutePath(p);
    remoteTitle_.clear();
    documentKey_ = absolute.join(QLatin1Char('|'));
    session_ = {};
    wantedView_ = initialView(*doc);
    forcedView_.clear();
    setDocument(std::move(doc));
    emit documentOpened();
    return true;
  } catch (const DocumentError& e) {
    forcedView_.clear();
    showError(tr("Cannot open"), QString::fromUtf8(e.what()));
    return false;
  }
}

bool MainWindow::openComparison(const QString& basePath, const QString& currentPath) {
  if (RemoteSpec::parse(basePath) || RemoteSpec::parse(currentPath)) {
    fetchRemote({basePath, currentPath}, {QString(), QString()},
                [this](const QStringList& local, const QStringList& shown) {
                  openComparisonResolved(local, shown);
                });
    return true;
  }
  return openComparisonResolved({basePath, currentPath}, {QString(), QString()});
}

bool MainWindow::openComparisonResolved(const QStringList& paths, const QStringList& shownAs) {
  try {
    auto doc = Document::comparison(paths[0], paths[1]);
    const QString base = shownAs[0].isEmpty() ? Settings::absolutePath(paths[0]) : shownAs[0];
    const QString current = shownAs[1].isEmpty() ? Settings::absolutePath(paths[1]) : shownAs[1];
    remoteTitle_ = shownAs[0].isEmpty() && shownAs[1].isEmpty()
                       ? QString()
                       : (shownAs[0].isEmpty() ? doc->base()->displayName() : shownAs[0]) +
                             QStringLiteral(" → ") +
                             (shownAs[1].isEmpty() ? doc->displayName() : shownAs[1]);
    documentKey_ = base + QLatin1Char('|') + current;
    session_ = {{base, current}, true, {}};
    wantedView_ = initialView(*doc);
    forcedView_.clear();
    setDocument(std::move(doc));
    if (rememberRecent_) Settings::instance().addRecentComparison(base, current);
    rememberView();
    emit documentOpened();
    return true;
  } catch (const DocumentError& e) {
    forcedView_.clear();
    QString message = QString::fromUtf8(e.what());
    for (int i = 0; i < 2; ++i)
      if (!shownAs[i].isEmpty()) message.replace(paths[i], shownAs[i]);
    showError(tr("Cannot compare"), message);
    return false;
  }
}

void MainWindow::fetchRemote(QStringList paths, QStringList shownAs,
                             std::function<void(const QStringList&, const QStringList&)> then) {
  int i = 0;
  while (i < paths.size() && (!shownAs[i].isEmpty() || !RemoteSpec::parse(paths[i])))
    ++i;
  if (i == paths.size()) return then(paths, shownAs);
  if (remote_) remote_->cancel(); // one copy at a time: the newest request wins
  const RemoteSpec spec = *RemoteSpec::parse(paths[i]);
  auto* fetch = new RemoteFetch(spec, {}, this);
  remote_ = fetch;
  auto* dialog =
      new QProgressDialog(tr("Connecting to %1…").arg(spec.host), tr("Cancel"), 0, 100, this);
  dialog->setObjectName(QStringLiteral("remoteProgress"));
  dialog->setWindowTitle(tr("Opening %1").arg(spec.text()));
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setAutoClose(false);
  dialog->setAutoReset(false);
  dialog->setMinimumDuration(0);
  dialog->setMinimumWidth(480);
  remoteProgress_ = dialog;
  connect(dialog, &QProgressDialog::canceled, fetch, &RemoteFetch::cancel);
  connect(fetch, &RemoteFetch::progress, dialog, [dialog](int percent, const QString& what) {
    dialog->setLabelText(what);
    dialog->setValue(percent);
  });
  const QPointer<QProgressDialog> shown(dialog);
  const auto done = [fetch, shown] {
    if (shown) {
      shown->disconnect(fetch);
      shown->close();
    }
    fetch->deleteLater();
  };
  connect(fetch, &RemoteFetch::finished, this,
          [this, done, paths, shownAs, i, spec, then](const QString& local) mutable {
            done();
            paths[i] = local;
            shownAs[i] = spec.text();
            fetchRemote(paths, shownAs, then);
          });
  connect(fetch, &RemoteFetch::failed, this, [this, done](const QString& message) {
    done();
    forcedView_.clear();
    showError(tr("Cannot open remote report"), message);
  });
  connect(fetch, &RemoteFetch::cancelled, this, [this, done, spec] {
    done();
    forcedView_.clear();
    statusBar()->showMessage(tr("Opening %1 cancelled").arg(spec.text()), 5000);
  });
  dialog->open();
  fetch->start();
}

RemoteFetch* MainWindow::remoteFetch() const {
  return remote_;
}

QProgressDialog* MainWindow::remoteProgress() const {
  return remoteProgress_;
}

void MainWindow::chooseRemote() {
  bool ok = false;
  const QString text = QInputDialog::getText(this, tr("Open remote report"),
                                             tr("A report on another machine, opened over ssh "
                                                "([user@]host:/path/to/report):"),
                                             QLineEdit::Normal, QString(), &ok)
                           .trimmed();
  if (!ok || text.isEmpty()) return;
  if (!RemoteSpec::parse(text)) {
    showError(tr("Open remote report"),
              tr("'%1' is not a remote path: write [user@]host:/path/to/report").arg(text));
    return;
  }
  openPath(text);
}

void MainWindow::setDocument(std::shared_ptr<const Document> doc) {
  doc_ = std::move(doc);
  deferred_.clear();
  QObject::disconnect(firstReady_);
  int first = -1;
  for (std::size_t i = 0; i < pages_.size(); ++i) {
    const bool fits = doc_ && pages_[i]->accepts(*doc_);
    sideList_->item(int(i))->setHidden(!fits);
    if (fits && first < 0) first = int(i);
  }
  // A freshly opened document starts on its initial view (initialView()) when it has that
  // view; otherwise the current view is kept across documents when it fits the new one.
  int shown = -1;
  if (first >= 0) {
    const int current = sideList_->currentRow();
    shown = current >= 0 && !sideList_->item(current)->isHidden() ? current : first;
    for (std::size_t i = 0; i < pages_.size(); ++i)
      if (!wantedView_.isEmpty() && pages_[i]->viewKey() == wantedView_ &&
          !sideList_->item(int(i))->isHidden())
        shown = int(i);
  }
  wantedView_.clear();
  // Staged loading: the page shown first loads alone (the Summary of a report is on screen as
  // soon as its own figures are read, not after every page's share of the two cores); the
  // others get the document once it is ready (or failed), or as soon as they are shown. Pages
  // without the document say they are not ready, so nothing waiting on them is misled.
  for (std::size_t i = 0; i < pages_.size(); ++i) {
    Page* p = pages_[i];
    const bool fits = !sideList_->item(int(i))->isHidden();
    if (fits && int(i) != shown) {
      p->setDocument(nullptr);
      deferred_.push_back(p);
    } else {
      p->setDocument(fits ? doc_ : nullptr);
    }
  }
  if (shown >= 0) {
    Page* p = pages_[std::size_t(shown)];
    if (p->isReady()) {
      QTimer::singleShot(0, this, [this] { loadDeferredPages(); });
    } else {
      firstReady_ = connect(p, &Page::readyChanged, this, [this](bool ready) {
        if (ready) loadDeferredPages();
      });
      connect(
          p, &Page::errorOccurred, this, [this] { loadDeferredPages(); }, Qt::SingleShotConnection);
    }
  }
  sideList_->setVisible(doc_ != nullptr);
  sidePanel_->setVisible(doc_ != nullptr);
  updateInstanceSelector();
  updateViewActions();
  if (shown >= 0) {
    sideList_->setCurrentRow(shown);
    stack_->setCurrentWidget(pages_[std::size_t(shown)]);
  } else {
    stack_->setCurrentWidget(home_);
  }
  updateTitle();
}

bool MainWindow::selectInstance(unsigned instance) {
  if (!doc_ || !doc_->isJob()) {
    showError(tr("Choose an instance"),
              tr("The open document is not a poprun job folder: it has no instances."));
    return false;
  }
  try {
    auto doc = doc_->withInstance(instance);
    // The view shown stays; its figures are now those of the chosen instance.
    if (Page* p = currentPage()) wantedView_ = p->viewKey();
    setDocument(std::move(doc));
    return true;
  } catch (const DocumentError& e) {
    showError(tr("Choose an instance"), QString::fromUtf8(e.what()));
    updateInstanceSelector();
    return false;
  }
}

void MainWindow::updateInstanceSelector() {
  const bool job = doc_ && doc_->isJob();
  instanceRow_->setVisible(job);
  QSignalBlocker block(instanceBox_);
  instanceBox_->clear();
  if (!job) return;
  // The number alone fits beside the label in the side list's width; the label says of what.
  instanceLabel_->setText(doc_->base() ? tr("Instance (both jobs)")
                                       : tr("Instance (of %1)").arg(doc_->instanceCount()));
  for (unsigned i = 0; i < doc_->instanceCount(); ++i)
    instanceBox_->addItem(QString::number(i));
  instanceBox_->setCurrentIndex(int(doc_->instanceIndex()));
}

void MainWindow::loadPage(Page* page) {
  const auto it = std::find(deferred_.begin(), deferred_.end(), page);
  if (it == deferred_.end()) return;
  deferred_.erase(it);
  page->setDocument(doc_);
}

void MainWindow::loadDeferredPages() {
  QObject::disconnect(firstReady_);
  const std::vector<Page*> pages = std::move(deferred_);
  deferred_.clear();
  for (Page* p : pages)
    p->setDocument(doc_);
}

void MainWindow::closeDocument() {
  remoteTitle_.clear();
  setDocument(nullptr);
}

void MainWindow::updateViewActions() {
  // Ctrl+N opens the N-th view of the side list as the user sees it, and a view the document
  // has no page for (Host trace for a report, Compare for one report) cannot be chosen.
  int shown = 0;
  for (std::size_t i = 0; i < viewActions_.size(); ++i) {
    const bool visible = doc_ && !sideList_->item(int(i))->isHidden();
    QAction* a = viewActions_[i];
    a->setEnabled(visible);
    a->setShortcut(visible && shown < 9 ? QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + shown))
                                        : QKeySequence());
    if (visible) ++shown;
  }
}

Page* MainWindow::page(const QString& viewKey) const {
  for (Page* p : pages_)
    if (p->viewKey() == viewKey) return p;
  return nullptr;
}

bool MainWindow::showView(const QString& viewKey) {
  for (std::size_t i = 0; i < pages_.size(); ++i)
    if (pages_[i]->viewKey() == viewKey) {
      if (sideList_->item(int(i))->isHidden()) return false;
      sideList_->setCurrentRow(int(i));
      return true;
    }
  return false;
}

Page* MainWindow::currentPage() const {
  return qobject_cast<Page*>(stack_->currentWidget());
}

void MainWindow::showError(const QString& title, const QString& message) {
  // Non-modal, so that loading elsewhere goes on and tests can inspect and close it.
  if (errorBox_) errorBox_->close();
  errorBox_ = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Close, this);
  errorBox_->setAttribute(Qt::WA_DeleteOnClose);
  errorBox_->open();
}

void MainWindow::chooseAndOpen() {
  // A file, or a report directory (widgets/ReportFileDialog).
  ReportFileDialog dialog(this);
  if (dialog.exec() == QDialog::Accepted && !dialog.chosenPath().isEmpty())
    openPath(dialog.chosenPath());
}

void MainWindow::chooseAndCompare() {
  const QString base =
      QFileDialog::getExistingDirectory(this, tr("Base report directory (before)"));
  if (base.isEmpty()) return;
  const QString current =
      QFileDialog::getExistingDirectory(this, tr("Report directory to compare (after)"));
  if (!current.isEmpty()) openComparison(base, current);
}

void MainWindow::saveCurrentImage() {
  Page* p = currentPage();
  if (!p) return;
  saveWidgetImageInteractively(p->imageWidget(), p->viewKey());
}

void MainWindow::updateTitle() {
  // A remote report is named as the user typed it, not by the cache holding its files.
  const QString name = !doc_ ? QString() : !remoteTitle_.isEmpty() ? remoteTitle_ : doc_->title();
  setWindowTitle(doc_ ? name + QStringLiteral(" — Tessera") : QStringLiteral("Tessera"));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.size() == 2)
    openComparison(urls[0].toLocalFile(), urls[1].toLocalFile());
  else if (!urls.isEmpty())
    openPath(urls.front().toLocalFile());
}

void MainWindow::linkGraphSelection() {
  // A node selected in the graph selects what it is elsewhere: a variable's operation and the
  // tiles it is mapped to, a compute set's operation and the tiles of its vertices.
  // Program tree, Operations <-> Execution trace, Memory, Liveness: the pages follow their
  // document's one SelectionModel (core/SelectionModel.hpp), not each other.
  auto* graph = qobject_cast<GraphPage*>(page(QStringLiteral("graph")));
  auto* memory = qobject_cast<MemoryPage*>(page(QStringLiteral("memory")));
  auto* operations = qobject_cast<OperationsPage*>(page(QStringLiteral("operations")));
  if (!graph) return;
  auto follow = [memory, operations](const QString& name, const QString& tiles) {
    if (operations) operations->selectOperationOf(name);
    if (memory && !tiles.isEmpty()) memory->selectTiles(tiles);
  };
  connect(graph, &GraphPage::variableSelected, this, follow);
  connect(graph, &GraphPage::computeSetSelected, this, follow);
}

} // namespace tessera::viewer
