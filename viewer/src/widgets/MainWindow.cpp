// Main window: navigation between pages, menus, opening documents.
#include "widgets/MainWindow.hpp"

#include "charts/ChartWidget.hpp"
#include "core/Background.hpp"
#include "core/Settings.hpp"
#include "widgets/ExecutionPage.hpp"
#include "widgets/GraphPage.hpp"
#include "widgets/HomePage.hpp"
#include "widgets/MemoryPage.hpp"
#include "widgets/OperationsPage.hpp"
#include "widgets/Page.hpp"
#include "widgets/PageRegistry.hpp"
#include "widgets/ProgramTreePage.hpp"
#include "widgets/ReportFileDialog.hpp"

#include <QActionGroup>
#include <QApplication>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
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
      progressLabel_(new QLabel(this)) {
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
  sideList_->setObjectName(QStringLiteral("pageList"));
  connect(sideList_, &QListWidget::currentRowChanged, this, [this](int row) {
    if (row < 0 || row >= int(pages_.size())) return;
    loadPage(pages_[std::size_t(row)]); // a page shown before its turn loads now
    stack_->setCurrentWidget(pages_[std::size_t(row)]);
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
  auto* splitter = new QSplitter(this);
  splitter->addWidget(sideList_);
  splitter->addWidget(stack_);
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  splitter->setCollapsible(0, false);
  splitter->setSizes({170, 1100});
  setCentralWidget(splitter);
  sideList_->hide();

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
  file->addAction(tr("&Reload"), QKeySequence::Refresh, this, [this] {
    if (doc_) setDocument(doc_);
  });
  file->addAction(tr("Save &image of this view…"), QKeySequence::Save, this,
                  &MainWindow::saveCurrentImage);
  file->addAction(tr("&Close"), QKeySequence::Close, this, &MainWindow::closeDocument);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

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
  }

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Keyboard shortcuts"), this, [this] {
    QMessageBox::information(
        this, tr("Keyboard shortcuts"),
        tr("<table>"
           "<tr><td>Ctrl+O</td><td>open a report or trace</td></tr>"
           "<tr><td>Ctrl+Shift+O</td><td>compare two reports</td></tr>"
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
  try {
    setDocument(Document::resolve(path));
    if (rememberRecent_) Settings::instance().addRecentFile(path);
    return true;
  } catch (const DocumentError& e) {
    showError(tr("Cannot open"), QString::fromUtf8(e.what()));
    // A recent file that has moved or gone: offer to forget it.
    if (!QFileInfo::exists(path) && Settings::instance().recentFiles().contains(path)) {
      QPushButton* forget =
          errorBox_->addButton(tr("Remove from recent files"), QMessageBox::ActionRole);
      connect(forget, &QPushButton::clicked, this,
              [path] { Settings::instance().removeRecentFile(path); });
    }
    return false;
  }
}

bool MainWindow::openComparison(const QString& basePath, const QString& currentPath) {
  try {
    setDocument(Document::comparison(basePath, currentPath));
    if (rememberRecent_) Settings::instance().addRecentComparison(basePath, currentPath);
    return true;
  } catch (const DocumentError& e) {
    showError(tr("Cannot compare"), QString::fromUtf8(e.what()));
    return false;
  }
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
  // Keep the current view across documents when it fits the new one.
  int shown = -1;
  if (first >= 0) {
    const int current = sideList_->currentRow();
    shown = current >= 0 && !sideList_->item(current)->isHidden() ? current : first;
  }
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
  updateViewActions();
  if (shown >= 0) {
    sideList_->setCurrentRow(shown);
    stack_->setCurrentWidget(pages_[std::size_t(shown)]);
  } else {
    stack_->setCurrentWidget(home_);
  }
  updateTitle();
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
  setWindowTitle(doc_ ? doc_->title() + QStringLiteral(" — Tessera") : QStringLiteral("Tessera"));
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
