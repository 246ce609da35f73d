// The main window: opening reports and traces, errors in a dialog instead of a crash, switching
// views, drag and drop, recent files, and the progress of loading in the status bar.
#include "ViewerTestUtil.hpp"
#include "charts/ExecutionTimeline.hpp"
#include "core/Background.hpp"
#include "core/DemoReport.hpp"
#include "core/ExecutionIndex.hpp"
#include "core/OperationsData.hpp"
#include "core/ProgramTreeData.hpp"
#include "core/SelectionModel.hpp"
#include "core/Settings.hpp"
#include "models/OperationsModel.hpp"
#include "models/ProgramTreeModel.hpp"
#include "widgets/ExecutionPage.hpp"
#include "widgets/HomePage.hpp"
#include "widgets/LivenessPage.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/MemoryPage.hpp"
#include "widgets/OperationsPage.hpp"
#include "widgets/Page.hpp"
#include "widgets/ProgramTreePage.hpp"
#include "widgets/ReportFileDialog.hpp"

#include <QAbstractButton>
#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeView>
#include <QUrl>
#include <pva/Analysis.hpp>
#include <pva/ProgramTotals.hpp>
#include <set>

using namespace tessera::viewer;

class MainWindowTest : public QObject {
  Q_OBJECT
private slots:
  void opensAReportOnItsPages() {
    MainWindow w;
    w.show();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    QVERIFY(w.document() && w.document()->isReport());
    QVERIFY(w.currentPage() != nullptr);
    QCOMPARE(w.currentPage()->viewKey(), QStringLiteral("summary"));
    QVERIFY(viewer_test::waitReady(w.currentPage()));
    QVERIFY(w.windowTitle().contains(QStringLiteral("mlp")));
    QCOMPARE(Settings::instance().recentFiles().front(), viewer_test::mlpReport());
    // Every page that takes reports loads.
    for (Page* p : w.pages()) {
      if (!p->accepts(*w.document())) continue;
      QVERIFY2(w.showView(p->viewKey()), qPrintable(p->viewKey()));
      QVERIFY2(viewer_test::waitReady(p), qPrintable(p->viewKey()));
    }
    QVERIFY(!w.showView(QStringLiteral("no-such-view")));
  }
  // Staged loading (issue 37): the page shown first loads alone, so the Summary is not behind
  // every other page's share of the thread pool; the others load once it is ready, and a page
  // shown before its turn loads at once.
  void theFirstPageLoadsBeforeTheOthers() {
    MainWindow w;
    w.setRememberRecent(false);
    w.show();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    ProgressHub& hub = ProgressHub::instance();
    Page* summary = w.currentPage();
    QCOMPARE(summary->viewKey(), QStringLiteral("summary"));
    QVERIFY(hub.pendingFor(summary) > 0);
    Page* memory = w.page(QStringLiteral("memory"));
    Page* execution = w.page(QStringLiteral("execution"));
    QCOMPARE(hub.pendingFor(memory), 0); // waits for the Summary
    QCOMPARE(hub.pendingFor(execution), 0);
    QVERIFY(!memory->isReady());
    // Shown before its turn: it loads now, beside the Summary.
    QVERIFY(w.showView(QStringLiteral("memory")));
    QVERIFY(hub.pendingFor(memory) > 0 || memory->isReady());
    QVERIFY(viewer_test::waitReady(summary));
    QVERIFY(viewer_test::waitReady(memory));
    // The Summary ready, every other page got the document without being shown.
    QVERIFY(viewer_test::waitReady(execution));
    for (Page* p : w.pages())
      if (p->accepts(*w.document()) && p->viewKey() != QStringLiteral("graph"))
        QVERIFY2(viewer_test::waitReady(p), qPrintable(p->viewKey()));
    // Another document starts over: the current page first.
    QVERIFY(w.openPath(viewer_test::pipelineReport()));
    QCOMPARE(w.currentPage(), memory);
    QCOMPARE(hub.pendingFor(summary), 0);
    QVERIFY(!summary->isReady());
    QVERIFY(viewer_test::waitReady(memory));
    QVERIFY(viewer_test::waitReady(summary));
  }
  // Program tree <-> Execution trace (issue 37): a place selected in the tree highlights the
  // steps of everything under it in the trace, as many as libpva counts; a step clicked in the
  // trace selects its program in the tree.
  void programTreeAndExecutionTraceFollowEachOther() {
    MainWindow w;
    w.setRememberRecent(false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    auto* programs = qobject_cast<ProgramTreePage*>(w.page(QStringLiteral("programs")));
    auto* execution = qobject_cast<ExecutionPage*>(w.page(QStringLiteral("execution")));
    QVERIFY(programs && execution);
    QVERIFY(w.showView(QStringLiteral("execution")));
    QVERIFY(viewer_test::waitReady(execution));
    QVERIFY(w.showView(QStringLiteral("programs")));
    QVERIFY(viewer_test::waitReady(programs));
    const ProgramTreeData& tree = *programs->model()->tree();
    const auto analysis = pva::analyseExecution(w.document()->report());
    const auto totals = pva::programTotals(w.document()->report(), analysis.allRuns);
    ExecutionTimeline* tl = execution->timeline();
    // A step program that ran, then a container holding several.
    std::uint32_t stepNode = 0, containerNode = 0;
    bool haveStep = false, haveContainer = false;
    for (std::uint32_t n = 0; n < tree.nodes.size(); ++n) {
      const std::uint32_t id = tree.nodes[n].program;
      if (!haveStep && tree.programs[id].isStep && analysis.allRuns.programs[id].executions > 1) {
        stepNode = n;
        haveStep = true;
      }
      if (!haveContainer && !tree.programs[id].isStep &&
          tree.nodes[n].parent != ProgramTreeData::noParent &&
          totals[id].steps > analysis.allRuns.programs[tree.nodes[stepNode].program].executions) {
        containerNode = n;
        haveContainer = true;
      }
    }
    QVERIFY(haveStep && haveContainer);
    for (const std::uint32_t node : {stepNode, containerNode}) {
      programs->tree()->setCurrentIndex(programs->model()->indexOfNode(node));
      QVERIFY(tl->hasHighlight());
      // The MLP runs on one IPU: its one lane holds every step once.
      QCOMPARE(std::uint64_t(tl->highlightedEntries(0)), totals[tree.nodes[node].program].steps);
    }
    // Back: a clicked step of another program selects that program in the tree.
    const ExecutionIndex& index = *tl->tracks().back().index;
    std::uint64_t step = 0;
    while (step < index.loadedSteps() && index.stepProgram(step) == tree.nodes[stepNode].program)
      ++step;
    QVERIFY(step < index.loadedSteps());
    emit tl->stepClicked(tl->tracks().size() - 1, step);
    const QModelIndex current = programs->tree()->currentIndex();
    QCOMPARE(current.data(ProgramTreeModel::ProgramIdRole).toUInt(), index.stepProgram(step));
    // ...and the trace now highlights that program's steps.
    QCOMPARE(std::uint64_t(tl->highlightedEntries(0)),
             analysis.allRuns.programs[index.stepProgram(step)].executions);
  }
  // One selection per document (issue 37, item 4): an operation selected in Operations
  // highlights the steps of its programs in the Execution trace and puts its largest variables
  // in the Memory and Liveness Variables boxes; a layer highlights all its operations' steps;
  // a step clicked in the trace selects its operation in Operations and its program in the
  // Program tree, and the variables the operation put in the boxes go again.
  void operationsLayersAndTheTraceShareOneSelection() {
    MainWindow w;
    w.setRememberRecent(false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    auto* operations = qobject_cast<OperationsPage*>(w.page(QStringLiteral("operations")));
    auto* execution = qobject_cast<ExecutionPage*>(w.page(QStringLiteral("execution")));
    auto* programs = qobject_cast<ProgramTreePage*>(w.page(QStringLiteral("programs")));
    auto* liveness = qobject_cast<LivenessPage*>(w.page(QStringLiteral("liveness")));
    auto* memory = qobject_cast<MemoryPage*>(w.page(QStringLiteral("memory")));
    QVERIFY(operations && execution && programs && liveness && memory);
    for (const char* view : {"execution", "programs", "liveness", "memory", "operations"}) {
      QVERIFY(w.showView(QLatin1String(view)));
      QVERIFY(viewer_test::waitReady(w.currentPage()));
    }
    const auto analysis = pva::analyseExecution(w.document()->report());
    ExecutionTimeline* tl = execution->timeline();
    SelectionModel& selection = w.document()->session().selection();
    auto executionsOf = [&](const std::vector<const OperationInfo*>& ops) {
      std::set<std::uint64_t> ids;
      for (const OperationInfo* op : ops)
        for (const OperationProgram& p : op->programs)
          ids.insert(p.id);
      std::uint64_t n = 0;
      for (const std::uint64_t id : ids)
        n += analysis.allRuns.programs[id].executions;
      return n;
    };

    // An operation: its steps, its largest variables.
    QVERIFY(operations->model()->rowCount() > 1);
    const OperationInfo* op = operations->model()->operationAt(0);
    QVERIFY(!op->variables.empty());
    operations->table()->selectRow(0);
    QCOMPARE(selection.current().origin, Selection::Origin::Operation);
    QVERIFY(tl->hasHighlight());
    QCOMPARE(std::uint64_t(tl->highlightedEntries(0)), executionsOf({op}));
    QVERIFY(executionsOf({op}) > 0);
    const QString names = selection.current().variables.join(QStringLiteral("; "));
    QVERIFY(!names.isEmpty());
    QVERIFY(selection.current().variables.size() <= int(OperationsPage::kMaxSelectedVariables));
    QVERIFY(selection.current().variables.contains(op->variables.front().name) ||
            op->variables.size() > OperationsPage::kMaxSelectedVariables);
    QCOMPARE(liveness->variableFilterEdit()->text(), names);
    QCOMPARE(memory->variableFilterEdit()->text(), names);
    // What a user sees (build/tests/viewer/tmp/selection/*.png, looked at for the docs).
    {
      const QDir shots(viewer_test::tmpDir(QStringLiteral("selection")));
      QVERIFY(w.showView(QStringLiteral("execution")));
      QVERIFY(w.grab().save(shots.filePath(QStringLiteral("execution.png"))));
      QVERIFY(w.showView(QStringLiteral("liveness")));
      QTest::qWait(200);
      QVERIFY(w.grab().save(shots.filePath(QStringLiteral("liveness.png"))));
      QVERIFY(w.showView(QStringLiteral("operations")));
    }

    // A layer: every operation of it.
    QTableView* layers = operations->layersTable();
    QVERIFY(layers->model()->rowCount() > 0);
    const QString layer = layers->model()->index(0, 0).data().toString();
    layers->setCurrentIndex(layers->model()->index(0, 0));
    QCOMPARE(selection.current().origin, Selection::Origin::Layer);
    std::vector<const OperationInfo*> inLayer;
    for (const OperationInfo& o : operations->model()->operations()->operations)
      if (o.layer == layer) inLayer.push_back(&o);
    QVERIFY(!inLayer.empty());
    QCOMPARE(std::uint64_t(tl->highlightedEntries(0)), executionsOf(inLayer));
    // The operation's variables leave the boxes with it.
    QVERIFY(liveness->variableFilterEdit()->text().isEmpty());
    QVERIFY(memory->variableFilterEdit()->text().isEmpty());

    // Back: a step of another operation clicked in the trace selects that operation.
    const ExecutionIndex& index = *tl->tracks().back().index;
    const OperationInfo* other = operations->model()->operationAt(1);
    std::set<std::uint64_t> otherPrograms;
    for (const OperationProgram& p : other->programs)
      otherPrograms.insert(p.id);
    std::uint64_t step = 0;
    while (step < index.loadedSteps() && !otherPrograms.count(index.stepProgram(step)))
      ++step;
    QVERIFY(step < index.loadedSteps());
    emit tl->stepClicked(tl->tracks().size() - 1, step);
    QCOMPARE(selection.current().origin, Selection::Origin::ExecutionStep);
    const QModelIndexList rows = operations->table()->selectionModel()->selectedRows();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(operations->model()->operationAt(rows.front().row())->debugPath, other->debugPath);
    QCOMPARE(programs->tree()->currentIndex().data(ProgramTreeModel::ProgramIdRole).toUInt(),
             index.stepProgram(step));
    QCOMPARE(std::uint64_t(tl->highlightedEntries(0)),
             analysis.allRuns.programs[index.stepProgram(step)].executions);
    QVERIFY(liveness->variableFilterEdit()->text().isEmpty());
  }

  // Ctrl+N opens the N-th entry of the side list as shown, and views the document has no page
  // for cannot be chosen from the View menu.
  void shortcutsFollowTheSideList() {
    MainWindow w;
    w.show();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w)); // shortcuts go to the active window
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    auto* list = w.findChild<QListWidget*>(QStringLiteral("pageList"));
    QVERIFY(list);
    std::vector<int> visible;
    for (int i = 0; i < list->count(); ++i)
      if (!list->item(i)->isHidden()) visible.push_back(i);
    QVERIFY(visible.size() >= 5);
    QVERIFY(int(visible.size()) < list->count()); // a report hides the host trace view
    for (std::size_t n = std::min<std::size_t>(visible.size(), 9); n-- > 0;) {
      QTest::keyClick(&w, Qt::Key(Qt::Key_1 + int(n)), Qt::ControlModifier);
      QCOMPARE(list->currentRow(), visible[n]);
      QCOMPARE(w.currentPage(), w.pages()[std::size_t(visible[n])]);
    }
    for (std::size_t i = 0; i < w.pages().size(); ++i) {
      auto* a = w.findChild<QAction*>(QStringLiteral("view-") + w.pages()[i]->viewKey());
      QVERIFY(a);
      QCOMPARE(a->isEnabled(), !list->item(int(i))->isHidden());
    }
    QVERIFY(!w.findChild<QAction*>(QStringLiteral("view-compare"))->isEnabled());
    // Letters typed into the side list switch nothing (Qt's keyboard search would jump to
    // "Memory" on an "m" meant for a search box).
    QVERIFY(w.showView(QStringLiteral("summary")));
    list->setFocus();
    const Page* before = w.currentPage();
    QTest::keyClicks(list, QStringLiteral("moltepgi"));
    QCOMPARE(w.currentPage(), before);
    w.closeDocument();
    QVERIFY(!w.findChild<QAction*>(QStringLiteral("view-summary"))->isEnabled());
  }
  void theSideListKeepsItsNamesAt1000Pixels() {
    // Issue 37: at 1000 px a wide page squeezed the side list and elided its names.
    MainWindow w;
    w.resize(1000, 700);
    w.show();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    auto* list = w.findChild<QListWidget*>(QStringLiteral("pageList"));
    QVERIFY(list);
    for (const char* view : {"summary", "insights", "memory", "liveness", "operations"}) {
      QVERIFY(w.showView(QString::fromLatin1(view)));
      QCoreApplication::processEvents();
      for (int i = 0; i < list->count(); ++i) {
        if (list->item(i)->isHidden()) continue;
        const int text = list->fontMetrics().horizontalAdvance(list->item(i)->text());
        QVERIFY2(list->viewport()->width() >= text + 8,
                 qPrintable(QStringLiteral("%1 on %2: %3 px for %4 px")
                                .arg(list->item(i)->text(), QString::fromLatin1(view))
                                .arg(list->viewport()->width())
                                .arg(text)));
      }
    }
    w.grab().save(viewer_test::tmpDir(QStringLiteral("side-list")) +
                  QStringLiteral("/at-1000.png"));
  }

