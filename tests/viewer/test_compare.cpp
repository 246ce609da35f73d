// The Compare page and its model on the samples' reports: mlp against mlp with bigger batches
// (the same program), and against the pipeline (another program on another device). Every value
// checked here is also read from each report on its own: pva::summarize and the Operations view's
// data (loadOperations), so the page shows the figures the reports' own views show.
#include "ViewerTestPaths.hpp"
#include "ViewerTestUtil.hpp"
#include "charts/GraphView.hpp"
#include "core/Format.hpp"
#include "core/OperationsData.hpp"
#include "core/ProgramTreeData.hpp"
#include "core/Settings.hpp"
#include "core/SummaryData.hpp"
#include "models/ComparisonModel.hpp"
#include "models/KeyValueModel.hpp"
#include "models/OperationsModel.hpp"
#include "models/ProgramTreeModel.hpp"
#include "models/SummaryModel.hpp"
#include "widgets/ComparePage.hpp"
#include "widgets/GraphPage.hpp"
#include "widgets/OperationsPage.hpp"
#include "widgets/ProgramTreePage.hpp"
#include "widgets/SummaryPage.hpp"

#include <QComboBox>
#include <QFile>
#include <QFont>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QTreeView>
#include <map>
#include <pva/Analysis.hpp>
#include <pva/Compare.hpp>
#include <pva/SerializedGraph.hpp>
#include <set>
#include <tuple>

using namespace tessera::viewer;
namespace sec = compare_sections;

namespace {

pva::ReportSummary summaryOf(const QString& dir) {
  return pva::summarize(Document::resolve(dir)->report());
}

/// The base and current values of a section's totals row (QVERIFY-friendly: null when absent).
const ComparisonRow* total(const ComparisonData& d, const QString& section) {
  return d.totalRow(section);
}

/// Every row's name shown by the (filtered) view, depth first.
QStringList shownNames(const QAbstractItemModel& m, const QModelIndex& parent = {}) {
  QStringList names;
  for (int r = 0; r < m.rowCount(parent); ++r) {
    const QModelIndex i = m.index(r, 0, parent);
    if (parent.isValid()) names << i.data().toString();
    names << shownNames(m, i);
  }
  return names;
}

/// Opens the Compare page on two reports and waits for it.
struct OpenComparison {
  ComparePage page;
  std::unique_ptr<QAbstractItemModelTester> modelTester, proxyTester;
  OpenComparison(const QString& base, const QString& current) {
    page.resize(1200, 800);
    page.show();
    modelTester = viewer_test::checkModel(page.model());
    proxyTester = viewer_test::checkModel(page.proxy());
    page.setDocument(Document::comparison(base, current));
  }
};

} // namespace

class CompareTest : public QObject {
  Q_OBJECT
private slots:
  void acceptsOnlyTwoReports() {
    ComparePage page;
    QVERIFY(
        page.accepts(*Document::comparison(viewer_test::mlpReport(), viewer_test::mlpBigReport())));
    QVERIFY(!page.accepts(*Document::resolve(viewer_test::mlpReport())));
  }

