// The Compare page and its model on the samples' reports: mlp against mlp with bigger batches
// (the same program), and against the pipeline (another program on another device). Every value
// checked here is also read from each report on its own: pva::summarize and the Operations view's
// data (loadOperations), so the page shows the figures the reports' own views show.
#include "ViewerTestUtil.hpp"

#include "core/OperationsData.hpp"
#include "models/ComparisonModel.hpp"
#include "widgets/ComparePage.hpp"

#include <pva/Analysis.hpp>

#include <QFile>
#include <QFont>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QTreeView>

using namespace tessera::viewer;
namespace sec = compare_sections;

namespace {

pva::ReportSummary summaryOf(const QString& dir) { return pva::summarize(Document::resolve(dir)->openReport()); }

/// The base and current values of a section's totals row (QVERIFY-friendly: null when absent).
const ComparisonRow* total(const ComparisonData& d, const QString& section) { return d.totalRow(section); }

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
    QVERIFY(page.accepts(*Document::comparison(viewer_test::mlpReport(), viewer_test::mlpBigReport())));
    QVERIFY(!page.accepts(*Document::resolve(viewer_test::mlpReport())));
  }

  void sameProgramShowsTotalsFromEachReport() {
    OpenComparison o(viewer_test::mlpReport(), viewer_test::mlpBigReport());
    QVERIFY(viewer_test::waitReady(&o.page));
    const ComparisonData& d = *o.page.model()->comparison();
    const pva::ReportSummary base = summaryOf(viewer_test::mlpReport()), current = summaryOf(viewer_test::mlpBigReport());

    // Same device, same program: nothing to warn about; targets come first.
    QVERIFY(d.warnings.isEmpty());
    QVERIFY(o.page.warnings()->isHidden());
    QCOMPARE(d.sections.front().title, sec::targets);
    for (const ComparisonRow& r : d.sections.front().rows) QVERIFY2(!r.differs(), qPrintable(r.name));
    QCOMPARE(d.row(sec::targets, QStringLiteral("IPUs"))->base, std::uint64_t(base.target.numIPUs()));

    // Totals rows, each the reports' own figure.
    auto checkTotal = [&](const QString& section, std::uint64_t b, std::uint64_t c) {
      const ComparisonRow* t = total(d, section);
      QVERIFY2(t, qPrintable(section));
      QCOMPARE(t->base, b);
      QCOMPARE(t->current, c);
    };
    checkTotal(sec::categories, base.memory.allocatedBytes, current.memory.allocatedBytes);
    checkTotal(sec::alwaysLive, base.memory.alwaysLiveBytes, current.memory.alwaysLiveBytes);
    checkTotal(sec::atPeak, base.memory.peakLiveness.notAlwaysLiveBytes, current.memory.peakLiveness.notAlwaysLiveBytes);
    checkTotal(sec::runs, base.execution.totalCycles, current.execution.totalCycles);
    checkTotal(sec::kinds, base.execution.tileCycles.total(), current.execution.tileCycles.total());
    QCOMPARE(d.row(sec::memory, QStringLiteral("Peak liveness"))->base, base.memory.peakLiveness.bytes);
    QCOMPARE(d.row(sec::cycles, QStringLiteral("Total"))->current, current.execution.totalCycles);
    // Runs matched by name: their plain names.
    QCOMPARE(d.row(sec::runs, QStringLiteral("train0"))->base, base.execution.runs[0].cycles);
    QCOMPARE(d.row(sec::runs, QStringLiteral("train1"))->current, current.execution.runs[1].cycles);

    // Operations: each row has the figures the Operations view shows for that report.
    QVERIFY(d.operationsCompared);
    Progress p = Progress::standalone(QStringLiteral("test"));
    const OperationsData opsBase = loadOperations(*Document::resolve(viewer_test::mlpReport()), p);
    const OperationsData opsCurrent = loadOperations(*Document::resolve(viewer_test::mlpBigReport()), p);
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
    QVERIFY(model->index(0, ComparisonModel::DeltaColumn, section).data().toString().startsWith(QLatin1Char('+')));
    QVERIFY(model->index(0, ComparisonModel::DeltaColumn, section).data(ComparisonModel::DeltaRole).toLongLong() > 0);
    QCOMPARE(model->headerData(ComparisonModel::BaseColumn, Qt::Horizontal).toString(), QStringLiteral("Base"));
    QCOMPARE(model->headerData(ComparisonModel::RelativeColumn, Qt::Horizontal).toString(), QStringLiteral("Change"));

    // The filter box keeps rows whose name matches, in every section.
    QTest::keyClicks(o.page.filter(), QStringLiteral("layer1"));
    const QStringList shown = shownNames(*o.page.proxy());
    QVERIFY(!shown.isEmpty());
    for (const QString& name : shown) QVERIFY2(name.contains(QStringLiteral("layer1"), Qt::CaseInsensitive), qPrintable(name));
    QVERIFY(shown.contains(QStringLiteral("fwd/layer1/matmul/MatMul"))); // an operation
    QVERIFY(shown.contains(QStringLiteral("layer1/weights")));           // an always-live variable
    o.page.filter()->clear();
    QCOMPARE(o.page.proxy()->rowCount(), model->rowCount());
  }

  void unrelatedReportsSaySoInsteadOfNoise() {
    OpenComparison o(viewer_test::mlpReport(), viewer_test::pipelineReport());
    QVERIFY(viewer_test::waitReady(&o.page));
    const ComparisonData& d = *o.page.model()->comparison();
    const pva::ReportSummary base = summaryOf(viewer_test::mlpReport()), current = summaryOf(viewer_test::pipelineReport());
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
    for (const QString& s : {sec::alwaysLive, sec::atPeak, sec::computeSets, sec::programs, sec::opCycles, sec::opCode}) {
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
    // Two runs against one: totals over all runs are no change of the program. The page says so,
    // shows no difference for them, and a run on one side only is "missing", not -100 %.
    QVERIFY2(o.page.warnings()->text().contains(QStringLiteral("The base has 2 runs and the current 1")),
             qPrintable(o.page.warnings()->text()));
    QVERIFY(!runs->rows[0].comparable);
    QVERIFY(!d.section(sec::cycles)->rows.front().comparable);
    QVERIFY(runs->rows[1].comparable); // one run against one
    {
      ComparisonModel* m = o.page.model();
      int runsAt = -1;
      for (std::size_t s = 0; s < d.sections.size(); ++s)
        if (d.sections[s].title == sec::runs) runsAt = int(s);
      QVERIFY(runsAt >= 0);
      const QModelIndex section = m->index(runsAt, 0);
      auto cell = [&](int row, int column, int role = Qt::DisplayRole) { return m->index(row, column, section).data(role); };
      QCOMPARE(cell(0, ComparisonModel::DeltaColumn).toString(), QStringLiteral("2 vs 1 runs: compare per run"));
      QCOMPARE(cell(0, ComparisonModel::RelativeColumn).toString(), QString());
      QVERIFY(!cell(0, ComparisonModel::RelativeColumn, Qt::ForegroundRole).isValid());
      QVERIFY(!cell(0, ComparisonModel::DeltaColumn, ComparisonModel::DeltaRole).isValid());
      QCOMPARE(cell(2, ComparisonModel::CurrentColumn).toString(), QStringLiteral("missing"));
      QCOMPARE(cell(2, ComparisonModel::DeltaColumn).toString(), QStringLiteral("missing in current"));
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
      said = said || model->index(s, 0).data().toString().contains(QStringLiteral("unrelated reports"));
    QVERIFY(said);
  }

  void aReportThatDidNotRunHasNoCycleRows() {
    // The OOM sample compiled but never ran: memory and operations' memory are compared, cycles not.
    OpenComparison o(viewer_test::oomReport(), viewer_test::mlpReport());
    QVERIFY(viewer_test::waitReady(&o.page));
    const ComparisonData& d = *o.page.model()->comparison();
    QVERIFY(d.operationsCompared);
    QVERIFY(!d.section(sec::opCycles));
    QVERIFY(!d.section(sec::runs));
    QVERIFY(d.section(sec::opCode));
    QCOMPARE(total(d, sec::categories)->base, summaryOf(viewer_test::oomReport()).memory.allocatedBytes);
  }

  void withoutDebugInformationOperationsAreLeftOut() {
    const QString dir = viewer_test::tmpDir(QStringLiteral("compare-no-debug"));
    QVERIFY(QFile::copy(viewer_test::mlpReport() + QStringLiteral("/profile.pop"), dir + QStringLiteral("/profile.pop")));
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
