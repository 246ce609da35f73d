// The Summary page and its model on the samples' reports, against libpva's own values.
#include "ViewerTestUtil.hpp"

#include "core/Settings.hpp"
#include "models/SummaryModel.hpp"
#include "widgets/SummaryPage.hpp"

#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QTreeView>

using namespace tessera::viewer;

class SummaryTest : public QObject {
  Q_OBJECT
private slots:
  void modelPassesTheTesterAndMatchesLibpva() {
    SummaryModel model;
    const auto tester = viewer_test::checkModel(&model);
    auto doc = Document::resolve(viewer_test::mlpReport());
    QObject ctx;
    Progress progress = Progress::standalone(QStringLiteral("test"));
    model.setData(std::make_shared<const SummaryData>(loadSummary(*doc, progress)));
    QVERIFY(model.rowCount() >= 7);

    const pva::Report report = doc->openReport();
    const SummaryData& d = *model.summary();
    QCOMPARE(d.row(QStringLiteral("Target"), QStringLiteral("Tiles"))->value.number,
             std::uint64_t(report.compilation().target().numTiles()));
    std::uint64_t total = 0, maxTile = 0;
    for (const pva::Tile& t : report.compilation().tiles()) {
      total += t.memory().total().includingGaps();
      maxTile = std::max(maxTile, t.memory().total().includingGaps());
    }
    QCOMPARE(d.row(QStringLiteral("Memory"), QStringLiteral("Total (including gaps)"))->value.number, total);
    QCOMPARE(d.row(QStringLiteral("Memory"), QStringLiteral("Largest tile"))->value.number, maxTile);
    QCOMPARE(d.row(QStringLiteral("Execution"), QStringLiteral("Total cycles"))->value.number,
             report.execution().totalCycles().total());
    QCOMPARE(d.row(QStringLiteral("Execution"), QStringLiteral("Runs"))->value.number, std::uint64_t(2));
    QCOMPARE(d.section(QStringLiteral("Engine options"))->rows.size(), report.engineOptions().size());
    QCOMPARE(d.row(QStringLiteral("Graph"), QStringLiteral("Vertices"))->value.number,
             report.compilation().graph().numVertices());
  }
  void pageLoadsFiltersAndFollowsUnits() {
    SummaryPage page;
    page.resize(900, 700);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(!page.isReady());
    QVERIFY(viewer_test::waitReady(&page));
    QTreeView* view = page.view();
    const int sections = view->model()->rowCount();
    QVERIFY(sections >= 7);

    // The filter keeps matching rows and their sections only.
    QTest::keyClicks(page.filter(), QStringLiteral("Largest tile"));
    QCOMPARE(view->model()->rowCount(), 1);
    const QModelIndex memory = view->model()->index(0, 0);
    QCOMPARE(memory.data().toString(), QStringLiteral("Memory"));
    QCOMPARE(view->model()->rowCount(memory), 1);
    const QModelIndex value = view->model()->index(0, SummaryModel::ValueColumn, memory);
    Settings::instance().setMemoryUnits(MemoryUnits::Bytes);
    QVERIFY(value.data().toString().endsWith(QStringLiteral(" B")));
    Settings::instance().setMemoryUnits(MemoryUnits::Binary);
    QVERIFY2(value.data().toString().contains(QStringLiteral("iB")), qPrintable(value.data().toString()));
    page.filter()->clear();
    QCOMPARE(view->model()->rowCount(), sections);
  }
  void outOfMemoryReportHasNoRuns() {
    SummaryPage page;
    page.setDocument(Document::resolve(viewer_test::oomReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const SummaryData& d = *page.model()->summary();
    QCOMPARE(d.row(QStringLiteral("Report"), QStringLiteral("Out of memory"))->value.text, QStringLiteral("yes"));
    QCOMPARE(d.row(QStringLiteral("Execution"), QStringLiteral("Runs"))->value.number, std::uint64_t(0));
  }
};

QTEST_MAIN(SummaryTest)
#include "test_summary.moc"
