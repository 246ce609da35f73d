// The Execution trace page on the samples' reports: the index against libpva (steps, per-IPU
// cycles, runs), range sums and level of detail, the Summary and Details models under
// QAbstractItemModelTester, and the page driven as a user does: wheel zoom, drag pan, 0 to
// fit, click to select, run selector, Flat / Flame / BSP, the no-execution state and compare.
#include "ViewerTestUtil.hpp"
#include "charts/ExecutionOverview.hpp"
#include "charts/ExecutionTimeline.hpp"
#include "core/ExecutionBlocks.hpp"
#include "core/ExecutionDetails.hpp"
#include "core/ExecutionFigures.hpp"
#include "core/ExecutionIndex.hpp"
#include "core/Format.hpp"
#include "core/TimelineAxis.hpp"
#include "core/TimelineLod.hpp"
#include "models/ExecutionSummaryModel.hpp"
#include "models/IpuFiguresModel.hpp"
#include "models/RunFiguresModel.hpp"
#include "models/StepDetailsModel.hpp"
#include "widgets/ExecutionPage.hpp"
#include "widgets/MainWindow.hpp"

#include <QComboBox>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>
#include <array>
#include <optional>
#include <pva/pva.hpp>
#include <random>

using namespace tessera::viewer;

namespace {

struct Loaded {
  std::shared_ptr<const Document> doc;
  std::shared_ptr<ExecutionIndex> index;
  FlameRows flame;
};

Loaded load(const QString& path) {
  Loaded l;
  l.doc = Document::resolve(path);
  Progress progress = Progress::standalone(QStringLiteral("test"));
  l.index = std::make_shared<ExecutionIndex>(readExecutionHeader(*l.doc, progress));
  l.flame = fillExecutionIndex(*l.doc, *l.index, progress);
  return l;
}

void wheel(QWidget* w, QPoint pos, int delta, Qt::KeyboardModifiers mods = Qt::NoModifier) {
  QWheelEvent e(QPointF(pos), QPointF(w->mapToGlobal(pos)), QPoint(), QPoint(0, delta),
                Qt::NoButton, mods, Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &e);
}

} // namespace

class ExecutionTest : public QObject {
  Q_OBJECT
private slots:
  // The timeline colours a step by the kind the report's per-tile cycle totals count it as: the
  // tile cycles of the steps the index draws as each kind add up to the Summary's figure of that
  // kind (a StreamCopyBegin is a host sync in both; drawn as a stream copy the sums differ).
  void timelineKindsAddUpToTheTotalsOfEachKind() {
    for (const QString& path : {viewer_test::mlpReport(), viewer_test::pipelineReport()}) {
      const Loaded l = load(path);
      const pva::Report report = l.doc->report();
      std::array<std::uint64_t, kStepKinds> byKind{};
      std::vector<std::size_t> perIpu(l.index->numLanes(), 0);
      bool sawStreamCopyBegin = false;
      for (const pva::ExecutionStep& step : report.execution().steps()) {
        const auto ipus = step.ipus();
        const auto first = ipus.begin();
        QVERIFY(first != ipus.end());
        StepKind kind = StepKind::Other;
        for (const pva::IpuExecution& x : ipus)
          kind = l.index->kind(x.ipu(), perIpu[x.ipu()]++);
        if (step.program()->type() == pva::Program::Type::StreamCopyBegin) {
          sawStreamCopyBegin = true;
          QCOMPARE(kind, StepKind::Sync);
        }
        for (std::uint64_t c : step.cyclesByTile())
          byKind[std::size_t(kind)] += c;
      }
      QVERIFY(sawStreamCopyBegin);
      const pva::CycleKinds totals = pva::summarize(report).execution.tileCycles;
      using K = pva::TileCycleTotals::Kind;
      QCOMPARE(byKind[std::size_t(StepKind::Compute)], totals.of(K::Compute));
      QCOMPARE(byKind[std::size_t(StepKind::InternalExchange)], totals.of(K::InternalExchange));
      QCOMPARE(byKind[std::size_t(StepKind::GlobalExchange)], totals.of(K::GlobalExchange));
      QCOMPARE(byKind[std::size_t(StepKind::StreamCopy)], totals.of(K::StreamCopy));
      QCOMPARE(byKind[std::size_t(StepKind::Sync)], totals.of(K::Sync));
    }
  }

  void indexEqualsLibpva() {
    for (const QString& path : {viewer_test::mlpReport(), viewer_test::pipelineReport()}) {
      const Loaded l = load(path);
      const pva::Report report = l.doc->report();
      const pva::ExecutionSteps steps = report.execution().steps();
      QCOMPARE(l.index->numSteps(), std::uint64_t(steps.size()));
      QVERIFY(l.index->complete());
      QCOMPARE(l.index->numLanes(), report.compilation().target().numIPUs());
      std::vector<std::size_t> perIpu(l.index->numLanes(), 0);
      std::vector<std::size_t> checked;
      std::uint64_t i = 0;
      for (const pva::ExecutionStep& step : steps) {
        QCOMPARE(l.index->stepProgram(i), std::uint32_t(step.program()->_id()));
        QCOMPARE(l.index->stepRun(i), step.run());
        for (const pva::IpuExecution& x : step.ipus()) {
          const std::size_t e = perIpu[x.ipu()]++;
          QCOMPARE(std::uint64_t(l.index->step(x.ipu(), e)), i);
          QCOMPARE(std::int64_t(e), l.index->entryOfStep(x.ipu(), i));
          QCOMPARE(std::uint64_t(l.index->duration(x.ipu(), e)),
                   x.allCycles().to().max() - x.allCycles().from().min());
          if (i % 97 == 0) // the absolute counters, for a sample of steps
            QCOMPARE(l.index->begin(x.ipu(), e) + l.index->header().origin,
                     x.allCycles().from().min());
          QCOMPARE(l.index->kind(x.ipu(), e), stepKindOf(step.program()->type()));
        }
        ++i;
      }
      for (unsigned lane = 0; lane < l.index->numLanes(); ++lane)
        QCOMPARE(l.index->entries(lane), perIpu[lane]);
      // Run boundaries.
      const auto runs = report.execution().runs();
      QCOMPARE(l.index->header().runs.size(), runs.size());
      std::uint64_t first = 0;
      for (std::size_t r = 0; r < runs.size(); ++r) {
        const ExecRunInfo& info = l.index->header().runs[r];
        QCOMPARE(info.firstStep, first);
        QCOMPARE(info.numSteps, std::uint64_t(runs[r].steps().size()));
        QCOMPARE(info.cycles, runs[r].cycles());
        QCOMPARE(l.index->stepRun(info.firstStep), unsigned(r));
        QCOMPARE(l.index->stepRun(info.firstStep + info.numSteps - 1), unsigned(r));
        std::uint64_t from = 0, to = 0;
        QVERIFY(l.index->runSpan(unsigned(r), &from, &to));
        QVERIFY(to > from);
        first += info.numSteps;
      }
      // The flame rows: every step's ancestors are found, root first.
      QVERIFY(l.flame.depth > 0);
      QVERIFY(!l.flame.truncated);
    }
  }

  void rangeTotalsEqualAScan() {
    const Loaded l = load(viewer_test::mlpReport());
    std::mt19937 rng(3);
    const std::size_t n = l.index->entries(0);
    for (int trial = 0; trial < 200; ++trial) {
      std::size_t a = rng() % n, b = rng() % (n + 1);
      if (a > b) std::swap(a, b);
      const LaneTotals t = l.index->totals(0, a, b);
      std::array<std::uint64_t, kStepKinds> cycles{};
      for (std::size_t i = a; i < b; ++i)
        cycles[std::size_t(l.index->kind(0, i))] += l.index->duration(0, i);
      QCOMPARE(t.cycles, cycles);
      QCOMPARE(t.count, std::uint64_t(b - a));
    }
    // The galloping search agrees with the plain one.
    const double end = double(l.index->loadedEnd());
    for (int trial = 0; trial < 500; ++trial) {
      const double t = double(rng() % std::uint64_t(end + 10));
      const std::size_t from = rng() % n;
      QCOMPARE(l.index->lowerBoundFrom(0, n, t, from), l.index->lowerBound(0, n, t));
    }
  }

