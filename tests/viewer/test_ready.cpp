// A page says it is ready only when everything it shows has arrived: `--screenshot` (and any
// test) captures the window at that moment, so a page ready too early gives a PNG of unfinished
// work ("Reading tile details 0%", empty figures tables, a BSP view without its tiles).
//
// Each view is opened in a main window set up as --screenshot sets it up, on one report, on the
// out-of-memory report, on a comparison and (Host trace) on a .pvti, and looked at the moment it
// turns ready: no task it started may still be on its way (ProgressHub::pendingFor: a result not
// yet delivered, however fast it would come), no visible text may say it is still reading, and
// no progress bar may show.
#include "ViewerTestUtil.hpp"
#include "core/Background.hpp"
#include "widgets/ExecutionPage.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/Page.hpp"

#include <QLabel>
#include <QProgressBar>
#include <QRegularExpression>
#include <QTest>

using namespace tessera::viewer;

namespace {

/// What a page showed the moment it turned ready.
struct AtReady {
  bool reached = false;
  int pending = -1;
  QStringList loadingTexts;
  int progressBars = 0;
};

/// Visible labels of `window` that say work is still going on.
QStringList loadingTexts(QWidget* window) {
  static const QRegularExpression busy(
      QStringLiteral("\\b(reading|indexing|analysing|loading|laying out|adding "
                     "up)\\b.*(…|\\.\\.\\.|\\d+ ?%| of )"),
      QRegularExpression::CaseInsensitiveOption);
  QStringList found;
  for (QLabel* label : window->findChildren<QLabel*>())
    if (label->isVisibleTo(window) && busy.match(label->text()).hasMatch())
      found << label->objectName() + QStringLiteral(": ") + label->text();
  return found;
}

int visibleProgressBars(QWidget* window) {
  int n = 0;
  for (QProgressBar* bar : window->findChildren<QProgressBar*>())
    n += bar->isVisibleTo(window) ? 1 : 0;
  return n;
}

} // namespace

class ReadyTest : public QObject {
  Q_OBJECT
private slots:
  void pageIsCompleteWhenReady_data() {
    QTest::addColumn<QString>("view");
    QTest::addColumn<QStringList>("documents"); // two: a comparison
    QTest::addColumn<int>("mode");              // the execution trace's mode
    const QStringList mlp{viewer_test::mlpReport()}, pipeline{viewer_test::pipelineReport()},
        oom{viewer_test::oomReport()},
        compared{viewer_test::mlpReport(), viewer_test::mlpBigReport()};
    const int flat = int(ExecutionTimeline::Mode::Flat);
    for (const char* v : {"summary", "insights", "memory", "liveness", "tilemap", "programs",
                          "operations", "execution", "graph"}) {
      const QString view = QString::fromLatin1(v);
      QTest::newRow(qPrintable(view + QStringLiteral("-mlp"))) << view << mlp << flat;
      QTest::newRow(qPrintable(view + QStringLiteral("-pipeline"))) << view << pipeline << flat;
      QTest::newRow(qPrintable(view + QStringLiteral("-oom"))) << view << oom << flat;
      QTest::newRow(qPrintable(view + QStringLiteral("-compare"))) << view << compared << flat;
    }
    QTest::newRow("compare-compare") << QStringLiteral("compare") << compared << flat;
    for (const ExecutionTimeline::Mode m :
         {ExecutionTimeline::Mode::Flame, ExecutionTimeline::Mode::Bsp}) {
      const QString name =
          m == ExecutionTimeline::Mode::Bsp ? QStringLiteral("bsp") : QStringLiteral("flame");
      QTest::newRow(qPrintable(QStringLiteral("execution-%1-mlp").arg(name)))
          << QStringLiteral("execution") << mlp << int(m);
      QTest::newRow(qPrintable(QStringLiteral("execution-%1-pipeline").arg(name)))
          << QStringLiteral("execution") << pipeline << int(m);
      QTest::newRow(qPrintable(QStringLiteral("execution-%1-compare").arg(name)))
          << QStringLiteral("execution") << compared << int(m);
    }
    QTest::newRow("trace") << QStringLiteral("trace") << QStringList{viewer_test::traceFile()}
                           << flat;
  }

  void pageIsCompleteWhenReady() {
    QFETCH(QString, view);
    QFETCH(QStringList, documents);
    QFETCH(int, mode);
    // As takeScreenshot (app/Screenshot.cpp) sets the window up.
    MainWindow window;
    window.setRememberRecent(false);
    window.setShowsProgress(false);
    window.resize(1400, 900);
    auto* execution = qobject_cast<ExecutionPage*>(window.page(QStringLiteral("execution")));
    QVERIFY(execution);
    execution->setMode(ExecutionTimeline::Mode(mode));
    window.show();
    QVERIFY(documents.size() == 2 ? window.openComparison(documents[0], documents[1])
                                  : window.openPath(documents[0]));
    Page* page = window.page(view);
    QVERIFY(page);
    if (!window.showView(view)) QSKIP("the view has nothing to show for this document");
    AtReady seen;
    connect(page, &Page::readyChanged, this, [&](bool ready) {
      if (!ready || seen.reached) return;
      seen.reached = true;
      seen.pending = ProgressHub::instance().pendingFor(page);
      seen.loadingTexts = loadingTexts(&window);
      seen.progressBars = visibleProgressBars(&window);
    });
    QString error;
    connect(page, &Page::errorOccurred, this, [&](const QString& message) { error = message; });
    QVERIFY(!page->isReady());
    QVERIFY2(QTest::qWaitFor([&] { return seen.reached || !error.isEmpty(); }, 120000),
             qPrintable(view));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(
        seen.pending == 0,
        qPrintable(
            QStringLiteral("%1 of its tasks still on their way when ready").arg(seen.pending)));
    QVERIFY2(seen.loadingTexts.isEmpty(),
             qPrintable(seen.loadingTexts.join(QStringLiteral(" | "))));
    QCOMPARE(seen.progressBars, 0);
  }
};

QTEST_MAIN(ReadyTest)
#include "test_ready.moc"
