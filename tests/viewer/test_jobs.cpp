// poprun job folders in the viewer: one instance's report at a time, and two jobs compared
// instance by instance (libpva's pva::pairJobInstances). The jobs are made of the fixture's
// reports (instance_<i>/ links to them), so no new report is written: the viewer reads a job
// folder's files through pva::listJobInstances, which opens no report.
#include "ViewerTestUtil.hpp"
#include "core/ComparisonData.hpp"
#include "models/ComparisonModel.hpp"
#include "widgets/ComparePage.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/Page.hpp"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QTest>
#include <pva/Analysis.hpp>
#include <pva/Job.hpp>

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

std::uint64_t totalCycles(const QString& report) {
  return pva::summarize(Document::resolve(report)->report()).execution.totalCycles;
}

/// The Compare view's "Runs" total: each side's total cycles.
const ComparisonRow* runsTotal(const ComparePage& page) {
  return page.model()->comparison()->totalRow(sec::runs);
}

} // namespace

class JobsTest : public QObject {
  Q_OBJECT
private slots:
  void initTestCase() {
    jobA_ =
        makeJob(QStringLiteral("job-a"), {viewer_test::mlpReport(), viewer_test::mlpBigReport()});
    jobB_ =
        makeJob(QStringLiteral("job-b"), {viewer_test::mlp4RunsReport(), viewer_test::mlpReport()});
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
             totalCycles(viewer_test::mlpBigReport()));
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
    QCOMPARE(runsTotal(*page)->base, totalCycles(viewer_test::mlpReport()));
    QCOMPARE(runsTotal(*page)->current, totalCycles(viewer_test::mlp4RunsReport()));

    // Instance 1: both sides change, the view shown stays, and every page has the new document.
    window.instanceSelector()->activated(1);
    QCOMPARE(window.document()->instanceIndex(), 1u);
    QCOMPARE(window.currentPage()->viewKey(), QStringLiteral("compare"));
    QVERIFY(viewer_test::waitReady(page));
    QVERIFY2(page->header()->text().contains(QStringLiteral("Instance 1 of both jobs")),
             qPrintable(page->header()->text()));
    QCOMPARE(runsTotal(*page)->base, totalCycles(viewer_test::mlpBigReport()));
    QCOMPARE(runsTotal(*page)->current, totalCycles(viewer_test::mlpReport()));
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

private:
  QString jobA_, jobB_, jobOne_;
};

QTEST_MAIN(JobsTest)
#include "test_jobs.moc"