  void levelOfDetailIsBoundedByPixels() {
    const Loaded l = load(viewer_test::mlpReport());
    const double end = double(l.index->loadedEnd());
    for (int width :
         {2, 5, 50, 300, 2000}) { // 2 and 5: hundreds of steps per column, block-rounded columns
      const auto spans = reduceLane(*l.index, 0, 0, end, width);
      QVERIFY(!spans.empty());
      QVERIFY(int(spans.size()) <= 2 * width);
      std::size_t covered = 0;
      int lastX = 0;
      for (const TimelineSpan& s : spans) {
        QVERIFY(s.x0 >= lastX && s.x1 > s.x0 && s.x1 <= width);
        QCOMPARE(s.first, covered); // every entry, once, in order
        covered += s.count;
        lastX = s.x1;
      }
      QCOMPARE(covered, l.index->entries(0));
    }
    // Deep zoom: single steps come out one each.
    const double b = double(l.index->begin(0, 100)), e = double(l.index->end(0, 104));
    const auto spans = reduceLane(*l.index, 0, b, e, 1000);
    QVERIFY(spans.size() >= 4);
    QCOMPARE(spans.front().first, std::size_t(100));
  }

  void flameLanesAreOperationsFromDebugInfo() {
    // Every step's operation is the one libpva's OperationAnalysis gives its program, and the
    // flame rows above each lane spell that operation's path, level by level.
    for (const QString& path : {viewer_test::mlpReport(), viewer_test::pipelineReport()}) {
      const Loaded l = load(path);
      const ExecutionHeader& h = l.index->header();
      const pva::Report report = l.doc->report();
      QVERIFY(report.hasDebugInfo());
      const pva::OperationAnalysis analysis(report);
      const std::vector<pva::Operation> ops = analysis.operations();
      const std::vector<std::int64_t>& owner = analysis.operationOfProgram();
      QVERIFY(l.flame.operations);
      QCOMPARE(h.operations.size(), ops.size());
      unsigned deepest = 0; // levels of the deepest operation that runs a step
      for (std::size_t i = 0; i < ops.size(); ++i) {
        QCOMPARE(h.operations[i].name, QString::fromStdString(ops[i].name()));
        QCOMPARE(h.operations[i].layer, QString::fromStdString(ops[i].debugContext()->layerName()));
        if (!ops[i].name().empty()) {
          QVERIFY(h.operations[i].node < h.pathNodes.size());
          QCOMPARE(h.pathNodes[h.operations[i].node].path, h.operations[i].name);
          for (const pva::ProgramPtr& p : ops[i].programs())
            if (p->isStep())
              deepest =
                  std::max(deepest, unsigned(h.operations[i].name.count(QLatin1Char('/')) + 1));
        }
      }
      QCOMPARE(l.flame.depth, deepest);
      QSet<QString> shown; // operation paths drawn in some lane
      for (unsigned lane = 0; lane < l.index->numLanes(); ++lane) {
        const std::size_t n = l.index->entries(lane);
        const auto& rows = l.flame.lanes[lane];
        QCOMPARE(rows.size(), std::size_t(l.flame.depth));
        std::vector<std::size_t> at(rows.size(), 0); // the run holding entry e, per row
        for (std::size_t e = 0; e < n; ++e) {
          const std::uint64_t step = l.index->step(lane, e);
          const std::int64_t o = owner[l.index->stepProgram(step)];
          const bool named = o >= 0 && !ops[std::size_t(o)].name().empty();
          QCOMPARE(l.index->stepOperation(step), named ? std::uint32_t(o) : kNoOperation);
          const QStringList parts =
              named ? QString::fromStdString(ops[std::size_t(o)].name()).split(QLatin1Char('/'))
                    : QStringList();
          for (unsigned d = 0; d < rows.size(); ++d) {
            while (at[d] + 1 < rows[d].size() && rows[d][at[d] + 1].firstEntry <= e)
              ++at[d];
            const std::uint32_t id = rows[d][at[d]].id;
            if (int(d) >= parts.size()) {
              QCOMPARE(id, kNoOperation);
              continue;
            }
            QVERIFY(id < h.pathNodes.size());
            QCOMPARE(h.pathNodes[id].path,
                     QStringList(parts.mid(0, int(d) + 1)).join(QLatin1Char('/')));
            QCOMPARE(h.pathNodes[id].label, parts[int(d)]);
            if (int(d) + 1 == parts.size()) shown.insert(h.pathNodes[id].path);
          }
        }
      }
      // Every operation that ran a step is drawn; none that did not.
      QSet<QString> ran;
      for (std::uint64_t s = 0; s < l.index->numSteps(); ++s)
        if (l.index->stepOperation(s) != kNoOperation)
          ran.insert(h.operations[l.index->stepOperation(s)].name);
      QCOMPARE(shown, ran);
      QVERIFY(!ran.isEmpty());
    }
    // The MLP's first matmul, as debug.cbor names it: its last level is the op, "MatMul".
    const Loaded mlp = load(viewer_test::mlpReport());
    const QString matmul = QStringLiteral("fwd/layer1/matmul/MatMul");
    const pva::Report report = mlp.doc->report();
    bool inDebug = false;
    for (const pva::Operation& op : pva::OperationAnalysis(report).operations())
      inDebug = inDebug || op.name() == matmul.toStdString();
    QVERIFY(inDebug);
    const auto node =
        std::find_if(mlp.index->header().pathNodes.begin(), mlp.index->header().pathNodes.end(),
                     [&](const ExecPathNode& n) { return n.path == matmul; });
    QVERIFY(node != mlp.index->header().pathNodes.end());
    QCOMPARE(node->label, QStringLiteral("MatMul"));
    QCOMPARE(node->depth, std::uint16_t(3));
    QVERIFY(node->operation < mlp.index->header().operations.size());
  }

  void flameBlocksNeverCrossRuns() {
    // The MLP's two runs run the same programs: the blocks of the second start afresh.
    const Loaded l = load(viewer_test::mlpReport());
    QVERIFY(l.index->header().runs.size() >= 2);
    for (unsigned lane = 0; lane < l.index->numLanes(); ++lane) {
      const std::size_t n = l.index->entries(lane);
      for (const auto& row : l.flame.lanes[lane])
        for (std::size_t r = 0; r < row.size(); ++r) {
          const std::size_t end = FlameRows::runEnd(row, r, n);
          QVERIFY(end > row[r].firstEntry);
          const unsigned run = l.index->stepRun(l.index->step(lane, row[r].firstEntry));
          QCOMPARE(l.index->stepRun(l.index->step(lane, end - 1)), run);
        }
      // A block starts at the second run's first entry in every row, though the same
      // operation (or none) may end the first run.
      const std::int64_t boundary = l.index->entryOfStep(lane, l.index->header().runs[1].firstStep);
      QVERIFY(boundary > 0);
      for (const auto& row : l.flame.lanes[lane])
        QVERIFY(std::any_of(row.begin(), row.end(), [&](const FlameRun& f) {
          return f.firstEntry == std::uint32_t(boundary);
        }));
    }
    // And as drawn with All runs: each block listed lies in one run.
    ExecutionPage page;
    page.resize(1200, 800);
    page.show();
    page.setMode(ExecutionTimeline::Mode::Flame);
    page.setDocument(l.doc);
    QVERIFY(viewer_test::waitReady(&page));
    page.selectRun(-1);
    ExecutionTimeline* tl = page.timeline();
    const ExecutionIndex& index = *tl->tracks()[0].index;
    std::size_t blocks = 0;
    for (unsigned d = 0; d < tl->tracks()[0].flame->depth; ++d)
      for (const auto& b : tl->flameBlocksInView(0, 0, d)) {
        QCOMPARE(index.stepRun(index.step(0, b.lastEntry)),
                 index.stepRun(index.step(0, b.firstEntry)));
        ++blocks;
      }
    QVERIFY(blocks >= 2); // at least "fwd" or "bwd" of each run, zoomed out
    // Around the boundary, for a look: the last training step of one run, the first of the next.
    const std::int64_t boundary = index.entryOfStep(0, index.header().runs[1].firstStep);
    tl->setView(double(index.begin(0, std::size_t(boundary) - 120)),
                double(index.end(0, std::size_t(boundary) + 160)));
    QApplication::processEvents();
    QVERIFY(page.grab().save(viewer_test::tmpDir(QStringLiteral("flame-boundary")) +
                             QStringLiteral("/mlp-boundary.png")));
  }

