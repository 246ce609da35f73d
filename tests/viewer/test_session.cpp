// One session per open report (core/Session.hpp): every page of a document reads one pva::Report
// and shares its derivations, so opening a report and looking at every view reads the execution
// steps once (the whole-steps pass, pva::analyseExecution), where each page used to run its own;
// comparing, once per side. Stages are published once, as immutable values the pages share; a
// stage whose derivation is cancelled publishes nothing. The Graph page reads nothing until shown.
#include "ViewerTestUtil.hpp"
#include "core/Background.hpp"
#include "core/OperationsData.hpp"
#include "core/ProgramTreeData.hpp"
#include "widgets/ExecutionPage.hpp"
#include "widgets/GraphPage.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/Page.hpp"

#include <QFile>
#include <QTest>
#include <QThread>
#include <QThreadPool>
#include <atomic>
#include <pva/Analysis.hpp>

using namespace tessera::viewer;

namespace {

/// Shows every view of the window's document in turn and waits until each is ready.
bool visitEveryView(MainWindow& w) {
  for (Page* page : w.pages()) {
    if (!page->accepts(*w.document())) continue;
    if (!w.showView(page->viewKey())) return false;
    if (!viewer_test::waitReady(page, 120)) {
      qWarning("%s never became ready", qPrintable(page->viewKey()));
      return false;
    }
  }
  return true;
}

} // namespace

class SessionTest : public QObject {
  Q_OBJECT
private slots:
  void everyViewOfAReportReadsTheStepsOnce() {
    MainWindow w;
    w.setRememberRecent(false);
    w.resize(1400, 900);
    w.show();
    const std::uint64_t before = pva::detail::executionPasses();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    QVERIFY(visitEveryView(w));
    // Summary, Operations, Program tree, Execution figures (and Insights, flame lanes...): one.
    QCOMPARE(pva::detail::executionPasses(), before + 1);
  }

  void aComparisonReadsEachSidesStepsOnce() {
    MainWindow w;
    w.setRememberRecent(false);
    w.resize(1600, 900);
    w.show();
    const std::uint64_t before = pva::detail::executionPasses();
    QVERIFY(w.openComparison(viewer_test::mlpReport(), viewer_test::mlpBigReport()));
    QVERIFY(visitEveryView(w));
    QCOMPARE(pva::detail::executionPasses(), before + 2); // the Compare view's pva::compare too
  }

  void stagesArePublishedOnceAndShared() {
    const auto doc = Document::resolve(viewer_test::mlpReport());
    Progress p = Progress::standalone(QStringLiteral("test"));
    const auto e1 = doc->session().execution(p), e2 = doc->session().execution(p);
    QVERIFY(e1 && e1 == e2); // the very same immutable value
    const auto o1 = doc->session().operations(p), o2 = doc->session().operations(p);
    QVERIFY(o1 && o1 == o2 && !o1->operations.empty());
    QCOMPARE(loadProgramTree(*doc, p), doc->session().programs(p));
    QCOMPARE(doc->session().summary(), doc->session().summary());
    // Comparing, each side has a session of its own.
    const auto compared =
        Document::comparison(viewer_test::mlpBigReport(), viewer_test::mlpReport());
    QVERIFY(&compared->base()->session() != &compared->session());
    QVERIFY(&compared->session() != &doc->session());
  }

  void aCancelledStagePublishesNothing() {
    const auto doc = Document::resolve(viewer_test::mlpReport());
    Progress cancelled = Progress::standalone(QStringLiteral("test"), true);
    bool threw = false;
    try {
      doc->session().operations(cancelled);
    } catch (const Cancelled&) {
      threw = true;
    }
    QVERIFY(threw);
    const std::uint64_t before = pva::detail::executionPasses();
    Progress p = Progress::standalone(QStringLiteral("test"));
    const auto ops = doc->session().operations(p);
    QVERIFY(ops && !ops->operations.empty());
    QCOMPARE(pva::detail::executionPasses(), before + 1);
  }

