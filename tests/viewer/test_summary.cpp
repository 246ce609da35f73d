// The Summary page and its model on the samples' reports, against libpva's own values.
#include "ViewerTestUtil.hpp"

#include "core/Settings.hpp"
#include "models/ExecutionSummaryModel.hpp"
#include "models/RunFiguresModel.hpp"
#include "models/SummaryModel.hpp"
#include "widgets/ExecutionPage.hpp"
#include "widgets/SummaryPage.hpp"

#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonObject>
#include <QLineEdit>
#include <QProcess>
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
    // Stream copies by destination: libpva's split, all runs.
    const pva::StreamCopyCycles sc = pva::analyseExecution(report).allRuns.streamCopyCycles;
    QVERIFY(sc.host > 0);
    QCOMPARE(d.row(QStringLiteral("Stream copies"), QStringLiteral("Host (cycles)"))->value.number, sc.host);
    QCOMPARE(d.row(QStringLiteral("Stream copies"), QStringLiteral("Remote buffers (cycles)"))->value.number,
             sc.remoteBuffer);
    QVERIFY(!d.row(QStringLiteral("Stream copies"), QStringLiteral("Destination unknown (cycles)")));
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
  // One figure, three front ends: the viewer's Summary, `pva summary --json` and Python's
  // pva.summarize show the same numbers for the same report.
  void viewerCliAndPythonShowTheSameFigures() {
    auto doc = Document::resolve(viewer_test::mlpReport());
    Progress progress = Progress::standalone(QStringLiteral("test"));
    const SummaryData d = loadSummary(*doc, progress);
    auto viewer = [&](const char* section, const char* name) {
      const SummaryRow* row = d.row(QString::fromLatin1(section), QString::fromLatin1(name));
      return row ? qulonglong(row->value.number) : ~qulonglong(0);
    };

    QProcess cli;
    cli.start(QStringLiteral(PVA_EXECUTABLE), {QStringLiteral("summary"), doc->profilePath(), QStringLiteral("--json")});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const QJsonObject j = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    const QJsonObject memory = j[QStringLiteral("memory")].toObject(), execution = j[QStringLiteral("execution")].toObject();
    auto number = [](const QJsonValue& v) { return qulonglong(v.toDouble()); };

    QProcess python;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PYTHONPATH"), QStringLiteral(TESSERA_PYTHON_DIR));
    python.setProcessEnvironment(env);
    python.start(QStringLiteral("/usr/bin/python3"),
                 {QStringLiteral("-c"), QStringLiteral("import json, sys, pva\n"
                                                       "s = pva.summarize(pva.openReport(sys.argv[1]))\n"
                                                       "m, x = s.memory, s.execution\n"
                                                       "print(json.dumps([m.includingGapsBytes, m.excludingGapsBytes,\n"
                                                       "  m.largestTileIncludingGaps.bytes, m.alwaysLiveBytes,\n"
                                                       "  m.peakLiveness.bytes, m.tilesUsed, x.totalCycles, x.steps,\n"
                                                       "  len(x.runs), x.tileCycles.of(pva.TileCycleTotals.Kind.Compute)]))"),
                  doc->profilePath()});
    QVERIFY(python.waitForFinished(60000));
    QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
    const QJsonArray p = QJsonDocument::fromJson(python.readAllStandardOutput()).array();
    QCOMPARE(p.size(), 10);

    const qulonglong inViewer[] = {
        viewer("Memory", "Total (including gaps)"), viewer("Memory", "Total (excluding gaps)"),
        viewer("Memory", "Largest tile"), viewer("Memory", "Always live"), viewer("Memory", "Peak liveness"),
        viewer("Memory", "Tiles used"), viewer("Execution", "Total cycles"), viewer("Execution", "Steps"),
        viewer("Execution", "Runs"), viewer("Execution", "Compute (tile cycles)")};
    const qulonglong inCli[] = {
        number(memory[QStringLiteral("totalIncludingGaps")]), number(memory[QStringLiteral("totalExcludingGaps")]),
        number(memory[QStringLiteral("maxTile")].toObject()[QStringLiteral("includingGaps")]),
        number(memory[QStringLiteral("alwaysLive")]),
        number(memory[QStringLiteral("peakLiveness")].toObject()[QStringLiteral("bytes")]),
        number(memory[QStringLiteral("tilesUsed")]), number(execution[QStringLiteral("totalCycles")]),
        number(execution[QStringLiteral("numSteps")]), number(execution[QStringLiteral("numRuns")]),
        number(execution[QStringLiteral("tileCyclesByKind")].toObject()[QStringLiteral("compute")])};
    for (int i = 0; i < 10; ++i) {
      QVERIFY2(inViewer[i] != ~qulonglong(0), qPrintable(QStringLiteral("figure %1 missing in the viewer").arg(i)));
      QCOMPARE(inViewer[i], inCli[i]);
      QCOMPARE(inViewer[i], qulonglong(p[i].toDouble()));
    }
    QVERIFY(inViewer[0] > 0 && inViewer[6] > 0); // real figures, not two empty answers agreeing
    // Every front end says what the figures cover.
    QCOMPARE(d.section(QStringLiteral("Execution"))->scope, QStringLiteral("all runs, one replica"));
    QCOMPARE(execution[QStringLiteral("scope")].toString(), QStringLiteral("all runs, one replica"));
  }
  // One run has one length: the Summary's runs and total, the Execution view's figures and its
  // run rows, `pva summary --json` and Python's analyseExecution all show libpva's one figure;
  // on the 2-IPU pipeline, whose stages overlap, the steps' slowest-IPU sum is a different,
  // larger number and is labelled as what it sums. The two step counts are named apart.
  void oneRunHasOneLengthEverywhere() {
    for (const QString& path : {viewer_test::pipelineReport(), viewer_test::mlpReport()}) {
      auto doc = Document::resolve(path);
      Progress progress = Progress::standalone(QStringLiteral("test"));
      const SummaryData d = loadSummary(*doc, progress);
      const pva::ExecutionAnalysis e = pva::analyseExecution(doc->openReport());
      const pva::ReportSummary s = pva::summarize(doc->openReport());
      QVERIFY(!e.runs.empty());
      QCOMPARE(d.row(QStringLiteral("Execution"), QStringLiteral("Total cycles"))->value.number, e.allRuns.lengthCycles);

      ExecutionPage page;
      page.resize(1400, 900);
      page.show();
      page.setDocument(doc);
      QVERIFY(viewer_test::waitReady(&page));
      const RunFiguresModel& figures = *page.runFiguresModel();
      auto length = [&] {
        const int row = figures.rowOf(QStringLiteral("Length (cycles)"));
        return row < 0 ? ~qulonglong(0) : qulonglong(figures.index(row, figures.valueColumn()).data(RunFiguresModel::NumberRole).toDouble());
      };
      for (std::size_t r = 0; r < e.runs.size(); ++r) {
        const pva::RunSummary& run = s.execution.runs[r];
        const QString name = QStringLiteral("%1. %2").arg(run.index).arg(QString::fromStdString(run.name));
        QCOMPARE(d.row(QStringLiteral("Runs"), name)->value.number, e.runs[r].lengthCycles);
        page.selectRun(int(r));
        QCOMPARE(length(), qulonglong(e.runs[r].lengthCycles));
        const int runRow = page.summaryModel()->rowOf(QStringLiteral("Run %1 (%2): cycles").arg(r).arg(QString::fromStdString(run.name)));
        QVERIFY(runRow >= 0);
        QCOMPARE(qulonglong(page.summaryModel()->index(runRow, page.summaryModel()->valueColumn()).data(ExecutionSummaryModel::NumberRole).toDouble()),
                 qulonglong(e.runs[r].lengthCycles));
      }
      page.selectRun(-1);
      QCOMPARE(length(), qulonglong(e.allRuns.lengthCycles));
      // The other sum is shown under its own name, and on the pipeline it is not the length.
      const int sumRow = figures.rowOf(QStringLiteral("Σ steps' slowest IPU (cycles)"));
      QVERIFY(sumRow >= 0);
      QCOMPARE(figures.index(sumRow, figures.valueColumn()).data(RunFiguresModel::NumberRole).toDouble(), double(e.allRuns.cycles));
      if (path == viewer_test::pipelineReport()) QVERIFY(e.allRuns.cycles > e.allRuns.lengthCycles);
      QVERIFY(page.summaryModel()->rowOf(QStringLiteral("IPU cycles in view (Σ IPUs)")) >= 0);

      QProcess cli;
      cli.start(QStringLiteral(PVA_EXECUTABLE), {QStringLiteral("summary"), doc->profilePath(), QStringLiteral("--json")});
      QVERIFY(cli.waitForFinished(60000));
      QCOMPARE(cli.exitCode(), 0);
      const QJsonObject j = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
      const QJsonObject x = j[QStringLiteral("execution")].toObject(), graph = j[QStringLiteral("graph")].toObject();
      QCOMPARE(qulonglong(x[QStringLiteral("totalCycles")].toDouble()), qulonglong(e.allRuns.lengthCycles));
      const QJsonArray cliRuns = x[QStringLiteral("runs")].toArray();
      QCOMPARE(std::size_t(cliRuns.size()), e.runs.size());
      for (int r = 0; r < cliRuns.size(); ++r)
        QCOMPARE(qulonglong(cliRuns[r].toObject()[QStringLiteral("cycles")].toDouble()), qulonglong(e.runs[std::size_t(r)].lengthCycles));
      QCOMPARE(d.row(QStringLiteral("Graph"), QStringLiteral("Programs run as steps"))->value.number,
               std::uint64_t(graph[QStringLiteral("numProgramSteps")].toDouble()));
      QCOMPARE(d.row(QStringLiteral("Graph"), QStringLiteral("Liveness steps"))->value.number,
               std::uint64_t(graph[QStringLiteral("numLivenessSteps")].toDouble()));

      QProcess python;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert(QStringLiteral("PYTHONPATH"), QStringLiteral(TESSERA_PYTHON_DIR));
      python.setProcessEnvironment(env);
      python.start(QStringLiteral("/usr/bin/python3"),
                   {QStringLiteral("-c"), QStringLiteral("import json, sys, pva\n"
                                                         "r = pva.openReport(sys.argv[1])\n"
                                                         "e, g = pva.analyseExecution(r), pva.summarize(r).graph\n"
                                                         "print(json.dumps([e.allRuns.lengthCycles] + [x.lengthCycles for x in e.runs]\n"
                                                         "  + [g.programSteps, g.livenessSteps]))"),
                    doc->profilePath()});
      QVERIFY(python.waitForFinished(60000));
      QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
      const QJsonArray p = QJsonDocument::fromJson(python.readAllStandardOutput()).array();
      QCOMPARE(std::size_t(p.size()), e.runs.size() + 3);
      QCOMPARE(qulonglong(p[0].toDouble()), qulonglong(e.allRuns.lengthCycles));
      for (std::size_t r = 0; r < e.runs.size(); ++r) QCOMPARE(qulonglong(p[int(r) + 1].toDouble()), qulonglong(e.runs[r].lengthCycles));
      QCOMPARE(std::uint64_t(p[int(e.runs.size()) + 1].toDouble()), s.graph.programSteps);
      QCOMPARE(std::uint64_t(p[int(e.runs.size()) + 2].toDouble()), s.graph.livenessSteps);
      if (path == viewer_test::pipelineReport()) QVERIFY(s.graph.livenessSteps > s.graph.programSteps);
    }
  }
  void outOfMemoryReportHasNoRuns() {
    SummaryPage page;
    page.setDocument(Document::resolve(viewer_test::oomReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const SummaryData& d = *page.model()->summary();
    QCOMPARE(d.row(QStringLiteral("Report"), QStringLiteral("Out of memory"))->value.text, QStringLiteral("yes"));
    // No "Runs 0, total cycles 0": the report did not run, and the verdict says it does not fit.
    QVERIFY(!d.row(QStringLiteral("Execution"), QStringLiteral("Runs")));
    QVERIFY(!d.row(QStringLiteral("Execution"), QStringLiteral("Total cycles")));
    QCOMPARE(d.row(QStringLiteral("Execution"), QStringLiteral("Not run"))->value.text, QStringLiteral("no execution profile"));
    const SummaryRow* verdict = d.row(QStringLiteral("Memory"), QStringLiteral("Verdict"));
    QVERIFY(verdict);
    QCOMPARE(verdict->value.text, QStringLiteral("does not fit"));
    const pva::MemorySummary m = pva::summarize(Document::resolve(viewer_test::oomReport())->openReport()).memory;
    QVERIFY(m.tilesOutOfMemory > 0);
    QVERIFY2(verdict->note.contains(QString::number(m.tilesOutOfMemory)), qPrintable(verdict->note));
    // A report that fits says so.
    SummaryPage fits;
    fits.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&fits));
    QCOMPARE(fits.model()->summary()->row(QStringLiteral("Memory"), QStringLiteral("Verdict"))->value.text, QStringLiteral("fits"));
  }
};

QTEST_MAIN(SummaryTest)
#include "test_summary.moc"
