// The Summary page and its model on the samples' reports, against libpva's own values.
#include "ViewerTestPaths.hpp"
#include "ViewerTestUtil.hpp"
#include "core/ComparisonData.hpp"
#include "core/Settings.hpp"
#include "models/ExecutionSummaryModel.hpp"
#include "models/IpuFiguresModel.hpp"
#include "models/RunFiguresModel.hpp"
#include "models/SummaryModel.hpp"
#include "widgets/ExecutionPage.hpp"
#include "widgets/LivenessPage.hpp"
#include "widgets/SummaryPage.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QProcess>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QTreeView>
#include <pva/Application.hpp>

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

    const pva::Report& report = doc->report();
    const SummaryData& d = *model.summary();
    QCOMPARE(d.row(QStringLiteral("Target"), QStringLiteral("Tiles"))->value.number,
             std::uint64_t(report.compilation().target().numTiles()));
    std::uint64_t total = 0, maxTile = 0;
    for (const pva::Tile& t : report.compilation().tiles()) {
      total += t.memory().total().includingGaps();
      maxTile = std::max(maxTile, t.memory().total().includingGaps());
    }
    QCOMPARE(
        d.row(QStringLiteral("Memory"), QStringLiteral("Total (including gaps)"))->value.number,
        total);
    QCOMPARE(d.row(QStringLiteral("Memory"), QStringLiteral("Largest tile"))->value.number,
             maxTile);
    QCOMPARE(d.row(QStringLiteral("Execution"), QStringLiteral("Total cycles"))->value.number,
             report.execution().totalCycles().total());
    QCOMPARE(d.row(QStringLiteral("Execution"), QStringLiteral("Runs"))->value.number,
             std::uint64_t(2));
    QCOMPARE(d.section(QStringLiteral("Engine options"))->rows.size(),
             report.engineOptions().size());
    QCOMPARE(d.row(QStringLiteral("Graph"), QStringLiteral("Vertices"))->value.number,
             report.compilation().graph().numVertices());
    // Stream copies by destination: libpva's split, all runs.
    const pva::StreamCopyCycles sc = pva::analyseExecution(report).allRuns.streamCopyCycles;
    QVERIFY(sc.host > 0);
    QCOMPARE(d.row(QStringLiteral("Stream copies"), QStringLiteral("Host (cycles)"))->value.number,
             sc.host);
    QCOMPARE(d.row(QStringLiteral("Stream copies"), QStringLiteral("Remote buffers (cycles)"))
                 ->value.number,
             sc.remoteBuffer);
    QVERIFY(
        !d.row(QStringLiteral("Stream copies"), QStringLiteral("Destination unknown (cycles)")));
  }
  void streamCopiesAreTheStoredTotals() {
    // A report of format 1.7 on stores each run's stream-copy totals: the Summary reads those
    // and makes no pass over the steps (a fresh Document is a fresh open report).
    auto doc = Document::resolve(viewer_test::mlpReport());
    QVERIFY(doc->session().summary()->execution.hasStreamCopyCycles);
    Progress progress = Progress::standalone(QStringLiteral("test"));
    const std::uint64_t before = pva::detail::executionPasses();
    const SummaryData d = loadSummary(*doc, progress);
    QCOMPARE(pva::detail::executionPasses(), before);
    const pva::StreamCopyCycles& stored = doc->session().summary()->execution.streamCopyCycles;
    QVERIFY(stored.host > 0);
    QCOMPARE(d.row(QStringLiteral("Stream copies"), QStringLiteral("Host (cycles)"))->value.number,
             stored.host);
    // The same numbers the pass over the steps finds.
    QCOMPARE(stored.host, pva::analyseExecution(doc->report()).allRuns.streamCopyCycles.host);
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
    QVERIFY2(value.data().toString().contains(QStringLiteral("iB")),
             qPrintable(value.data().toString()));
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
    cli.start(QStringLiteral(PVA_EXECUTABLE),
              {QStringLiteral("summary"), doc->profilePath(), QStringLiteral("--json")});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const QJsonObject j = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    const QJsonObject memory = j[QStringLiteral("memory")].toObject(),
                      execution = j[QStringLiteral("execution")].toObject();
    auto number = [](const QJsonValue& v) { return qulonglong(v.toDouble()); };

    const QJsonDocument pJson = viewer_test::runPythonJson(
        QStringLiteral(TESSERA_PYTHON_DIR),
        QStringLiteral("import json, sys, pva\n"
                       "s = pva.summarize(pva.openReport(sys.argv[1]))\n"
                       "m, x = s.memory, s.execution\n"
                       "print(json.dumps([m.includingGapsBytes, m.excludingGapsBytes,\n"
                       "  m.largestTileIncludingGaps.bytes, m.alwaysLiveBytes,\n"
                       "  m.peakLiveness.bytes, m.tilesUsed, x.totalCycles, x.steps,\n"
                       "  len(x.runs), x.tileCycles.of(pva.TileCycleTotals.Kind.Compute)]))"),
        {doc->profilePath()}, 60);
    QVERIFY(!pJson.isNull());
    const QJsonArray p = pJson.array();
    QCOMPARE(p.size(), 10);

    const qulonglong inViewer[] = {viewer("Memory", "Total (including gaps)"),
                                   viewer("Memory", "Total (excluding gaps)"),
                                   viewer("Memory", "Largest tile"),
                                   viewer("Memory", "Always live"),
                                   viewer("Memory", "Peak liveness"),
                                   viewer("Memory", "Tiles used"),
                                   viewer("Execution", "Total cycles"),
                                   viewer("Execution", "Steps"),
                                   viewer("Execution", "Runs"),
                                   viewer("Execution", "Compute (tile cycles)")};
    const qulonglong inCli[] = {
        number(memory[QStringLiteral("totalIncludingGaps")]),
        number(memory[QStringLiteral("totalExcludingGaps")]),
        number(memory[QStringLiteral("maxTile")].toObject()[QStringLiteral("includingGaps")]),
        number(memory[QStringLiteral("alwaysLive")]),
        number(memory[QStringLiteral("peakLiveness")].toObject()[QStringLiteral("bytes")]),
        number(memory[QStringLiteral("tilesUsed")]),
        number(execution[QStringLiteral("totalCycles")]),
        number(execution[QStringLiteral("numSteps")]),
        number(execution[QStringLiteral("numRuns")]),
        number(
            execution[QStringLiteral("tileCyclesByKind")].toObject()[QStringLiteral("compute")])};
    for (int i = 0; i < 10; ++i) {
      QVERIFY2(inViewer[i] != ~qulonglong(0),
               qPrintable(QStringLiteral("figure %1 missing in the viewer").arg(i)));
      QCOMPARE(inViewer[i], inCli[i]);
      QCOMPARE(inViewer[i], qulonglong(p[i].toDouble()));
    }
    QVERIFY(inViewer[0] > 0 && inViewer[6] > 0); // real figures, not two empty answers agreeing
    // Every front end says what the figures cover.
    QCOMPARE(d.section(QStringLiteral("Execution"))->scope,
             QStringLiteral("all runs, one replica"));
    QCOMPARE(execution[QStringLiteral("scope")].toString(),
             QStringLiteral("all runs, one replica"));
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
      const pva::ExecutionAnalysis e = pva::analyseExecution(doc->report());
      const pva::ReportSummary s = pva::summarize(doc->report());
      QVERIFY(!e.runs.empty());
      QCOMPARE(d.row(QStringLiteral("Execution"), QStringLiteral("Total cycles"))->value.number,
               e.allRuns.lengthCycles);

      ExecutionPage page;
      page.resize(1400, 900);
      page.show();
      page.setDocument(doc);
      QVERIFY(viewer_test::waitReady(&page));
      const RunFiguresModel& figures = *page.runFiguresModel();
      auto length = [&] {
        const int row = figures.rowOf(QStringLiteral("Length (cycles)"));
        return row < 0 ? ~qulonglong(0)
                       : qulonglong(figures.index(row, figures.valueColumn())
                                        .data(RunFiguresModel::NumberRole)
                                        .toDouble());
      };
      for (std::size_t r = 0; r < e.runs.size(); ++r) {
        const pva::RunSummary& run = s.execution.runs[r];
        const QString name =
            QStringLiteral("%1. %2").arg(run.index).arg(QString::fromStdString(run.name));
        QCOMPARE(d.row(QStringLiteral("Runs"), name)->value.number, e.runs[r].lengthCycles);
        page.selectRun(int(r));
        QCOMPARE(length(), qulonglong(e.runs[r].lengthCycles));
        const int runRow = page.summaryModel()->rowOf(
            QStringLiteral("Run %1 (%2): cycles").arg(r).arg(QString::fromStdString(run.name)));
        QVERIFY(runRow >= 0);
        QCOMPARE(qulonglong(page.summaryModel()
                                ->index(runRow, page.summaryModel()->valueColumn())
                                .data(ExecutionSummaryModel::NumberRole)
                                .toDouble()),
                 qulonglong(e.runs[r].lengthCycles));
      }
      page.selectRun(-1);
      QCOMPARE(length(), qulonglong(e.allRuns.lengthCycles));
      // The other sum is shown under its own name, and on the pipeline it is not the length.
      const int sumRow = figures.rowOf(QStringLiteral("Σ steps' slowest IPU (cycles)"));
      QVERIFY(sumRow >= 0);
      QCOMPARE(
          figures.index(sumRow, figures.valueColumn()).data(RunFiguresModel::NumberRole).toDouble(),
          double(e.allRuns.cycles));
      if (path == viewer_test::pipelineReport()) QVERIFY(e.allRuns.cycles > e.allRuns.lengthCycles);
      QVERIFY(page.summaryModel()->rowOf(QStringLiteral("IPU cycles in view (Σ IPUs)")) >= 0);

      QProcess cli;
      cli.start(QStringLiteral(PVA_EXECUTABLE),
                {QStringLiteral("summary"), doc->profilePath(), QStringLiteral("--json")});
      QVERIFY(cli.waitForFinished(60000));
      QCOMPARE(cli.exitCode(), 0);
      const QJsonObject j = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
      const QJsonObject x = j[QStringLiteral("execution")].toObject(),
                        graph = j[QStringLiteral("graph")].toObject();
      QCOMPARE(qulonglong(x[QStringLiteral("totalCycles")].toDouble()),
               qulonglong(e.allRuns.lengthCycles));
      const QJsonArray cliRuns = x[QStringLiteral("runs")].toArray();
      QCOMPARE(std::size_t(cliRuns.size()), e.runs.size());
      for (int r = 0; r < cliRuns.size(); ++r)
        QCOMPARE(qulonglong(cliRuns[r].toObject()[QStringLiteral("cycles")].toDouble()),
                 qulonglong(e.runs[std::size_t(r)].lengthCycles));
      QCOMPARE(
          d.row(QStringLiteral("Graph"), QStringLiteral("Programs run as steps"))->value.number,
          std::uint64_t(graph[QStringLiteral("numProgramSteps")].toDouble()));
      QCOMPARE(d.row(QStringLiteral("Graph"), QStringLiteral("Liveness steps"))->value.number,
               std::uint64_t(graph[QStringLiteral("numLivenessSteps")].toDouble()));
      // The Liveness view's steps are the Summary's "Liveness steps" (82 on the pipeline, where
      // 42 programs run as steps: two counts, each under its own name).
      LivenessPage liveness;
      liveness.resize(1200, 800);
      liveness.setDocument(doc);
      QVERIFY(viewer_test::waitReady(&liveness));
      QCOMPARE(std::uint64_t(liveness.data()->steps()),
               d.row(QStringLiteral("Graph"), QStringLiteral("Liveness steps"))->value.number);

      const QJsonDocument pJson = viewer_test::runPythonJson(
          QStringLiteral(TESSERA_PYTHON_DIR),
          QStringLiteral(
              "import json, sys, pva\n"
              "r = pva.openReport(sys.argv[1])\n"
              "e, g = pva.analyseExecution(r), pva.summarize(r).graph\n"
              "print(json.dumps([e.allRuns.lengthCycles] + [x.lengthCycles for x in e.runs]\n"
              "  + [g.programSteps, g.livenessSteps]))"),
          {doc->profilePath()}, 60);
      QVERIFY(!pJson.isNull());
      const QJsonArray p = pJson.array();
      QCOMPARE(std::size_t(p.size()), e.runs.size() + 3);
      QCOMPARE(qulonglong(p[0].toDouble()), qulonglong(e.allRuns.lengthCycles));
      for (std::size_t r = 0; r < e.runs.size(); ++r)
        QCOMPARE(qulonglong(p[int(r) + 1].toDouble()), qulonglong(e.runs[r].lengthCycles));
      QCOMPARE(std::uint64_t(p[int(e.runs.size()) + 1].toDouble()), s.graph.programSteps);
      QCOMPARE(std::uint64_t(p[int(e.runs.size()) + 2].toDouble()), s.graph.livenessSteps);
      if (path == viewer_test::pipelineReport())
        QVERIFY(s.graph.livenessSteps > s.graph.programSteps);
    }
  }
  // Tile cycles by kind with their shares, and stream-copy cycles by destination: one figure
  // wherever it is shown. Summary, Execution (all runs: the per-IPU table summed over IPUs, the
  // run figures), Compare (a report against itself), `pva summary`, `pva query runs` (summed
  // over runs), `pva compare` and Python, on the 2-IPU pipeline and the 2-run mlp. A share is
  // "of tile cycles" everywhere it is written, so the same word has the same denominator.
  void sharesAndStreamCopiesAgreeEverywhere() {
    for (const QString& path : {viewer_test::pipelineReport(), viewer_test::mlpReport()}) {
      auto doc = Document::resolve(path);
      Progress progress = Progress::standalone(QStringLiteral("test"));
      const SummaryData d = loadSummary(*doc, progress);
      const ComparisonData c = loadComparison(*Document::comparison(path, path), progress);
      ExecutionPage page;
      page.resize(1400, 900);
      page.show();
      page.setDocument(doc);
      QVERIFY(viewer_test::waitReady(&page));
      page.selectRun(-1);
      const RunFiguresModel& runFigures = *page.runFiguresModel();
      const IpuFiguresModel* ipus = page.findChild<IpuFiguresModel*>();
      QVERIFY(ipus && ipus->rowCount() > 0);

      auto json = [](const QStringList& args) {
        QProcess p;
        p.start(QStringLiteral(PVA_EXECUTABLE), args);
        p.waitForFinished(120000);
        return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
      };
      const QJsonObject summary =
          json({QStringLiteral("summary"), doc->profilePath(), QStringLiteral("--json")});
      const QJsonObject runs =
          json({QStringLiteral("query"), doc->profilePath(), QStringLiteral("runs"),
                QStringLiteral("--format"), QStringLiteral("json")});
      const QJsonObject compared =
          json({QStringLiteral("compare"), doc->profilePath(), doc->profilePath(),
                QStringLiteral("--format"), QStringLiteral("json")});
      QVERIFY(!summary.isEmpty() && !runs.isEmpty() && !compared.isEmpty());
      const QJsonDocument pyJson = viewer_test::runPythonJson(
          QStringLiteral(TESSERA_PYTHON_DIR),
          QStringLiteral("import json, sys, pva\n"
                         "r = pva.openReport(sys.argv[1])\n"
                         "k = pva.summarize(r).execution.tileCycles\n"
                         "sc = pva.analyseExecution(r).allRuns.streamCopyCycles\n"
                         "cmp = pva.compare(r, r).cycles.streamCopies\n"
                         "print(json.dumps({'kinds': k.asDict(), 'total': k.total,\n"
                         "  'streamCopies': {'host': sc.host, 'remoteBuffer': sc.remoteBuffer,\n"
                         "                   'mixed': sc.mixed, 'unknown': sc.unknown},\n"
                         "  'compared': {n.name: n.value.current for n in cmp}}))"),
          {doc->profilePath()}, 60);
      QVERIFY(!pyJson.isNull());
      const QJsonObject py = pyJson.object();

      // Tile cycles by kind and their shares.
      const QJsonObject cliKinds = summary[QStringLiteral("execution")]
                                       .toObject()[QStringLiteral("tileCyclesByKind")]
                                       .toObject();
      const auto total = qulonglong(py[QStringLiteral("total")].toDouble());
      QVERIFY(total > 0);
      for (int k = 0; k < IpuFiguresModel::kKinds; ++k) {
        const auto kind = pva::TileCycleTotals::Kind(k);
        const QString key = QString::fromStdString(pva::TileCycleTotals::kindName(kind));
        const SummaryRow* row =
            d.row(QStringLiteral("Execution"),
                  QStringLiteral("%1 (tile cycles)")
                      .arg(QString::fromStdString(pva::CycleKinds::label(kind))));
        QVERIFY2(row, qPrintable(key));
        qulonglong perIpu = 0;
        for (int ipu = 0; ipu < ipus->rowCount(); ++ipu)
          perIpu += ipus->index(ipu, IpuFiguresModel::FirstKindColumn + k)
                        .data(IpuFiguresModel::NumberRole)
                        .toULongLong();
        QCOMPARE(qulonglong(row->value.number), perIpu);
        QCOMPARE(qulonglong(cliKinds[key].toDouble()), perIpu);
        QCOMPARE(qulonglong(py[QStringLiteral("kinds")].toObject()[key].toDouble()), perIpu);
        QCOMPARE(qulonglong(c.row(compare_sections::kinds, key)->current), perIpu);
        QCOMPARE(row->note, QStringLiteral("%1 % of tile cycles")
                                .arg(100.0 * double(perIpu) / double(total), 0, 'f', 1));
      }
      QVERIFY(ipus->headerData(IpuFiguresModel::FirstKindColumn, Qt::Horizontal, Qt::ToolTipRole)
                  .toString()
                  .contains(QStringLiteral("tile cycles")));

      // Stream-copy cycles by destination.
      const QJsonObject cliStream = summary[QStringLiteral("execution")]
                                        .toObject()[QStringLiteral("streamCopyCyclesByDestination")]
                                        .toObject();
      const QJsonArray cmpStream = compared[QStringLiteral("cycles")]
                                       .toObject()[QStringLiteral("streamCopiesByDestination")]
                                       .toArray();
      QCOMPARE(cmpStream.size(), 4);
      struct Destination {
        const char* key;
        const char* summaryRow;
        const char* executionRow;
        const char* queryColumn;
        const char* compareRow;
      };
      const Destination destinations[] = {
          {"host", "Host (cycles)", "Stream copies: host (cycles)", "streamCopyHost", "Host"},
          {"remoteBuffer", "Remote buffers (cycles)", "Stream copies: remote buffers (cycles)",
           "streamCopyRemoteBuffer", "Remote buffers"}};
      for (int i = 0; i < 2; ++i) {
        const Destination& x = destinations[i];
        const QString key = QString::fromLatin1(x.key);
        const auto expected =
            qulonglong(py[QStringLiteral("streamCopies")].toObject()[key].toDouble());
        QCOMPARE(
            qulonglong(d.row(QStringLiteral("Stream copies"), QString::fromLatin1(x.summaryRow))
                           ->value.number),
            expected);
        const int row = runFigures.rowOf(QString::fromLatin1(x.executionRow));
        QVERIFY2(row >= 0, x.executionRow);
        QCOMPARE(qulonglong(runFigures.index(row, runFigures.valueColumn())
                                .data(RunFiguresModel::NumberRole)
                                .toDouble()),
                 expected);
        QCOMPARE(qulonglong(cliStream[key].toDouble()), expected);
        qulonglong summed = 0;
        for (const QJsonValue& r : runs[QStringLiteral("rows")].toArray())
          summed += qulonglong(r.toObject()[QString::fromLatin1(x.queryColumn)].toDouble());
        QCOMPARE(summed, expected);
        QCOMPARE(cmpStream[i].toObject()[QStringLiteral("name")].toString(), key);
        QCOMPARE(qulonglong(cmpStream[i].toObject()[QStringLiteral("base")].toDouble()), expected);
        QCOMPARE(qulonglong(py[QStringLiteral("compared")].toObject()[key].toDouble()), expected);
        QCOMPARE(
            qulonglong(
                c.row(compare_sections::streamCopies, QString::fromLatin1(x.compareRow))->current),
            expected);
      }
      QVERIFY(qulonglong(cliStream[QStringLiteral("host")].toDouble()) > 0);
    }
  }

  void outOfMemoryReportHasNoRuns() {
    SummaryPage page;
    page.setDocument(Document::resolve(viewer_test::oomReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const SummaryData& d = *page.model()->summary();
    QCOMPARE(d.row(QStringLiteral("Report"), QStringLiteral("Out of memory"))->value.text,
             QStringLiteral("yes"));
    // No "Runs 0, total cycles 0": the report did not run, and the verdict says it does not fit.
    QVERIFY(!d.row(QStringLiteral("Execution"), QStringLiteral("Runs")));
    QVERIFY(!d.row(QStringLiteral("Execution"), QStringLiteral("Total cycles")));
    QCOMPARE(d.row(QStringLiteral("Execution"), QStringLiteral("Not run"))->value.text,
             QStringLiteral("no execution profile"));
    const SummaryRow* verdict = d.row(QStringLiteral("Memory"), QStringLiteral("Verdict"));
    QVERIFY(verdict);
    QCOMPARE(verdict->value.text, QStringLiteral("does not fit"));
    const pva::MemorySummary m =
        pva::summarize(Document::resolve(viewer_test::oomReport())->report()).memory;
    QVERIFY(m.tilesOutOfMemory > 0);
    QVERIFY2(verdict->note.contains(QString::number(m.tilesOutOfMemory)),
             qPrintable(verdict->note));
    // A report that fits says so.
    SummaryPage fits;
    fits.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&fits));
    QCOMPARE(fits.model()
                 ->summary()
                 ->row(QStringLiteral("Memory"), QStringLiteral("Verdict"))
                 ->value.text,
             QStringLiteral("fits"));
  }

  // app.json and framework.json beside a report (issue 37): the samples write an app.json that
  // the Summary shows as libpva reads it; a framework.json shows too; a broken one says why in
  // its section while the rest of the Summary still loads.
  void applicationFilesShowInTheSummary() {
    Progress progress = Progress::standalone(QStringLiteral("test"));
    {
      const SummaryData d = loadSummary(*Document::resolve(viewer_test::mlpReport()), progress);
      const QString app = QStringLiteral("Application (app.json)");
      QVERIFY(d.section(app));
      QCOMPARE(d.row(app, QStringLiteral("application"))->value.text,
               QStringLiteral("tessera-mlp"));
      QCOMPARE(d.row(app, QStringLiteral("framework"))->value.text, QStringLiteral("Tessera"));
      const QString args = d.row(app, QStringLiteral("arguments"))->value.text;
      QVERIFY2(args.startsWith(QStringLiteral("--steps 32 --steps-per-run 16 --reports ")),
               qPrintable(args));
      // In the Summary's order: right after the files of the report.
      QCOMPARE(d.sections[1].title, app);
      const pva::ApplicationInfo info =
          pva::readApplicationInfo(viewer_test::mlpReport().toStdString());
      QCOMPARE(args, QString::fromStdString(info.app.value("arguments")));
      QVERIFY(!d.section(QStringLiteral("Framework (framework.json)"))); // none written
    }
    // A copy of the report with a framework.json and a broken app.json.
    const QString dir = viewer_test::tmpDir(QStringLiteral("summary-app-json"));
    QDir().mkpath(dir);
    QFile::remove(dir + QStringLiteral("/profile.pop"));
    QVERIFY(QFile::copy(viewer_test::mlpReport() + QStringLiteral("/profile.pop"),
                        dir + QStringLiteral("/profile.pop")));
    auto write = [&](const QString& name, const QByteArray& text) {
      QFile f(dir + QLatin1Char('/') + name);
      QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
      f.write(text);
    };
    write(QStringLiteral("framework.json"), "{\"framework\": \"PopART\", \"version\": \"3.3.0\"}");
    write(QStringLiteral("app.json"), "{\"application\": \"train.py\", \"argu");
    const SummaryData d = loadSummary(*Document::resolve(dir), progress);
    const QString fw = QStringLiteral("Framework (framework.json)");
    QCOMPARE(d.row(fw, QStringLiteral("framework"))->value.text, QStringLiteral("PopART"));
    QCOMPARE(d.row(fw, QStringLiteral("version"))->value.text, QStringLiteral("3.3.0"));
    const SummaryRow* error =
        d.row(QStringLiteral("Application (app.json)"), QStringLiteral("Error"));
    QVERIFY(error);
    QVERIFY2(error->value.text.contains(QStringLiteral("app.json: not valid JSON (at byte")),
             qPrintable(error->value.text));
    QVERIFY(d.section(QStringLiteral("Memory"))); // the rest is there
  }
};

QTEST_MAIN(SummaryTest)
#include "test_summary.moc"