  void operationsWithoutDebugInfoReadNoStep() {
    // profile.pop alone: no debug.cbor, so no operations, and no reason to read every step to
    // say so (the Operations view of the bench's 1 M-step report waited for the whole pass).
    const QString dir = viewer_test::tmpDir(QStringLiteral("session-no-debug"));
    QVERIFY(QFile::copy(viewer_test::mlpReport() + QStringLiteral("/profile.pop"),
                        dir + QStringLiteral("/profile.pop")));
    const auto doc = Document::resolve(dir);
    QVERIFY(!doc->report().hasDebugInfo());
    const std::uint64_t before = pva::detail::executionPasses();
    Progress p = Progress::standalone(QStringLiteral("test"));
    const auto ops = doc->session().operations(p);
    QVERIFY(ops && !ops->hasDebugInfo && ops->operations.empty());
    QCOMPARE(pva::detail::executionPasses(), before);
  }

  void theStepsPassHoldsNoSharedThread() {
    // The work waiting on the whole-steps pass queues on stepsPool(), not on Qt's shared pool:
    // with stepsPool() held, the Program tree cannot add its cycles, while Insights and Memory
    // (which read no step) still become ready.
    auto release = std::make_shared<std::atomic<bool>>(false);
    struct Release { // a failed check returns early: the held thread must still go
      std::shared_ptr<std::atomic<bool>> flag;
      ~Release() { flag->store(true); }
    } guard{release};
    stepsPool()->start([release] {
      while (!release->load())
        QThread::msleep(5);
    });
    MainWindow w;
    w.setRememberRecent(false);
    w.resize(1400, 900);
    w.show();
    QVERIFY(w.openPath(viewer_test::mlpReport()));
    QVERIFY(w.showView(QStringLiteral("programs")));
    Page* programs = w.currentPage();
    for (const char* view : {"insights", "memory"}) {
      QVERIFY(w.showView(QString::fromLatin1(view)));
      QVERIFY2(viewer_test::waitReady(w.currentPage(), 60), view);
    }
    QVERIFY(!programs->isReady()); // its cycles are queued behind the held thread
    release->store(true);
    QVERIFY(viewer_test::waitReady(programs, 60));
    stepsPool()->waitForDone();
  }

  void theExecutionIndexRidesOnThePass() {
    // The Execution page's index and its run figures come from one pass over the steps: the
    // index is a pva::StepObserver of the session's pass, so every step is decoded once.
    const auto doc = Document::resolve(viewer_test::mlpReport());
    const std::uint64_t passes = pva::detail::executionPasses(),
                        alone = pva::detail::observerOnlyPasses();
    ExecutionPage page;
    page.resize(1400, 900);
    page.setDocument(doc);
    page.show();
    QVERIFY(viewer_test::waitReady(&page, 120));
    QCOMPARE(pva::detail::executionPasses(), passes + 1);
    QCOMPARE(pva::detail::observerOnlyPasses(), alone);
    // The figures the page shows are the session's (kept by libpva): no pass of their own.
    Progress p = Progress::standalone(QStringLiteral("test"));
    QVERIFY(doc->session().execution(p));
    QCOMPARE(pva::detail::executionPasses(), passes + 1);
  }

  void anIndexAfterThePassReadsTheStepsAlone() {
    // Another page's pass came first (the Program tree's cycles): the figures are kept, so the
    // index cannot ride on a pass; it reads the steps for itself, and no figure is derived again.
    const auto doc = Document::resolve(viewer_test::mlpReport());
    Progress p = Progress::standalone(QStringLiteral("test"));
    QVERIFY(doc->session().execution(p));
    const std::uint64_t passes = pva::detail::executionPasses(),
                        alone = pva::detail::observerOnlyPasses();
    ExecutionPage page;
    page.resize(1400, 900);
    page.setDocument(doc);
    page.show();
    QVERIFY(viewer_test::waitReady(&page, 120));
    QCOMPARE(pva::detail::executionPasses(), passes);
    QCOMPARE(pva::detail::observerOnlyPasses(), alone + 1);
  }

  void theGraphIsReadOnlyWhenShown() {
    GraphPage page;
    page.resize(1000, 700);
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QTest::qWait(200);
    // Hidden: no task started, nothing read.
    QCOMPARE(ProgressHub::instance().pendingFor(&page), 0);
    QVERIFY(!page.fullGraph());
    QVERIFY(!page.isReady());
    page.show();
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(page.fullGraph());
  }
};

QTEST_MAIN(SessionTest)
#include "test_session.moc"