  void badFilesShowAnErrorDialogAndKeepTheOpenReport_data() {
    QTest::addColumn<QString>("path");
    QTest::newRow("missing") << QStringLiteral("/no/such/profile.pop");
    QTest::newRow("random bytes") << viewer_test::testDataDir() + QStringLiteral("/random.pop");
    QTest::newRow("truncated") << viewer_test::testDataDir() + QStringLiteral("/cut.pop");
    QTest::newRow("older version")
        << viewer_test::testDataDir() + QStringLiteral("/older_major.pop");
  }
  void badFilesShowAnErrorDialogAndKeepTheOpenReport() {
    QFETCH(QString, path);
    MainWindow w;
    w.show();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    auto before = w.document();
    QVERIFY(!w.openPath(path));
    QMessageBox* box = w.errorDialog();
    QVERIFY(box != nullptr);
    QVERIFY(box->isVisible());
    const QString name = QFileInfo(path).fileName();
    QVERIFY2(box->text().contains(name), qPrintable(box->text()));
    QCOMPARE(w.document(), before);
    box->close();
  }
  void statusBarShowsTheTasksStillRunning() {
    MainWindow w;
    auto* bar = w.statusBar()->findChild<QProgressBar*>();
    auto* label = w.statusBar()->findChild<QLabel*>();
    QVERIFY(bar && label);
    ProgressHub& hub = ProgressHub::instance();
    emit hub.started(QStringLiteral("Reading tile memory"));
    emit hub.started(QStringLiteral("Reading liveness"));
    emit hub.progress(QStringLiteral("Reading tile memory"), 40);
    QVERIFY(!bar->isHidden());
    QCOMPARE(bar->value(), 40);
    QVERIFY(label->text().startsWith(QStringLiteral("Reading tile memory")));
    QVERIFY(label->text().contains(QStringLiteral("1 more")));
    // The shown task ends: the one still running takes its place, with its own percentage.
    emit hub.finished(QStringLiteral("Reading tile memory"));
    QCOMPARE(label->text(), QStringLiteral("Reading liveness"));
    QCOMPARE(bar->value(), 0);
    // A late report of a finished task does not bring it back.
    emit hub.progress(QStringLiteral("Reading tile memory"), 100);
    QCOMPARE(label->text(), QStringLiteral("Reading liveness"));
    emit hub.finished(QStringLiteral("Reading liveness"));
    QVERIFY(bar->isHidden());
    QVERIFY(label->text().isEmpty());
  }