  // Flame blocks carry their names whenever three characters fit (issue 37: on the CNN sample at
  // the default size no block below the top row was 46 px wide, the former threshold, so none
  // was named): every block wide enough for its first three characters and an ellipsis is
  // labelled with its name, and narrower ones are not cluttered with a cut-off letter.
  void flameBlocksAreNamedWhenThreeCharactersFit() {
    ExecutionPage page;
    page.resize(1400, 900);
    page.show();
    page.setMode(ExecutionTimeline::Mode::Flame);
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    ExecutionTimeline* tl = page.timeline();
    // Zoomed in on the start of the first run, where blocks of every width show.
    tl->setView(tl->viewFrom(), tl->viewFrom() + (tl->viewTo() - tl->viewFrom()) / 16);
    QApplication::processEvents();
    (void)tl->grab(); // paints, so the labels are those of this view
    const auto labels = tl->drawnLabels();
    QFont small = tl->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    const QFontMetrics fm(small);
    std::size_t named = 0, narrowNamed = 0, checked = 0;
    for (unsigned d = 0; d < tl->tracks()[0].flame->depth; ++d)
      for (const auto& b : tl->flameBlocksInView(0, 0, d)) {
        if (b.rect.width() <= 1) continue; // a merged column
        const QString name = tl->flameBlockName(b);
        if (name.isEmpty() || b.rect.height() < 11) continue;
        const int least = name.size() <= 3 ? fm.horizontalAdvance(name)
                                           : fm.horizontalAdvance(name.left(3) + QChar(0x2026));
        const bool fits = b.rect.width() - 6 >= std::max(least, 12);
        const bool labelled = std::any_of(labels.begin(), labels.end(), [&](const auto& l) {
          return l.second == name && b.rect.contains(l.first.center());
        });
        QVERIFY2(labelled == fits,
                 qPrintable(
                     QStringLiteral("%1 (%2 px, depth %3)").arg(name).arg(b.rect.width()).arg(d)));
        ++checked;
        if (labelled) ++named;
        if (labelled && b.rect.width() < 46) ++narrowNamed;
      }
    QVERIFY(checked > 0);
    QVERIFY(named > 0);
    qInfo("%zu of %zu flame blocks named, %zu of them narrower than 46 px", named, checked,
          narrowNamed);
  }

  // Zoomed in, the axis never writes one label twice (issue 37: "1.00 M · 752 µs" at every
  // tick 20 cycles apart): cycles in full, and no time when it would repeat too.
  void zoomedAxisLabelsAreDistinct() {
    const double clock = 1.33e9;
    const QStringList coarse = timelineTickLabels({0, 2e6, 4e6}, clock);
    QCOMPARE(coarse[1], QStringLiteral("2.00 M · 1.50 ms"));
    const std::vector<double> fine{1000000, 1000020, 1000040, 1000060};
    const QStringList zoomed = timelineTickLabels(fine, clock);
    QCOMPARE(zoomed.size(), 4);
    for (int i = 1; i < zoomed.size(); ++i)
      QVERIFY2(zoomed[i] != zoomed[i - 1], qPrintable(zoomed[i]));
    QVERIFY2(zoomed[1].startsWith(QStringLiteral("1,000,020")), qPrintable(zoomed[1]));
    QVERIFY2(!zoomed[1].contains(QStringLiteral("·")), qPrintable(zoomed[1])); // 752 µs each
    const QStringList noClock = timelineTickLabels({10, 20}, 0);
    QCOMPARE(noClock, (QStringList{QStringLiteral("10"), QStringLiteral("20")}));
  }

  void pickedRunShowsOnlyItsFlameBlocks() {
    ExecutionPage page;
    page.resize(1400, 800);
    page.show();
    page.setMode(ExecutionTimeline::Mode::Flame);
    const auto doc = Document::resolve(viewer_test::mlpReport());
    page.setWantedRun(
        QStringLiteral("%1").arg(load(viewer_test::mlpReport()).index->header().runs[1].name));
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    QCOMPARE(page.selectedRun(), 1);
    ExecutionTimeline* tl = page.timeline();
    const ExecutionIndex& index = *tl->tracks()[0].index;
    const ExecRunInfo& run = index.header().runs[1];
    std::size_t blocks = 0;
    QSet<QString> names;
    for (unsigned d = 0; d < tl->tracks()[0].flame->depth; ++d)
      for (const auto& b : tl->flameBlocksInView(0, 0, d)) {
        const std::uint64_t first = index.step(0, b.firstEntry), last = index.step(0, b.lastEntry);
        QVERIFY(first >= run.firstStep && last < run.firstStep + run.numSteps);
        names.insert(tl->flameBlockName(b));
        ++blocks;
      }
    QVERIFY(blocks > 10);
    QVERIFY(names.contains(QStringLiteral("fwd")));
    QVERIFY(names.contains(QStringLiteral("bwd")));
    // The first run's steps are not drawn.
    QVERIFY(tl->stepRect(0, run.firstStep - 1).isEmpty());
    QVERIFY(!tl->stepRect(0, run.firstStep + 1).isEmpty());
  }

  void clickingAFlameBlockShowsItsOperation() {
    ExecutionPage page;
    page.resize(1400, 900);
    page.show();
    page.setMode(ExecutionTimeline::Mode::Flame);
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    ExecutionTimeline* tl = page.timeline();
    const ExecutionIndex& index = *tl->tracks()[0].index;
    const ExecutionHeader& h = index.header();
    // Zoom to the first training step's forward pass: its operations are wide blocks.
    tl->setView(tl->viewFrom(), tl->viewFrom() + (tl->viewTo() - tl->viewFrom()) / 12);
    const QString wanted = QStringLiteral("fwd/layer1/matmul/MatMul");
    std::optional<ExecutionTimeline::FlameBlock> block;
    for (const auto& b : tl->flameBlocksInView(0, 0, 3))
      if (h.pathNodes[b.id].path == wanted && b.rect.width() > 6) block = b;
    QVERIFY(block);
    // Hover names it; a click shows it in the Details tab with cycles from libpva.
    QHelpEvent help(QEvent::ToolTip, block->rect.center(), tl->mapToGlobal(block->rect.center()));
    QApplication::sendEvent(tl, &help);
    QSignalSpy clicked(tl, &ExecutionTimeline::flameBlockClicked);
    QTest::mouseClick(tl, Qt::LeftButton, {}, block->rect.center());
    QCOMPARE(clicked.count(), 1);
    QVERIFY(tl->selectedBlock());
    QCOMPARE(tl->selectedBlock()->run, block->run);
    QVERIFY(QTest::qWaitFor([&] { return page.detailsModel()->details() != nullptr; }, 10000));
    StepDetailsModel* details = page.detailsModel();
    const auto tester = viewer_test::checkModel(details);
    QCOMPARE(details->value(QStringLiteral("Operation")), wanted);
    QCOMPARE(details->value(QStringLiteral("Layer")), QStringLiteral("poplibs"));
    QCOMPARE(details->value(QStringLiteral("Type")), QStringLiteral("MatMul"));
    QCOMPARE(details->value(QStringLiteral("Run")), h.runs[0].name);
    // The oracle: the block's steps read here, those whose program the operation owns, each at
    // its slowest IPU.
    const pva::Report report = Document::resolve(viewer_test::mlpReport())->report();
    const pva::OperationAnalysis analysis(report);
    const std::uint64_t first = index.step(0, block->firstEntry),
                        last = index.step(0, block->lastEntry);
    std::uint64_t cycles = 0, steps = 0;
    const auto all = report.execution().steps();
    for (std::uint64_t s = first; s <= last; ++s) {
      const pva::ExecutionStep step = all.at(std::size_t(s));
      const std::int64_t o = analysis.operationOfProgram()[step.program()->_id()];
      if (o < 0 || analysis.operations()[std::size_t(o)].name() != wanted.toStdString()) continue;
      std::uint64_t slowest = 0;
      for (const pva::IpuExecution& x : step.ipus())
        slowest = std::max(slowest, x.cycles());
      cycles += slowest;
      ++steps;
    }
    QVERIFY(cycles > 0);
    const int row = [&] {
      for (int r = 0; r < details->rowCount(); ++r)
        if (details->data(details->index(r, 0)).toString() ==
            QStringLiteral("Cycles in this block"))
          return r;
      return -1;
    }();
    QVERIFY(row >= 0);
    QCOMPARE(details->data(details->index(row, 1), StepDetailsModel::RawRole).toULongLong(),
             qulonglong(cycles));
    QCOMPARE(details->data(details->index(row + 1, 1), StepDetailsModel::RawRole).toULongLong(),
             qulonglong(steps));
    QVERIFY(!details->value(QStringLiteral("Cycles in run '%1'").arg(h.runs[0].name))
                 .isEmpty()); // the run shown
    QApplication::processEvents();
    QVERIFY(page.grab().save(viewer_test::tmpDir(QStringLiteral("flame-details")) +
                             QStringLiteral("/mlp-block-details.png")));
    // Clicking a step afterwards clears the block.
    const QRect stepRect = tl->stepRect(0, first);
    QTest::mouseClick(tl, Qt::LeftButton, {}, stepRect.center());
    QVERIFY(!tl->selectedBlock());
  }

