// The Program Tree and Operations pages and their models on the samples' reports.
#include "ViewerTestUtil.hpp"
#include "charts/OperationTilesChart.hpp"
#include "core/Format.hpp"
#include "core/Settings.hpp"
#include "models/KeyValueModel.hpp"
#include "models/LayerTotalsModel.hpp"
#include "models/OperationsModel.hpp"
#include "models/ProgramTreeModel.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/OperationTilesPanel.hpp"
#include "widgets/OperationsPage.hpp"
#include "widgets/ProgramTreePage.hpp"

#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeView>
#include <algorithm>
#include <numeric>
#include <pva/Analysis.hpp>
#include <pva/Debug.hpp>
#include <pva/OperationTiles.hpp>
#include <pva/Program.hpp>
#include <pva/ProgramTotals.hpp>
#include <set>
#include <sqlite3.h>

using namespace tessera::viewer;

namespace {

/// Every node of the tree, depth first, from the model alone.
int countRows(const QAbstractItemModel& m, const QModelIndex& parent = {}) {
  int n = m.rowCount(parent);
  for (int r = 0; r < m.rowCount(parent); ++r)
    n += countRows(m, m.index(r, 0, parent));
  return n;
}

/// A copy of the mlp fixture (profile.pop and debug.cbor) in tmpDir(name) with `sql` run on its
/// profile.pop, e.g. to make a report of an older format; "" after failing the running test.
QString mlpCopyEditedBy(const QString& name, const char* sql) {
  const QString dir = viewer_test::tmpDir(name);
  for (const char* file : {"/profile.pop", "/debug.cbor"}) {
    QFile::remove(dir + QLatin1String(file));
    if (!QFile::copy(viewer_test::mlpReport() + QLatin1String(file), dir + QLatin1String(file))) {
      QTest::qFail("cannot copy the mlp fixture", __FILE__, __LINE__);
      return {};
    }
    QFile(dir + QLatin1String(file))
        .setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
  }
  sqlite3* db = nullptr;
  int rc = sqlite3_open((dir + QStringLiteral("/profile.pop")).toUtf8().constData(), &db);
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
  const QString error = QString::fromUtf8(sqlite3_errmsg(db));
  sqlite3_close(db);
  if (rc != SQLITE_OK) {
    QTest::qFail(qPrintable(QStringLiteral("editing the mlp copy: ") + error), __FILE__, __LINE__);
    return {};
  }
  return dir;
}

} // namespace

