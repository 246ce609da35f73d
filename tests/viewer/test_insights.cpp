// The Insights page and its models on the out-of-memory and MLP reports, against pva::insights
// and `pva insights --json` (the same figures in the viewer and the CLI).
#include "ViewerTestPaths.hpp"
#include "ViewerTestUtil.hpp"
#include "charts/UsageHistogram.hpp"
#include "core/Format.hpp"
#include "models/InsightsModels.hpp"
#include "widgets/InsightsPage.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QTableView>
#include <QTest>
#include <pva/Analysis.hpp>

using namespace tessera::viewer;

class InsightsTest : public QObject {
  Q_OBJECT
private slots:
  void modelsPassTheTester() {
    auto doc = Document::resolve(viewer_test::oomReport());
    Progress progress = Progress::standalone(QStringLiteral("test"));
    const auto data = std::make_shared<const InsightsData>(loadInsights(*doc, progress));
    WorstTilesModel worst;
    SuggestionsModel suggestions;
    LivenessSplitModel liveness;
    ExchangesModel exchanges;
    VertexTypesModel state(VertexTypesModel::By::State), code(VertexTypesModel::By::Code);
    const auto t1 = viewer_test::checkModel(&worst), t2 = viewer_test::checkModel(&suggestions),
               t3 = viewer_test::checkModel(&liveness), t4 = viewer_test::checkModel(&exchanges),
               t5 = viewer_test::checkModel(&state), t6 = viewer_test::checkModel(&code);
    worst.setData(data);
    suggestions.setData(data);
    liveness.setData(data);
    exchanges.setData(data);
    state.setData(data);
    code.setData(data);
    QCOMPARE(worst.rowCount(), int(data->insights.worstTiles.size()));
    QCOMPARE(suggestions.rowCount(), int(data->insights.suggestions.size()));
    // The model, each IPU and each worst tile.
    QCOMPARE(liveness.rowCount(),
             int(data->insights.ipus.size() + data->insights.worstTiles.size() + 1));
    QCOMPARE(liveness.index(0, 4).data(TableModel::SortRole).toULongLong(),
             qulonglong(data->insights.model.total()));
    worst.setData(nullptr);
    QCOMPARE(worst.rowCount(), 0);
  }