  void flameLanesRenderZoomedOutAndIn() {
    // The flame lanes of each sample, whole (the first run) and zoomed into its first steps,
    // saved for a look (build/tests/viewer/tmp/flame/*.png): blocks named where they fit.
    const QString dir = viewer_test::tmpDir(QStringLiteral("flame"));
    const std::pair<QString, QString> samples[] = {
        {QStringLiteral("mlp"), viewer_test::mlpReport()},
        {QStringLiteral("pipeline"), viewer_test::pipelineReport()},
        {QStringLiteral("mlp-big"), viewer_test::mlpBigReport()}};
    for (const auto& [name, path] : samples) {
      ExecutionPage page;
      page.resize(1400, 900);
      page.show();
      page.setMode(ExecutionTimeline::Mode::Flame);
      page.setDocument(Document::resolve(path));
      QVERIFY(viewer_test::waitReady(&page));
      ExecutionTimeline* tl = page.timeline();
      const QImage whole = page.grab().toImage();
      QVERIFY(whole.save(dir + QStringLiteral("/%1-out.png").arg(name)));
      // The forward pass of the first training step: the first steps with an operation.
      const ExecutionIndex& index = *tl->tracks()[0].index;
      std::size_t first = 0;
      while (first < index.entries(0) && index.stepOperation(index.step(0, first)) == kNoOperation)
        ++first;
      QVERIFY(first < index.entries(0));
      const std::size_t last = std::min(index.entries(0) - 1, first + 60);
      tl->setView(double(index.begin(0, first)), double(index.end(0, last)));
      QApplication::processEvents();
      const QImage zoomed = page.grab().toImage();
      QVERIFY(zoomed.save(dir + QStringLiteral("/%1-in.png").arg(name)));
      QVERIFY(viewer_test::distinctColors(tl->grab().toImage()) >= 12);
      std::size_t wide = 0;
      for (unsigned d = 0; d < tl->tracks()[0].flame->depth; ++d)
        for (const auto& b : tl->flameBlocksInView(0, 0, d))
          wide += b.rect.width() >= 60;
      QVERIFY(wide >= 4); // wide enough to carry their names
    }
  }

  void modelsPassTheTester() {
    const Loaded l = load(viewer_test::mlpReport());
    StepDetailsModel details;
    const auto t1 = viewer_test::checkModel(&details);
    details.setDetails(std::make_shared<StepDetails>(loadStepDetails(*l.doc, 5)));
    QVERIFY(details.rowCount() > 5);
    QVERIFY(!details.value(QStringLiteral("Program")).isEmpty());
    QVERIFY(!details.value(QStringLiteral("IPU 0: cycles")).isEmpty());
    details.setDetails(nullptr);
    QCOMPARE(details.rowCount(), 0);

    ExecutionSummaryModel summary;
    const auto t2 = viewer_test::checkModel(&summary);
    auto snap = std::make_shared<ExecutionSummarySnapshot>();
    snap->current = summarizeRange(*l.index, 0, double(l.index->loadedEnd()) + 1);
    snap->runs = l.index->header().runs;
    summary.setSnapshot(snap);
    QCOMPARE(summary.columnCount(), 3);
    const int steps = summary.rowOf(QStringLiteral("Steps in view"));
    QVERIFY(steps >= 0);
    QCOMPARE(
        summary.data(summary.index(steps, summary.valueColumn()), ExecutionSummaryModel::NumberRole)
            .toDouble(),
        double(l.index->numSteps()));
    auto cmp = std::make_shared<ExecutionSummarySnapshot>(*snap);
    cmp->compare = true;
    cmp->base = snap->current;
    cmp->baseRuns = snap->runs;
    summary.setSnapshot(cmp);
    QCOMPARE(summary.columnCount(), 5);
    QCOMPARE(summary
                 .data(summary.index(steps, ExecutionSummaryModel::ChangeColumn),
                       ExecutionSummaryModel::NumberRole)
                 .toDouble(),
             0.0);
    summary.setSnapshot(nullptr);
  }

