// The Liveness page, its data and models on the samples' reports, against libpva's own figures:
// the curve per step (whole replica, IPU, tile), the peak, the variables live at selected steps,
// clicks and shift-clicks on the chart, the always-live floor, units, a report without
// execution, and comparing two reports.
#include "ViewerTestUtil.hpp"
#include "charts/LivenessChart.hpp"
#include "charts/RangeOverview.hpp"
#include "core/LivenessData.hpp"
#include "core/Settings.hpp"
#include "core/VariableLives.hpp"
#include "models/AlwaysLiveVariablesModel.hpp"
#include "models/LiveVariablesModel.hpp"
#include "models/StepCyclesModel.hpp"
#include "models/TileVerticesModel.hpp"
#include "widgets/LivenessPage.hpp"
#include "widgets/TotalledTable.hpp"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>
#include <map>

using namespace tessera::viewer;

namespace {

bool waitSteps(LivenessPage& page, const std::vector<std::size_t>& steps) {
  return QTest::qWaitFor([&] { return page.details() && page.details()->steps == steps; }, 60000);
}

void clickStep(LivenessPage& page, std::size_t step, Qt::KeyboardModifiers mods = Qt::NoModifier) {
  LivenessChart* chart = page.chart();
  QTest::mouseClick(chart, Qt::LeftButton, mods,
                    QPoint(int(chart->xForItem(step)), int(chart->plotRect().center().y())));
}

} // namespace

class LivenessTest : public QObject {
  Q_OBJECT
private slots:
  void initTestCase() { Settings::instance().setMemoryUnits(MemoryUnits::Binary); }

  void curveEqualsLibpva() {
    auto doc = Document::resolve(viewer_test::mlpReport());
    auto p = Progress::standalone(QStringLiteral("test"));
    const LivenessData d = loadLiveness(*doc, {}, p);
    const pva::Report& report = doc->report();
    const auto steps = report.compilation().livenessProgramSteps();
    QCOMPARE(d.steps(), steps.size());
    std::uint64_t peak = 0;
    std::size_t peakStep = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      QCOMPARE(d.notAlwaysLive[i], steps[i].notAlwaysLiveBytes());
      QCOMPARE(d.programName(i), QString::fromStdString(steps[i].program()->name()));
      if (steps[i].notAlwaysLiveBytes() > peak) {
        peak = steps[i].notAlwaysLiveBytes();
        peakStep = i;
      }
    }
    QCOMPARE(d.peakStep(), peakStep);
    std::uint64_t al = 0;
    for (const pva::Tile& t : report.compilation().tiles())
      al += t.memory().alwaysLiveBytes();
    QCOMPARE(d.alwaysLive, al);
    QCOMPARE(d.alwaysLiveVariables.size(), report.compilation().alwaysLiveVariables().size());

    // One tile's curve.
    const LivenessData tile = loadLiveness(*doc, {-1, 3}, p);
    for (std::size_t i = 0; i < steps.size(); ++i)
      QCOMPARE(tile.notAlwaysLive[i], steps[i].notAlwaysLiveMemoryForTile(3).bytes());
    QCOMPARE(tile.alwaysLive, report.compilation().tile(3).memory().alwaysLiveBytes());