  void sameProgramShowsTotalsFromEachReport() {
    OpenComparison o(viewer_test::mlpReport(), viewer_test::mlpBigReport());
    QVERIFY(viewer_test::waitReady(&o.page));
    const ComparisonData& d = *o.page.model()->comparison();
    const pva::ReportSummary base = summaryOf(viewer_test::mlpReport()),
                             current = summaryOf(viewer_test::mlpBigReport());

    // Same device, same program: nothing to warn about; targets come first.
    QVERIFY(d.warnings.isEmpty());
    QVERIFY(o.page.warnings()->isHidden());
    QCOMPARE(d.sections.front().title, sec::targets);
    for (const ComparisonRow& r : d.sections.front().rows)
      QVERIFY2(!r.differs(), qPrintable(r.name));
    QCOMPARE(d.row(sec::targets, QStringLiteral("IPUs"))->base,
             std::uint64_t(base.target.numIPUs()));

    // Totals rows, each the reports' own figure.
    auto checkTotal = [&](const QString& section, std::uint64_t b, std::uint64_t c) {
      const ComparisonRow* t = total(d, section);
      QVERIFY2(t, qPrintable(section));
      QCOMPARE(t->base, b);
      QCOMPARE(t->current, c);
    };
    checkTotal(sec::categories, base.memory.allocatedBytes, current.memory.allocatedBytes);
    checkTotal(sec::alwaysLive, base.memory.alwaysLiveBytes, current.memory.alwaysLiveBytes);
    checkTotal(sec::atPeak, base.memory.peakLiveness.notAlwaysLiveBytes,
               current.memory.peakLiveness.notAlwaysLiveBytes);
    checkTotal(sec::runs, base.execution.totalCycles, current.execution.totalCycles);
    checkTotal(sec::kinds, base.execution.tileCycles.total(), current.execution.tileCycles.total());
    // Stream copies by destination: each report's own split, the Summary's (analyseExecution).
    const pva::StreamCopyCycles scBase =
        pva::analyseExecution(Document::resolve(viewer_test::mlpReport())->report())
            .allRuns.streamCopyCycles;
    const pva::StreamCopyCycles scCurrent =
        pva::analyseExecution(Document::resolve(viewer_test::mlpBigReport())->report())
            .allRuns.streamCopyCycles;
    checkTotal(sec::streamCopies, scBase.total(), scCurrent.total());
    QCOMPARE(d.row(sec::streamCopies, QStringLiteral("Host"))->base, scBase.host);
    QCOMPARE(d.row(sec::streamCopies, QStringLiteral("Host"))->current, scCurrent.host);
    QCOMPARE(d.row(sec::streamCopies, QStringLiteral("Remote buffers"))->current,
             scCurrent.remoteBuffer);
    QVERIFY(scBase.host > 0 && scCurrent.host > scBase.host);
    QVERIFY(!d.row(sec::streamCopies,
                   QStringLiteral("Destination unknown"))); // format 1.3 records every destination
    QCOMPARE(d.row(sec::memory, QStringLiteral("Peak liveness"))->base,
             base.memory.peakLiveness.bytes);
    QCOMPARE(d.row(sec::cycles, QStringLiteral("Total"))->current, current.execution.totalCycles);
    // Runs matched by name: their plain names.
    QCOMPARE(d.row(sec::runs, QStringLiteral("train0"))->base, base.execution.runs[0].cycles);
    QCOMPARE(d.row(sec::runs, QStringLiteral("train1"))->current, current.execution.runs[1].cycles);

    // Operations: each row has the figures the Operations view shows for that report.
    QVERIFY(d.operationsCompared);
    Progress p = Progress::standalone(QStringLiteral("test"));
    const OperationsData opsBase = loadOperations(*Document::resolve(viewer_test::mlpReport()), p);
    const OperationsData opsCurrent =
        loadOperations(*Document::resolve(viewer_test::mlpBigReport()), p);
    int checked = 0;
    std::uint64_t cyclesBase = 0;
    for (const OperationInfo& op : opsBase.operations) {
      cyclesBase += op.executedCycles;
      if (op.debugPath.isEmpty()) continue;
      const OperationInfo* other = nullptr;
      for (const OperationInfo& c : opsCurrent.operations)
        if (c.debugPath == op.debugPath) other = &c;
      QVERIFY(other);
      const ComparisonRow* cycles = d.row(sec::opCycles, op.debugPath);
      QVERIFY2(cycles, qPrintable(op.debugPath));
      QCOMPARE(cycles->base, op.executedCycles);
      QCOMPARE(cycles->current, other->executedCycles);
      QCOMPARE(d.row(sec::opEstimated, op.debugPath)->current, other->estimatedCycles);
      QCOMPARE(d.row(sec::opAlwaysLive, op.debugPath)->base, op.alwaysLiveBytes);
      QCOMPARE(d.row(sec::opPeakLive, op.debugPath)->current, other->notAlwaysLiveBytes);
      QCOMPARE(d.row(sec::opCode, op.debugPath)->base, op.codeBytes);
      ++checked;
    }
    QVERIFY(checked > 10);
    checkTotal(sec::opCycles, cyclesBase, total(d, sec::opCycles)->current);

    // The model: the totals row first and bold, with its sign.
    ComparisonModel* model = o.page.model();
    int categories = -1;
    for (int s = 0; s < model->rowCount(); ++s)
      if (model->index(s, 0).data().toString() == sec::categories) categories = s;
    QVERIFY(categories >= 0);
    const QModelIndex section = model->index(categories, 0);
    const QModelIndex first = model->index(0, 0, section);
    QVERIFY(first.data(ComparisonModel::TotalRole).toBool());
    QVERIFY(first.data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(first.data().toString().startsWith(QStringLiteral("Total allocated")));
    QVERIFY(model->index(0, ComparisonModel::DeltaColumn, section)
                .data()
                .toString()
                .startsWith(QLatin1Char('+')));
    QVERIFY(model->index(0, ComparisonModel::DeltaColumn, section)
                .data(ComparisonModel::DeltaRole)
                .toLongLong() > 0);
    QCOMPARE(model->headerData(ComparisonModel::BaseColumn, Qt::Horizontal).toString(),
             QStringLiteral("Base"));
    QCOMPARE(model->headerData(ComparisonModel::RelativeColumn, Qt::Horizontal).toString(),
             QStringLiteral("Change"));

    // The filter box keeps rows whose name matches, in every section.
    QTest::keyClicks(o.page.filter(), QStringLiteral("layer1"));
    const QStringList shown = shownNames(*o.page.proxy());
    QVERIFY(!shown.isEmpty());
    for (const QString& name : shown)
      QVERIFY2(name.contains(QStringLiteral("layer1"), Qt::CaseInsensitive), qPrintable(name));
    QVERIFY(shown.contains(QStringLiteral("fwd/layer1/matmul/MatMul"))); // an operation
    QVERIFY(shown.contains(QStringLiteral("layer1/weights")));           // an always-live variable
    o.page.filter()->clear();
    QCOMPARE(o.page.proxy()->rowCount(), model->rowCount());
  }

  // Summary in compare mode: Name | Base | Current | Difference | Note, each value the figure
  // of that report's own Summary, the difference pva::ComparedValue's.
  void summaryShowsBothReportsSideBySide() {
    SummaryPage page;
    page.resize(1400, 900);
    page.show();
    const auto tester = viewer_test::checkModel(page.model());
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::mlpBigReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const SummaryModel* model = page.model();
    const SummaryData& d = *model->summary();
    QVERIFY(d.compared);
    QCOMPARE(model->columnCount(), int(SummaryModel::CompareColumnCount));
    QCOMPARE(model->headerData(SummaryModel::BaseColumn, Qt::Horizontal).toString(),
             QStringLiteral("Base"));
    QCOMPARE(model->headerData(SummaryModel::CurrentColumn, Qt::Horizontal).toString(),
             QStringLiteral("Current"));
    QCOMPARE(model->headerData(SummaryModel::DeltaColumn, Qt::Horizontal).toString(),
             QStringLiteral("Difference"));
    Progress p = Progress::standalone(QStringLiteral("test"));
    const SummaryData base = loadSummary(*Document::resolve(viewer_test::mlpReport()), p);
    const SummaryData current = loadSummary(*Document::resolve(viewer_test::mlpBigReport()), p);
    const pva::ReportSummary sb = summaryOf(viewer_test::mlpReport()),
                             sc = summaryOf(viewer_test::mlpBigReport());
    // Every row of each report is there with that report's value.
    int numbers = 0;
    for (const SummarySection& section : current.sections)
      for (const SummaryRow& r : section.rows) {
        const SummaryRow* both = d.row(section.title, r.name);
        QVERIFY2(both, qPrintable(section.title + QStringLiteral(": ") + r.name));
        QVERIFY(both->inCurrent);
        QCOMPARE(both->value.number, r.value.number);
        QCOMPARE(both->value.text, r.value.text);
        const SummaryRow* inBase = base.row(section.title, r.name);
        QCOMPARE(both->inBase, inBase != nullptr);
        if (inBase && r.value.kind != SummaryValue::Kind::Text) {
          QCOMPARE(both->baseValue.number, inBase->value.number);
          const pva::ComparedValue expected{inBase->value.number, r.value.number};
          QCOMPARE(both->delta(), expected.delta());
          ++numbers;
        }
      }
    QVERIFY(numbers > 20);
    QCOMPARE(
        d.row(QStringLiteral("Memory"), QStringLiteral("Total (including gaps)"))->baseValue.number,
        sb.memory.includingGapsBytes);
    QCOMPARE(d.row(QStringLiteral("Execution"), QStringLiteral("Total cycles"))->value.number,
             sc.execution.totalCycles);
    QCOMPARE(d.row(QStringLiteral("Execution"), QStringLiteral("Total cycles"))->baseValue.number,
             sb.execution.totalCycles);
    // The same cycles on the Compare page.
    QVERIFY(sc.execution.totalCycles > sb.execution.totalCycles);
    // The model: find the Execution section's "Total cycles" row.
    QModelIndex cycles;
    for (int s = 0; s < model->rowCount(); ++s) {
      const QModelIndex section = model->index(s, 0);
      if (section.data().toString() != QStringLiteral("Execution")) continue;
      for (int r = 0; r < model->rowCount(section); ++r)
        if (model->index(r, 0, section).data().toString() == QStringLiteral("Total cycles"))
          cycles = model->index(r, 0, section);
    }
    QVERIFY(cycles.isValid());
    QCOMPARE(cycles.siblingAtColumn(SummaryModel::BaseColumn).data().toString(),
             formatCount(sb.execution.totalCycles));
    QCOMPARE(cycles.siblingAtColumn(SummaryModel::CurrentColumn).data().toString(),
             formatCount(sc.execution.totalCycles));
    QVERIFY(cycles.siblingAtColumn(SummaryModel::DeltaColumn)
                .data()
                .toString()
                .startsWith(formatCountDelta(
                    std::int64_t(sc.execution.totalCycles - sb.execution.totalCycles))));
    QCOMPARE(cycles.siblingAtColumn(SummaryModel::DeltaColumn)
                 .data(SummaryModel::DeltaRole)
                 .toLongLong(),
             qlonglong(sc.execution.totalCycles - sb.execution.totalCycles));
    QVERIFY(cycles.data(Qt::FontRole).value<QFont>().bold()); // what changed stands out
    // The same report on both sides: every row the same, nothing bold.
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    for (const SummarySection& section : model->summary()->sections)
      for (const SummaryRow& r : section.rows)
        if (section.title != QStringLiteral("Report")) QVERIFY2(!r.differs(), qPrintable(r.name));
    // One report: three columns as before.
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QCOMPARE(model->columnCount(), int(SummaryModel::ColumnCount));
  }

  void summaryOfDifferentRunCountsComparesPerRun() {
    SummaryPage page;
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::pipelineReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const SummaryData& d = *page.model()->summary();
    const SummaryRow* total = d.row(QStringLiteral("Execution"), QStringLiteral("Total cycles"));
    // Two runs against one: the totals compare per run (pva::RunBasis), said in the cell.
    QVERIFY(total && total->comparable && total->basis.perRun());
    QCOMPARE(total->basis.baseRuns, std::uint64_t(2));
    QCOMPARE(total->basis.currentRuns, std::uint64_t(1));
    QCOMPARE(total->delta(), std::int64_t(std::llround(double(total->value.number) -
                                                       double(total->baseValue.number) / 2.0)));
    // A run only the base has is "missing", not a change.
    const SummarySection* runs = d.section(QStringLiteral("Runs"));
    QVERIFY(runs);
    // Runs pair by name, else by run number (as pva::compare): train0 with the pipeline's run 0.
    QCOMPARE(runs->rows.size(), std::size_t(2));
    const pva::ReportSummary base = summaryOf(viewer_test::mlpReport()),
                             current = summaryOf(viewer_test::pipelineReport());
    QCOMPARE(runs->rows[0].name, QStringLiteral("0. train0 ↔ pipeline (matched by position)"));
    QVERIFY(runs->rows[0].inBoth());
    QCOMPARE(runs->rows[0].baseValue.number, base.execution.runs[0].cycles);
    QCOMPARE(runs->rows[0].value.number, current.execution.runs[0].cycles);
    QVERIFY(runs->rows[1].inBase && !runs->rows[1].inCurrent); // train1: "missing in current"
    QCOMPARE(runs->rows[1].name, QStringLiteral("1. train1"));
  }

  // Issue 37: two reports of one program with different run counts (four runs of batch 32
  // against two of batch 64). Every view compares figures summed over all runs by libpva's one
  // rule (pva::RunBasis: per run here), so each shows the change the Compare view shows.
  void everyViewAgreesWithTheCompareViewAcrossRunCounts() {
    const auto doc =
        Document::comparison(viewer_test::mlp4RunsReport(), viewer_test::mlpBigReport());
    Progress p = Progress::standalone(QStringLiteral("test"));
    const ComparisonData cmp = loadComparison(*doc, p);
    const ComparisonRow* cycles = cmp.row(sec::cycles, QStringLiteral("Total"));
    QVERIFY(cycles && cycles->basis.perRun());
    QCOMPARE(cycles->basis.baseRuns, std::uint64_t(4));
    QCOMPARE(cycles->basis.currentRuns, std::uint64_t(2));
    // The case of the issue: the totals fell, each run got slower.
    QVERIFY(cycles->current < cycles->base);
    QVERIFY(cycles->delta() > 0);

    // Operations: the executed-cycles change of each operation is the Compare view's.
    const auto ops = std::make_shared<const OperationsData>(loadOperations(*doc, p));
    QVERIFY(ops->compared && ops->basis.perRun());
    OperationsModel opModel;
    opModel.setData(ops);
    // Operations sharing a path pair in order: compare the changes per name as multisets.
    std::map<QString, std::multiset<qlonglong>> inCompare, inOperations;
    int flipped = 0;
    for (const ComparisonRow& c : cmp.section(sec::opCycles)->rows)
      if (!c.total && c.inBoth()) {
        inCompare[c.name].insert(c.delta());
        flipped += c.delta() > 0 && c.current < c.base;
      }
    for (int row = 0; row < opModel.rowCount(); ++row) {
      const OperationInfo* op = opModel.operationAt(row);
      if (!op->change || !op->change->inBase || !op->change->inCurrent) continue;
      const QString name = !op->debugPath.isEmpty() ? op->debugPath
                           : op->programs.empty()
                               ? QStringLiteral("(unnamed) ")
                               : QStringLiteral("(unnamed) ") + op->programs.front().name;
      const QModelIndex delta = opModel.index(row, OperationsModel::ExecutedDeltaColumn);
      const qlonglong d = delta.data(OperationsModel::SortRole).toLongLong();
      inOperations[name].insert(d);
      if (d != 0) QVERIFY(delta.data().toString().endsWith(QStringLiteral(" per run")));
    }
    QVERIFY(inCompare.size() > 5);
    QCOMPARE(inOperations, inCompare);
    // The Compare view ranks operations by the change per run, not by run count.
    const auto& opRows = cmp.section(sec::opCycles)->rows;
    for (std::size_t i = 2; i < opRows.size(); ++i)
      QVERIFY(std::llabs(opRows[i - 1].delta()) >= std::llabs(opRows[i].delta()));
    QVERIFY2(flipped > 0, "some operation got slower per run while its total fell");

    // Program tree: each step program's change by name is the Compare view's Programs row.
    const auto progs = std::make_shared<const ProgramCycles>(loadProgramCycles(*doc, p));
    QVERIFY(progs->compared && progs->basis.perRun());
    const auto tree = loadProgramTree(*doc, p);
    int programsChecked = 0;
    for (std::size_t id = 0; id < progs->changes.size(); ++id) {
      const ProgramCycles::Change& ch = progs->changes[id];
      if (!ch.inBase || !ch.inCurrent) continue;
      const ComparisonRow* c = cmp.row(sec::programs, tree->programs[id].name);
      QVERIFY2(c, qPrintable(tree->programs[id].name));
      QCOMPARE(std::llround(progs->basis.delta({ch.base, ch.current})), c->delta());
      QCOMPARE(ch.changed(progs->basis), c->delta() != 0);
      ++programsChecked;
    }
    QVERIFY(programsChecked > 5);
    ProgramTreeModel treeModel;
    treeModel.setTree(tree);
    treeModel.setCycles(progs);
    QVERIFY(treeModel.headerData(ProgramTreeModel::CyclesDeltaColumn, Qt::Horizontal)
                .toString()
                .contains(QStringLiteral("per run")));

    // Summary: execution totals and stream copies change as in the Compare view.
    const SummaryData summary = loadSummary(*doc, p);
    const SummaryRow* sumCycles =
        summary.row(QStringLiteral("Execution"), QStringLiteral("Total cycles"));
    QVERIFY(sumCycles && sumCycles->basis.perRun());
    QCOMPARE(sumCycles->delta(), cycles->delta());
    const SummaryRow* host =
        summary.row(QStringLiteral("Stream copies"), QStringLiteral("Host (cycles)"));
    const ComparisonRow* cmpHost = cmp.row(sec::streamCopies, QStringLiteral("Host"));
    QVERIFY(host && cmpHost);
    QCOMPARE(host->delta(), cmpHost->delta());
    QCOMPARE(host->relative(), cmpHost->relative());
    SummaryModel summaryModel;
    summaryModel.setData(std::make_shared<const SummaryData>(summary));
    bool shown = false;
    for (int s = 0; s < summaryModel.rowCount(); ++s) {
      const QModelIndex section = summaryModel.index(s, 0);
      for (int r = 0; r < summaryModel.rowCount(section); ++r)
        if (summaryModel.index(r, 0, section).data().toString() == QStringLiteral("Host (cycles)"))
          shown = summaryModel.index(r, SummaryModel::DeltaColumn, section)
                      .data()
                      .toString()
                      .contains(QStringLiteral(" per run"));
    }
    QVERIFY(shown);
    // Memory is the compiled program's: compared as it is, whatever the runs.
    QVERIFY(!total(cmp, sec::categories)->basis.perRun());
    const SummaryRow* profile = summary.row(QStringLiteral("Report"), QStringLiteral("Profile"));
    QVERIFY(profile && !profile->baseNote.isEmpty()); // the base's file size is there too
  }

  // Operations in compare mode: base | current | difference columns for cycles, always-live
  // bytes and code, each the figure of that report's own Operations view.
  void operationsShowBaseCurrentAndDifference() {
    OperationsPage page;
    page.resize(1400, 800);
    page.show();
    const auto tester = viewer_test::checkModel(page.model());
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::mlpBigReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const OperationsData& ops = *page.model()->operations();
    QVERIFY(ops.compared);
    Progress p = Progress::standalone(QStringLiteral("test"));
    const OperationsData base = loadOperations(*Document::resolve(viewer_test::mlpReport()), p);
    const OperationsData current =
        loadOperations(*Document::resolve(viewer_test::mlpBigReport()), p);
    QCOMPARE(ops.operations.size(),
             current.operations.size()); // the same program: nothing only in base
    int grew = 0;
    for (std::size_t i = 0; i < ops.operations.size(); ++i) {
      const OperationInfo& op = ops.operations[i];
      QVERIFY(op.change && op.change->inBase && op.change->inCurrent);
      QCOMPARE(op.executedCycles, current.operations[i].executedCycles);
      if (op.debugPath.isEmpty()) continue;
      const OperationInfo* b = nullptr;
      for (const OperationInfo& o : base.operations)
        if (o.debugPath == op.debugPath) b = &o;
      QVERIFY(b);
      QCOMPARE(op.change->executedCycles, b->executedCycles);
      QCOMPARE(op.change->alwaysLiveBytes, b->alwaysLiveBytes);
      QCOMPARE(op.change->codeBytes, b->codeBytes);
      grew += op.executedCycles > b->executedCycles;
    }
    QVERIFY(grew > 5); // bigger batches: most operations take longer
    // The columns, Base | Current | Difference, shown.
    QHeaderView* header = page.table()->horizontalHeader();
    using M = OperationsModel;
    for (const auto& [b, c, delta] :
         {std::tuple{M::BaseExecutedColumn, M::ExecutedColumn, M::ExecutedDeltaColumn},
          std::tuple{M::BaseAlwaysLiveColumn, M::AlwaysLiveColumn, M::AlwaysLiveDeltaColumn},
          std::tuple{M::BaseCodeColumn, M::CodeColumn, M::CodeDeltaColumn}}) {
      QVERIFY(!header->isSectionHidden(b) && !header->isSectionHidden(delta));
      QCOMPARE(header->visualIndex(b) + 1, header->visualIndex(c));
      QCOMPARE(header->visualIndex(c) + 1, header->visualIndex(delta));
    }
    QVERIFY(page.model()
                ->headerData(M::ExecutedColumn, Qt::Horizontal)
                .toString()
                .contains(QStringLiteral("current")));
    // A row's cells: the difference is the current minus the base, signed.
    const QModelIndex first = page.model()->index(0, 0);
    const OperationInfo* op = page.model()->operationAt(0);
    QCOMPARE(first.siblingAtColumn(M::BaseExecutedColumn).data().toString(),
             formatCount(op->change->executedCycles));
    QCOMPARE(first.siblingAtColumn(M::ExecutedDeltaColumn).data().toString(),
             formatCountDelta(
                 pva::ComparedValue{op->change->executedCycles, op->executedCycles}.delta()));
    // Sorting by the difference puts the largest growth first.
    page.table()->sortByColumn(M::ExecutedDeltaColumn, Qt::DescendingOrder);
    const auto deltaAt = [&](int row) {
      return page.model()->index(row, M::ExecutedDeltaColumn).data(M::SortRole).toLongLong();
    };
    for (int r = 1; r < page.model()->rowCount(); ++r)
      QVERIFY(deltaAt(r - 1) >= deltaAt(r));
    // The name takes the width the figures leave, never less than the page's minimum however
    // many columns comparing adds (a long name is elided in the middle; the figures stay whole).
    QVERIFY(header->sectionSize(M::NameColumn) >= OperationsPage::kMinNameWidth);
    // Selecting an operation shows its base figures too.
    page.table()->selectRow(0);
    QCOMPARE(page.summary()->value(QStringLiteral("In the reports")),
             QStringLiteral("base and current"));
    QCOMPARE(page.summary()->value(QStringLiteral("Base: executed cycles (all runs)")),
             formatCount(page.model()->operationAt(0)->change->executedCycles));
    // One report: the compare columns are hidden.
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(!page.model()->operations()->compared);
    QVERIFY(header->isSectionHidden(M::BaseExecutedColumn));
    QVERIFY(header->isSectionHidden(M::ExecutedDeltaColumn));
    QVERIFY(header->sectionSize(M::NameColumn) >= OperationsPage::kMinNameWidth);
  }

  void operationsOnlyInTheBaseAreMissingNotAChange() {
    OperationsPage page;
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::pipelineReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const OperationsData& ops = *page.model()->operations();
    QVERIFY(ops.compared);
    page.layers()->setCurrentIndex(0); // all layers
    int onlyBase = 0;
    for (int r = 0; r < page.model()->rowCount(); ++r) {
      const OperationInfo* op = page.model()->operationAt(r);
      if (!op->onlyInBase()) continue;
      ++onlyBase;
      const QModelIndex row = page.model()->index(r, 0);
      QCOMPARE(row.siblingAtColumn(OperationsModel::ExecutedColumn).data().toString(),
               QStringLiteral("missing"));
      QCOMPARE(row.siblingAtColumn(OperationsModel::ExecutedDeltaColumn).data().toString(),
               QStringLiteral("missing in current"));
    }
    QVERIFY(onlyBase > 0);
  }

  // Program tree in compare mode: each step's base cycles (by name, as pva::compareProgramCycles)
  // and the difference; changed steps bold, containers of a change in italics.
  void programTreeMarksWhatChanged() {
    ProgramTreePage page;
    page.resize(1400, 800);
    page.show();
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::mlpBigReport()));
    QVERIFY(viewer_test::waitReady(&page));
    ProgramTreeModel* model = page.model();
    QVERIFY(model->compared());
    const pva::Report base = Document::resolve(viewer_test::mlpReport())->report();
    const pva::Report current = Document::resolve(viewer_test::mlpBigReport())->report();
    std::map<QString, pva::NamedComparison> byName;
    for (const pva::NamedComparison& n : pva::compareProgramCycles(base, current))
      byName[QString::fromStdString(n.name)] = n;
    int changed = 0, inside = 0, same = 0;
    const ProgramTreeData& tree = *model->tree();
    for (std::uint32_t n = 0; n < tree.nodes.size(); ++n) {
      const ProgramInfo& p = tree.programs[tree.nodes[n].program];
      const QModelIndex index = model->indexOfNode(n);
      const auto change =
          ProgramTreeModel::Change(index.data(ProgramTreeModel::ChangeRole).toInt());
      const auto it = byName.find(p.name);
      if (p.isStep && it != byName.end() && it->second.inBase && it->second.inCurrent) {
        const pva::NamedComparison& c = it->second;
        QCOMPARE(
            index.siblingAtColumn(ProgramTreeModel::BaseCyclesColumn).data().toString(),
            QStringLiteral("%1 → %2").arg(formatCount(c.value.base), formatCount(c.value.current)));
        if (c.value.delta() != 0) {
          QCOMPARE(change, ProgramTreeModel::Change::Changed);
          QCOMPARE(index.siblingAtColumn(ProgramTreeModel::CyclesDeltaColumn).data().toString(),
                   formatCountDelta(c.value.delta()));
          QVERIFY(index.data(Qt::FontRole).value<QFont>().bold());
          ++changed;
        } else {
          QCOMPARE(index.siblingAtColumn(ProgramTreeModel::CyclesDeltaColumn).data().toString(),
                   QStringLiteral("same"));
          ++same;
        }
      }
      if (change == ProgramTreeModel::Change::Inside) {
        QVERIFY(index.data(Qt::FontRole).value<QFont>().italic());
        ++inside;
      }
    }
    QVERIFY(changed > 5);
    QVERIFY(same > 0);   // syncs and stream copies of the same size
    QVERIFY(inside > 0); // the sequences holding them
    QVERIFY(!page.tree()->header()->isSectionHidden(ProgramTreeModel::CyclesDeltaColumn));
    // The names keep most of the width at 1400 px: the long column titles wrap instead of
    // widening their columns (they took all but ~27 % before), and every figure shows whole.
    QHeaderView* header = page.tree()->header();
    QVERIFY2(header->sectionSize(ProgramTreeModel::NameColumn) * 10 >= header->length() * 4,
             qPrintable(QStringLiteral("name column %1 of %2 px")
                            .arg(header->sectionSize(ProgramTreeModel::NameColumn))
                            .arg(header->length())));
    // Every figure of the rows shown fits its column.
    const QFontMetrics metrics = page.tree()->fontMetrics();
    int checked = 0;
    for (QModelIndex row = model->index(0, 0); row.isValid() && checked < 40;
         row = page.tree()->indexBelow(row), ++checked)
      for (int c = 1; c < model->columnCount(); ++c)
        if (!header->isSectionHidden(c)) {
          const QString text = row.siblingAtColumn(c).data().toString();
          QVERIFY2(metrics.horizontalAdvance(text) < header->sectionSize(c), qPrintable(text));
        }
    QVERIFY(checked > 10);
    // One report: no compare columns.
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(!model->compared());
    QVERIFY(page.tree()->header()->isSectionHidden(ProgramTreeModel::CyclesDeltaColumn));
  }

  // Graph in compare mode: variables and compute sets marked against the base graph by name.
  void graphMarksWhatChanged() {
    GraphPage page;
    page.resize(1400, 800);
    page.show();
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::mlpBigReport()));
    QVERIFY(viewer_test::waitReady(&page, 120));
    const GraphViewData* g = page.view()->graphData();
    QVERIFY(g && g->compared);
    const auto read = [](const QString& dir) {
      return pva::openSerializedGraph(pva::serializedGraphPath(Document::resolve(dir)->report()),
                                      pva::SerializedGraphDetail::Outline);
    };
    const pva::SerializedGraph base = read(viewer_test::mlpReport()),
                               current = read(viewer_test::mlpBigReport());
    std::map<std::string, const pva::SerializedVariable*> baseVars;
    for (const auto& v : base.variables)
      baseVars[v.name] = &v;
    int changed = 0, same = 0;
    for (const GraphNode& n : g->nodes) {
      if (n.kind != GraphNode::Kind::Variable) continue;
      const pva::SerializedVariable& v = current.variables[std::size_t(n.index)];
      const auto b = baseVars.find(v.name);
      if (b == baseVars.end()) continue;
      // Bigger batches: activations change shape, weights do not.
      if (b->second->shape != v.shape) {
        QCOMPARE(n.change, GraphNode::Change::Changed);
        ++changed;
      } else if (n.change == GraphNode::Change::Same) {
        ++same;
      }
    }
    QVERIFY(changed > 0);
    QVERIFY(same > 0);
    QVERIFY(g->changedNodes >= changed);
  }

  // One figure for one thing: on mlp against mlp-big and mlp against the 2-IPU pipeline, the
  // Summary in compare mode, the Compare page, `pva compare --format json` and Python's
  // pva.compare give the same base and current totals, each the report's own Summary figure.
  void numbersAgreeAcrossSummaryCompareCliAndPython() {
    for (const QString& other : {viewer_test::mlpBigReport(), viewer_test::pipelineReport()}) {
      const QString basePath = viewer_test::mlpReport();
      SummaryPage summary;
      summary.setDocument(Document::comparison(basePath, other));
      QVERIFY(viewer_test::waitReady(&summary));
      OpenComparison o(basePath, other);
      QVERIFY(viewer_test::waitReady(&o.page));
      const SummaryData& s = *summary.model()->summary();
      const ComparisonData& c = *o.page.model()->comparison();
      const pva::ReportSummary sb = summaryOf(basePath), sc = summaryOf(other);

      QProcess cli;
      cli.start(QStringLiteral(PVA_EXECUTABLE),
                {QStringLiteral("compare"), basePath, other, QStringLiteral("--format"),
                 QStringLiteral("json")});
      QVERIFY(cli.waitForFinished(120000));
      const QJsonObject j = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
      QVERIFY2(!j.isEmpty(), cli.readAllStandardError().constData());
      auto cliValue = [&](const QString& section, const QString& name) {
        const QJsonObject v = j[section].toObject()[name].toObject();
        return std::pair<qulonglong, qulonglong>{qulonglong(v[QStringLiteral("base")].toDouble()),
                                                 qulonglong(v[QStringLiteral("new")].toDouble())};
      };

      const QJsonDocument pyJson = viewer_test::runPythonJson(
          QStringLiteral(TESSERA_PYTHON_DIR),
          QStringLiteral(
              "import json, sys, pva\n"
              "c = pva.compare(pva.openReport(sys.argv[1]), pva.openReport(sys.argv[2]))\n"
              "v = [c.memory.totalIncludingGaps, c.memory.alwaysLive, c.memory.peakLiveness, "
              "c.cycles.total]\n"
              "print(json.dumps([[x.base, x.current] for x in v]))"),
          {basePath + QStringLiteral("/profile.pop"), other + QStringLiteral("/profile.pop")}, 120);
      QVERIFY(!pyJson.isNull());
      const QJsonArray py = pyJson.array();
      QCOMPARE(py.size(), 4);

      struct Figure {
        const char* summaryRow;
        const char* summarySection;
        const ComparisonRow* compareRow;
        QString cliSection, cliName;
        std::uint64_t base, current;
      };
      const Figure figures[] = {
          {"Total (including gaps)", "Memory",
           c.row(sec::memory, QStringLiteral("Total (including gaps)")), QStringLiteral("memory"),
           QStringLiteral("totalIncludingGaps"), sb.memory.includingGapsBytes,
           sc.memory.includingGapsBytes},
          {"Always live", "Memory", c.row(sec::memory, QStringLiteral("Always live")),
           QStringLiteral("memory"), QStringLiteral("alwaysLive"), sb.memory.alwaysLiveBytes,
           sc.memory.alwaysLiveBytes},
          {"Peak liveness", "Memory", c.row(sec::memory, QStringLiteral("Peak liveness")),
           QStringLiteral("memory"), QStringLiteral("peakLiveness"), sb.memory.peakLiveness.bytes,
           sc.memory.peakLiveness.bytes},
          {"Total cycles", "Execution", c.row(sec::cycles, QStringLiteral("Total")),
           QStringLiteral("cycles"), QStringLiteral("total"), sb.execution.totalCycles,
           sc.execution.totalCycles}};
      for (int i = 0; i < 4; ++i) {
        const Figure& f = figures[i];
        const SummaryRow* row =
            s.row(QString::fromLatin1(f.summarySection), QString::fromLatin1(f.summaryRow));
        QVERIFY2(row && f.compareRow, f.summaryRow);
        QCOMPARE(row->baseValue.number, f.base);
        QCOMPARE(row->value.number, f.current);
        QCOMPARE(f.compareRow->base, f.base);
        QCOMPARE(f.compareRow->current, f.current);
        const auto [cliBase, cliCurrent] = cliValue(f.cliSection, f.cliName);
        QCOMPARE(cliBase, qulonglong(f.base));
        QCOMPARE(cliCurrent, qulonglong(f.current));
        QCOMPARE(qulonglong(py[i].toArray()[0].toDouble()), qulonglong(f.base));
        QCOMPARE(qulonglong(py[i].toArray()[1].toDouble()), qulonglong(f.current));
        QVERIFY(f.base > 0 && f.current > 0);
      }
    }
  }

  void unrelatedReportsSaySoInsteadOfNoise() {
    OpenComparison o(viewer_test::mlpReport(), viewer_test::pipelineReport());
    QVERIFY(viewer_test::waitReady(&o.page));
    const ComparisonData& d = *o.page.model()->comparison();
    const pva::ReportSummary base = summaryOf(viewer_test::mlpReport()),
                             current = summaryOf(viewer_test::pipelineReport());
    // Warnings first: 1 IPU against 2, and programs with almost no name in common.
    QVERIFY(d.targetsDiffer);
    QVERIFY(d.unrelated);
    QVERIFY(o.page.warnings()->isVisible());
    QVERIFY(o.page.warnings()->text().contains(QStringLiteral("targets differ (IPUs)")));
    QVERIFY(o.page.warnings()->text().contains(QStringLiteral("Unrelated reports")));
    const ComparisonRow* ipus = d.row(sec::targets, QStringLiteral("IPUs"));
    QVERIFY(ipus && ipus->differs());
    QCOMPARE(ipus->current, std::uint64_t(current.target.numIPUs()));
    // Lists matched by name keep only their totals row, still each report's own figure.
    for (const QString& s : {sec::alwaysLive, sec::atPeak, sec::computeSets, sec::programs,
                             sec::opCycles, sec::opCode}) {
      const ComparisonSection* section = d.section(s);
      QVERIFY2(section && section->rowsHidden && section->rows.size() == 1, qPrintable(s));
    }
    QCOMPARE(total(d, sec::alwaysLive)->current, current.memory.alwaysLiveBytes);
    QCOMPARE(total(d, sec::runs)->base, base.execution.totalCycles);
    QCOMPARE(total(d, sec::runs)->current, current.execution.totalCycles);
    // Runs by position: train0 against the pipeline's only run; train1 alone.
    const ComparisonSection* runs = d.section(sec::runs);
    QCOMPARE(runs->rows.size(), std::size_t(3));
    QVERIFY(runs->rows[1].name.contains(QStringLiteral("matched by position")));
    QCOMPARE(runs->rows[1].current, current.execution.runs[0].cycles);
    QVERIFY(!runs->rows[2].inCurrent);
    // Two runs against one: totals over all runs compare per run. The page says so, marks the
    // difference "per run", and a run on one side only is "missing", not -100 %.
    QVERIFY2(
        o.page.warnings()->text().contains(QStringLiteral("The base has 2 runs and the current 1")),
        qPrintable(o.page.warnings()->text()));
    QVERIFY(runs->rows[0].basis.perRun());
    QVERIFY(d.section(sec::cycles)->rows.front().basis.perRun());
    QVERIFY(!runs->rows[1].basis.perRun()); // one run against one
    {
      ComparisonModel* m = o.page.model();
      int runsAt = -1;
      for (std::size_t s = 0; s < d.sections.size(); ++s)
        if (d.sections[s].title == sec::runs) runsAt = int(s);
      QVERIFY(runsAt >= 0);
      const QModelIndex section = m->index(runsAt, 0);
      auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
        return m->index(row, column, section).data(role);
      };
      QVERIFY(
          cell(0, ComparisonModel::DeltaColumn).toString().endsWith(QStringLiteral(" per run")));
      QVERIFY(
          cell(0, ComparisonModel::RelativeColumn).toString().endsWith(QStringLiteral(" per run")));
      QVERIFY(cell(0, ComparisonModel::DeltaColumn, Qt::ToolTipRole)
                  .toString()
                  .startsWith(QStringLiteral("Compared per run (2 vs 1 runs)")));
      QCOMPARE(cell(0, ComparisonModel::DeltaColumn, ComparisonModel::DeltaRole).toLongLong(),
               qlonglong(runs->rows[0].delta()));
      QCOMPARE(cell(2, ComparisonModel::CurrentColumn).toString(), QStringLiteral("missing"));
      QCOMPARE(cell(2, ComparisonModel::DeltaColumn).toString(),
               QStringLiteral("missing in current"));
      QCOMPARE(cell(2, ComparisonModel::RelativeColumn).toString(), QString());
      QVERIFY(!cell(2, ComparisonModel::DeltaColumn, Qt::ForegroundRole).isValid());
      QVERIFY(!cell(2, ComparisonModel::RelativeColumn).toString().contains(QLatin1Char('%')));
      // The matched pair is a change, coloured as one.
      QVERIFY(cell(1, ComparisonModel::RelativeColumn).toString().contains(QLatin1Char('%')));
    }
    // Categories are the same names in every report: still shown, with their total.
    QVERIFY(d.section(sec::categories)->rows.size() > 10);
    QCOMPARE(total(d, sec::categories)->current, current.memory.allocatedBytes);
    // The section title says why its rows are missing.
    ComparisonModel* model = o.page.model();
    bool said = false;
    for (int s = 0; s < model->rowCount(); ++s)
      said = said ||
             model->index(s, 0).data().toString().contains(QStringLiteral("unrelated reports"));
    QVERIFY(said);
  }

  void aReportThatDidNotRunHasNoCycleRows() {
    // The OOM sample compiled but never ran: memory and operations' memory are compared, cycles
    // not.
    OpenComparison o(viewer_test::oomReport(), viewer_test::mlpReport());
    QVERIFY(viewer_test::waitReady(&o.page));
    const ComparisonData& d = *o.page.model()->comparison();
    QVERIFY(d.operationsCompared);
    QVERIFY(!d.section(sec::opCycles));
    QVERIFY(!d.section(sec::runs));
    QVERIFY(d.section(sec::opCode));
    QCOMPARE(total(d, sec::categories)->base,
             summaryOf(viewer_test::oomReport()).memory.allocatedBytes);
  }

  void withoutDebugInformationOperationsAreLeftOut() {
    const QString dir = viewer_test::tmpDir(QStringLiteral("compare-no-debug"));
    QVERIFY(QFile::copy(viewer_test::mlpReport() + QStringLiteral("/profile.pop"),
                        dir + QStringLiteral("/profile.pop")));
    OpenComparison o(viewer_test::mlpReport(), dir);
    QVERIFY(viewer_test::waitReady(&o.page));
    const ComparisonData& d = *o.page.model()->comparison();
    QVERIFY(!d.operationsCompared);
    QVERIFY(!d.section(sec::opCycles));
    QVERIFY(d.warnings.isEmpty());
    QCOMPARE(total(d, sec::runs)->delta(), std::int64_t(0));
  }
};

QTEST_MAIN(CompareTest)
#include "test_compare.moc"
