// poprun job folders in the viewer: one instance's report at a time, two jobs compared instance
// by instance (libpva's pva::pairJobInstances), the folder checked to hold one job
// (pva::validateJob), the Summary's job table (pva::summarizeJob) switching instances, and the
// instances' host traces on one time axis (pva::alignTraces). The jobs are real poprun jobs of
// the collectives probe (make_job_fixtures.cmake): job-a's instance 1 is the slowest.
#include "ViewerTestUtil.hpp"
#include "charts/TraceTimeline.hpp"
#include "core/ComparisonData.hpp"
#include "core/Format.hpp"
#include "core/TraceLayout.hpp"
#include "core/TraceMerge.hpp"
#include "models/ComparisonModel.hpp"
#include "models/JobSummaryModel.hpp"
#include "widgets/ComparePage.hpp"
#include "widgets/HostTracePage.hpp"
#include "widgets/JobSummaryPanel.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/Page.hpp"
#include "widgets/SummaryPage.hpp"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QProcess>
#include <QTableView>
#include <QTest>
#include <pva/Analysis.hpp>
#include <pva/Job.hpp>
#include <pva/TraceAlignment.hpp>

using namespace tessera::viewer;
namespace sec = compare_sections;

namespace {

/// A job folder whose instance_<i>/ is a link to reports[i].
QString makeJob(const QString& name, const QStringList& reports) {
  const QString dir = viewer_test::tmpDir(name);
  for (int i = 0; i < reports.size(); ++i)
    if (!QFile::link(QDir(reports[i]).absolutePath(),
                     QDir(dir).filePath(QStringLiteral("instance_%1").arg(i))))
      qFatal("cannot link %s", qPrintable(reports[i]));
  return dir;
}

/// A poprun job of the fixture ("job-a", "job-b").
QString fixtureJob(const char* name) {
  return QDir(QStringLiteral(VIEWER_FIXTURES_DIR "/../job-fixtures")).filePath(QLatin1String(name));
}

QString instanceDir(const QString& job, int i) {
  return QDir(job).filePath(QStringLiteral("instance_%1").arg(i));
}

std::uint64_t totalCycles(const QString& report) {
  return pva::summarize(Document::resolve(report)->report()).execution.totalCycles;
}

/// The Compare view's "Runs" total: each side's total cycles.
const ComparisonRow* runsTotal(const ComparePage& page) {
  return page.model()->comparison()->totalRow(sec::runs);
}

QString resolveError(const QString& path) {
  try {
    Document::resolve(path);
  } catch (const DocumentError& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

} // namespace

class JobsTest : public QObject {
  Q_OBJECT
private slots:
  void initTestCase() {
    jobA_ = fixtureJob("job-a");
    jobB_ = fixtureJob("job-b");
    // A report written outside poprun is instance 0 of a job of one: a folder of one is a job.
    jobOne_ = makeJob(QStringLiteral("job-one"), {viewer_test::mlp4RunsReport()});
  }

  void aJobOpensOneInstanceAtATime() {
    auto doc = Document::resolve(jobA_);
    QVERIFY(doc->isJob());
    QCOMPARE(doc->instanceCount(), 2u);
    QCOMPARE(doc->instanceIndex(), 0u);
    QVERIFY(doc->profilePath().contains(QStringLiteral("instance_0")));
    QVERIFY(doc->title().endsWith(QStringLiteral("(instance 0 of 2)")));
    auto second = doc->withInstance(1);
    QCOMPARE(second->instanceIndex(), 1u);
    QVERIFY(second->profilePath().contains(QStringLiteral("instance_1")));
    QCOMPARE(pva::summarize(second->report()).execution.totalCycles,
             totalCycles(instanceDir(jobA_, 1)));
    // A report that is not a job has no instances; a job has no instance past its last.
    QVERIFY(!Document::resolve(viewer_test::mlpReport())->isJob());
    try {
      Document::resolve(jobA_, 2);
      QFAIL("instance 2 of a job of 2 opened");
    } catch (const DocumentError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("there is no instance 2")),
               e.what());
    }
  }