  void runAndIpuFiguresAreLibpvasAnalysis() {
    // The pipeline has two IPUs and global exchanges; the mlp two runs. Each figure shown is
    // pva::analyseExecution's for the run chosen (the viewer computes none of them).
    for (const QString& path : {viewer_test::pipelineReport(), viewer_test::mlpReport()}) {
      const auto doc = Document::resolve(path);
      Progress progress = Progress::standalone(QStringLiteral("test"));
      auto figures = std::make_shared<ExecutionFigures>(loadExecutionFigures(*doc, progress));
      const pva::ExecutionAnalysis expected = pva::analyseExecution(doc->report());
      RunFiguresModel runs;
      IpuFiguresModel ipus;
      const auto t1 = viewer_test::checkModel(&runs);
      const auto t2 = viewer_test::checkModel(&ipus);
      for (int run = -1; run < int(expected.runs.size()); ++run) {
        const pva::SpanFigures& span = run < 0 ? expected.allRuns : expected.runs[std::size_t(run)];
        runs.setFigures(figures, run);
        ipus.setFigures(figures, run);
        QCOMPARE(runs.columnCount(), 2);
        QCOMPARE(runs.scope(),
                 run < 0
                     ? QStringLiteral("all runs")
                     : QStringLiteral("run '%1'").arg(QString::fromStdString(span.scope.runName)));
        auto value = [&](const char* name) {
          const int row = runs.rowOf(QString::fromUtf8(name));
          return row < 0 ? -1.0
                         : runs.index(row, runs.valueColumn())
                               .data(RunFiguresModel::NumberRole)
                               .toDouble();
        };
        QCOMPARE(value("Length (cycles)"), double(span.lengthCycles));
        QCOMPARE(value("Σ steps' slowest IPU (cycles)"), double(span.cycles));
        QCOMPARE(value("Steps"), double(span.steps));
        QCOMPARE(value("Parallel efficiency"), span.parallelEfficiency);
        QCOMPARE(value("Tile balance"), span.tileBalance);
        QVERIFY(span.parallelEfficiency > 0 && span.parallelEfficiency <= 1);
        // Stream copies by destination, libpva's figure; the MLP streams from the host only.
        QCOMPARE(value("Stream copies: host (cycles)"), double(span.streamCopyCycles.host));
        QCOMPARE(value("Stream copies: remote buffers (cycles)"),
                 double(span.streamCopyCycles.remoteBuffer));
        QVERIFY(span.streamCopyCycles.host > 0);
        QCOMPARE(value("Stream copies: destination unknown (cycles)"), -1.0); // no such row

        QCOMPARE(std::size_t(ipus.rowCount()), span.tileCyclesByIpu.size());
        for (int ipu = 0; ipu < ipus.rowCount(); ++ipu) {
          const pva::CycleKinds& c = span.tileCyclesByIpu[std::size_t(ipu)];
          for (int k = 0; k < IpuFiguresModel::kKinds; ++k) {
            const QModelIndex cell = ipus.index(ipu, IpuFiguresModel::FirstKindColumn + k);
            QCOMPARE(cell.data(IpuFiguresModel::NumberRole).toULongLong(), c.cycles[k]);
            QCOMPARE(cell.data().toString(),
                     formatPercent(c.shareOfTileCycles(pva::TileCycleTotals::Kind(k))));
          }
          const pva::IpuTraffic& t = span.ipus[std::size_t(ipu)];
          QCOMPARE(ipus.index(ipu, IpuFiguresModel::StreamCopyInColumn)
                       .data(IpuFiguresModel::NumberRole)
                       .toULongLong(),
                   t.streamCopyInBytes);
          QCOMPARE(ipus.index(ipu, IpuFiguresModel::StreamCopyOutColumn)
                       .data(IpuFiguresModel::NumberRole)
                       .toULongLong(),
                   t.streamCopyOutBytes);
          QCOMPARE(ipus.index(ipu, IpuFiguresModel::GlobalExchangeInColumn)
                       .data(IpuFiguresModel::NumberRole)
                       .toULongLong(),
                   t.globalExchangeInBytes);
          QCOMPARE(ipus.index(ipu, IpuFiguresModel::GlobalExchangeOutColumn)
                       .data(IpuFiguresModel::NumberRole)
                       .toULongLong(),
                   t.globalExchangeOutBytes);
        }
      }
      if (path == viewer_test::pipelineReport()) {
        QCOMPARE(ipus.rowCount(), 2);
        // The pipeline's stages hand activations over between IPUs: global exchange bytes move.
        QVERIFY(expected.allRuns.ipus[0].globalExchangeOutBytes +
                    expected.allRuns.ipus[1].globalExchangeOutBytes >
                0);
      }
      // A run the report does not have, and no figures: empty, not a crash.
      runs.setFigures(figures, 99);
      QCOMPARE(runs.rowCount(), 0);
      ipus.setFigures(nullptr, 0);
      QCOMPARE(ipus.rowCount(), 0);
    }
    // Compare mode: base, current and change columns of the same run.
    const auto cmp = Document::comparison(viewer_test::mlpReport(), viewer_test::mlpBigReport());
    Progress progress = Progress::standalone(QStringLiteral("test"));
    auto figures = std::make_shared<ExecutionFigures>(loadExecutionFigures(*cmp, progress));
    QVERIFY(figures->base != nullptr);
    RunFiguresModel runs;
    const auto t = viewer_test::checkModel(&runs);
    runs.setFigures(figures, 1);
    QCOMPARE(runs.columnCount(), 4);
    const int row = runs.rowOf(QStringLiteral("Length (cycles)"));
    const double cur = double(figures->current->runs[1].lengthCycles),
                 base = double(figures->base->runs[1].lengthCycles);
    // Base | Current, as on the Compare page.
    QCOMPARE(runs.headerData(1, Qt::Horizontal).toString(), QStringLiteral("Base"));
    QCOMPARE(runs.headerData(2, Qt::Horizontal).toString(), QStringLiteral("Current"));
    QCOMPARE(runs.index(row, 1).data(RunFiguresModel::NumberRole).toDouble(), base);
    QCOMPARE(runs.index(row, 2).data(RunFiguresModel::NumberRole).toDouble(), cur);
    QCOMPARE(
        runs.index(row, RunFiguresModel::ChangeColumn).data(RunFiguresModel::NumberRole).toDouble(),
        cur - base);
  }