class ProgramsTest : public QObject {
  Q_OBJECT
private slots:
  void treeModelMirrorsTheProgramGraph() {
    auto doc = Document::resolve(viewer_test::mlpReport());
    Progress p = Progress::standalone(QStringLiteral("test"));
    auto tree = loadProgramTree(*doc, p);
    ProgramTreeModel model;
    const auto tester = viewer_test::checkModel(&model);
    model.setTree(tree);
    const pva::Report& report = doc->report();
    const auto entries = report.compilation().entryPoints();
    QCOMPARE(model.rowCount(), int(entries.size()));
    QCOMPARE(model.index(0, 0).data(ProgramTreeModel::ProgramIdRole).toULongLong(),
             entries[0]->_id());
    // The first root's children are its program's children, in order.
    const QModelIndex root = model.index(0, 0);
    QCOMPARE(model.rowCount(root), int(entries[0]->children().size()));
    for (int r = 0; r < model.rowCount(root); ++r)
      QCOMPARE(model.index(r, 0, root).data(ProgramTreeModel::ProgramIdRole).toULongLong(),
               entries[0]->children()[std::size_t(r)]->_id());
    QCOMPARE(countRows(model), int(tree->nodes.size()));
    QVERIFY(!tree->truncated);

    // Executed cycles per program add up to the execution's: every step is some program's.
    auto cycles = std::make_shared<const ProgramCycles>(loadProgramCycles(*doc, p));
    model.setCycles(cycles);
    std::uint64_t runs = 0, sum = 0;
    for (std::size_t i = 0; i < cycles->executions.size(); ++i) {
      runs += cycles->executions[i];
      sum += cycles->cycles[i];
    }
    QCOMPARE(runs, std::uint64_t(report.execution().steps().size()));
    QVERIFY(sum >=
            report.execution().totalCycles().total()); // slowest IPU per step, single IPU: equal
    QCOMPARE(sum, report.execution().totalCycles().total());
  }
  void treePageSearchesAndShowsDetails() {
    ProgramTreePage page;
    page.resize(1000, 700);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(!page.details()->value(QStringLiteral("Type")).isEmpty());
    QTest::keyClicks(page.search(), QStringLiteral("OnTileExecute"));
    const QString count = page.matchLabel()->text();
    QVERIFY2(count.contains(QStringLiteral("match")), qPrintable(count));
    QTest::keyClick(page.search(), Qt::Key_Return);
    QCOMPARE(page.details()->value(QStringLiteral("Type")), QStringLiteral("OnTileExecute"));
    QVERIFY(!page.details()->value(QStringLiteral("Compute set")).isEmpty());
    QVERIFY2(page.matchLabel()->text().startsWith(QStringLiteral("1 of ")),
             qPrintable(page.matchLabel()->text()));
    const QString first = page.details()->value(QStringLiteral("Name"));
    QTest::keyClick(page.search(), Qt::Key_Return);
    QVERIFY(page.matchLabel()->text().startsWith(QStringLiteral("2 of ")));
    QVERIFY(page.details()->value(QStringLiteral("Name")) != first ||
            page.details()->value(QStringLiteral("Program id")) != QString());
    QTest::keyClick(page.search(), Qt::Key_Return, Qt::ShiftModifier);
    QVERIFY(page.matchLabel()->text().startsWith(QStringLiteral("1 of ")));
    QCOMPARE(page.details()->value(QStringLiteral("Name")), first);
    // The selected program is visible: its parents were expanded.
    QVERIFY(page.tree()->visualRect(page.tree()->currentIndex()).isValid());
    // A match far down the tree is brought to the middle of the view, not to its last row.
    const int matches = page.matchLabel()->text().section(QStringLiteral(" of "), 1).toInt();
    bool scrolled = false;
    for (int i = 0; i < matches && !scrolled; ++i) {
      QTest::keyClick(page.search(), Qt::Key_Return);
      const QRect row = page.tree()->visualRect(page.tree()->currentIndex());
      const int height = page.tree()->viewport()->height();
      if (page.tree()->verticalScrollBar()->value() == 0 ||
          page.tree()->verticalScrollBar()->value() == page.tree()->verticalScrollBar()->maximum())
        continue; // at either end the view cannot centre it
      scrolled = true;
      QVERIFY2(
          row.top() > height / 4 && row.bottom() < height * 3 / 4,
          qPrintable(
              QStringLiteral("row at %1..%2 of %3").arg(row.top()).arg(row.bottom()).arg(height)));
    }
    QVERIFY(scrolled);
  }
  void operationsMatchTheDebugInformation() {
    auto doc = Document::resolve(viewer_test::mlpReport());
    Progress p = Progress::standalone(QStringLiteral("test"));
    auto data = std::make_shared<const OperationsData>(loadOperations(*doc, p));
    QVERIFY(data->hasDebugInfo);
    const pva::Report& report = doc->report();
    const auto ops = pva::OperationAnalysis(report).operations();
    QCOMPARE(data->operations.size(), ops.size());
    OperationsModel model;
    const auto tester = viewer_test::checkModel(&model);
    model.setData(data);
    QCOMPARE(model.rowCount(), int(ops.size()));
    // Sorted by executed cycles, largest first, by default.
    for (int r = 1; r < model.rowCount(); ++r)
      QVERIFY(model.index(r - 1, OperationsModel::ExecutedColumn)
                  .data(OperationsModel::SortRole)
                  .toULongLong() >= model.index(r, OperationsModel::ExecutedColumn)
                                        .data(OperationsModel::SortRole)
                                        .toULongLong());
    model.sort(OperationsModel::NameColumn, Qt::AscendingOrder);
    QVERIFY(model.index(0, 0).data().toString() <=
            model.index(model.rowCount() - 1, 0).data().toString());
    // Layers filter rows; the text filter narrows further.
    QVERIFY(!data->layers.isEmpty());
    model.setLayer(data->layers.front());
    int inLayer = 0;
    for (const auto& op : data->operations)
      inLayer += op.layer == data->layers.front() ? 1 : 0;
    QCOMPARE(model.rowCount(), inLayer);
    model.setLayer({});
    model.setTextFilter(QStringLiteral("no operation is called this"));
    QCOMPARE(model.rowCount(), 0);
    // Some operation ran: executed cycles were attributed.
    std::uint64_t executed = 0;
    for (const auto& op : data->operations)
      executed += op.executedCycles;
    QVERIFY(executed > 0);
    // Every operation has a name to read: one whose debug context has none says where it was
    // made ("(unnamed, Mlp.cpp:106 main)"), or which program it is.
    int unnamed = 0;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const OperationInfo& op = data->operations[i];
      QVERIFY(!op.name.trimmed().isEmpty());
      if (!ops[i].name().empty()) {
        QCOMPARE(op.name, QString::fromStdString(ops[i].name()));
        continue;
      }
      ++unnamed;
      const pva::SourceLocation& loc = ops[i].debugContext()->location();
      if (loc.fileName().empty()) {
        QVERIFY(op.name.startsWith(QStringLiteral("(unnamed) ")));
        continue;
      }
      const QString file = QString::fromStdString(loc.fileName()).section(QLatin1Char('/'), -1);
      QVERIFY2(
          op.name.startsWith(QStringLiteral("(unnamed, %1:%2").arg(file).arg(loc.lineNumber())),
          qPrintable(op.name));
    }
    QVERIFY2(unnamed > 0, "the MLP sample has operations without a name (Mlp.cpp)");
  }
  // Issue 37: the Operations table scrolled sideways at 1600 px. Now, in the window at 1600 px,
  // every default column shows without scrolling, each figure column at least as wide as its
  // widest figure and its (two-line) title, and the name takes the rest; at 1280 px the figures
  // stay whole and the name keeps a readable width (the table may scroll).
  void operationsTableFitsAt1600AndKeepsFiguresWholeAt1280() {
    for (const int width : {1600, 1280}) {
      MainWindow w;
      w.setRememberRecent(false);
      w.resize(width, 1000);
      w.show();
      QVERIFY(w.openPath(viewer_test::mlpReport()));
      QVERIFY(w.showView(QStringLiteral("operations")));
      auto* page = qobject_cast<OperationsPage*>(w.currentPage());
      QVERIFY(page);
      QVERIFY(viewer_test::waitReady(page));
      page->layers()->setCurrentIndex(0); // all layers: the longest names
      QApplication::processEvents();
      QTableView* table = page->table();
      QHeaderView* header = table->horizontalHeader();
      for (int c = 0; c < header->count(); ++c) {
        if (header->isSectionHidden(c) || c == OperationsModel::NameColumn) continue;
        const QString what =
            QStringLiteral("%1 px, column %2: %3 px").arg(width).arg(c).arg(header->sectionSize(c));
        QVERIFY2(header->sectionSize(c) >=
                     static_cast<QAbstractItemView*>(table)->sizeHintForColumn(c),
                 qPrintable(what));
        QVERIFY2(header->sectionSize(c) >= header->sectionSizeHint(c), qPrintable(what));
      }
      QVERIFY(header->sectionSize(OperationsModel::NameColumn) >= 220);
      if (width == 1600) {
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        QVERIFY(header->length() <= table->viewport()->width());
      }
    }
  }
  void operationsPageSelectsAndShowsDetails() {
    OperationsPage page;
    page.resize(1000, 700);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(page.model()->rowCount() > 0);
    QVERIFY(page.summary()->value(QStringLiteral("Selection")).startsWith(QStringLiteral("none")));
    page.table()->selectRow(0);
    const QString name = page.model()->index(0, 0).data().toString();
    QCOMPARE(page.summary()->value(QStringLiteral("Operation")), name);
    QVERIFY(page.programs()->rowCount() > 0);
    QVERIFY(page.debugText()->toPlainText().contains(QStringLiteral("\"name\"")));
    // The layer box lists every layer after "All layers".
    QCOMPARE(page.layers()->count(), int(page.model()->operations()->layers.size()) + 1);
    page.layers()->setCurrentIndex(0);
    QCOMPARE(page.model()->rowCount(), int(page.model()->operations()->operations.size()));
  }
  // Code, vertices and exchanged bytes per operation come from pva::operationFigures; the Layers
  // tab totals the operations shown per layer, and the header's menu hides columns.
  // The Per tile tab charts libpva's pva::operationTileFigures of the selected operation.
  void operationsSayWhyExecutedCyclesExceedTheRun() {
    // Issue 37: on the pipeline the operations' executed cycles (all layers) exceeded the run's
    // length without a word. libpva's two sums say why: the IPUs' steps overlap in time.
    OperationsPage page;
    page.resize(1200, 800);
    page.show();
    auto doc = Document::resolve(viewer_test::pipelineReport());
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    for (QComboBox* box : page.findChildren<QComboBox*>())
      if (box->count() > 0 && box->itemText(0) == QStringLiteral("All layers"))
        box->setCurrentIndex(0);
    QCOMPARE(page.model()->rowCount(), int(page.model()->operations()->operations.size()));
    const pva::ExecutionAnalysis e = pva::analyseExecution(doc->report());
    QVERIFY2(e.allRuns.cycles > e.allRuns.lengthCycles, "the pipeline's IPUs overlap");
    const OperationInfo totals = page.model()->totals();
    QVERIFY(totals.executedCycles <= e.allRuns.cycles); // operations own their programs
    const QString text = page.summary()->value(QStringLiteral("Executed cycles (all runs)"));
    QVERIFY2(text.startsWith(formatCount(totals.executedCycles)), qPrintable(text));
    QVERIFY(totals.executedCycles > e.allRuns.lengthCycles); // the case of the issue
    QVERIFY2(text.contains(formatCount(e.allRuns.lengthCycles)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("at the same time")), qPrintable(text));
    QVERIFY2(text.contains(formatCount(e.allRuns.cycles - e.allRuns.lengthCycles)),
             qPrintable(text));
    // The pure rule: within the run's length the number alone; beyond it, why.
    OperationsData d;
    d.stepCycles = 300;
    d.lengthCycles = 200;
    QCOMPARE(d.executedCyclesText(150), QStringLiteral("150"));
    QCOMPARE(d.executedCyclesText(250),
             QStringLiteral("250 (50 more than the runs' length, 200 cycles: IPUs ran different "
                            "steps at the same time and each step counts its slowest IPU, so 100 "
                            "overlapping cycles count again)"));
    page.grab().save(viewer_test::tmpDir(QStringLiteral("operations-overlap")) +
                     QStringLiteral("/operations.png"));
  }

  void operationsChartTheSelectedOperationPerTile() {
    OperationsPage page;
    page.resize(1200, 900);
    page.show();
    auto doc = Document::resolve(viewer_test::mlpReport());
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    OperationTilesPanel* panel = page.tilesPanel();
    QSignalSpy loaded(panel, &OperationTilesPanel::loaded);
    page.table()->selectRow(0); // the most executed cycles first
    const OperationInfo* info = page.model()->operationAt(0);
    QVERIFY(info && info->executedCycles > 0);
    QVERIFY(!panel->chart()->data()); // not read while its tab is hidden
    for (int i = 0; i < page.findChild<QTabWidget*>()->count(); ++i)
      if (page.findChild<QTabWidget*>()->tabText(i) == QStringLiteral("Per tile"))
        page.findChild<QTabWidget*>()->setCurrentIndex(i);
    QVERIFY(loaded.wait(60000));
    const auto& data = panel->chart()->data();
    QVERIFY(data);
    QCOMPARE(data->operation, info->name);

    const pva::Report& report = doc->report();
    const pva::Operation op = pva::OperationAnalysis(report).operations()[info->index];
    QCOMPARE(QString::fromStdString(op.name()), info->name);
    const pva::OperationTileFigures expected = pva::operationTileFigures(report, op);
    QCOMPARE(data->of(OperationTilesData::CodeBytes), expected.codeBytes);
    QCOMPARE(data->of(OperationTilesData::Vertices), expected.vertices);
    QCOMPARE(data->of(OperationTilesData::EstimatedCycles), expected.estimatedCycles);
    QCOMPARE(data->of(OperationTilesData::ExecutedCycles), expected.cycles);
    // The tiles add up to the table's figures (pva::operationFigures).
    auto sum = [](const std::vector<std::uint64_t>& v) {
      return std::accumulate(v.begin(), v.end(), std::uint64_t(0));
    };
    QCOMPARE(sum(data->of(OperationTilesData::CodeBytes)), info->codeBytes);
    QCOMPARE(sum(data->of(OperationTilesData::Vertices)), info->vertices);
    const std::uint64_t busiest = *std::max_element(expected.cycles.begin(), expected.cycles.end());
    QVERIFY(busiest > 0 && busiest <= info->executedCycles);

    // Executed cycles first: the summary gives the total and the busiest tile, the axis its scale.
    QCOMPARE(panel->chart()->figure(), OperationTilesData::ExecutedCycles);
    QVERIFY2(panel->summaryLabel()->text().contains(
                 QStringLiteral("total %1").arg(formatCount(sum(expected.cycles)))),
             qPrintable(panel->summaryLabel()->text()));
    QVERIFY(panel->summaryLabel()->text().contains(
        QStringLiteral("highest %1").arg(formatCount(busiest))));
    QTest::qWait(50);
    QImage image = panel->chart()->grab().toImage();
    QVERIFY(panel->chart()->plottedRange().second >= double(busiest));
    QVERIFY(panel->chart()->plottedRange().second < 1.2 * double(busiest));
    auto hasColour = [](const QImage& im, const QColor& c) {
      for (int y = 0; y < im.height(); ++y)
        for (int x = 0; x < im.width(); ++x)
          if (im.pixelColor(x, y) == c) return true;
      return false;
    };
    QVERIFY(hasColour(image, OperationTilesChart::figureColor(OperationTilesData::ExecutedCycles)));
    const QString out = viewer_test::tmpDir(QStringLiteral("operation-tiles"));
    page.grab().save(out + QStringLiteral("/mlp-executed.png"));
    // Another figure: the chart, its legend and the summary follow.
    panel->figureBox()->setCurrentIndex(OperationTilesData::CodeBytes);
    QCOMPARE(panel->chart()->figure(), OperationTilesData::CodeBytes);
    QVERIFY(panel->chart()->legendNames().first().startsWith(
        OperationTilesData::figureName(OperationTilesData::CodeBytes)));
    image = panel->chart()->grab().toImage();
    QVERIFY(hasColour(image, OperationTilesChart::figureColor(OperationTilesData::CodeBytes)));
    QVERIFY(panel->chart()->plottedRange().second >=
            double(*std::max_element(expected.codeBytes.begin(), expected.codeBytes.end())));
    page.grab().save(out + QStringLiteral("/mlp-code.png"));

    // Another operation: read again.
    page.table()->selectRow(1);
    QVERIFY(loaded.wait(60000));
    QCOMPARE(panel->chart()->data()->operation, page.model()->operationAt(1)->name);
  }

  // Estimated FLOPs per tile (report format 1.4): the operation with the most FLOPs, charted as
  // libpva's compute sets store them, adding up to the table's FLOPs column.
  void operationsChartFlopsPerTile() {
    OperationsPage page;
    page.resize(1200, 900);
    page.show();
    auto doc = Document::resolve(viewer_test::mlpReport());
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    page.layers()->setCurrentIndex(0); // all layers
    int row = -1;
    for (int r = 0; r < page.model()->rowCount(); ++r) {
      const OperationInfo* op = page.model()->operationAt(r);
      if (op->estimatedFlops &&
          (row < 0 || *op->estimatedFlops > *page.model()->operationAt(row)->estimatedFlops))
        row = r;
    }
    QVERIFY(row >= 0);
    const OperationInfo* info = page.model()->operationAt(row);
    QVERIFY(*info->estimatedFlops > 0);
    OperationTilesPanel* panel = page.tilesPanel();
    QSignalSpy loaded(panel, &OperationTilesPanel::loaded);
    auto* tabs = page.findChild<QTabWidget*>();
    for (int i = 0; i < tabs->count(); ++i)
      if (tabs->tabText(i) == QStringLiteral("Per tile")) tabs->setCurrentIndex(i);
    page.table()->selectRow(row);
    QVERIFY(loaded.wait(60000));
    QCOMPARE(panel->chart()->data()->operation, info->name);
    panel->figureBox()->setCurrentIndex(OperationTilesData::EstimatedFlops);
    QCOMPARE(panel->chart()->figure(), OperationTilesData::EstimatedFlops);
    QCOMPARE(panel->figureBox()->currentText(),
             QStringLiteral("Estimated FLOPs (each compute set once)"));
    const auto& data = panel->chart()->data();
    QVERIFY(data->hasFlops);

    // Oracle: the stored FLOPs per tile of the operation's compute sets, each once.
    const pva::Report& report = doc->report();
    const pva::Operation op = pva::OperationAnalysis(report).operations()[info->index];
    std::vector<std::uint64_t> expected(report.compilation().target().tilesPerReplica(), 0);
    std::set<unsigned> seen;
    for (const pva::ProgramPtr& p : op.programs())
      if (p->type() == pva::Program::Type::OnTileExecute) {
        const pva::ComputeSet cs = static_cast<const pva::OnTileExecuteProgram&>(*p).computeSet();
        if (!seen.insert(cs.id()).second) continue;
        const std::vector<std::uint64_t> flops = cs.estimatedFlopsByTile();
        QCOMPARE(flops.size(), expected.size());
        for (std::size_t t = 0; t < flops.size(); ++t)
          expected[t] += flops[t];
      }
    QCOMPARE(data->of(OperationTilesData::EstimatedFlops), expected);
    const std::uint64_t total = std::accumulate(expected.begin(), expected.end(), std::uint64_t(0));
    QCOMPARE(total, *info->estimatedFlops); // the table's FLOPs column
    const auto busiest = std::max_element(expected.begin(), expected.end());
    const auto used =
        std::count_if(expected.begin(), expected.end(), [](std::uint64_t f) { return f > 0; });
    QVERIFY(used > 1); // a matmul's FLOPs are spread over tiles
    const QString summary = panel->summaryLabel()->text();
    QVERIFY2(
        summary.contains(QStringLiteral("On %1 of %2 tiles")
                             .arg(formatCount(std::uint64_t(used)), formatCount(expected.size()))),
        qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("total %1").arg(formatCount(total))),
             qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("highest %1 on tile %2")
                                  .arg(formatCount(*busiest))
                                  .arg(busiest - expected.begin())),
             qPrintable(summary));
    // Title with unit and scope: the legend names the figure and the operation.
    QCOMPARE(panel->chart()->legendNames().first(),
             QStringLiteral("Estimated FLOPs (each compute set once) of %1").arg(info->name));
    QTest::qWait(50);
    QVERIFY(panel->chart()->plottedRange().second >= double(*busiest));
    QVERIFY(panel->chart()->plottedRange().second < 1.2 * double(*busiest));
    const QImage image = panel->chart()->grab().toImage();
    const QColor colour = OperationTilesChart::figureColor(OperationTilesData::EstimatedFlops);
    int columns = 0; // pixel columns holding a FLOPs bar
    for (int x = 0; x < image.width(); ++x)
      for (int y = 0; y < image.height(); ++y)
        if (image.pixelColor(x, y) == colour) {
          ++columns;
          break;
        }
    QVERIFY2(columns > 1, qPrintable(QString::number(columns)));
    page.grab().save(viewer_test::tmpDir(QStringLiteral("operation-flops")) +
                     QStringLiteral("/mlp-flops.png"));
  }
  // A report of format 1.3 stores FLOPs per compute set only: the chart says there is no estimate
  // per tile instead of drawing zeros.
  void operationsFlopsPerTileOfAnOlderReportSayNoEstimate() {
    const QString dir =
        mlpCopyEditedBy(QStringLiteral("flops-1.3"),
                        "ALTER TABLE compute_sets DROP COLUMN estimated_flops_by_tile;"
                        "UPDATE meta SET value = '1.3.0' WHERE key = 'format_version';");
    QVERIFY(!dir.isEmpty());
    OperationsPage page;
    page.resize(1200, 900);
    page.show();
    page.setDocument(Document::resolve(dir));
    QVERIFY(viewer_test::waitReady(&page));
    page.layers()->setCurrentIndex(0);
    OperationTilesPanel* panel = page.tilesPanel();
    QSignalSpy loaded(panel, &OperationTilesPanel::loaded);
    auto* tabs = page.findChild<QTabWidget*>();
    for (int i = 0; i < tabs->count(); ++i)
      if (tabs->tabText(i) == QStringLiteral("Per tile")) tabs->setCurrentIndex(i);
    page.table()->selectRow(0);
    QVERIFY(loaded.wait(60000));
    QVERIFY(
        page.model()->operations()->hasFlopEstimates); // per compute set, still shown in the table
    panel->figureBox()->setCurrentIndex(OperationTilesData::EstimatedFlops);
    const auto& data = panel->chart()->data();
    QVERIFY(!data->hasFlops);
    QVERIFY(data->of(OperationTilesData::EstimatedFlops).empty());
    QVERIFY(!data->of(OperationTilesData::CodeBytes).empty()); // the other figures as before
    QCOMPARE(panel->summaryLabel()->text(),
             QStringLiteral("No FLOP estimates per tile in this report."));
    QTest::qWait(50);
    const QImage image = panel->chart()->grab().toImage();
    const QColor colour = OperationTilesChart::figureColor(OperationTilesData::EstimatedFlops);
    for (int y = 0; y < image.height(); ++y)
      for (int x = 0; x < image.width(); ++x)
        QVERIFY(image.pixelColor(x, y) != colour);
    page.grab().save(viewer_test::tmpDir(QStringLiteral("operation-flops-1.3")) +
                     QStringLiteral("/mlp-1.3-flops.png"));
  }

  void operationsShowCodeVerticesExchangeAndLayerTotals() {
    OperationsPage page;
    page.resize(1200, 700);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    page.layers()->setCurrentIndex(0); // all layers
    const OperationsModel* model = page.model();
    const pva::Report report = Document::resolve(viewer_test::mlpReport())->report();
    const auto ops = pva::OperationAnalysis(report).operations();
    std::uint64_t vertices = 0, exchanged = 0, code = 0;
    // loadOperations keeps libpva's order (names repeat: user contexts share them).
    const auto& infos = model->operations()->operations;
    QCOMPARE(infos.size(), ops.size());
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const OperationInfo& op = infos[i];
      const pva::OperationFigures f = pva::operationFigures(ops[i]);
      QCOMPARE(op.vertices, f.vertices);
      QCOMPARE(op.codeBytes, f.codeBytes);
      QCOMPARE(op.exchangeBytes, f.exchangeBytes);
      vertices += op.vertices;
      exchanged += op.exchangeBytes;
      code += op.codeBytes;
    }
    for (int r = 0; r < model->rowCount(); ++r)
      QCOMPARE(model->index(r, OperationsModel::VerticesColumn)
                   .data(OperationsModel::SortRole)
                   .toULongLong(),
               model->operationAt(r)->vertices);
    QVERIFY(vertices > 0 && exchanged > 0 &&
            code > 0); // the MLP's matmuls have vertices and exchanges
    // Layers: one row a layer; their operation counts add up to the rows shown.
    LayerTotalsModel* layers = page.layerTotals();
    const auto tester = viewer_test::checkModel(layers);
    page.table()->clearSelection();
    QCOMPARE(layers->rowCount(), int(model->operations()->layers.size()));
    std::uint64_t counted = 0, layerVertices = 0;
    for (int r = 0; r < layers->rowCount(); ++r) {
      counted += layers->index(r, LayerTotalsModel::OperationsColumn)
                     .data(LayerTotalsModel::SortRole)
                     .toULongLong();
      layerVertices += layers->index(r, LayerTotalsModel::VerticesColumn)
                           .data(LayerTotalsModel::SortRole)
                           .toULongLong();
    }
    QCOMPARE(counted, std::uint64_t(model->rowCount()));
    QCOMPARE(layerVertices, vertices);
    // A layer's live bytes at its peak never exceed the report's peak.
    const std::uint64_t peak = pva::summarize(report).memory.peakLiveness.notAlwaysLiveBytes;
    for (int r = 0; r < layers->rowCount(); ++r)
      QVERIFY(layers->index(r, LayerTotalsModel::LiveAtPeakColumn)
                  .data(LayerTotalsModel::SortRole)
                  .toULongLong() <= peak);
    // The column chooser: hide and show a figure; the name cannot be hidden.
    page.setColumnShown(OperationsModel::CodeColumn, false);
    QVERIFY(page.table()->horizontalHeader()->isSectionHidden(OperationsModel::CodeColumn));
    page.setColumnShown(OperationsModel::CodeColumn, true);
    QVERIFY(!page.table()->horizontalHeader()->isSectionHidden(OperationsModel::CodeColumn));
    page.setColumnShown(OperationsModel::NameColumn, false);
    QVERIFY(!page.table()->horizontalHeader()->isSectionHidden(OperationsModel::NameColumn));
  }
  // FLOPs per operation are pva::operationFigures' estimatedFlops, in the table, the Layers tab
  // and the totals; a report without estimates shows "—", never 0.
  void operationsShowFlopEstimates() {
    OperationsPage page;
    page.resize(1200, 700);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    page.layers()->setCurrentIndex(0); // all layers
    auto* model = const_cast<OperationsModel*>(page.model());
    const auto tester = viewer_test::checkModel(model);
    const pva::Report report = Document::resolve(viewer_test::mlpReport())->report();
    QVERIFY(report.hasFlopEstimates()); // the samples set profiler.includeFlopEstimates
    QVERIFY(model->operations()->hasFlopEstimates);
    const auto ops = pva::OperationAnalysis(report).operations();
    const auto& infos = model->operations()->operations;
    QCOMPARE(infos.size(), ops.size());
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const pva::OperationFigures f = pva::operationFigures(ops[i]);
      QVERIFY(f.estimatedFlops.has_value());
      QVERIFY(infos[i].estimatedFlops == f.estimatedFlops);
      QCOMPARE(infos[i].verticesWithoutFlopEstimate, f.verticesWithoutFlopEstimate);
      total += *f.estimatedFlops;
    }
    QVERIFY(total > 0);
    QCOMPARE(model->headerData(OperationsModel::FlopsColumn, Qt::Horizontal).toString(),
             QStringLiteral("FLOPs (estimate)"));
    std::uint64_t shown = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
      const OperationInfo* op = model->operationAt(r);
      const QModelIndex cell = model->index(r, OperationsModel::FlopsColumn);
      QCOMPARE(cell.data(OperationsModel::SortRole).toLongLong(), qlonglong(*op->estimatedFlops));
      QCOMPARE(cell.data().toString(),
               formatCount(*op->estimatedFlops)); // the MLP has no user codelets
      shown += *op->estimatedFlops;
    }
    QCOMPARE(shown, total);
    // Sorting by FLOPs puts the matmuls' operations first.
    model->sort(OperationsModel::FlopsColumn, Qt::DescendingOrder);
    for (int r = 1; r < model->rowCount(); ++r)
      QVERIFY(model->index(r - 1, OperationsModel::FlopsColumn)
                  .data(OperationsModel::SortRole)
                  .toLongLong() >= model->index(r, OperationsModel::FlopsColumn)
                                       .data(OperationsModel::SortRole)
                                       .toLongLong());
    // The Layers tab and the totals add up to the same.
    LayerTotalsModel* layers = page.layerTotals();
    const auto layersTester = viewer_test::checkModel(layers);
    page.table()->clearSelection();
    std::uint64_t layerFlops = 0;
    for (int r = 0; r < layers->rowCount(); ++r)
      layerFlops += layers->index(r, LayerTotalsModel::FlopsColumn)
                        .data(LayerTotalsModel::SortRole)
                        .toULongLong();
    QCOMPARE(layerFlops, total);
    QCOMPARE(page.summary()->value(QStringLiteral("FLOPs (estimate, each compute set once)")),
             formatCount(total));
    // The column chooser hides and shows it.
    page.setColumnShown(OperationsModel::FlopsColumn, false);
    QVERIFY(page.table()->horizontalHeader()->isSectionHidden(OperationsModel::FlopsColumn));
    page.setColumnShown(OperationsModel::FlopsColumn, true);
    QVERIFY(!page.table()->horizontalHeader()->isSectionHidden(OperationsModel::FlopsColumn));
  }
  void operationsWithoutFlopEstimatesSayNoEstimate() {
    // The mlp report made into one of format 1.0: no FLOP columns, no flop_estimates key.
    const QString dir =
        mlpCopyEditedBy(QStringLiteral("no-flops"),
                        "ALTER TABLE compute_sets DROP COLUMN estimated_flops;"
                        "ALTER TABLE compute_sets DROP COLUMN vertices_without_flop_estimate;"
                        "ALTER TABLE compute_sets DROP COLUMN estimated_flops_by_tile;"
                        "DELETE FROM meta WHERE key = 'flop_estimates';"
                        "UPDATE meta SET value = '1.0.0' WHERE key = 'format_version';");
    QVERIFY(!dir.isEmpty());
    OperationsPage page;
    page.setDocument(Document::resolve(dir));
    QVERIFY(viewer_test::waitReady(&page));
    page.layers()->setCurrentIndex(0);
    const auto tester = viewer_test::checkModel(const_cast<OperationsModel*>(page.model()));
    QVERIFY(page.model()->rowCount() > 0);
    QVERIFY(!page.model()->operations()->hasFlopEstimates);
    for (int r = 0; r < page.model()->rowCount(); ++r) {
      const QModelIndex cell = page.model()->index(r, OperationsModel::FlopsColumn);
      QCOMPARE(cell.data().toString(), QStringLiteral("—"));
      QVERIFY(cell.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("No estimate")));
    }
    page.table()->clearSelection();
    QCOMPARE(page.summary()->value(QStringLiteral("FLOPs (estimate, each compute set once)")),
             QStringLiteral("—"));
    LayerTotalsModel* layers = page.layerTotals();
    for (int r = 0; r < layers->rowCount(); ++r)
      QCOMPARE(layers->index(r, LayerTotalsModel::FlopsColumn).data().toString(),
               QStringLiteral("—"));
  }
  void operationsWithoutDebugInformationSaySo() {
    // A copy of the report without its debug.cbor.
    const QString dir = viewer_test::tmpDir(QStringLiteral("no-debug"));
    QVERIFY(QFile::copy(viewer_test::mlpReport() + QStringLiteral("/profile.pop"),
                        dir + QStringLiteral("/profile.pop")));
    OperationsPage page;
    page.setDocument(Document::resolve(dir));
    QVERIFY(viewer_test::waitReady(&page));
    QCOMPARE(page.model()->rowCount(), 0);
    QVERIFY(!page.model()->operations()->hasDebugInfo);
  }
  // Sequence, Repeat and Call rows total what they hold (issue 37), from libpva's programTotals:
  // each step program under them once, so the entry point's total is every executed step's
  // cycles and no container exceeds it; the IPU column says where they ran.
  void containersTotalWhatTheyHold() {
    for (const QString& path : {viewer_test::mlpReport(), viewer_test::pipelineReport()}) {
      ProgramTreePage page;
      const auto doc = Document::resolve(path);
      page.setDocument(doc);
      QVERIFY(viewer_test::waitReady(&page));
      const ProgramTreeModel& m = *page.model();
      const ProgramTreeData& tree = *m.tree();
      const auto analysis = pva::analyseExecution(doc->report());
      const auto totals = pva::programTotals(doc->report(), analysis.allRuns);
      const std::uint32_t root = tree.roots.front();
      const std::uint32_t rootProgram = tree.nodes[root].program;
      QVERIFY(!tree.programs[rootProgram].isStep);
      const QModelIndex r = m.indexOfNode(root);
      QCOMPARE(r.siblingAtColumn(ProgramTreeModel::CyclesColumn).data().toString(),
               QStringLiteral("Σ ") + formatCount(totals[rootProgram].cycles));
      // The entry point holds every step that ran: its total is the run's Σ steps' slowest IPU.
      QCOMPARE(totals[rootProgram].cycles, analysis.allRuns.cycles);
      QCOMPARE(totals[rootProgram].steps, analysis.allRuns.steps);
      // Every container: Σ of the distinct step programs the page says it holds.
      std::size_t containers = 0;
      for (std::uint32_t n = 0; n < tree.nodes.size() && containers < 200; ++n) {
        const std::uint32_t id = tree.nodes[n].program;
        if (tree.programs[id].isStep) continue;
        ++containers;
        std::uint64_t sum = 0, steps = 0;
        for (const std::uint32_t p : ProgramTreePage::programsUnder(tree, n)) {
          sum += analysis.allRuns.programs[p].cycles;
          steps += analysis.allRuns.programs[p].executions;
        }
        QCOMPARE(totals[id].cycles, sum);
        QCOMPARE(totals[id].steps, steps);
        QVERIFY(totals[id].cycles <= analysis.allRuns.cycles);
      }
      QVERIFY(containers > 0);
      // IPUs: the MLP runs on one, the pipeline's program on its four.
      const QString ipus = r.siblingAtColumn(ProgramTreeModel::IpusColumn).data().toString();
      const unsigned numIpus = doc->report().compilation().target().numIPUs() /
                               std::max(1u, doc->report().compilation().target().numReplicas());
      QCOMPARE(ipus, numIpus == 1 ? QStringLiteral("0") : QStringLiteral("0-%1").arg(numIpus - 1));
      QCOMPARE(QString::fromStdString(pva::ipusText(0b1011)), QStringLiteral("0-1, 3"));
    }
  }
};

QTEST_MAIN(ProgramsTest)
#include "test_programs.moc"