  void twoJobsPairInstanceByInstance() {
    auto doc = Document::comparison(jobA_, jobB_, 1);
    QVERIFY(doc->isJob());
    QCOMPARE(doc->instanceCount(), 2u);
    QVERIFY(doc->base()->profilePath().contains(QStringLiteral("job-a/instance_1")));
    QVERIFY(doc->profilePath().contains(QStringLiteral("job-b/instance_1")));
    QVERIFY(doc->instanceMismatch().isEmpty());
    // Different instance counts: the instances both have are paired, and libpva says what is
    // left out.
    auto uneven = Document::comparison(jobA_, jobOne_);
    QCOMPARE(uneven->instanceCount(), 1u);
    QCOMPARE(uneven->instanceMismatch(),
             QString::fromStdString(pva::pairJobInstances(2, 1).mismatch()));
    QVERIFY2(uneven->instanceMismatch().contains(
                 QStringLiteral("instance 1 of the base job has no counterpart")),
             qPrintable(uneven->instanceMismatch()));
    // A job against a single report is refused, as pva compare refuses it.
    try {
      Document::comparison(jobA_, viewer_test::mlpReport());
      QFAIL("a job compared with a report");
    } catch (const DocumentError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("is not a job folder")),
               e.what());
    }
  }

  void theSelectorSwitchesBothSidesInEveryView() {
    MainWindow window;
    window.setRememberRecent(false);
    window.resize(1200, 800);
    window.show();
    QVERIFY(!window.instanceSelector()->isVisible());
    QVERIFY(window.openComparison(jobA_, jobB_));
    QVERIFY(window.instanceSelector()->isVisible());
    QCOMPARE(window.instanceSelector()->count(), 2);
    QVERIFY(window.showView(QStringLiteral("compare")));
    auto* page = qobject_cast<ComparePage*>(window.page(QStringLiteral("compare")));
    QVERIFY(viewer_test::waitReady(page));
    QVERIFY2(page->header()->text().contains(QStringLiteral("Instance 0 of both jobs")),
             qPrintable(page->header()->text()));
    QCOMPARE(runsTotal(*page)->base, totalCycles(instanceDir(jobA_, 0)));
    QCOMPARE(runsTotal(*page)->current, totalCycles(instanceDir(jobB_, 0)));

    // Instance 1: both sides change, the view shown stays, and every page has the new document.
    window.instanceSelector()->activated(1);
    QCOMPARE(window.document()->instanceIndex(), 1u);
    QCOMPARE(window.currentPage()->viewKey(), QStringLiteral("compare"));
    QVERIFY(viewer_test::waitReady(page));
    QVERIFY2(page->header()->text().contains(QStringLiteral("Instance 1 of both jobs")),
             qPrintable(page->header()->text()));
    QCOMPARE(runsTotal(*page)->base, totalCycles(instanceDir(jobA_, 1)));
    QCOMPARE(runsTotal(*page)->current, totalCycles(instanceDir(jobB_, 1)));
    QVERIFY(window.windowTitle().contains(QStringLiteral("instance 1 of both jobs")));
    QVERIFY(window.document()->base()->profilePath().contains(QStringLiteral("job-a/instance_1")));

    // Jobs of different shapes: the Compare view warns first.
    QVERIFY(window.openComparison(jobA_, jobOne_));
    QCOMPARE(window.instanceSelector()->count(), 1);
    QVERIFY(window.showView(QStringLiteral("compare")));
    QVERIFY(viewer_test::waitReady(page));
    QVERIFY(!page->warnings()->isHidden());
    QVERIFY2(page->warnings()->text().contains(QStringLiteral("differ in instance count")),
             qPrintable(page->warnings()->text()));

    // A report that is not a job: no selector.
    QVERIFY(window.openPath(viewer_test::mlpReport()));
    QVERIFY(!window.instanceSelector()->isVisible());
  }

  void aFolderOfMixedJobsIsRefused() {
    // Instance folders swapped: each report says it is the other instance.
    const QString swapped =
        makeJob(QStringLiteral("job-swapped"), {instanceDir(jobA_, 1), instanceDir(jobA_, 0)});
    QString e = resolveError(swapped);
    QVERIFY2(e.contains(QDir(swapped).filePath(QStringLiteral("instance_0"))), qPrintable(e));
    QVERIFY2(e.contains(QStringLiteral("it is the report of instance 1, not of instance 0")),
             qPrintable(e));
    // A report of another job (written outside poprun) as instance 1.
    const QString mixed =
        makeJob(QStringLiteral("job-mixed"), {instanceDir(jobA_, 0), viewer_test::mlpReport()});
    e = resolveError(mixed);
    QVERIFY2(e.contains(QDir(mixed).filePath(QStringLiteral("instance_1"))), qPrintable(e));
    QVERIFY2(
        e.contains(QStringLiteral("the report's job has 1 instance(s) but the folder holds 2")),
        qPrintable(e));
    // The main window says so and keeps what it had.
    MainWindow window;
    window.setRememberRecent(false);
    QVERIFY(window.openPath(jobA_));
    QVERIFY(!window.openPath(mixed));
    QVERIFY(window.document() && window.document()->sourcePath() == jobA_);
  }

  void theSummaryShowsTheJobsTable() {
    const pva::JobSummary expected = pva::summarizeJob(pva::openJob(jobA_.toStdString()));
    QCOMPARE(expected.slowestInstance, 1u); // the fixture's slow instance
    MainWindow window;
    window.setRememberRecent(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openPath(jobA_));
    auto* summary = qobject_cast<SummaryPage*>(window.page(QStringLiteral("summary")));
    QVERIFY(viewer_test::waitReady(summary));
    JobSummaryPanel* panel = summary->jobPanel(0);
    QVERIFY(panel->isVisible());
    QVERIFY(summary->jobPanel(1)->isHidden());
    JobSummaryModel* model = panel->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model->rowCount(), 2);
    auto cell = [model](int row, int column) {
      return model->data(model->index(row, column)).toString();
    };
    for (int i = 0; i < 2; ++i) {
      const pva::InstanceSummary& in = expected.instances[std::size_t(i)];
      QCOMPARE(cell(i, JobSummaryModel::InstanceColumn), QString::number(i));
      QCOMPARE(cell(i, JobSummaryModel::ReplicasColumn),
               QStringLiteral("[%1, %2)  (2)").arg(2 * i).arg(2 * i + 2));
      QCOMPARE(model->data(model->index(i, JobSummaryModel::CyclesColumn), TableModel::SortRole)
                   .toULongLong(),
               in.totalCycles);
      QCOMPARE(
          model
              ->data(model->index(i, JobSummaryModel::CollectiveCyclesColumn), TableModel::SortRole)
              .toULongLong(),
          std::uint64_t(in.collectiveCycles + 0.5));
      QCOMPARE(model->data(model->index(i, JobSummaryModel::MemoryColumn), TableModel::SortRole)
                   .toULongLong(),
               in.memoryBytes);
    }
    QVERIFY(expected.instances[0].collectiveCycles > 0);
    QCOMPARE(cell(1, JobSummaryModel::MarkColumn), QStringLiteral("slowest"));
    QCOMPARE(cell(0, JobSummaryModel::MarkColumn), QStringLiteral("fastest"));
    // The shown instance is bold; the job-wide figures say what they measure.
    QVERIFY(model->data(model->index(0, 0), Qt::FontRole).value<QFont>().bold());
    QVERIFY(!model->data(model->index(1, 0), Qt::FontRole).value<QFont>().bold());
    const QString figures = panel->figures()->text();
    QVERIFY2(figures.contains(QStringLiteral("Spread %1: (slowest − fastest) / fastest")
                                  .arg(formatPercent(expected.spread, 2))),
             qPrintable(figures));
    QVERIFY2(figures.contains(QStringLiteral("Slowdown %1: the slowest instance's (1)")
                                  .arg(formatPercent(expected.slowdown, 2))),
             qPrintable(figures));
    QVERIFY(panel->heading()->text().contains(QStringLiteral("2 instances")));
    // Every row shows whole, and the figures below the table, not over it.
    QTableView* table = panel->view();
    // (At once: a screenshot is taken when the page says it is ready.)
    QVERIFY(table->viewport()->height() >= table->rowViewportPosition(1) + table->rowHeight(1));
    const QRect tableRect = table->geometry(), figuresRect = panel->figures()->geometry();
    QVERIFY2(figuresRect.top() >= tableRect.bottom(),
             qPrintable(QStringLiteral("table %1-%2, figures from %3, panel %4")
                            .arg(tableRect.top())
                            .arg(tableRect.bottom())
                            .arg(figuresRect.top())
                            .arg(panel->height())));

    // Clicking instance 1's row shows instance 1 in every view; the table stays, now bold on 1.
    QTableView* view = panel->view();
    const QRect row1 = view->visualRect(model->index(1, JobSummaryModel::CyclesColumn));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, row1.center());
    QTRY_COMPARE(window.document()->instanceIndex(), 1u);
    QCOMPARE(window.instanceSelector()->currentIndex(), 1);
    QCOMPARE(window.currentPage(), static_cast<Page*>(summary));
    QVERIFY(viewer_test::waitReady(summary));
    QCOMPARE(panel->model()->shownInstance(), 1u);
    QVERIFY(panel->model()->data(panel->model()->index(1, 0), Qt::FontRole).value<QFont>().bold());

    // Two jobs compared: both tables, the base first.
    QVERIFY(window.openComparison(jobA_, jobB_));
    QVERIFY(viewer_test::waitReady(summary));
    QVERIFY(summary->jobPanel(1)->isVisible());
    QVERIFY(summary->jobPanel(1)->heading()->text().startsWith(QStringLiteral("Base job")));
    QVERIFY(summary->jobPanel(0)->heading()->text().startsWith(QStringLiteral("Current job")));
    const pva::JobSummary b = pva::summarizeJob(pva::openJob(jobB_.toStdString()));
    QCOMPARE(summary->jobPanel(0)->model()->table()->summary.maxCycles, b.maxCycles);
    QCOMPARE(summary->jobPanel(1)->model()->table()->summary.maxCycles, expected.maxCycles);
    QVERIFY(b.instances[0].collectiveCycles > expected.instances[0].collectiveCycles);
    // job-b's instances ran alike: neither is marked slower, and the figures say so.
    QCOMPARE(b.maxCycles, b.minCycles);
    JobSummaryModel* current = summary->jobPanel(0)->model();
    for (int i = 0; i < 2; ++i) {
      QCOMPARE(current->data(current->index(i, JobSummaryModel::MarkColumn)).toString(),
               QStringLiteral("all equal"));
      QVERIFY(!current->data(current->index(i, JobSummaryModel::MarkColumn), Qt::ForegroundRole)
                   .isValid());
    }
    QVERIFY(summary->jobPanel(0)->figures()->text().contains(QStringLiteral("every instance ran")));

    // A report that is not a job: no table.
    QVERIFY(window.openPath(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(summary));
    QVERIFY(summary->jobPanel(0)->isHidden() && summary->jobPanel(1)->isHidden());
  }

  void theInstancesTracesShareOneAxis() {
    MainWindow window;
    window.setRememberRecent(false);
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openPath(jobA_));
    QCOMPARE(window.document()->hostTraces().size(), std::size_t(2));
    QVERIFY(window.showView(QStringLiteral("trace")));
    auto* page = qobject_cast<HostTracePage*>(window.page(QStringLiteral("trace")));
    QVERIFY(viewer_test::waitReady(page));
    const auto index = page->index();
    QCOMPARE(index->files.size(), std::size_t(2));
    QCOMPARE(index->files[0].group, QStringLiteral("instance 0"));
    QCOMPARE(index->files[1].group, QStringLiteral("instance 1"));
    // One host: the steady clocks place them, as libpva aligns them.
    std::vector<pva::Trace> traces;
    for (int i = 0; i < 2; ++i)
      traces.push_back(pva::openTrace(index->files[std::size_t(i)].path.toStdString()));
    const pva::TraceAlignment a = pva::alignTraces(traces);
    QVERIFY(a.clock == pva::TraceAlignment::Clock::Steady);
    QCOMPARE(index->files[1].offsetNs - index->files[0].offsetNs, a.offsetNs[1] - a.offsetNs[0]);
    QVERIFY(page->alignmentLabel()->isVisible());
    QVERIFY2(page->alignmentLabel()->text().contains(QStringLiteral("steady clocks")),
             qPrintable(page->alignmentLabel()->text()));
    // Every event sits where its own trace put it, moved by its trace's offset.
    for (int f = 0; f < 2; ++f) {
      const pva::Thread t = traces[std::size_t(f)].processes().at(0).threads().at(0);
      const TraceProcessIndex* proc = nullptr;
      for (const TraceProcessIndex& p : index->processes)
        if (p.file == f && !proc) proc = &p;
      QVERIFY(proc);
      const TraceThreadIndex& thread = index->threads[std::size_t(proc->threads.at(0))];
      QVERIFY(!t.events().empty());
      QCOMPARE(thread.events.front().begin,
               t.events().front().beginNs() + a.offsetNs[std::size_t(f)]);
    }
    // A lane group per instance, named after it.
    const TraceLayout layout = buildTraceLayout(*index, {});
    QStringList groups;
    for (const TraceLane& lane : layout.lanes)
      if (lane.kind == TraceLane::Kind::File)
        groups << lane.title.section(QStringLiteral(" — "), 0, 0);
    QCOMPARE(groups, (QStringList{QStringLiteral("instance 0"), QStringLiteral("instance 1")}));
    // Another instance of the job has the same traces: read once.
    QVERIFY(window.selectInstance(1));
    QVERIFY(viewer_test::waitReady(page));
    QVERIFY(page->index() == index);
    // Compare mode has no Host trace view.
    QVERIFY(window.openComparison(jobA_, jobB_));
    QVERIFY(!window.showView(QStringLiteral("trace")));
  }

  void severalTraceFilesOpenOnOneAxis() {
    const QString a = viewer_test::traceFile();
    const QString b =
        QDir(QStringLiteral(VIEWER_FIXTURES_DIR)).filePath(QStringLiteral("rich.pvti"));
    auto doc = Document::traces({a, b});
    QVERIFY(doc->isTrace());
    QCOMPARE(doc->hostTraces().size(), std::size_t(2));
    QVERIFY(doc->displayName().contains(QStringLiteral("trace.pvti + rich.pvti")));
    try {
      Document::traces({a, viewer_test::mlpReport()});
      QFAIL("a report opened as a trace");
    } catch (const DocumentError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("is not a host trace")),
               e.what());
    }
    MainWindow window;
    window.setRememberRecent(false);
    QVERIFY(window.openTraces({a, b}));
    auto* page = qobject_cast<HostTracePage*>(window.page(QStringLiteral("trace")));
    QCOMPARE(window.currentPage(), static_cast<Page*>(page));
    QVERIFY(viewer_test::waitReady(page));
    QCOMPARE(page->index()->files.size(), std::size_t(2));
    // Each trace keeps its events: the joined index has them all.
    Progress none = Progress::standalone(QStringLiteral("test"));
    const TraceIndex ia = loadTraceIndices({{a, QString()}}, none);
    const TraceIndex ib = loadTraceIndices({{b, QString()}}, none);
    QCOMPARE(page->index()->eventCount, ia.eventCount + ib.eventCount);
    QCOMPARE(page->index()->threads.size(), ia.threads.size() + ib.threads.size());
    QVERIFY(page->index()->endNs >= std::max(ia.endNs, ib.endNs));
  }

  void jobViewsRenderHeadless() {
    const QString dir = viewer_test::tmpDir(QStringLiteral("job-screenshots"));
    for (const QString& view : {QStringLiteral("summary"), QStringLiteral("trace")}) {
      const QString png = QDir(dir).filePath(view + QStringLiteral(".png"));
      QProcess p;
      p.start(viewer_test::viewerExecutable(),
              {QStringLiteral("--screenshot"), png, QStringLiteral("--view"), view, jobA_});
      QVERIFY(p.waitForFinished(300000));
      QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
      QVERIFY(!QImage(png).isNull());
    }
    // Several traces on the command line.
    const QString png = QDir(dir).filePath(QStringLiteral("two-traces.png"));
    QProcess p;
    p.start(viewer_test::viewerExecutable(),
            {QStringLiteral("--screenshot"), png, viewer_test::traceFile(),
             QDir(QStringLiteral(VIEWER_FIXTURES_DIR)).filePath(QStringLiteral("rich.pvti"))});
    QVERIFY(p.waitForFinished(300000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QVERIFY(!QImage(png).isNull());
  }

private:
  QString jobA_, jobB_, jobOne_;
};

QTEST_MAIN(JobsTest)
#include "test_jobs.moc"