  // A headless screenshot must not show another view's work in progress ("Reading tile details
  // 0%" over a ready Operations view): with progress turned off the status bar stays empty while
  // every page loads, and turning it back on shows the task still running.
  void aWindowForScreenshotsShowsNoProgress() {
    MainWindow w;
    w.setRememberRecent(false);
    w.setShowsProgress(false);
    auto* bar = w.statusBar()->findChild<QProgressBar*>();
    auto* label = w.statusBar()->findChild<QLabel*>();
    QVERIFY(bar && label);
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    QVERIFY(w.showView(QStringLiteral("operations")));
    QElapsedTimer timer;
    timer.start();
    bool sawTasks = false;
    while (timer.elapsed() < 20000 && !(sawTasks && ProgressHub::instance().running() == 0)) {
      sawTasks = sawTasks || ProgressHub::instance().running() > 0;
      QVERIFY2(bar->isHidden(), "a progress bar in a screenshot window");
      QVERIFY2(label->text().isEmpty(), qPrintable(label->text()));
      QTest::qWait(5);
    }
    QVERIFY(sawTasks); // the pages did load in the background meanwhile
    // Turned back on, the status bar shows what runs (a task of its own name: pages may still
    // start work of theirs).
    ProgressHub& hub = ProgressHub::instance();
    const QString task = QStringLiteral("Test task");
    emit hub.started(task);
    emit hub.progress(task, 0);
    QVERIFY(bar->isHidden());
    w.setShowsProgress(true);
    emit hub.progress(task, 10);
    QVERIFY(!bar->isHidden());
    QVERIFY(label->text().startsWith(task));
    emit hub.finished(task);
    QVERIFY2(!label->text().contains(task), qPrintable(label->text()));
  }