    // A tile that does not exist is a clear error.
    bool threw = false;
    try {
      loadLiveness(*doc, {-1, 99999}, p);
    } catch (const std::exception& e) {
      threw = QString::fromUtf8(e.what()).contains(QStringLiteral("99999"));
    }
    QVERIFY(threw);
  }

  void ipuAndTileCurvesEqualLibpva() {
    auto doc = Document::resolve(viewer_test::pipelineReport());
    auto p = Progress::standalone(QStringLiteral("test"));
    const pva::Report& report = doc->report();
    const auto steps = report.compilation().livenessProgramSteps();
    for (int ipu : {0, 1}) {
      const LivenessData d = loadLiveness(*doc, {ipu, -1}, p);
      QCOMPARE(d.steps(), steps.size());
      for (std::size_t i = 0; i < steps.size(); ++i)
        QCOMPARE(d.notAlwaysLive[i], steps[i].notAlwaysLiveMemoryForIpu(unsigned(ipu)).bytes());
      std::uint64_t al = 0;
      for (const pva::Tile& t : report.compilation().ipus()[std::size_t(ipu)].tiles())
        al += t.memory().alwaysLiveBytes();
      QCOMPARE(d.alwaysLive, al);
    }
    // A tile of the second IPU: the same one-pass curve, filtered to that tile.
    const unsigned tile = report.compilation().target().tilesPerIpu() + 5;
    const LivenessData d = loadLiveness(*doc, {-1, int(tile)}, p);
    QCOMPARE(d.steps(), steps.size());
    std::uint64_t nonZero = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      QCOMPARE(d.notAlwaysLive[i], steps[i].notAlwaysLiveMemoryForTile(tile).bytes());
      nonZero += d.notAlwaysLive[i] ? 1 : 0;
    }
    QVERIFY(nonZero >
            0); // the tile holds something live at some step, so the comparison means something
  }

  void pageFollowsTheIpuChoice() {
    LivenessPage page;
    page.resize(1200, 800);
    page.show();
    auto doc = Document::resolve(viewer_test::pipelineReport());
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    QCOMPARE(page.ipuBox()->count(), 3); // All, IPU 0, IPU 1
    QSignalSpy loaded(&page, &LivenessPage::curveLoaded);
    page.ipuBox()->setCurrentIndex(2);
    QVERIFY(loaded.wait(60000));
    QCOMPARE(page.data()->scope.ipu, 1);
    const pva::Report& report = doc->report();
    const auto steps = report.compilation().livenessProgramSteps();
    const std::size_t peak = page.data()->peakStep();
    QCOMPARE(page.data()->notAlwaysLive[peak], steps[peak].notAlwaysLiveMemoryForIpu(1).bytes());
    QVERIFY(page.summaryLabel()->text().contains(QStringLiteral("IPU 1")));
  }

  void stepModelsPassTheTesterAndMatchLibpva() {
    auto doc = Document::resolve(viewer_test::mlpReport());
    auto p = Progress::standalone(QStringLiteral("test"));
    auto curve = std::make_shared<const LivenessData>(loadLiveness(*doc, {}, p));
    const std::size_t peak = curve->peakStep();
    const std::size_t other = peak > 10 ? 10 : peak + 1;
    auto details =
        std::make_shared<const StepDetailsData>(loadStepDetails(*doc, {}, {peak, other}, p));

    LiveVariablesModel live;
    AlwaysLiveVariablesModel always;
    StepCyclesModel cycles;
    TileVerticesModel vertices;
    const auto t1 = viewer_test::checkModel(&live);
    const auto t2 = viewer_test::checkModel(&always);
    const auto t3 = viewer_test::checkModel(&cycles);
    const auto t4 = viewer_test::checkModel(&vertices);
    live.setDetails(details);
    always.setRows({curve, &curve->alwaysLiveVariables});
    cycles.setRows({details, &details->cycles});
    vertices.setRows({details, &details->vertices});
    QCOMPARE(live.columnCount(), 2 + 2 + 1); // name, category, two steps, change

    const pva::Report& report = doc->report();
    const auto steps = report.compilation().livenessProgramSteps();
    // The column of each step holds exactly the variables libpva says are live there.
    for (std::size_t k = 0; k < details->steps.size(); ++k) {
      std::map<QString, std::uint64_t> expected;
      for (const pva::Variable& v : steps[details->steps[k]].notAlwaysLiveMemory().variables())
        expected[QString::fromStdString(v.name())] += v.bytes();
      std::map<QString, std::uint64_t> shown;
      for (int r = 0; r < live.rowCount(); ++r)
        if (live.row(r).bytes[k] > 0) shown[live.row(r).name] += live.row(r).bytes[k];
      QCOMPARE(shown, expected);
    }
    QCOMPARE(always.rowCount(), int(report.compilation().alwaysLiveVariables().size()));
    QCOMPARE(cycles.rowCount(), 2);
    for (int r = 0; r < cycles.rowCount(); ++r) {
      const auto estimate = steps[cycles.row(r).step].program()->estimatedCyclesByTile();
      std::uint64_t max = 0;
      for (auto c : estimate)
        max = std::max(max, c);
      QCOMPARE(cycles.row(r).maxCycles, max);
    }
    Settings::instance().setMemoryUnits(MemoryUnits::Decimal);
    Settings::instance().setMemoryUnits(MemoryUnits::Binary);
    live.setDetails(nullptr);
    QCOMPARE(live.columnCount(), 2);
  }

  void clickingAStepChangesTheLiveVariables() {
    LivenessPage page;
    page.resize(1200, 800);
    page.show();
    auto doc = Document::resolve(viewer_test::mlpReport());
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    const std::size_t peak = page.data()->peakStep();
    QCOMPARE(page.details()->steps,
             (std::vector<std::size_t>{peak})); // the peak is selected at first
    QVERIFY(page.selectionLabel()->text().contains(QStringLiteral("Step %1").arg(peak)));
    const int peakRows = page.liveVariablesModel()->rowCount();
    QVERIFY(peakRows > 0);

    const pva::Report& report = doc->report();
    const auto steps = report.compilation().livenessProgramSteps();
    const std::size_t target = 3;
    clickStep(page, target);
    QVERIFY(waitSteps(page, {target}));
    QCOMPARE(page.liveVariablesModel()->headerData(2, Qt::Horizontal).toString(),
             QStringLiteral("Step %1").arg(target));
    QCOMPARE(page.liveVariablesModel()->rowCount(),
             int(steps[target].notAlwaysLiveMemory().variables().size()));
    QVERIFY(page.liveVariablesModel()->rowCount() != peakRows);

    // Hovering a step names it, its program and its bytes.
    QTest::mouseMove(page.chart(), QPoint(int(page.chart()->xForItem(peak)),
                                          int(page.chart()->plotRect().center().y())));
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("Step %1").arg(peak)),
             qPrintable(QToolTip::text()));
    QVERIFY(QToolTip::text().contains(QString::fromStdString(steps[peak].program()->name())));

    clickStep(page, peak, Qt::ShiftModifier);
    const std::vector<std::size_t> both = {std::min(target, peak), std::max(target, peak)};
    QCOMPARE(page.chart()->selection(), both);
    QVERIFY(waitSteps(page, both));
    QCOMPARE(page.liveVariablesModel()->columnCount(), 5);
    const QString out = viewer_test::tmpDir(QStringLiteral("liveness"));
    page.grab().save(out + QStringLiteral("/two-steps.png")); // kept for a person to look at

    // An OnTileExecute step lists its compute set's vertices.
    std::size_t execute = steps.size();
    for (std::size_t i = 0; i < steps.size() && execute == steps.size(); ++i)
      if (steps[i].program()->type() == pva::Program::Type::OnTileExecute) execute = i;
    QVERIFY(execute < steps.size());
    page.chart()->setSelection({execute});
    QVERIFY(waitSteps(page, {execute}));
    QVERIFY(page.verticesModel()->rowCount() > 0);
    QVERIFY(!page.details()->computeSet.isEmpty());
    QVERIFY(page.cyclesModel()->row(0).maxCycles > 0);
    page.tabs()->setCurrentIndex(3);
    page.grab().save(out + QStringLiteral("/cycles.png"));
    page.tabs()->setCurrentIndex(2);
    page.grab().save(out + QStringLiteral("/vertices.png"));
  }

  void alwaysLiveFloorScopeAndUnits() {
    LivenessPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const std::size_t peak = page.data()->peakStep();
    const double without = page.chart()->valueAt(peak);
    page.alwaysLiveBox()->setChecked(true);
    QCOMPARE(page.chart()->valueAt(peak), without + double(page.data()->alwaysLive));
    page.chart()->grab();
    QVERIFY(page.chart()->plottedRange().second >= without + double(page.data()->alwaysLive));

    Settings::instance().setMemoryUnits(MemoryUnits::Bytes);
    QVERIFY2(!page.summaryLabel()->text().contains(QStringLiteral("iB")),
             qPrintable(page.summaryLabel()->text()));
    Settings::instance().setMemoryUnits(MemoryUnits::Binary);
    QVERIFY(page.summaryLabel()->text().contains(QStringLiteral("iB")));

    // One tile: typed into the tile box.
    QSignalSpy loaded(&page, &LivenessPage::curveLoaded);
    QTest::keyClicks(page.tileEdit(), QStringLiteral("3"));
    QTest::keyClick(page.tileEdit(), Qt::Key_Return);
    QVERIFY(loaded.wait(60000));
    QCOMPARE(page.data()->scope.tile, 3);
    QVERIFY(page.summaryLabel()->text().contains(QStringLiteral("tile 3")));
    QVERIFY(waitSteps(page, {peak}));
  }

  void axisHasOneUnitAndEnoughTicks() {
    LivenessPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    for (MemoryUnits units : {MemoryUnits::Binary, MemoryUnits::Decimal, MemoryUnits::Bytes}) {
      Settings::instance().setMemoryUnits(units);
      page.chart()->grab();
      const AxisTicks& t = page.chart()->yTicks();
      const auto [lo, hi] = page.chart()->plottedRange();
      QVERIFY2(t.values.size() >= 4, qPrintable(t.labels.join(QStringLiteral(", "))));
      for (const QString& label : t.labels)
        QVERIFY2(label.endsWith(QLatin1Char(' ') + t.unit), qPrintable(label));
      QVERIFY(t.values.front() < lo + t.step && t.values.back() > hi - t.step);
      QVERIFY(page.chart()->xTicks().values.size() >= 4);
    }
    Settings::instance().setMemoryUnits(MemoryUnits::Binary);
    // Zoomed into five steps, the step axis still has four or more labels.
    page.chart()->setViewRange(10, 15);
    page.chart()->grab();
    QVERIFY(page.chart()->xTicks().values.size() >= 4);
  }

  void aPixelNeverDrawsBelowItsLowestStep() {
    // 105 steps on about 60 pixels: each column holds the steps it touches and rises to the
    // highest.
    LivenessChart chart;
    chart.setMinimumSize(0, 0);
    chart.resize(160, 300);
    chart.show();
    auto p = Progress::standalone(QStringLiteral("test"));
    const auto data = std::make_shared<const LivenessData>(
        loadLiveness(*Document::resolve(viewer_test::mlpReport()), {}, p));
    chart.setData(data);
    const QImage image = chart.grab().toImage();
    const QRectF plot = chart.plotRect();
    const auto [from, to] = chart.viewRange();
    const double perPixel = (to - from) / plot.width();
    QVERIFY(perPixel > 1);
    const auto [yMin, yMax] = chart.plottedRange();
    auto yOf = [&](double v) { return plot.bottom() - (v - yMin) / (yMax - yMin) * plot.height(); };
    const QColor background = chart.palette().color(QPalette::Base);
    for (int x = int(plot.left()) + 1; x < int(plot.right()) - 1; ++x) {
      const double a = from + (x - plot.left()) * perPixel, b = a + perPixel;
      std::uint64_t lowest = ~std::uint64_t(0), highest = 0;
      for (auto s = std::size_t(std::floor(a)); s < std::size_t(std::ceil(b)) && s < data->steps();
           ++s) {
        lowest = std::min(lowest, data->notAlwaysLive[s]);
        highest = std::max(highest, data->notAlwaysLive[s]);
      }
      if (yOf(double(highest)) > plot.bottom() - 1.5)
        continue; // less than a pixel high: nothing to see
      QVERIFY2(image.pixelColor(x, int(std::min(yOf(double(lowest)) + 3, plot.bottom() - 1))) !=
                   background,
               qPrintable(QStringLiteral("gap at x %1").arg(x)));
      QVERIFY2(image.pixelColor(x, int(yOf(double(highest)) + 2)) != background,
               qPrintable(QStringLiteral("x %1 does not reach its highest step").arg(x)));
    }
  }

  void overviewMovesTheView() {
    LivenessPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    RangeOverview* overview = page.overview();
    page.chart()->setViewRange(0, 20);
    const QRect strip = overview->stripRect();
    QTest::mouseClick(overview, Qt::LeftButton, {},
                      QPoint(strip.left() + strip.width() * 3 / 4, strip.center().y()));
    const auto [from, to] = page.chart()->viewRange();
    const double centre = double(page.data()->steps()) * 0.75;
    QVERIFY2(std::abs((from + to) / 2 - centre) < 2,
             qPrintable(QStringLiteral("%1-%2").arg(from).arg(to)));
    QVERIFY(std::abs((to - from) - 20) < 1e-6);
    // The wheel on the strip zooms the chart.
    QWheelEvent wheel(QPointF(strip.center()), overview->mapToGlobal(QPointF(strip.center())),
                      QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                      false);
    QApplication::sendEvent(overview, &wheel);
    QVERIFY(page.chart()->viewRange().second - page.chart()->viewRange().first > 20);
  }

  void chosenVariablesLivesAreDrawn() {
    LivenessPage page;
    page.resize(1200, 800);
    page.show();
    auto doc = Document::resolve(viewer_test::mlpReport());
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    const pva::Report& report = doc->report();
    const auto compilation = report.compilation();
    const auto steps = compilation.livenessProgramSteps();
    // The largest not-always-live variable that is live for part of the schedule only.
    pva::Variable chosen = compilation.variables().front();
    bool found = false;
    for (const pva::Variable& v : compilation.variables())
      if (!v.alwaysLive() && v.liveTo() > v.liveFrom() + 1 && v.liveTo() < steps.size() &&
          (!found || v.bytes() > chosen.bytes())) {
        chosen = v;
        found = true;
      }
    QVERIFY(found);
    QSignalSpy shown(&page, &LivenessPage::lifetimesShown);
    page.setVariableFilter(
        QStringLiteral("%1; no such variable").arg(QString::fromStdString(chosen.name())));
    QVERIFY(shown.wait(60000));
    const std::vector<VariableLife>& lives = page.chart()->lifetimes();
    QVERIFY(!lives.empty());
    const VariableLife& life = lives.front(); // its full name: it is the largest match
    QCOMPARE(life.name, QString::fromStdString(chosen.name()));
    QCOMPARE(life.from, chosen.liveFrom());
    QCOMPARE(life.to, chosen.liveTo());
    QCOMPARE(life.bytes, chosen.bytes());
    // libpva's steps agree: live at its first step and its last, not at the step after.
    auto liveAt = [&](std::uint64_t step) {
      for (const pva::Variable& v : steps[step].notAlwaysLiveMemory().variables())
        if (v.id() == chosen.id()) return true;
      return false;
    };
    QVERIFY(liveAt(life.from));
    QVERIFY(liveAt(life.to - 1));
    QVERIFY(!liveAt(life.to));
    // Drawn over its steps, in its colour, and named in the legend (the selected step's highlight
    // would tint part of it).
    page.chart()->setSelection({});
    const QImage image = page.chart()->grab().toImage();
    const QRectF bar = page.chart()->lifetimeBar(0);
    QVERIFY(!bar.isEmpty());
    QVERIFY(std::abs(bar.left() - page.chart()->xForItem(life.from)) <=
            page.chart()->plotRect().width() / double(steps.size()) + 1);
    QVERIFY(std::abs(bar.right() - page.chart()->xForItem(life.to - 1)) <=
            page.chart()->plotRect().width() / double(steps.size()) + 1);
    int own = 0, all = 0;
    for (int x = int(std::ceil(bar.left())); x < int(bar.right()); ++x, ++all)
      own += image.pixelColor(x, int(bar.center().y())) == LivenessChart::lifetimeColor(0) ? 1 : 0;
    QVERIFY2(all > 0 && own == all,
             qPrintable(QStringLiteral("%1 of %2 pixels in the bar's colour").arg(own).arg(all)));
    const QStringList legend = page.chart()->legendNames();
    QVERIFY2(legend.filter(QString::fromStdString(chosen.name())).size() == 1,
             qPrintable(legend.join(QStringLiteral(" | "))));
    QVERIFY(legend.join(QLatin1Char(' '))
                .contains(QStringLiteral("steps %1–%2").arg(life.from).arg(life.to - 1)));
    page.grab().save(viewer_test::tmpDir(QStringLiteral("liveness-lives")) +
                     QStringLiteral("/mlp-one-life.png"));
    // Its legend entry hides the lane and shows it again.
    QRectF entry;
    for (const auto& [rect, name] : page.chart()->legendRects())
      if (name.startsWith(life.name)) entry = rect;
    QVERIFY(!entry.isEmpty());
    QTest::mouseClick(page.chart(), Qt::LeftButton, {}, entry.center().toPoint());
    page.chart()->grab();
    QVERIFY(page.chart()->lifetimeBar(0).isEmpty());
    QTest::mouseClick(page.chart(), Qt::LeftButton, {}, entry.center().toPoint());
    page.chart()->grab();
    QCOMPARE(page.chart()->lifetimeBar(0), bar);

    // A broad name: the largest matches, at most kMaxLifetimes, the rest counted in the legend.
    page.setVariableFilter(QStringLiteral("layer"));
    QTRY_VERIFY_WITH_TIMEOUT(page.chart()->lifetimes().size() > 1, 10000);
    std::size_t matching = 0;
    for (const pva::Variable& v : compilation.variables())
      matching +=
          QString::fromStdString(v.name()).contains(QStringLiteral("layer"), Qt::CaseInsensitive)
              ? 1
              : 0;
    QCOMPARE(page.chart()->lifetimes().size(), std::min(matching, LivenessChart::kMaxLifetimes));
    for (std::size_t i = 1; i < page.chart()->lifetimes().size(); ++i)
      QVERIFY(page.chart()->lifetimes()[i - 1].bytes >= page.chart()->lifetimes()[i].bytes);
    if (matching > LivenessChart::kMaxLifetimes)
      QVERIFY(page.chart()->legendNames().last().startsWith(
          QStringLiteral("%1 more").arg(matching - LivenessChart::kMaxLifetimes)));
    page.grab().save(viewer_test::tmpDir(QStringLiteral("liveness-lives-many")) +
                     QStringLiteral("/mlp-layer-lives.png"));
    page.setVariableFilter({});
    QVERIFY(page.chart()->lifetimes().empty());
  }

  void stepRangeAndVariableFilters() {
    LivenessPage page;
    page.resize(1200, 800);
    page.show();
    auto doc = Document::resolve(viewer_test::mlpReport());
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    const auto t1 = viewer_test::checkModel(page.liveVariablesModel());
    const auto t2 = viewer_test::checkModel(page.alwaysLiveModel());
    const pva::Report& report = doc->report();
    const auto steps = report.compilation().livenessProgramSteps();
    const std::size_t peak = page.data()->peakStep();

    // Step range: the chart and its overview show only those steps.
    QVERIFY(page.setStepRange(QStringLiteral("80-100")));
    QCOMPARE(page.chart()->domain(), (std::pair<std::size_t, std::size_t>(80, 101)));
    QCOMPARE(page.chart()->viewRange(), (std::pair<double, double>(80, 101)));
    QVERIFY(page.summaryLabel()->text().contains(QStringLiteral("Showing steps 80-100</b> of")));
    QCOMPARE(page.overview()->windowRect().width(), page.overview()->stripRect().width());
    QVERIFY(!page.setStepRange(QStringLiteral("50-20")));
    QVERIFY(!page.setStepRange(QStringLiteral("0-%1").arg(steps.size())));
    QCOMPARE(page.chart()->domain(), (std::pair<std::size_t, std::size_t>(80, 101))); // unchanged
    page.stepRangeEdit()->clear();
    QCOMPARE(page.chart()->domain(), (std::pair<std::size_t, std::size_t>(0, steps.size())));

    // The live variables at the peak, and their total: the step's variables as libpva lists them.
    QVERIFY(waitSteps(page, {peak}));
    std::uint64_t all = 0;
    for (const pva::Variable& v : steps[peak].notAlwaysLiveMemory().variables())
      all += v.bytes();
    QCOMPARE(page.liveTable()->total(LiveVariablesModel::FirstStepColumn).toULongLong(),
             qulonglong(all));
    QCOMPARE(qulonglong(all),
             qulonglong(steps[peak].notAlwaysLiveBytes())); // the rows are the whole step
    QVERIFY(page.liveTable()->totalsLabel()->text().startsWith(QStringLiteral("Total of the")));

    // A variable filter: only matching names, in both tables, and totals of the rows shown.
    page.setVariableFilter(QStringLiteral("matmul"));
    int live = 0, always = 0;
    std::uint64_t liveBytes = 0, alwaysBytes = 0;
    for (const pva::Variable& v : steps[peak].notAlwaysLiveMemory().variables())
      if (QString::fromStdString(v.name()).contains(QStringLiteral("matmul"),
                                                    Qt::CaseInsensitive)) {
        ++live;
        liveBytes += v.bytes();
      }
    for (const pva::Variable& v : report.compilation().alwaysLiveVariables())
      if (QString::fromStdString(v.name()).contains(QStringLiteral("matmul"),
                                                    Qt::CaseInsensitive)) {
        ++always;
        alwaysBytes += v.bytes();
      }
    QVERIFY(live > 0 && live < int(steps[peak].notAlwaysLiveMemory().variables().size()));
    QCOMPARE(page.liveTable()->rowsShown(), live);
    QCOMPARE(page.alwaysLiveTable()->rowsShown(), always);
    QCOMPARE(page.liveTable()->total(LiveVariablesModel::FirstStepColumn).toULongLong(),
             qulonglong(liveBytes));
    QCOMPARE(page.alwaysLiveTable()->total(AlwaysLiveVariablesModel::SizeColumn).toULongLong(),
             qulonglong(alwaysBytes));
    QVERIFY(page.liveTable()->totalsLabel()->text().contains(QStringLiteral("shown (of")));
    // The filter stays when another step is picked.
    page.chart()->setSelection({3});
    QVERIFY(waitSteps(page, {3}));
    int atThree = 0;
    for (const pva::Variable& v : steps[3].notAlwaysLiveMemory().variables())
      atThree +=
          QString::fromStdString(v.name()).contains(QStringLiteral("matmul"), Qt::CaseInsensitive)
              ? 1
              : 0;
    QCOMPARE(page.liveTable()->rowsShown(), atThree);
    page.chart()->setSelection({peak});
    QVERIFY(waitSteps(page, {peak}));
    const QString out = viewer_test::tmpDir(QStringLiteral("liveness-filter"));
    QVERIFY(page.setStepRange(QStringLiteral("60-100")));
    page.grab().save(out + QStringLiteral("/mlp-steps-60-100-matmul.png"));
    page.tabs()->setCurrentIndex(1);
    page.grab().save(out + QStringLiteral("/mlp-always-live-matmul.png"));
    page.setVariableFilter({});
    QCOMPARE(page.alwaysLiveTable()->rowsShown(), page.alwaysLiveModel()->rowCount());
  }

  void reportWithoutExecutionLoads() {
    LivenessPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::oomReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(page.data()->steps() > 0);
    QVERIFY(page.liveVariablesModel()->rowCount() > 0);
    QVERIFY(viewer_test::distinctColors(page.chart()->grab().toImage()) >= 4);
  }

  void comparingMergesTheCurves() {
    LivenessPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::mlpBigReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(page.baseData() != nullptr);
    QVERIFY(!page.differenceBox()->isHidden());
    QVERIFY(page.baseData()->steps() > 0 && page.data()->steps() > 0);
    const std::size_t peak = page.data()->peakStep();
    QVERIFY(page.data()->notAlwaysLive[peak] >
            page.baseData()->notAlwaysLive[page.baseData()->peakStep()]);
    page.differenceBox()->setChecked(true);
    page.chart()->grab();
    QVERIFY(page.chart()->plottedRange().second > 0);
    QVERIFY(viewer_test::distinctColors(page.chart()->grab().toImage()) >= 4);
    // A step range and a variable filter apply to both curves and to the current report's tables.
    page.differenceBox()->setChecked(false);
    QVERIFY(page.setStepRange(QStringLiteral("80-100")));
    QCOMPARE(page.chart()->domain(), (std::pair<std::size_t, std::size_t>(80, 101)));
    page.setVariableFilter(QStringLiteral("dWeights"));
    QVERIFY(page.liveTable()->rowsShown() > 0);
    QVERIFY(page.liveTable()->rowsShown() < page.liveVariablesModel()->rowCount());
    page.grab().save(viewer_test::tmpDir(QStringLiteral("liveness-compare")) +
                     QStringLiteral("/steps-80-100-dweights.png"));
    // Different curves: the legend names each line plainly.
    QVERIFY(!page.chart()->sameAsBase());
    QCOMPARE(page.chart()->legendNames().front(), QStringLiteral("Base"));
  }

  // A report compared with itself draws one line over the other: the legend says where the
  // base went rather than leaving the user to look for it.
  void equalCurvesSayTheBaseIsUnderTheCurrent() {
    LivenessPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(page.chart()->sameAsBase());
    QVERIFY2(page.chart()->legendNames().front().contains(QStringLiteral("the same as Current")),
             qPrintable(page.chart()->legendNames().join(QStringLiteral(" | "))));
  }
};

QTEST_MAIN(LivenessTest)
#include "test_liveness.moc"