  void suggestionsReadWholeAt1280Pixels() {
    // Issue 37: at 1280x800 the suggestions were elided in the middle ("Store the mo…bles as
    // HALF"). They wrap now, each row as tall as its text.
    InsightsPage page;
    page.resize(1280 - 170, 800); // the window less the side list
    page.show();
    page.setDocument(Document::resolve(viewer_test::oomReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QCoreApplication::processEvents();
    QTableView* table = nullptr;
    for (QTableView* t : page.findChildren<QTableView*>())
      if (t->model() == page.suggestions()) table = t;
    QVERIFY(table);
    QVERIFY(page.suggestions()->rowCount() > 0);
    for (int r = 0; r < page.suggestions()->rowCount(); ++r)
      for (int c : {1, 2}) {
        const QModelIndex index = page.suggestions()->index(r, c);
        const QString text = index.data().toString();
        const QRect cell = table->visualRect(index);
        // The room the text needs wrapped at the cell's width (less the cell's margins).
        const QRect needed = table->fontMetrics().boundingRect(QRect(0, 0, cell.width() - 8, 10000),
                                                               Qt::TextWordWrap, text);
        QVERIFY2(needed.height() <= cell.height() && needed.width() <= cell.width(),
                 qPrintable(QStringLiteral("'%1': %2x%3 in %4x%5")
                                .arg(text)
                                .arg(needed.width())
                                .arg(needed.height())
                                .arg(cell.width())
                                .arg(cell.height())));
      }
    // The table shows every row (the page, not the table, scrolls).
    const int last = page.suggestions()->rowCount() - 1;
    QVERIFY(table->visualRect(page.suggestions()->index(last, 1)).bottom() <=
            table->viewport()->height());
    page.grab().save(viewer_test::tmpDir(QStringLiteral("insights-1280")) +
                     QStringLiteral("/insights.png"));
  }

  void oomPageShowsTheVerdictAndTheCliFigures() {
    InsightsPage page;
    page.resize(1400, 1000);
    page.show();
    page.setDocument(Document::resolve(viewer_test::oomReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const pva::Insights& in = page.data()->insights;
    QVERIFY(!in.fits);
    QVERIFY(page.verdict()->text().startsWith(QStringLiteral("Does not fit")));
    QVERIFY(page.verdict()->text().contains(formatCount(in.tilesOutOfMemory)));

    // The same numbers as `pva insights --json`.
    QProcess pva;
    pva.start(QStringLiteral(PVA_EXECUTABLE),
              {QStringLiteral("insights"), viewer_test::oomReport(), QStringLiteral("--json")});
    QVERIFY(pva.waitForFinished(60000));
    QCOMPARE(pva.exitCode(), 0);
    const QJsonObject cli = QJsonDocument::fromJson(pva.readAllStandardOutput()).object();
    const QJsonObject fit = cli[QStringLiteral("fit")].toObject();
    QCOMPARE(fit[QStringLiteral("fits")].toBool(), in.fits);
    QCOMPARE(std::uint64_t(fit[QStringLiteral("tilesOutOfMemory")].toInteger()),
             std::uint64_t(in.tilesOutOfMemory));
    QCOMPARE(std::uint64_t(fit[QStringLiteral("worstOverBytes")].toInteger()), in.worstOverBytes);
    const QJsonArray tiles = cli[QStringLiteral("worstTiles")].toArray();
    QCOMPARE(page.worstTiles()->rowCount(), int(tiles.size()));
    for (int r = 0; r < page.worstTiles()->rowCount(); ++r) {
      const qulonglong tile = qulonglong(tiles[r].toObject()[QStringLiteral("tile")].toInteger());
      QCOMPARE(page.worstTiles()->index(r, 0).data(TableModel::SortRole).toULongLong(), tile);
      // A tile's number names it: "1475", never the quantity "1,475".
      QCOMPARE(page.worstTiles()->index(r, 0).data().toString(), QString::number(tile));
    }
    const QJsonArray suggestions = cli[QStringLiteral("suggestions")].toArray();
    QCOMPARE(page.suggestions()->rowCount(), int(suggestions.size()));
    QVERIFY(page.suggestions()->rowCount() > 0);
    for (int r = 0; r < page.suggestions()->rowCount(); ++r)
      QCOMPARE(page.suggestions()->index(r, 0).data(TableModel::SortRole).toULongLong(),
               qulonglong(suggestions[r].toObject()[QStringLiteral("saving")].toInteger()));
    // A whole-model suggestion says how many of the tiles over their memory it would fix,
    // never a bare "-" on a report that does not fit; a tile's says yes or no.
    for (int r = 0; r < page.suggestions()->rowCount(); ++r) {
      const pva::Suggestion& s = in.suggestions[std::size_t(r)];
      const QString fitText = page.suggestions()->index(r, 3).data().toString();
      if (s.scope.rfind("tile ", 0) == 0) {
        QVERIFY2(fitText == QStringLiteral("yes") || fitText == QStringLiteral("no"),
                 qPrintable(fitText));
      } else if (s.kind == pva::Suggestion::Kind::FloatToHalf) {
        QCOMPARE(s.tilesOver, in.tilesOutOfMemory);
        QVERIFY(s.tilesThatWouldFit <= s.tilesOver);
        QCOMPARE(fitText, QStringLiteral("%1 of the %2 tiles over")
                              .arg(formatCount(s.tilesThatWouldFit), formatCount(s.tilesOver)));
      }
    }
    // The model against the device: Insights' memory is the Summary's.
    const pva::MemorySummary summary =
        pva::summarize(Document::resolve(viewer_test::oomReport())->report()).memory;
    QCOMPARE(in.memory.includingGapsBytes, summary.includingGapsBytes);
    QCOMPARE(in.memory.capacityBytes, summary.capacityBytes);
    if (in.memory.includingGapsBytes > in.memory.capacityBytes)
      QVERIFY2(page.verdict()->text().contains(QStringLiteral("cannot fit however it is spread")),
               qPrintable(page.verdict()->text()));
    // The histogram draws the tiles over their memory in its last bar.
    QCOMPARE(page.histogram()->bins().back().tiles, in.tilesOutOfMemory);
    QVERIFY(page.exchanges()->rowCount() > 0);
    QVERIFY(page.vertexCode()->rowCount() > 0);

    // The page renders: many colours, not a blank.
    QVERIFY(viewer_test::distinctColors(page.grab().toImage()) > 8);
  }

  void mlpFitsAndANewDocumentReplacesTheOld() {
    InsightsPage page;
    page.resize(1200, 900);
    page.show();
    page.setDocument(Document::resolve(viewer_test::oomReport()));
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(page.data()->insights.fits);
    QVERIFY(page.verdict()->text().startsWith(QStringLiteral("Fits")));
    QCOMPARE(page.histogram()->bins().back().tiles, 0u);
    // Two reports open: the insights are the current report's, and the verdict says so.
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::oomReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(!page.data()->insights.fits);
    QVERIFY(page.verdict()->text().startsWith(QStringLiteral("Current report: Does not fit")));
    page.setDocument(nullptr);
    QVERIFY(!page.isReady());
    QCOMPARE(page.worstTiles()->rowCount(), 0);
  }
};

QTEST_MAIN(InsightsTest)
#include "test_insights.moc"