  void dropOpensAReport() {
    MainWindow w;
    w.show();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(viewer_test::mlpReport())});
    // As a drag from a file manager arrives: enter (accepted), then drop.
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    QVERIFY(w.document() && w.document()->isReport());
  }
  void aMissingRecentFileCanBeForgotten() {
    const QString gone = viewer_test::tmpDir(QStringLiteral("gone")) + QStringLiteral("/report");
    Settings::instance().addRecentFile(gone);
    MainWindow w;
    w.show();
    QVERIFY(!w.openPath(gone));
    QMessageBox* box = w.errorDialog();
    QVERIFY(box);
    QAbstractButton* forget = nullptr;
    for (QAbstractButton* b : box->buttons())
      if (b->text().contains(QStringLiteral("Remove"))) forget = b;
    QVERIFY(forget);
    forget->click();
    QVERIFY(!Settings::instance().recentFiles().contains(gone));
  }
  // File > Open's dialog takes a report directory as well as a file; other directories are
  // entered, as in any file dialog.
  void theOpenDialogOpensAReportDirectory() {
    ReportFileDialog dialog;
    dialog.setDirectory(QFileInfo(viewer_test::mlpReport()).absolutePath());
    dialog.selectFile(viewer_test::mlpReport());
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.chosenPath(), QDir::cleanPath(viewer_test::mlpReport()));
    QVERIFY(ReportFileDialog::isReportDirectory(dialog.chosenPath()));

    ReportFileDialog enter;
    const QString fixtures = QFileInfo(viewer_test::mlpReport()).absolutePath();
    QVERIFY(!ReportFileDialog::isReportDirectory(fixtures));
    enter.setDirectory(QFileInfo(fixtures).absolutePath());
    enter.selectFile(fixtures);
    enter.accept();
    QVERIFY(enter.result() != int(QDialog::Accepted));
    QVERIFY(enter.chosenPath().isEmpty());
    QCOMPARE(QDir::cleanPath(enter.directory().absolutePath()), QDir::cleanPath(fixtures));

    ReportFileDialog file;
    const QString pop = viewer_test::mlpReport() + QStringLiteral("/profile.pop");
    file.setDirectory(viewer_test::mlpReport());
    file.selectFile(pop);
    file.accept();
    QCOMPARE(file.result(), int(QDialog::Accepted));
    QCOMPARE(QFileInfo(file.chosenPath()).canonicalFilePath(), QFileInfo(pop).canonicalFilePath());
    // What the dialog chose opens.
    MainWindow w;
    QVERIFY(w.openPath(dialog.chosenPath()));
    QVERIFY(w.document() && w.document()->isReport());
  }
  // Comparisons are remembered like files, listed on the home screen and in File > Open recent.
  void recentComparisonsReopen() {
    MainWindow w;
    w.show();
    QVERIFY(w.openComparison(viewer_test::mlpReport(), viewer_test::mlpBigReport()));
    const auto recent = Settings::instance().recentComparisons();
    QVERIFY(!recent.isEmpty());
    QCOMPARE(recent.front().base, viewer_test::mlpReport());
    QCOMPARE(recent.front().current, viewer_test::mlpBigReport());
    // The same pair again stays one entry.
    QVERIFY(w.openComparison(viewer_test::mlpReport(), viewer_test::mlpBigReport()));
    QCOMPARE(Settings::instance().recentComparisons().size(), recent.size());
    w.closeDocument();
    HomePage* home = w.findChild<HomePage*>();
    QVERIFY(home);
    QListWidget* list = home->recentComparisonsList();
    QVERIFY(list->count() >= 1);
    QVERIFY(list->item(0)->text().contains(QStringLiteral("mlp-big")));
    emit list->itemActivated(list->item(0));
    QVERIFY(w.document() && w.document()->base());
    QCOMPARE(w.document()->base()->profilePath(),
             Document::resolve(viewer_test::mlpReport())->profilePath());
    // Delete forgets it.
    list->setCurrentRow(0);
    for (QAction* a : list->actions())
      a->trigger();
    QVERIFY(!Settings::instance().recentComparisons().contains(
        {viewer_test::mlpReport(), viewer_test::mlpBigReport()}));
  }
  // The build makes a demo report (samples/mlp, tessera_demo_report) that the home screen opens.
  void theHomeScreenOpensTheDemoReport() {
    const QString demo = demoReportPath();
    QVERIFY2(!demo.isEmpty(), "no share/tessera/demo/mlp beside the executable");
    MainWindow w;
    w.show();
    HomePage* home = w.findChild<HomePage*>();
    QVERIFY(home && home->demoButton()->isVisible());
    w.resize(1000, 700);
    w.grab().save(viewer_test::tmpDir(QStringLiteral("home")) + QStringLiteral("/home.png"));
    home->demoButton()->click();
    QVERIFY(w.document() && w.document()->isReport());
    QVERIFY(w.currentPage() && viewer_test::waitReady(w.currentPage()));
    const pva::Report report = w.document()->report();
    QVERIFY(!report.execution().runs().empty());
    QVERIFY(report.compilation().target().numTiles() > 0);
  }
  void closeReturnsHome() {
    MainWindow w;
    w.show();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    w.closeDocument();
    QVERIFY(!w.document());
    QVERIFY(w.currentPage() == nullptr);
  }
};

QTEST_MAIN(MainWindowTest)
#include "test_mainwindow.moc"