  void summaryPanelFollowsTheRun() {
    ExecutionPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page)); // ready includes the figures
    QCOMPARE(page.runFiguresModel()->scope(), QStringLiteral("run 'train0'"));
    QVERIFY2(page.figuresHeading()->text().contains(QStringLiteral("train0")),
             qPrintable(page.figuresHeading()->text()));
    QCOMPARE(page.ipuFiguresModel()->rowCount(), 1);
    page.selectRun(-1);
    QCOMPARE(page.runFiguresModel()->scope(), QStringLiteral("all runs"));
    QVERIFY(page.figuresHeading()->text().contains(QStringLiteral("all runs")));
    const pva::ExecutionAnalysis expected =
        pva::analyseExecution(Document::resolve(viewer_test::mlpReport())->report());
    const int row = page.runFiguresModel()->rowOf(QStringLiteral("Length (cycles)"));
    QCOMPARE(page.runFiguresModel()->index(row, 1).data(RunFiguresModel::NumberRole).toDouble(),
             double(expected.allRuns.lengthCycles));
    // Laid out side by side: every row of the run's figures is visible without scrolling.
    auto* view = page.findChild<QTableView*>(QStringLiteral("runFigures"));
    QVERIFY(view && view->isVisible());
    QVERIFY(!view->verticalScrollBar()->isVisible());
  }

  void interactions() {
    ExecutionPage page;
    page.resize(1200, 800);
    page.show();
    QSignalSpy errors(&page, &Page::errorOccurred);
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QCOMPARE(errors.count(), 0);
    ExecutionTimeline* tl = page.timeline();
    page.selectRun(-1); // the report has two runs: it opened on the first
    const double fullFrom = tl->viewFrom(), fullTo = tl->viewTo();
    QCOMPARE(fullFrom, 0.0);
    QVERIFY(fullTo > 1000);

    // Wheel zoom at the pointer shrinks the range around it.
    const QPoint centre = tl->rect().center();
    wheel(tl, centre, 120 * 3);
    QVERIFY(tl->viewTo() - tl->viewFrom() < 0.6 * (fullTo - fullFrom));
    QVERIFY(tl->viewFrom() > fullFrom && tl->viewTo() < fullTo);

    // Drag pans.
    const double before = tl->viewFrom();
    QTest::mousePress(tl, Qt::LeftButton, {}, centre);
    QTest::mouseMove(tl, centre + QPoint(-200, 0));
    QTest::mouseRelease(tl, Qt::LeftButton, {}, centre + QPoint(-200, 0));
    QVERIFY(tl->viewFrom() > before);

    // 0 fits.
    QTest::keyClick(tl, Qt::Key_0);
    QCOMPARE(tl->viewFrom(), fullFrom);
    QCOMPARE(tl->viewTo(), fullTo);

    // Click a step: zoom to a few steps and click the middle of one.
    const ExecutionIndex& index = *tl->tracks()[0].index;
    const std::uint64_t step = index.step(0, 40);
    tl->setView(double(index.begin(0, 38)), double(index.end(0, 42)));
    const QRect r = tl->stepRect(0, step);
    QVERIFY(r.width() > 10);
    QTest::mouseClick(tl, Qt::LeftButton, {}, r.center());
    QCOMPARE(tl->selectedStep(), std::int64_t(step));
    QVERIFY(QTest::qWaitFor([&] { return page.detailsModel()->details() != nullptr; }, 10000));
    const QString program = index.header().programs[index.stepProgram(step)].name;
    QCOMPARE(page.detailsModel()->value(QStringLiteral("Program")), program);
    QCOMPARE(page.tabs()->currentIndex(), 1);

    // Run selector: run 1 restricts the view to its span, and fitting stays inside it.
    QVERIFY(page.runSelector()->isEnabled());
    QCOMPARE(page.runSelector()->count(), 3);
    std::uint64_t from = 0, to = 0;
    QVERIFY(index.runSpan(1, &from, &to));
    page.selectRun(1);
    QCOMPARE(tl->viewFrom(), double(from));
    QCOMPARE(tl->viewTo(), double(to));
    wheel(tl, centre, -120 * 5); // zooming out stops at the run
    QCOMPARE(tl->viewFrom(), double(from));
    QCOMPARE(tl->viewTo(), double(to));
    QVERIFY(QTest::qWaitFor(
        [&] {
          const int row = page.summaryModel()->rowOf(QStringLiteral("Steps in view"));
          return row >= 0 && page.summaryModel()
                                     ->data(page.summaryModel()->index(row, 1),
                                            ExecutionSummaryModel::NumberRole)
                                     .toDouble() == double(index.header().runs[1].numSteps);
        },
        5000));
    page.selectRun(-1);
    QCOMPARE(tl->viewTo(), fullTo);

    // Keys: + zooms in, the right arrow pans right, - zooms out.
    QTest::keyClick(tl, Qt::Key_Plus);
    const double zoomed = tl->viewTo() - tl->viewFrom();
    QVERIFY(zoomed < fullTo - fullFrom);
    const double left = tl->viewFrom();
    QTest::keyClick(tl, Qt::Key_Right);
    QVERIFY(tl->viewFrom() > left);
    QTest::keyClick(tl, Qt::Key_Minus);
    QVERIFY(tl->viewTo() - tl->viewFrom() > zoomed);

    // The overview's window follows the timeline, and dragging it pans the timeline.
    tl->setView(fullTo * 0.25, fullTo * 0.5);
    QApplication::processEvents();
    ExecutionOverview* overview = page.overview();
    const QRect w = overview->windowRect();
    QVERIFY(w.width() < overview->width() / 2);
    QTest::mousePress(overview, Qt::LeftButton, {}, w.center());
    QTest::mouseMove(overview, w.center() + QPoint(100, 0));
    QTest::mouseRelease(overview, Qt::LeftButton, {}, w.center() + QPoint(100, 0));
    QVERIFY(tl->viewFrom() > fullTo * 0.25);
    QVERIFY(std::abs((tl->viewTo() - tl->viewFrom()) - fullTo * 0.25) < 1);
  }

  void opensOnTheFirstOfSeveralRunsOrTheNamedOne() {
    // Several runs: the first, not "All runs" (unreadable on a long report), which stays
    // selectable as the selector's first entry.
    ExecutionPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const ExecutionIndex& index = *page.timeline()->tracks()[0].index;
    QVERIFY(index.header().runs.size() >= 2);
    QCOMPARE(page.selectedRun(), 0);
    QCOMPARE(page.runSelector()->currentIndex(), 1);
    QVERIFY(page.runSelector()->itemText(0).contains(QStringLiteral("All runs")));
    std::uint64_t from = 0, to = 0;
    QVERIFY(index.runSpan(0, &from, &to));
    QCOMPARE(page.timeline()->viewFrom(), double(from));
    QCOMPARE(page.timeline()->viewTo(), double(to));
    QCOMPARE(page.runNames(),
             (QStringList{index.header().runs[0].name, index.header().runs[1].name}));

    // A run asked for by name (--run) is shown instead, once; an unknown name is signalled with
    // the names there are.
    const QString second = index.header().runs[1].name;
    page.setWantedRun(second);
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QCOMPARE(page.selectedRun(), 1);
    QVERIFY(
        page.timeline()->tracks()[0].index->runSpan(1, &from, &to)); // a new document, a new index
    QCOMPARE(page.timeline()->viewFrom(), double(from));
    QCOMPARE(page.timeline()->viewTo(), double(to));
    QSignalSpy unknown(&page, &ExecutionPage::unknownRun);
    page.setWantedRun(QStringLiteral("no-such-run"));
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QCOMPARE(unknown.count(), 1);
    QCOMPARE(unknown[0][0].toString(), QStringLiteral("no-such-run"));
    QVERIFY(unknown[0][1].toStringList().contains(second));
    // The wish was used up: the next document opens on its first run again.
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QCOMPARE(page.selectedRun(), 0);
  }

  void modesPaintDifferentImages() {
    ExecutionPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    ExecutionTimeline* tl = page.timeline();
    const QImage flat = tl->grab().toImage();
    page.setMode(ExecutionTimeline::Mode::Flame);
    const QImage flame = tl->grab().toImage();
    page.setMode(ExecutionTimeline::Mode::Bsp);
    QVERIFY(QTest::qWaitFor([&] { return tl->tracks()[0].tiles != nullptr; }, 20000));
    const QImage bsp = tl->grab().toImage();
    QVERIFY(flat != flame);
    QVERIFY(flat != bsp);
    QVERIFY(flame != bsp);
    QVERIFY(viewer_test::distinctColors(flat) >= 6);
    QVERIFY(viewer_test::distinctColors(flame) >= 6);
    QVERIFY(viewer_test::distinctColors(bsp) >= 6);
    // BSP: Ctrl+wheel zooms into tiles.
    wheel(tl, tl->rect().center(), 120 * 4, Qt::ControlModifier);
    QVERIFY(tl->bspTileTo() > 0 && tl->bspTileTo() - tl->bspTileFrom() < 1472);
  }

  void bspOpensOnWhatItCanShowWithALegendForIdle() {
    // All runs of a long report are more (step, tile) cells than BSP reads at once. The mlp
    // report is short, so the limit is lowered to 1,000 steps of 1,472 tiles: choosing BSP then
    // narrows the view to the first 1,000 steps instead of painting "zoom in".
    ExecutionPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    ExecutionTimeline* tl = page.timeline();
    QVERIFY(!page.bspLegend()->isVisibleTo(&page));
    page.selectRun(-1);
    const ExecutionIndex& index = *tl->tracks()[0].index;
    QVERIFY(index.numSteps() > 1000);
    tl->setBspCellLimit(1000 * 1472);
    page.setMode(ExecutionTimeline::Mode::Bsp);
    QVERIFY(page.bspLegend()->isVisibleTo(&page));
    QVERIFY(page.bspLegend()->text().contains(QStringLiteral("idle")));
    QCOMPARE(tl->viewFrom(), 0.0);
    std::uint64_t first = 0, last = 0;
    tl->bspStepsNeeded(0, &first, &last);
    QCOMPARE(first, std::uint64_t(0));
    QVERIFY2(last <= 1000 && last >= 990,
             qPrintable(QString::number(last))); // the step ending the view
    QVERIFY(QTest::qWaitFor(
        [&] { return tl->tracks()[0].tiles && !tl->bspStepsNeeded(0, &first, &last); }, 20000));
    // Zooming out past the limit is the user's choice: the view is not narrowed again.
    tl->setBspTiles(10, 20); // a tile zoom, which Fit resets
    tl->fit();
    QCOMPARE(tl->viewTo(), double(index.loadedEnd()));
    QCOMPARE(tl->bspTileFrom(), 0);
    QVERIFY(tl->bspTileTo() < 0 || tl->bspTileTo() >= 1472);
    // All runs are painted: the steps past those read per tile are drawn per IPU, so every
    // column of the BSP row where the runs ran holds something, to the end of the last run.
    const QImage image = tl->grab().toImage();
    const QRect bspRow = tl->bspRowRect(0);
    QVERIFY(!bspRow.isEmpty());
    // Fitted, the runs fill the row's width.
    const int firstX = bspRow.left() + 2, lastX = bspRow.right() - 2;
    QVERIFY(lastX - firstX > 200);
    int blank = 0;
    for (int x = firstX; x < lastX; ++x) {
      bool drawn = false;
      for (int y = bspRow.top() + 18; y < bspRow.bottom() && !drawn; y += 4)
        drawn = image.pixelColor(x, y) != tl->backgroundColor();
      blank += drawn ? 0 : 1;
    }
    QVERIFY2(blank == 0,
             qPrintable(QStringLiteral("%1 columns of the BSP row left blank").arg(blank)));
    page.setMode(ExecutionTimeline::Mode::Flat);
    QVERIFY(!page.bspLegend()->isVisibleTo(&page));
  }

  // At 1,400 px (a page of about 1,230 px beside the side list) nothing in the rows above the
  // timeline overlaps or leaves the page, in BSP mode too (its legend ran into the step count),
  // comparing too (two reports' runs in the selector), and the page does not ask to be wider.
  void controlsFitAt1400Pixels() {
    for (bool compare : {false, true}) {
      ExecutionPage page;
      page.resize(1230, 800);
      page.show();
      page.setDocument(
          compare ? Document::comparison(viewer_test::mlpReport(), viewer_test::mlpBigReport())
                  : Document::resolve(viewer_test::mlpReport()));
      QVERIFY(viewer_test::waitReady(&page));
      page.setMode(ExecutionTimeline::Mode::Bsp);
      QVERIFY(page.bspLegend()->isVisibleTo(&page));
      QVERIFY2(page.minimumSizeHint().width() <= 1230,
               qPrintable(QString::number(page.minimumSizeHint().width())));
      QApplication::processEvents();
      auto* status = page.findChild<QLabel*>(QStringLiteral("executionStatus"));
      QVERIFY(status && !status->text().isEmpty());
      QVERIFY(status->width() >=
              status->fontMetrics().horizontalAdvance(status->text())); // the step count whole
      std::vector<QRect> rects;
      for (QWidget* w : page.findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
        if (!w->isVisible() ||
            w->geometry().top() > page.timeline()->mapTo(&page, QPoint(0, 0)).y())
          continue;
        if (qobject_cast<QLabel*>(w) || qobject_cast<QToolButton*>(w) ||
            qobject_cast<QComboBox*>(w))
          rects.push_back(w->geometry());
      }
      // The legend's items live in a widget of their own; its geometry stands for them.
      for (QWidget* w : page.findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
        if (w->isVisible() &&
            !w->findChildren<QLabel*>(QString(), Qt::FindDirectChildrenOnly).isEmpty() &&
            w->geometry().bottom() < page.timeline()->mapTo(&page, QPoint(0, 0)).y())
          rects.push_back(w->geometry());
      QVERIFY(rects.size() > 6);
      for (std::size_t i = 0; i < rects.size(); ++i) {
        QVERIFY2(
            page.rect().contains(rects[i]),
            qPrintable(QStringLiteral("a control leaves the page at x %1").arg(rects[i].right())));
        for (std::size_t j = i + 1; j < rects.size(); ++j)
          QVERIFY2(!rects[i].intersects(rects[j]),
                   qPrintable(QStringLiteral("controls overlap at x %1").arg(rects[j].left())));
      }
    }
  }

  // Lightweight profiling (issue 37, item 5): libpva's analyseBlocks gives each IPU a row of its
  // recording tile's blocks and one of its I/O tiles' stream copies; zoomed in, a block reads
  // its name and cycles, its tooltip its program's totals; the status line counts the records,
  // and a report without blocks says it has none (and draws no block rows).
  void lightweightBlocksHaveRowsWithTheirCycles() {
    ExecutionPage page;
    page.resize(1400, 800);
    page.show();
    const auto doc = Document::resolve(viewer_test::mlpBlocksReport());
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    const pva::BlockFigures figures = pva::analyseBlocks(doc->report());
    QVERIFY(figures.any());
    QVERIFY(!figures.recorded[0].empty());
    QVERIFY(!figures.io[0].empty());
    const QString counted = formatCount(figures.numRecords) + QStringLiteral(" block records on ") +
                            formatCount(figures.numTiles) + QStringLiteral(" tiles");
    QVERIFY2(page.status()->text().contains(counted), qPrintable(page.status()->text()));
    ExecutionTimeline* tl = page.timeline();
    const QRect recorded = tl->blockRowRect(0, 0, 0), io = tl->blockRowRect(0, 0, 1);
    QVERIFY(recorded.isValid());
    QVERIFY(io.isValid());
    QVERIFY(io.top() > recorded.top());
    const QRect steps = tl->stepRect(0, 0);
    QVERIFY(steps.isValid() && recorded.top() > steps.top()); // under its IPU's steps

    // One timed program's block, zoomed to fill the view.
    const ExecutionHeader& h = tl->tracks().back().index->header();
    QCOMPARE(h.blocks[0].size(), figures.recorded[0].size());
    std::size_t k = 0;
    while (k < h.blocks[0].size() && h.blocks[0][k].kind != ExecBlockInfo::Common)
      ++k;
    QVERIFY(k < h.blocks[0].size());
    const ExecBlockInfo& block = h.blocks[0][k];
    const pva::Block& record = figures.recorded[0][k];
    QCOMPARE(block.cycles, record.to() - record.from());
    QVERIFY(block.cycles > 0);
    const QString name = QString::fromStdString(record.program()->name());
    tl->setView(double(block.from), double(block.to));
    tl->grab(); // paints, placing the labels
    const QString expected =
        name + QStringLiteral(" · ") + formatCount(block.cycles) + QStringLiteral(" cycles");
    bool labelled = false;
    for (const auto& [rect, text] : tl->drawnLabels())
      labelled |= text == expected && recorded.intersects(rect);
    QVERIFY2(labelled, qPrintable(expected));
    const QString tip = tl->toolTipAt(recorded.center());
    QVERIFY2(tip.contains(formatCount(block.cycles) + QStringLiteral(" cycles")), qPrintable(tip));
    const auto program = std::find_if(
        figures.programs.begin(), figures.programs.end(),
        [&](const pva::BlockProgramFigures& f) { return f.name == name.toStdString(); });
    QVERIFY(program != figures.programs.end());
    QVERIFY2(tip.contains(formatCount(program->count) + QStringLiteral(" executions, ") +
                          formatCount(program->cycles) + QStringLiteral(" cycles in all")),
             qPrintable(tip));

    // A stream copy of the I/O tiles names how many tiles recorded it.
    const ExecBlockInfo& copy = h.ioBlocks[0].front();
    QCOMPARE(copy.tiles, figures.io[0].front().tiles);
    tl->setView(double(copy.from), double(copy.to) + 1);
    tl->grab();
    const QString copyTip = tl->toolTipAt(io.center());
    QVERIFY2(
        copyTip.contains(QStringLiteral("recorded by %1 I/O tiles").arg(formatCount(copy.tiles))),
        qPrintable(copyTip));

    // A report without lightweight profiling says so and has no block rows.
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY2(page.status()->text().contains(QStringLiteral("no lightweight-profiling blocks")),
             qPrintable(page.status()->text()));
    QVERIFY(page.status()->toolTip().contains(QStringLiteral("profiler.blocks.filter")));
    QVERIFY(!tl->blockRowRect(0, 0, 0).isValid());
    QVERIFY(!tl->blockRowRect(0, 0, 1).isValid());
  }

  void noExecutionIsAStateNotAnError() {
    ExecutionPage page;
    page.resize(900, 600);
    QSignalSpy errors(&page, &Page::errorOccurred);
    const auto doc = Document::resolve(viewer_test::oomReport());
    QVERIFY(page.accepts(*doc));
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    QCOMPARE(errors.count(), 0);
    QVERIFY2(page.timeline()->message().contains(QStringLiteral("No execution in this report")),
             qPrintable(page.timeline()->message()));
    // No empty tables under the message; a report that ran shows them again.
    page.show();
    QVERIFY(!page.tabs()->isVisible());
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(page.tabs()->isVisible());
  }

  void compareShowsTwoTimelines() {
    ExecutionPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::mlpBigReport()));
    QVERIFY(viewer_test::waitReady(&page));
    ExecutionTimeline* tl = page.timeline();
    QCOMPARE(tl->tracks().size(), std::size_t(2));
    QCOMPARE(page.selectedRun(), 0); // run 0 of both; All runs next
    // The run's figures give base, current and change; the per-IPU table says whose it is.
    QCOMPARE(page.runFiguresModel()->columnCount(), 4);
    QVERIFY(page.figuresHeading()->text().contains(QStringLiteral("base and current")));
    auto* ipuHeading = page.findChild<QTableView*>(QStringLiteral("ipuFigures"))
                           ->parentWidget()
                           ->findChild<QLabel*>();
    QVERIFY(ipuHeading && ipuHeading->text().contains(QStringLiteral("current report")));
    page.selectRun(-1);
    QVERIFY(tl->tracks()[0].label.startsWith(QStringLiteral("Base")));
    QVERIFY(tl->tracks()[1].label.startsWith(QStringLiteral("Current")));
    // The shared axis reaches the longer execution.
    const double longest =
        double(std::max(tl->tracks()[0].index->loadedEnd(), tl->tracks()[1].index->loadedEnd()));
    QCOMPARE(tl->viewTo(), longest);
    QCOMPARE(page.summaryModel()->columnCount(), 5);
    const int row = page.summaryModel()->rowOf(QStringLiteral("IPU cycles in view (Σ IPUs)"));
    QVERIFY(row >= 0);
    // Base | Current, as on the Compare page.
    QCOMPARE(page.summaryModel()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("Base"));
    QCOMPARE(page.summaryModel()->headerData(2, Qt::Horizontal).toString(),
             QStringLiteral("Current"));
    QVERIFY(page.summaryModel()
                ->data(page.summaryModel()->index(row, ExecutionSummaryModel::ChangeColumn))
                .toString()
                .size() > 0);
    // A step of either report can be selected and its details read from that report.
    const ExecutionIndex& base = *tl->tracks()[0].index;
    tl->setView(double(base.begin(0, 10)), double(base.end(0, 12)));
    const QRect r = tl->stepRect(0, base.step(0, 11));
    QVERIFY(!r.isEmpty());
    QTest::mouseClick(tl, Qt::LeftButton, {}, r.center());
    QCOMPARE(tl->selectedTrack(), std::size_t(0));
    QVERIFY(QTest::qWaitFor([&] { return page.detailsModel()->details() != nullptr; }, 10000));
  }

  // The run figures, the per-IPU figures and the visible range under the timeline: at 1,400 px
  // and wider no column of them is cut and no header is wider than its column. In compare mode
  // (base, current and change columns) the three need about 1,600 px side by side; below that
  // the ones that do not fit get tabs of their own. Before, a 1,400 px window squeezed all three:
  // the IPU table and the visible range scrolled sideways, their last columns cut.
  void figureTablesShowEveryColumnWhole_data() {
    QTest::addColumn<QStringList>("documents");
    QTest::addColumn<int>("width");
    for (int width : {1400, 1500, 1600, 1920}) {
      QTest::newRow(qPrintable(QStringLiteral("compare-%1").arg(width)))
          << QStringList{viewer_test::mlpReport(), viewer_test::mlpBigReport()} << width;
      QTest::newRow(qPrintable(QStringLiteral("compare-pipeline-%1").arg(width)))
          << QStringList{viewer_test::mlpReport(), viewer_test::pipelineReport()} << width;
      QTest::newRow(qPrintable(QStringLiteral("pipeline-%1").arg(width)))
          << QStringList{viewer_test::pipelineReport()} << width;
      QTest::newRow(qPrintable(QStringLiteral("mlp-%1").arg(width)))
          << QStringList{viewer_test::mlpReport()} << width;
    }
  }
  void figureTablesShowEveryColumnWhole() {
    QFETCH(QStringList, documents);
    QFETCH(int, width);
    MainWindow window;
    window.setRememberRecent(false);
    window.resize(width, 900);
    window.show();
    QVERIFY(documents.size() == 2 ? window.openComparison(documents[0], documents[1])
                                  : window.openPath(documents[0]));
    QVERIFY(window.showView(QStringLiteral("execution")));
    auto* page = qobject_cast<ExecutionPage*>(window.page(QStringLiteral("execution")));
    QVERIFY(page && viewer_test::waitReady(page));
    QCOMPARE(window.width(), width); // nothing widened the window
    auto* tabs = page->findChild<QTabWidget*>();
    QVERIFY(tabs);
    for (const char* name : {"runFigures", "ipuFigures", "executionSummary"}) {
      auto* table = page->findChild<QTableView*>(QString::fromLatin1(name));
      QVERIFY(table);
      // Show the tab holding it (the Summary tab, or its own).
      for (int t = 0; t < tabs->count(); ++t)
        if (tabs->widget(t)->isAncestorOf(table)) tabs->setCurrentIndex(t);
      QApplication::processEvents();
      QVERIFY2(table->isVisible(), name);
      QHeaderView* header = table->horizontalHeader();
      QVERIFY(table->model()->columnCount() > 1);
      int columns = 0;
      for (int c = 0; c < table->model()->columnCount(); ++c) {
        if (header->isSectionHidden(c)) continue;
        const QString what = QStringLiteral("%1 column %2 '%3' at %4 px: %5 px")
                                 .arg(QLatin1String(name))
                                 .arg(c)
                                 .arg(table->model()
                                          ->headerData(c, Qt::Horizontal)
                                          .toString()
                                          .replace(QLatin1Char('\n'), QLatin1Char(' ')))
                                 .arg(width)
                                 .arg(header->sectionSize(c));
        QVERIFY2(header->sectionSize(c) >= header->sectionSizeHint(c),
                 qPrintable(what + QStringLiteral(", its header needs more")));
        QVERIFY2(header->sectionSize(c) >=
                     static_cast<const QAbstractItemView*>(table)->sizeHintForColumn(c),
                 qPrintable(what + QStringLiteral(", its contents need more")));
        columns += header->sectionSize(c);
      }
      QVERIFY2(columns <= table->viewport()->width(),
               qPrintable(QStringLiteral("%1: %2 px of columns in %3 px")
                              .arg(QLatin1String(name))
                              .arg(columns)
                              .arg(table->viewport()->width())));
      QVERIFY2(table->horizontalScrollBar()->maximum() == 0, name);
    }
    // As many as fit stay side by side on the Summary tab: the run's figures and the IPUs' from
    // 1,400 px, all three at 1,920 px with one report (compare mode's wider tables need more).
    auto* sideBySide = page->findChild<QSplitter*>(QStringLiteral("fittingPanels"));
    QVERIFY(sideBySide);
    QVERIFY(sideBySide->count() >= 2);
    if (width >= 1920 && documents.size() == 1) QCOMPARE(sideBySide->count(), 3);
    QCOMPARE(tabs->count(),
             2 + (3 - sideBySide->count())); // Summary, Details and the tables moved out
    // The toolbar too: BSP's legend whole, clear of the step count (it ran into it at 1,400 px).
    page->setMode(ExecutionTimeline::Mode::Bsp);
    QApplication::processEvents();
    QLabel* legend = page->bspLegend();
    auto* status = page->findChild<QLabel*>(QStringLiteral("executionStatus"));
    QVERIFY(legend->isVisible() && status);
    QVERIFY(legend->width() >= legend->sizeHint().width());
    const QRect legendRect(legend->mapTo(page, QPoint(0, 0)), legend->size());
    const QRect statusRect(status->mapTo(page, QPoint(0, 0)), status->size());
    QVERIFY(!legendRect.intersects(statusRect));
    QCOMPARE(window.width(), width);
  }

  void modeNamesParse() {
    ExecutionTimeline::Mode m;
    QVERIFY(ExecutionPage::parseMode(QStringLiteral("flame"), &m) &&
            m == ExecutionTimeline::Mode::Flame);
    QVERIFY(ExecutionPage::parseMode(QStringLiteral("BSP"), &m) &&
            m == ExecutionTimeline::Mode::Bsp);
    QVERIFY(ExecutionPage::parseMode(QStringLiteral("flat"), &m) &&
            m == ExecutionTimeline::Mode::Flat);
    QVERIFY(!ExecutionPage::parseMode(QStringLiteral("3d"), &m));
  }
};

QTEST_MAIN(ExecutionTest)
#include "test_execution.moc"
