// The Memory page, its data and models on the samples' reports, against libpva's own figures:
// per-tile totals, breakdown bands adding up, the selection's details and tabs, clicks and typed
// tile lists, gaps, units, the out-of-memory report and comparing two reports.
#include "ViewerTestUtil.hpp"
#include "charts/IndexChart.hpp"
#include "charts/MemoryChart.hpp"
#include "charts/MemoryMapWidget.hpp"
#include "charts/RangeOverview.hpp"
#include "charts/TileMapWidget.hpp"
#include "core/AxisTicks.hpp"
#include "core/MemoryData.hpp"
#include "core/NameTerms.hpp"
#include "core/Settings.hpp"
#include "core/TileDetailsData.hpp"
#include "models/LoweredVariablesModel.hpp"
#include "models/TableModel.hpp"
#include "models/TileComputeSetsModel.hpp"
#include "models/TileExchangesModel.hpp"
#include "models/TileMemoryDetailsModel.hpp"
#include "models/TileVerticesModel.hpp"
#include "widgets/MemoryPage.hpp"
#include "widgets/TileMapPage.hpp"
#include "widgets/TotalledTable.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QToolTip>
#include <map>
#include <numeric>
#include <set>

using namespace tessera::viewer;

namespace {

bool waitDetails(MemoryPage& page, const std::vector<unsigned>& tiles) {
  return QTest::qWaitFor([&] { return page.details() && page.details()->tiles == tiles; }, 60000);
}

void clickTile(MemoryPage& page, unsigned tile, Qt::KeyboardModifiers mods = Qt::NoModifier) {
  MemoryChart* chart = page.chart();
  const QPoint at(int(chart->xForItem(tile)), int(chart->plotRect().center().y()));
  QTest::mouseClick(chart, Qt::LeftButton, mods, at);
}

/// Every tick label of a bytes axis is in the axis's one unit, and the ticks cover [lo, hi].
void checkBytesAxis(const AxisTicks& t, double lo, double hi) {
  QVERIFY2(t.values.size() >= 4, qPrintable(t.labels.join(QStringLiteral(", "))));
  QCOMPARE(t.labels.size(), int(t.values.size()));
  for (const QString& label : t.labels)
    QVERIFY2(label.endsWith(QLatin1Char(' ') + t.unit) && label.count(QLatin1Char(' ')) <= 1,
             qPrintable(t.labels.join(QStringLiteral(", "))));
  QVERIFY(t.values.front() >= lo - 1e-6 && t.values.front() < lo + t.step + 1e-6);
  QVERIFY(t.values.back() <= hi + 1e-6 && t.values.back() > hi - t.step - 1e-6);
  for (std::size_t i = 1; i < t.values.size(); ++i)
    QVERIFY(std::abs(t.values[i] - t.values[i - 1] - t.step) < t.step * 1e-6);
}

/// True when the pixel is the chart's background (nothing drawn there).
bool isBackground(const QImage& image, double x, double y, const QColor& background) {
  return image.pixelColor(int(x), int(y)) == background;
}

} // namespace

class MemoryTest : public QObject {
  Q_OBJECT
private slots:
  void initTestCase() { Settings::instance().setMemoryUnits(MemoryUnits::Binary); }

  void loadedTotalsEqualLibpva() {
    auto doc = Document::resolve(viewer_test::mlpReport());
    auto p = Progress::standalone(QStringLiteral("test"));
    const MemoryData d = loadMemory(*doc, p);
    const pva::Report& report = doc->report();
    const auto tiles = report.compilation().tiles();
    QCOMPARE(std::size_t(d.numTiles), tiles.size());
    QCOMPARE(d.bytesPerTile, report.compilation().target().bytesPerTile());
    for (const pva::Tile& t : tiles) {
      const unsigned n = t.number();
      QCOMPARE(d.includingGaps[n], t.memory().total().includingGaps());
      QCOMPARE(d.excludingGaps[n], t.memory().total().excludingGaps());
      QCOMPARE(d.alwaysLive[n], t.memory().alwaysLiveBytes());
      QCOMPARE(d.notAlwaysLive[n], t.memory().notAlwaysLiveBytes());
      QCOMPARE(d.categoryBytes(n, 0), t.memory().category().variable().total());
      QCOMPARE(d.cell(n, 10, MemoryRegion::NonInterleaved, false),
               t.memory().category().internalExchangeCode().nonInterleaved().nonOverlapped());
    }
  }

  void bandsAddUpToTheTotal_data() {
    QTest::addColumn<QString>("report");
    QTest::newRow("mlp") << viewer_test::mlpReport();
    QTest::newRow("oom") << viewer_test::oomReport();
    QTest::newRow("pipeline") << viewer_test::pipelineReport();
  }
  void bandsAddUpToTheTotal() {
    QFETCH(QString, report);
    auto p = Progress::standalone(QStringLiteral("test"));
    const MemoryData d = loadMemory(*Document::resolve(report), p);
    for (MemoryBreakdown b : {MemoryBreakdown::Total, MemoryBreakdown::Region,
                              MemoryBreakdown::Category, MemoryBreakdown::Liveness})
      for (bool gaps : {false, true}) {
        const MemoryBands bands(d, b, gaps);
        QVERIFY(bands.size() >= 1 && bands.size() <= 12);
        std::vector<std::uint64_t> v(std::size_t(bands.size()));
        for (unsigned t = 0; t < d.numTiles; ++t) {
          bands.values(t, v.data());
          std::uint64_t sum = 0;
          for (auto x : v)
            sum += x;
          QCOMPARE(sum, d.total(t, gaps));
        }
      }
  }

  void axisTicksShareOneUnit() {
    // The out-of-memory report's axis: 0 to 1.46 MiB is labelled in MiB only, 1-2-5 steps.
    const double top = 1.46 * 1024 * 1024;
    const AxisTicks binary = bytesAxisTicks(0, top, 5, MemoryUnits::Binary);
    QCOMPARE(binary.unit, QStringLiteral("MiB"));
    checkBytesAxis(binary, 0, top);
    QCOMPARE(binary.labels.front(), QStringLiteral("0.0 MiB"));
    QVERIFY(binary.labels.contains(QStringLiteral("1.0 MiB")));
    const AxisTicks decimal = bytesAxisTicks(0, top, 5, MemoryUnits::Decimal);
    QCOMPARE(decimal.unit, QStringLiteral("MB"));
    checkBytesAxis(decimal, 0, top);
    const AxisTicks bytes = bytesAxisTicks(0, top, 5, MemoryUnits::Bytes);
    QCOMPARE(bytes.unit, QStringLiteral("B"));
    checkBytesAxis(bytes, 0, top);
    QVERIFY(bytes.labels.contains(QStringLiteral("1,000,000 B")));
    // Below one MiB the axis is in KiB; a difference axis crosses zero with signed labels.
    QCOMPARE(bytesAxisTicks(0, 1000 * 1024, 5, MemoryUnits::Binary).unit, QStringLiteral("KiB"));
    const AxisTicks diff = bytesAxisTicks(-300000, 500000, 5, MemoryUnits::Binary);
    checkBytesAxis(diff, -300000, 500000);
    QVERIFY(diff.labels.contains(QStringLiteral("0 KiB")));
    QVERIFY(diff.labels.front().startsWith(QLatin1Char('-')));
    // A range too small for four round steps in its unit still gets four ticks.
    checkBytesAxis(bytesAxisTicks(0, 1.2 * 1024 * 1024, 2, MemoryUnits::Binary), 0,
                   1.2 * 1024 * 1024);
    // Index axes: whole numbers, at least four when four items are in view.
    const AxisTicks steps = indexAxisTicks(0, 6, 2);
    QVERIFY(steps.values.size() >= 4);
    QCOMPARE(steps.step, 1.0);
    const AxisTicks tiles = indexAxisTicks(0, 1472, 12);
    QCOMPARE(tiles.labels.front(), QStringLiteral("0"));
    QVERIFY(tiles.step == 100 || tiles.step == 200);
  }

  void chartAxisHasOneUnitAndATitle_data() {
    QTest::addColumn<int>("units");
    QTest::newRow("binary") << int(MemoryUnits::Binary);
    QTest::newRow("decimal") << int(MemoryUnits::Decimal);
    QTest::newRow("bytes") << int(MemoryUnits::Bytes);
  }
  void chartAxisHasOneUnitAndATitle() {
    QFETCH(int, units);
    Settings::instance().setMemoryUnits(MemoryUnits(units));
    MemoryChart chart;
    chart.resize(1000, 450);
    chart.show();
    auto p = Progress::standalone(QStringLiteral("test"));
    chart.setData(std::make_shared<const MemoryData>(
        loadMemory(*Document::resolve(viewer_test::oomReport()), p)));
    chart.setShowMaxMemory(true);
    chart.grab();
    const auto [lo, hi] = chart.plottedRange();
    checkBytesAxis(chart.yTicks(), lo, hi);
    // The unit is the largest that keeps the axis maximum at 1 or more of it (the OOM report's
    // largest tile is under 1 MiB since exchange messages are counted per pair of tiles).
    const double top = double(hi);
    const QString expected =
        units == int(MemoryUnits::Binary)
            ? (top >= 1024.0 * 1024 ? QStringLiteral("MiB") : QStringLiteral("KiB"))
        : units == int(MemoryUnits::Decimal)
            ? (top >= 1e6 ? QStringLiteral("MB") : QStringLiteral("kB"))
            : QStringLiteral("B");
    QVERIFY2(top >= 1000.0, "the OOM report's chart reaches kilobytes at least");
    QCOMPARE(chart.yTicks().unit, expected);
    QVERIFY(chart.xTicks().values.size() >= 4);
    Settings::instance().setMemoryUnits(MemoryUnits::Binary);
  }

  void aPixelNeverDrawsBelowItsLowestTile_data() {
    QTest::addColumn<QString>("report");
    QTest::addColumn<int>("width");
    QTest::newRow("oom, 3 tiles a pixel") << viewer_test::oomReport() << 600;
    QTest::newRow("oom, 1.35 tiles a pixel") << viewer_test::oomReport() << 1200;
    QTest::newRow("mlp") << viewer_test::mlpReport() << 900;
  }
  void aPixelNeverDrawsBelowItsLowestTile() {
    // A pixel column holding several tiles is drawn as high as its highest: from the baseline up to
    // the lowest of its tiles nothing of the background shows (no white sliver reading as a dip),
    // and the bar reaches its highest tile.
    QFETCH(QString, report);
    QFETCH(int, width);
    MemoryChart chart;
    chart.resize(width, 400);
    chart.show();
    auto p = Progress::standalone(QStringLiteral("test"));
    const auto data = std::make_shared<const MemoryData>(loadMemory(*Document::resolve(report), p));
    chart.setData(data);
    const QImage image = chart.grab().toImage();
    const QRectF plot = chart.plotRect();
    const auto [yMin, yMax] = chart.plottedRange();
    auto yOf = [&](double v) { return plot.bottom() - (v - yMin) / (yMax - yMin) * plot.height(); };
    const QColor background = chart.palette().color(QPalette::Base);
    const auto [from, to] = chart.viewRange();
    const double perPixel = (to - from) / plot.width();
    QVERIFY(perPixel > 1); // several tiles share a pixel
    int checked = 0;
    for (int x = int(plot.left()) + 1; x < int(plot.right()) - 1; ++x) {
      const double a = from + (x - plot.left()) * perPixel, b = a + perPixel;
      std::uint64_t lowest = ~std::uint64_t(0), highest = 0;
      for (auto t = std::size_t(std::floor(a)); t < std::size_t(std::ceil(b)) && t < data->numTiles;
           ++t) {
        lowest = std::min(lowest, data->total(unsigned(t), true));
        highest = std::max(highest, data->total(unsigned(t), true));
      }
      const double yLow = std::min(yOf(double(lowest)) + 3, plot.bottom() - 1);
      QVERIFY2(!isBackground(image, x + 0.5, yLow, background),
               qPrintable(QStringLiteral("gap at x %1").arg(x)));
      QVERIFY2(!isBackground(image, x + 0.5, plot.bottom() - 1, background),
               qPrintable(QStringLiteral("gap at x %1").arg(x)));
      QVERIFY2(!isBackground(image, x + 0.5, yOf(double(highest)) + 2, background),
               qPrintable(QStringLiteral("x %1 does not reach its highest tile").arg(x)));
      ++checked;
    }
    QVERIFY(checked > width / 2);
    // The legend says what the mark inside a bar is.
    QVERIFY(chart.bandNames().join(QLatin1Char(' ')).contains(QStringLiteral("lowest tile")));
  }

  void eachPixelDrawsItsTilesRange_data() {
    QTest::addColumn<int>("width");
    QTest::newRow("700 px") << 700;
    QTest::newRow("1000 px") << 1000;
    QTest::newRow("1600 px") << 1600;
  }
  // Below one pixel per tile, a pixel column draws its tiles' range: solid up to its lowest tile,
  // a paler shade from there to its highest. The pipeline's IPU 1 holds a few full tiles among
  // many nearly empty ones; drawn by the highest alone it looked full, and the low tiles showed
  // as slivers whose number depended on the width. Checked column by column at three widths.
  void eachPixelDrawsItsTilesRange() {
    QFETCH(int, width);
    MemoryChart chart;
    chart.resize(width, 400);
    chart.setBreakdown(MemoryBreakdown::Total);
    chart.setShowMaxMemory(false);
    chart.show();
    auto p = Progress::standalone(QStringLiteral("test"));
    const auto data = std::make_shared<const MemoryData>(
        loadMemory(*Document::resolve(viewer_test::pipelineReport()), p));
    chart.setData(data);
    const QImage image = chart.grab().toImage();
    const QRectF plot = chart.plotRect();
    const auto [yMin, yMax] = chart.plottedRange();
    auto yOf = [&](double v) { return plot.bottom() - (v - yMin) / (yMax - yMin) * plot.height(); };
    const QColor background = chart.palette().color(QPalette::Base);
    const auto [from, to] = chart.viewRange();
    const double perPixel = (to - from) / plot.width();
    QVERIFY(perPixel > 1);
    int ranges = 0;
    // The line between the IPUs is drawn over the bars: its columns are left out.
    const double ipuLineX = plot.left() + (double(data->tilesPerIpu) - from) / perPixel;
    for (int x = int(plot.left()) + 1; x < int(plot.right()) - 1; ++x) {
      if (std::abs(x - ipuLineX) < 3) continue;
      const double a = from + (x - plot.left()) * perPixel, b = a + perPixel;
      std::uint64_t lowest = ~std::uint64_t(0), highest = 0;
      for (auto t = std::size_t(std::floor(a)); t < std::size_t(std::ceil(b)) && t < data->numTiles;
           ++t) {
        lowest = std::min(lowest, data->total(unsigned(t), true));
        highest = std::max(highest, data->total(unsigned(t), true));
      }
      const double yLow = yOf(double(lowest)), yHigh = yOf(double(highest));
      const QColor solid = image.pixelColor(x, int(plot.bottom()) - 1);
      QVERIFY2(solid != background, qPrintable(QStringLiteral("x %1: nothing drawn").arg(x)));
      if (yLow - yHigh > 8) { // a range of more than a few pixels
        const QColor pale = image.pixelColor(x, int(yHigh) + 3);
        QVERIFY2(
            pale != background && pale != solid && pale.lightness() > solid.lightness(),
            qPrintable(
                QStringLiteral("x %1: the range above the lowest tile is not drawn pale").arg(x)));
        if (yLow + 3 < plot.bottom() - 1)
          QVERIFY2(image.pixelColor(x, int(yLow) + 3) == solid,
                   qPrintable(QStringLiteral("x %1: not solid below its lowest tile").arg(x)));
        ++ranges;
      } else if (yLow - yHigh < 1 && yLow < plot.bottom() - 6) {
        QCOMPARE(image.pixelColor(x, int(yHigh) + 3), solid); // one value: all solid
      }
      QVERIFY2(yHigh < 3 || image.pixelColor(x, int(yHigh) - 3) == background ||
                   image.pixelColor(x, int(yHigh) - 3) != solid,
               qPrintable(QStringLiteral("x %1: drawn above its highest tile").arg(x)));
    }
    QVERIFY2(ranges > 20, qPrintable(QString::number(ranges))); // IPU 1's low tiles among high ones
    QVERIFY(chart.bandNames().join(QLatin1Char(' ')).contains(QStringLiteral("lowest tile")));
  }

  // A selection is marked above the data, never over it: with every tile selected the chart's
  // bands keep exactly the colours of the chart without a selection (the legend's), where
  // translucent columns over the bars made colours no legend entry has.
  void aLargeSelectionKeepsTheLegendsColours() {
    MemoryChart chart;
    chart.resize(1400, 420);
    chart.setBreakdown(MemoryBreakdown::Category);
    chart.show();
    auto p = Progress::standalone(QStringLiteral("test"));
    const auto data = std::make_shared<const MemoryData>(
        loadMemory(*Document::resolve(viewer_test::mlpReport()), p));
    chart.setData(data);
    QSet<QRgb> unselected;
    const QImage before = chart.grab().toImage();
    for (int y = 0; y < before.height(); ++y)
      for (int x = 0; x < before.width(); ++x)
        unselected.insert(before.pixel(x, y));
    std::vector<std::size_t> all(data->numTiles);
    std::iota(all.begin(), all.end(), std::size_t(0));
    chart.setSelection(all);
    const QImage after = chart.grab().toImage();
    const QRect plot = chart.plotRect().toRect();
    const QColor selection = chart.selectionColor();
    int foreign = 0, marks = 0;
    for (int y = plot.top() + int(IndexChart::kSelectionStrip) + 1; y < plot.bottom() - 1; ++y)
      for (int x = plot.left() + 1; x < plot.right() - 1; ++x)
        if (!unselected.contains(after.pixel(x, y))) ++foreign;
    QCOMPARE(foreign, 0);
    for (int x = plot.left() + 1; x < plot.right() - 1; ++x)
      if (after.pixelColor(x, plot.top() + 2) == selection) ++marks;
    QVERIFY2(marks > plot.width() * 9 / 10,
             qPrintable(QString::number(marks))); // every tile marked
  }

  void overviewMovesTheView() {
    MemoryPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    RangeOverview* overview = page.overview();
    QVERIFY(overview->isVisible());
    MemoryChart* chart = page.chart();
    QCOMPARE(overview->windowRect().width(), overview->stripRect().width()); // everything in view
    chart->setViewRange(0, 147);
    QVERIFY(overview->windowRect().width() < overview->stripRect().width() / 5);
    // Dragging the window pans the chart by as much.
    const QPoint grab = overview->windowRect().center();
    QTest::mousePress(overview, Qt::LeftButton, {}, grab);
    QMouseEvent move(
        QEvent::MouseMove, QPointF(grab.x() + overview->stripRect().width() / 2.0, grab.y()),
        overview->mapToGlobal(QPointF(grab.x() + overview->stripRect().width() / 2.0, grab.y())),
        Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(overview, &move);
    QTest::mouseRelease(overview, Qt::LeftButton, {},
                        QPoint(grab.x() + overview->stripRect().width() / 2, grab.y()));
    const auto moved = chart->viewRange();
    QVERIFY2(std::abs(moved.first - 736) < 20, qPrintable(QString::number(moved.first)));
    QVERIFY(std::abs((moved.second - moved.first) - 147) < 1e-6); // panned, not zoomed
    // A click beside the window centres it there.
    const QRect strip = overview->stripRect();
    QTest::mouseClick(overview, Qt::LeftButton, {},
                      QPoint(strip.left() + strip.width() / 10, strip.center().y()));
    const auto centred = chart->viewRange();
    QVERIFY2(std::abs((centred.first + centred.second) / 2 - 147.2) < 5,
             qPrintable(QString::number(centred.first)));
    // The chart's own keys move the window on the strip.
    const QRect before = overview->windowRect();
    chart->setFocus();
    QTest::keyClick(chart, Qt::Key_Right);
    QVERIFY(overview->windowRect().left() > before.left());
    page.grab().save(viewer_test::tmpDir(QStringLiteral("memory-overview")) +
                     QStringLiteral("/zoomed.png"));
  }

  void overviewDrawsLowestMeanAndHighest() {
    // Issue 37: the strip drew only each column's highest tile, so a column of one full tile
    // among nearly empty ones looked full. Now: solid to the lowest, pale to the highest, a mark
    // at the mean.
    MemoryPage page;
    page.resize(1000, 700); // fewer pixels than tiles: each column holds several tiles
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    RangeOverview* overview = page.overview();
    overview->grab(); // paints, so the miniature is drawn
    const auto& columns = overview->columns();
    QCOMPARE(int(columns.size()), overview->stripRect().width());
    MemoryChart* chart = page.chart();
    const auto [first, last] = chart->domain();
    double lowest = 1e300, highest = 0;
    for (std::size_t i = first; i < last; ++i) {
      lowest = std::min(lowest, chart->overviewValue(i));
      highest = std::max(highest, chart->overviewValue(i));
    }
    double columnsLowest = 1e300, columnsHighest = 0;
    int spread = 0, checked = 0;
    const QImage& image = overview->miniature();
    const QColor fill = chart->overviewColor();
    for (std::size_t k = 0; k < columns.size(); ++k) {
      const RangeOverview::Column& c = columns[k];
      if (!c.hasItems) continue;
      QVERIFY(c.min <= c.mean + 1e-9 && c.mean <= c.max + 1e-9);
      columnsLowest = std::min(columnsLowest, c.min);
      columnsHighest = std::max(columnsHighest, c.max);
      if (c.max <= c.min) continue;
      ++spread;
      // A column whose tiles differ by more than a few pixels: its foot is the full colour, its
      // top (reached by its highest tile only) is not.
      const double pixels = (c.max - c.min) / highest * image.height();
      if (c.min / highest * image.height() < 2 || pixels < 4) continue; // both parts show
      const int x = int(k);
      QCOMPARE(image.pixelColor(x, image.height() - 1), fill);
      int top = 0;
      while (top < image.height() && image.pixelColor(x, top) == overview->backgroundColor())
        ++top;
      QVERIFY(top < image.height() - 1);
      QVERIFY2(image.pixelColor(x, top) != fill, qPrintable(QString::number(x)));
      ++checked;
    }
    QCOMPARE(columnsLowest, lowest);
    QCOMPARE(columnsHighest, highest);
    QVERIFY(spread > 0);
    QVERIFY(checked > 0);
    overview->grab().save(viewer_test::tmpDir(QStringLiteral("memory-overview")) +
                          QStringLiteral("/strip.png"));
  }

  void variableFilterChartsTheMatchingBytes() {
    MemoryPage page;
    page.resize(1200, 800);
    page.show();
    auto doc = Document::resolve(viewer_test::mlpReport());
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    const auto t1 = viewer_test::checkModel(page.variablesModel());
    const int allRows = page.variablesTable()->rowsShown();
    QSignalSpy applied(&page, &MemoryPage::variableFilterApplied);
    QTest::keyClicks(page.variableFilterEdit(), QStringLiteral("layer1/WEIGHTS"));
    QVERIFY(applied.wait(60000));
    QVERIFY(page.chart()->hasVariableFilter());

    // Per tile, the bytes of the lowered variables whose name matches, as libpva lists them.
    const pva::Report& report = doc->report();
    const auto compilation = report.compilation();
    std::vector<std::uint64_t> expected(compilation.target().numTiles(), 0);
    std::set<std::string> names;
    for (unsigned t = 0; t < compilation.target().numTiles(); ++t)
      for (const pva::LoweredVariable& v : compilation.loweredVariables().forTile(t))
        if (QString::fromStdString(v.name()).contains(QStringLiteral("layer1/weights"),
                                                      Qt::CaseInsensitive)) {
          expected[t] += v.bytes();
          names.insert(v.name());
        }
    QCOMPARE(*page.chart()->variableBytes(), expected);
    const auto tiles = std::size_t(
        std::count_if(expected.begin(), expected.end(), [](std::uint64_t b) { return b > 0; }));
    QVERIFY(tiles > 0 && tiles < expected.size());
    QVERIFY2(page.summaryLabel()->text().contains(
                 names.size() == 1 ? QStringLiteral("1 variable matches")
                                   : QStringLiteral("%1 variables match").arg(names.size())),
             qPrintable(page.summaryLabel()->text()));
    QVERIFY(page.summaryLabel()->text().contains(
        QStringLiteral("on %1 tiles").arg(formatCount(tiles))));
    QVERIFY(page.chart()->bandNames().first().startsWith(QStringLiteral("Variables matching")));
    // The Variables tab (all tiles) lists only the matching variables, and totals them.
    const int shown = page.variablesTable()->rowsShown();
    int matching = 0;
    std::uint64_t bytes = 0;
    for (const TileVariableRow& row : page.details()->variables)
      if (row.name.contains(QStringLiteral("layer1/weights"), Qt::CaseInsensitive)) {
        ++matching;
        bytes += row.bytes;
      }
    QCOMPARE(shown, matching);
    QVERIFY(shown < allRows);
    QCOMPARE(page.variablesTable()->total(LoweredVariablesModel::SizeColumn).toULongLong(),
             qulonglong(bytes));
    QVERIFY(page.variablesTable()->totalsLabel()->text().contains(
        QStringLiteral("shown (of %1)").arg(allRows)));
    QVERIFY(viewer_test::distinctColors(page.chart()->grab().toImage()) >= 4);
    // The axis is the filter's: its highest tile sets the scale, not the tiles' totals.
    const std::uint64_t highest = *std::max_element(expected.begin(), expected.end());
    QVERIFY(page.chart()->plottedRange().second >= double(highest));
    QVERIFY(page.chart()->plottedRange().second < 1.2 * double(highest));
    const QString out = viewer_test::tmpDir(QStringLiteral("memory-filter"));
    page.grab().save(out + QStringLiteral("/mlp-layer1-weights.png"));
    page.tabs()->setCurrentIndex(1);
    page.grab().save(out + QStringLiteral("/mlp-layer1-weights-variables.png"));

    // On selected tiles the tab lists the matching lowered variables of those tiles.
    QVERIFY(page.selectTiles(QStringLiteral("0-3")));
    QVERIFY(waitDetails(page, {0, 1, 2, 3}));
    int onTiles = 0;
    for (unsigned t = 0; t < 4; ++t)
      for (const pva::LoweredVariable& v : compilation.loweredVariables().forTile(t))
        onTiles += QString::fromStdString(v.name()).contains(QStringLiteral("layer1/weights"),
                                                             Qt::CaseInsensitive)
                       ? 1
                       : 0;
    QCOMPARE(page.variablesTable()->rowsShown(), onTiles);

    // Clearing the box shows the totals again.
    page.variableFilterEdit()->clear();
    QVERIFY(applied.wait(60000));
    QVERIFY(!page.chart()->hasVariableFilter());
    QCOMPARE(page.variablesTable()->rowsShown(), page.variablesModel()->rowCount());
  }

  void severalVariablesAreChartedSeparately() {
    // "layer1/weights; layer2/weights": one series per name, each libpva's bytes per tile of
    // the variables containing it, in its own colour; the filter's total covers both.
    MemoryPage page;
    page.resize(1200, 800);
    page.show();
    auto doc = Document::resolve(viewer_test::mlpReport());
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    QSignalSpy applied(&page, &MemoryPage::variableFilterApplied);
    QTest::keyClicks(page.variableFilterEdit(),
                     QStringLiteral("layer1/weights; LAYER2/weights ;layer1/weights"));
    QVERIFY(applied.wait(60000));
    const pva::Report& report = doc->report();
    const auto compilation = report.compilation();
    const QStringList terms{QStringLiteral("layer1/weights"), QStringLiteral("layer2/weights")};
    const unsigned numTiles = compilation.target().numTiles();
    std::vector<std::vector<std::uint64_t>> expected(2, std::vector<std::uint64_t>(numTiles, 0));
    std::vector<std::uint64_t> either(numTiles, 0);
    for (unsigned t = 0; t < numTiles; ++t)
      for (const pva::LoweredVariable& v : compilation.loweredVariables().forTile(t)) {
        const QString name = QString::fromStdString(v.name());
        bool any = false;
        for (int k = 0; k < 2; ++k)
          if (name.contains(terms[k], Qt::CaseInsensitive)) {
            expected[std::size_t(k)][t] += v.bytes();
            any = true;
          }
        if (any) either[t] += v.bytes();
      }
    const auto& series = page.chart()->variableSeries();
    QCOMPARE(series.size(), std::size_t(2)); // the repeated name is one series
    for (std::size_t k = 0; k < 2; ++k) {
      QCOMPARE(*series[k].bytesPerTile, expected[k]);
      QVERIFY(std::any_of(expected[k].begin(), expected[k].end(),
                          [](std::uint64_t b) { return b > 0; }));
      QVERIFY(series[k].label.contains(terms[int(k)], Qt::CaseInsensitive));
    }
    QVERIFY(expected[0] != expected[1]); // the two layers' weights sit on different tiles or sizes
    QCOMPARE(*page.chart()->variableBytes(), either);
    // The legend names each series, the scale is the larger of the two.
    const QStringList legend = page.chart()->bandNames();
    QVERIFY2(legend.size() >= 2 && legend[0].contains(QStringLiteral("layer1/weights")) &&
                 legend[1].contains(QStringLiteral("LAYER2/weights")),
             qPrintable(legend.join(QStringLiteral(" | "))));
    const double highest =
        double(std::max(*std::max_element(expected[0].begin(), expected[0].end()),
                        *std::max_element(expected[1].begin(), expected[1].end())));
    const QImage image = page.chart()->grab().toImage();
    QVERIFY(page.chart()->plottedRange().second >= highest &&
            page.chart()->plottedRange().second < 1.2 * highest);
    // Both series' colours are on screen.
    for (std::size_t k = 0; k < 2; ++k) {
      const QRgb want = MemoryChart::seriesColorOf(k).rgb();
      bool found = false;
      for (int y = 0; y < image.height() && !found; ++y)
        for (int x = 0; x < image.width() && !found; ++x)
          found = image.pixel(x, y) == want;
      QVERIFY2(found, qPrintable(QStringLiteral("series %1 not drawn").arg(k)));
    }
    // The Variables tab lists the variables of either name.
    int rows = 0;
    for (const TileVariableRow& row : page.details()->variables)
      rows += (row.name.contains(terms[0], Qt::CaseInsensitive) ||
               row.name.contains(terms[1], Qt::CaseInsensitive))
                  ? 1
                  : 0;
    QCOMPARE(page.variablesTable()->rowsShown(), rows);
    page.grab().save(viewer_test::tmpDir(QStringLiteral("memory-series")) +
                     QStringLiteral("/mlp-two-series.png"));

    // Choosing from the Variables tab: each selected row's name joins the box, a line each.
    page.setVariableFilter({});
    QTableView* view = page.variablesTable()->view();
    QVERIFY(view->model()->rowCount() >= 2);
    auto nameAt = [&](int row) {
      return view->model()
          ->index(row, LoweredVariablesModel::NameColumn)
          .data(TableModel::SortRole)
          .toString();
    };
    int second = 1;
    while (second < view->model()->rowCount() && nameAt(second) == nameAt(0))
      ++second;
    QVERIFY(second < view->model()->rowCount());
    const QString a = nameAt(0), b = nameAt(second);
    view->selectRow(0);
    page.plotSelectedVariables();
    QCOMPARE(page.variableFilterEdit()->text(), a);
    page.setVariableFilter({}); // the table lists only a's rows now: pick b from the whole list
    view->selectRow(second);
    page.plotSelectedVariables();
    QCOMPARE(page.variableFilterEdit()->text(), b);
    page.setVariableFilter(a);
    page.setVariableFilter(QStringLiteral("%1; %2").arg(a, b));
    QCOMPARE(page.chart()->variableSeries().size(), std::size_t(2));
    QVERIFY(page.chart()->variableSeries()[0].label.contains(a));
    QVERIFY(page.chart()->variableSeries()[1].label.contains(b));
    // With a filter typed, a selected row adds its name after the others.
    view->selectRow(0);
    const QString shown = nameAt(0);
    page.plotSelectedVariables();
    QVERIFY(nameTerms(page.variableFilterEdit()->text()).contains(shown, Qt::CaseInsensitive));
    QVERIFY(page.variableFilterEdit()->text().startsWith(QStringLiteral("%1; %2").arg(a, b)));

    // One name again: one series (bars), as before.
    page.setVariableFilter(QStringLiteral("layer1/weights"));
    QVERIFY(page.chart()->variableSeries().empty());
    QCOMPARE(*page.chart()->variableBytes(), expected[0]);
  }

  // The navigation strip's box shows the visible tiles and takes typed ones.
  void typedZoomInTheNavigationStrip() {
    MemoryPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QTest::qWait(20);
    QLineEdit* box = page.overview()->rangeEdit();
    QVERIFY(box->isVisible());
    QCOMPARE(box->text(), QStringLiteral("0-1471"));
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, QStringLiteral("100-200"));
    QTest::keyClick(box, Qt::Key_Return);
    QCOMPARE(page.chart()->viewRange(), (std::pair<double, double>(100, 201)));
    QCOMPARE(box->text(), QStringLiteral("100-200"));
    // The strip's window follows.
    const QRect w = page.overview()->windowRect(), s = page.overview()->stripRect();
    QVERIFY(std::abs(w.left() - (s.left() + 100.0 / 1472 * s.width())) <= 2);
    // A range the chart does not have changes nothing and says why.
    QVERIFY(!page.overview()->applyTypedRange(QStringLiteral("1400-1500")));
    QCOMPARE(page.chart()->viewRange(), (std::pair<double, double>(100, 201)));
    QVERIFY(box->toolTip().contains(QStringLiteral("tiles 0-1471")));
    // One number centres the view there, keeping the zoom.
    QVERIFY(page.overview()->applyTypedRange(QStringLiteral("700")));
    QCOMPARE(page.chart()->viewRange().second - page.chart()->viewRange().first, 101.0);
    QVERIFY(page.chart()->viewRange().first <= 700 && page.chart()->viewRange().second > 700);
    // The chart's own zoom updates the box.
    QTest::keyClick(page.chart(), Qt::Key_0);
    QCOMPARE(box->text(), QStringLiteral("0-1471"));
    page.grab().save(viewer_test::tmpDir(QStringLiteral("memory-typed-zoom")) +
                     QStringLiteral("/mlp.png"));
  }

  // A click on a band's or a line's legend entry hides it, another shows it again.
  void clickingTheLegendHidesASeries() {
    MemoryPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    page.breakdownBox()->setCurrentIndex(
        page.breakdownBox()->findText(QStringLiteral("By category")));
    QTest::qWait(20);
    page.chart()->grab();
    QVERIFY(page.chart()->legendRects().size() >= 3); // the categories' bands
    auto countColour = [](const QImage& im, const QColor& c) {
      int n = 0;
      for (int y = 0; y < im.height(); ++y)
        for (int x = 0; x < im.width(); ++x)
          n += im.pixelColor(x, y) == c ? 1 : 0;
      return n;
    };
    const QImage before = page.chart()->grab().toImage();
    const QString name = page.chart()->legendRects().front().second;
    const int band = page.chart()->bandNames().indexOf(name);
    QVERIFY(band >= 0);
    QSignalSpy toggled(page.chart(), &IndexChart::seriesVisibilityChanged);
    const QRectF r = page.chart()->legendRects().front().first;
    QTest::mouseClick(page.chart(), Qt::LeftButton, {}, r.center().toPoint());
    QCOMPARE(toggled.count(), 1);
    QVERIFY(!page.chart()->isSeriesShown(name));
    QVERIFY(page.chart()->selection().empty()); // a legend click selects no tile
    const QImage hidden = page.chart()->grab().toImage();
    // Which colour is the band's: the one whose pixels fell (the legend swatch stays, faded).
    int fell = 0;
    std::map<QRgb, int> b, h;
    for (int y = int(page.chart()->plotRect().top()) + 1;
         y < int(page.chart()->plotRect().bottom()); ++y)
      for (int x = int(page.chart()->plotRect().left()) + 1;
           x < int(page.chart()->plotRect().right()); ++x) {
        ++b[before.pixel(x, y)];
        ++h[hidden.pixel(x, y)];
      }
    for (const auto& [rgb, n] : b)
      if (n > 200 && h[rgb] < n / 10) ++fell;
    QVERIFY2(fell >= 1, "no band's colour left the plot");
    page.grab().save(viewer_test::tmpDir(QStringLiteral("memory-legend")) +
                     QStringLiteral("/mlp-band-hidden.png"));
    QTest::mouseClick(page.chart(), Qt::LeftButton, {}, r.center().toPoint());
    QVERIFY(page.chart()->isSeriesShown(name));
    const QImage again = page.chart()->grab().toImage();
    QCOMPARE(countColour(again, QColor(0, 0, 0, 0)), countColour(before, QColor(0, 0, 0, 0)));
    QCOMPARE(again, before);
  }

  // The Tile Map: every tile a cell, in software order, coloured on one scale by libpva's figures.
  void tileMapShowsEveryTileByItsFigure() {
    TileMapPage page;
    page.resize(1100, 800);
    page.show();
    auto doc = Document::resolve(viewer_test::pipelineReport());
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    const auto& d = page.map()->data();
    QVERIFY(d);
    const pva::Report& report = doc->report();
    const auto tiles = report.compilation().tiles();
    QCOMPARE(std::size_t(d->numTiles), tiles.size());
    QVERIFY(d->numIpus >= 2);
    for (const pva::Tile& t : tiles)
      QCOMPARE(d->memory[t.number()], t.memory().total().includingGaps());
    const pva::TileCycleTotals totals = report.execution().tileCycleTotals();
    const auto& compute = totals.byTile(pva::TileCycleTotals::Kind::Compute);
    for (unsigned t = 0; t < d->numTiles; ++t)
      QCOMPARE(d->cycles[t], compute[t % d->tilesPerReplica]);
    // Software order: cells and tiles map one to one, tile numbers run along the rows of each
    // IPU's block, and IPU blocks do not overlap.
    std::set<std::pair<int, int>> cells;
    for (unsigned t = 0; t < d->numTiles; ++t) {
      const QPoint c = d->cellOf(t);
      QCOMPARE(d->tileAt(c), (long long)t);
      QVERIFY(cells.insert({c.x(), c.y()}).second);
      if (t % d->tilesPerIpu % d->columns() != 0) QCOMPARE(d->cellOf(t - 1) + QPoint(1, 0), c);
    }
    QCOMPARE(d->tileAt(QPoint(int(d->columns()), 0)), -1LL); // the gap between IPU 0 and IPU 1
    // Colours: the fullest tile is the darkest cell, an empty one the palest.
    const QImage image = page.map()->grab().toImage();
    unsigned fullest = 0;
    for (unsigned t = 0; t < d->numTiles; ++t)
      fullest = d->memory[t] > d->memory[fullest] ? t : fullest;
    const QColor darkest = image.pixelColor(page.map()->cellRect(fullest).center().toPoint());
    QCOMPARE(darkest, page.map()->colorOf(d->memory[fullest]));
    QCOMPARE(page.map()->scaleMax(), d->memory[fullest]); // the largest tile is the darkest
    QCOMPARE(darkest, page.map()->colorOf(page.map()->scaleMax()));
    for (unsigned t = 0; t < d->numTiles; t += 97) {
      const QColor c = image.pixelColor(page.map()->cellRect(t).center().toPoint());
      QCOMPARE(c, page.map()->colorOf(d->memory[t]));
      QVERIFY(c.lightness() >= darkest.lightness());
    }
    // A click selects the tile under it; the line above names it.
    QTest::mouseClick(page.map(), Qt::LeftButton, {},
                      page.map()->cellRect(fullest).center().toPoint());
    QCOMPARE(page.map()->selectedTile(), std::optional<unsigned>(fullest));
    QVERIFY(page.summaryLabel()->text().contains(QStringLiteral("Tile %1</b>").arg(fullest)));
    const QString out = viewer_test::tmpDir(QStringLiteral("tilemap"));
    page.grab().save(out + QStringLiteral("/pipeline-memory.png"));
    // Compute cycles: another scale, the busiest tile darkest.
    page.figureBox()->setCurrentIndex(TileMapData::Cycles);
    unsigned busiest = 0;
    for (unsigned t = 0; t < d->numTiles; ++t)
      busiest = d->cycles[t] > d->cycles[busiest] ? t : busiest;
    QCOMPARE(page.map()->scaleMax(), d->cycles[busiest]);
    const QImage cyc = page.map()->grab().toImage();
    QCOMPARE(cyc.pixelColor(page.map()->cellRect(busiest).center().toPoint()),
             page.map()->colorOf(d->cycles[busiest]));
    page.grab().save(out + QStringLiteral("/pipeline-cycles.png"));
    QVERIFY(!page.summaryLabel()->text().contains(QStringLiteral("Current report")));
    // Two reports open: the map is the current one's (the pipeline's two IPUs), and says so.
    const unsigned pipelineTiles = d->numTiles;
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::pipelineReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QCOMPARE(page.map()->data()->numTiles, pipelineTiles);
    QVERIFY(page.summaryLabel()->text().startsWith(QStringLiteral("Current report (")));
  }

  void variableFilterOnTheOutOfMemoryReport() {
    MemoryPage page;
    page.resize(1400, 900);
    page.show();
    page.setDocument(Document::resolve(viewer_test::oomReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QSignalSpy applied(&page, &MemoryPage::variableFilterApplied);
    page.setVariableFilter(QStringLiteral("message"));
    QVERIFY(applied.wait(60000));
    std::uint64_t sum = 0;
    for (std::uint64_t b : *page.chart()->variableBytes())
      sum += b;
    QVERIFY(sum > 0);
    page.grab().save(viewer_test::tmpDir(QStringLiteral("memory-oom-filter")) +
                     QStringLiteral("/message.png"));
  }

  void tableTotalsAddTheRowsShown() {
    MemoryPage page;
    page.resize(1200, 800);
    page.show();
    auto doc = Document::resolve(viewer_test::mlpReport());
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(page.selectTiles(QStringLiteral("5")));
    QVERIFY(waitDetails(page, {5}));
    const pva::Report& report = doc->report();
    // Vertices of tile 5: the instance and code totals are the tile's own.
    auto* vertices = qobject_cast<TotalledTable*>(page.tabs()->widget(2));
    QVERIFY(vertices);
    std::uint64_t count = 0;
    for (const pva::TileVertexType& v : report.compilation().tile(5).memory().vertices())
      count += v.count();
    QCOMPARE(vertices->total(TileVerticesModel::CountColumn).toULongLong(), qulonglong(count));
    QCOMPARE(vertices->total(TileVerticesModel::CodeColumn).toULongLong(),
             qulonglong(report.compilation().tile(5).memory().category().vertexCode().total()));
    QVERIFY(!vertices->total(TileVerticesModel::TilesColumn).isValid()); // tiles do not add up
    QVERIFY(vertices->totalsLabel()->text().startsWith(QStringLiteral("Total of the")));
    // Variables of tile 5: the sizes of its lowered variables.
    std::uint64_t bytes = 0;
    for (const pva::LoweredVariable& v : report.compilation().loweredVariables().forTile(5))
      bytes += v.bytes();
    QCOMPARE(page.variablesTable()->total(LoweredVariablesModel::SizeColumn).toULongLong(),
             qulonglong(bytes));
    QVERIFY(!page.variablesTable()->total(LoweredVariablesModel::OffsetColumn).isValid());
  }

  void tileListsParse() {
    QString error;
    QCOMPARE(*parseTileList(QStringLiteral("0,5,17"), 1472, &error),
             (std::vector<unsigned>{0, 5, 17}));
    QCOMPARE(*parseTileList(QStringLiteral(" 7, 3-5 ,3"), 1472, &error),
             (std::vector<unsigned>{3, 4, 5, 7}));
    QCOMPARE(parseTileList(QString(), 1472, &error)->size(), std::size_t(0));
    QVERIFY(!parseTileList(QStringLiteral("3,x"), 1472, &error));
    QVERIFY(error.contains(QStringLiteral("'x'")));
    QVERIFY(!parseTileList(QStringLiteral("1472"), 1472, &error));
    QVERIFY2(error.contains(QStringLiteral("1472")), qPrintable(error));
    QVERIFY(!parseTileList(QStringLiteral("9-3"), 1472, &error));
    QCOMPARE(formatTileList({0, 1, 2, 3, 7, 9, 10}), QStringLiteral("0-3, 7, 9, 10"));
  }

  void detailsModelsPassTheTesterAndMatchLibpva() {
    auto doc = Document::resolve(viewer_test::mlpReport());
    auto p = Progress::standalone(QStringLiteral("test"));
    auto data = std::make_shared<const MemoryData>(loadMemory(*doc, p));
    const pva::Report& report = doc->report();

    TileMemoryDetailsModel details;
    const auto t1 = viewer_test::checkModel(&details);
    details.setSelection(data, {});
    std::uint64_t all = 0;
    for (const pva::Tile& t : report.compilation().tiles())
      all += t.memory().total().includingGaps();
    QCOMPARE(details.find(QStringLiteral("Total including gaps"))->values[3], all);
    details.setSelection(data, {0, 5});
    QCOMPARE(details.find(QStringLiteral("Total including gaps"))->values[3],
             report.compilation().tile(0).memory().total().includingGaps() +
                 report.compilation().tile(5).memory().total().includingGaps());
    QCOMPARE(details.find(QStringLiteral("vertexCode"))->values[3],
             report.compilation().tile(0).memory().category().vertexCode().total() +
                 report.compilation().tile(5).memory().category().vertexCode().total());

    auto one = std::make_shared<const TileDetailsData>(loadTileDetails(*doc, {5}, p));
    LoweredVariablesModel vars;
    TileVerticesModel vertices;
    TileComputeSetsModel computeSets;
    TileExchangesModel exchanges;
    const auto t2 = viewer_test::checkModel(&vars);
    const auto t3 = viewer_test::checkModel(&vertices);
    const auto t4 = viewer_test::checkModel(&computeSets);
    const auto t5 = viewer_test::checkModel(&exchanges);
    vars.setDetails(one);
    vertices.setRows({one, &one->vertices});
    computeSets.setRows({one, &one->computeSets});
    exchanges.setRows({one, &one->exchanges});
    const auto lowered = report.compilation().loweredVariables().forTile(5);
    QCOMPARE(vars.rowCount(), int(lowered.size()));
    QCOMPARE(vars.row(0).name, QString::fromStdString(lowered[0].name()));
    QCOMPARE(vars.row(0).offset, lowered[0].offset());
    // Vertex types: the same instance counts and code as the tile's own list.
    std::map<QString, std::uint64_t> expected;
    for (const pva::TileVertexType& v : report.compilation().tile(5).memory().vertices())
      expected[QString::fromStdString(v.type().name())] = v.count();
    QCOMPARE(vertices.rowCount(), int(expected.size()));
    std::uint64_t code = 0;
    for (int r = 0; r < vertices.rowCount(); ++r) {
      QCOMPARE(vertices.row(r).count, expected[vertices.row(r).name]);
      code += vertices.row(r).codeBytes;
    }
    QCOMPARE(code, report.compilation().tile(5).memory().category().vertexCode().total());
    QVERIFY(computeSets.rowCount() > 0);
    std::uint64_t exchangeCode = 0;
    for (int r = 0; r < exchanges.rowCount(); ++r)
      exchangeCode += exchanges.row(r).codeBytes;
    QVERIFY(exchangeCode > 0);

    // All tiles: every variable, plus code and state by category.
    auto everything = std::make_shared<const TileDetailsData>(loadTileDetails(*doc, {}, p));
    vars.setDetails(everything);
    QVERIFY(vars.allTiles());
    QVERIFY(vars.rowCount() >= int(report.compilation().variables().size()));
    QVERIFY(!vars.index(0, LoweredVariablesModel::OffsetColumn).data().isValid());
    Settings::instance().setMemoryUnits(
        MemoryUnits::Bytes); // the tester checks the re-formatting signals
    Settings::instance().setMemoryUnits(MemoryUnits::Binary);
  }

  void clicksAndTypedListsSelectTiles() {
    MemoryPage page;
    page.resize(1200, 800);
    page.show();
    auto doc = Document::resolve(viewer_test::mlpReport());
    page.setDocument(doc);
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(page.selectionLabel()->text().contains(QStringLiteral("all 1,472 tiles")));
    QCOMPARE(page.details()->tiles.size(), std::size_t(0));
    const pva::Report& report = doc->report();

    // Zoomed in so that a tile is several pixels wide; a click at its x selects it.
    page.chart()->setViewRange(0, 40);
    clickTile(page, 17);
    QCOMPARE(page.chart()->selection(), (std::vector<std::size_t>{17}));
    QVERIFY(waitDetails(page, {17}));
    QCOMPARE(page.tilesEdit()->text(), QStringLiteral("17"));
    QVERIFY(page.selectionLabel()->text().contains(QStringLiteral("Tile 17")));
    QCOMPARE(page.detailsModel()->find(QStringLiteral("Total including gaps"))->values[3],
             report.compilation().tile(17).memory().total().includingGaps());
    QCOMPARE(page.variablesModel()->rowCount(),
             int(report.compilation().loweredVariables().forTile(17).size()));
    QCOMPARE(page.variablesModel()
                 ->index(0, LoweredVariablesModel::TileColumn)
                 .data(TableModel::SortRole)
                 .toUInt(),
             17u);

    // Hovering names the tile and its figures.
    QTest::mouseMove(page.chart(), QPoint(int(page.chart()->xForItem(12)),
                                          int(page.chart()->plotRect().center().y())));
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("Tile 12")), qPrintable(QToolTip::text()));
    QVERIFY(QToolTip::text().contains(QStringLiteral("Including gaps")));

    clickTile(page, 20, Qt::ShiftModifier);
    QCOMPARE(page.chart()->selection(), (std::vector<std::size_t>{17, 20}));
    QVERIFY(waitDetails(page, {17, 20}));
    QCOMPARE(page.variablesModel()->rowCount(),
             int(report.compilation().loweredVariables().forTile(17).size() +
                 report.compilation().loweredVariables().forTile(20).size()));
    clickTile(page, 17, Qt::ShiftModifier); // shift-click on a selected tile removes it
    QCOMPARE(page.chart()->selection(), (std::vector<std::size_t>{20}));

    page.tilesEdit()->clear();
    QTest::keyClicks(page.tilesEdit(), QStringLiteral("3,7"));
    QTest::keyClick(page.tilesEdit(), Qt::Key_Return);
    QCOMPARE(page.chart()->selection(), (std::vector<std::size_t>{3, 7}));
    QVERIFY(waitDetails(page, {3, 7}));
    QCOMPARE(page.detailsModel()->find(QStringLiteral("Total excluding gaps"))->values[3],
             report.compilation().tile(3).memory().total().excludingGaps() +
                 report.compilation().tile(7).memory().total().excludingGaps());

    // A bad list is reported beside the box and changes nothing.
    QVERIFY(!page.selectTiles(QStringLiteral("3,99999")));
    QVERIFY(page.tilesError()->text().contains(QStringLiteral("99999")));
    QVERIFY(!page.tilesError()->isHidden());
    QCOMPARE(page.chart()->selection(), (std::vector<std::size_t>{3, 7}));

    // The memory map of the first selected tile.
    page.tabs()->setCurrentIndex(1);
    page.mapButton()->setChecked(true);
    QCOMPARE(page.memoryMap()->tile(), 3);
    QVERIFY(page.memoryMap()->extent() >=
            report.compilation().tile(3).memory().total().excludingGaps());
    const QImage map = page.memoryMap()->grab().toImage();
    QVERIFY(viewer_test::distinctColors(map) >= 6);
    // The legend names what the drawing blends (issue 37): the paler not-always-live shade, the
    // darker shared addresses, and gaps in a colour of their own, not the free track's grey.
    std::map<QString, QColor> legend;
    for (const auto& [name, color] : page.memoryMap()->legend())
      legend[name] = color;
    for (const char* name :
         {"not always live (paler)", "shared by disjoint lives (darker)", "gaps", "free"})
      QVERIFY2(legend.count(QString::fromLatin1(name)), name);
    QVERIFY(legend[QStringLiteral("gaps")].rgb() != legend[QStringLiteral("free")].rgb());
    QVERIFY(legend[QStringLiteral("not always live (paler)")].rgb() !=
            legend[QStringLiteral("shared by disjoint lives (darker)")].rgb());
    // Kept for a person to look at, as the screenshots are.
    const QString out = viewer_test::tmpDir(QStringLiteral("memory"));
    page.grab().save(out + QStringLiteral("/page-tiles-3-7-map.png"));
    page.mapButton()->setChecked(false);
    page.grab().save(out + QStringLiteral("/page-tiles-3-7-variables.png"));
    page.mapButton()->setChecked(true);
    QVERIFY(
        page.memoryMap()
            ->addressAt(QPointF(page.memoryMap()->width() / 2.0, page.memoryMap()->height() / 2.0))
            .has_value());

    // Escape clears the selection: back to all tiles.
    page.chart()->setFocus();
    QTest::keyClick(page.chart(), Qt::Key_Escape);
    QVERIFY(waitDetails(page, {}));
    QCOMPARE(page.tilesEdit()->text(), QString());
  }

  void gapsBreakdownAndUnitsChangeTheChart() {
    MemoryPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::mlpReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(!page.maxMemoryBox()->isChecked()); // 2% of a tile: the capacity line would flatten it
    page.chart()->grab();
    const double withGaps = page.chart()->plottedRange().second;
    page.gapsBox()->setChecked(false);
    page.chart()->grab();
    const double withoutGaps = page.chart()->plottedRange().second;
    QVERIFY2(withoutGaps < withGaps,
             qPrintable(QStringLiteral("%1 vs %2").arg(withoutGaps).arg(withGaps)));
    QVERIFY(page.chart()->bandNames().contains(QStringLiteral("Total (excluding gaps)")));
    page.breakdownBox()->setCurrentIndex(1);
    QVERIFY(!page.chart()->bandNames().contains(QStringLiteral("Gaps")));
    page.gapsBox()->setChecked(true);
    QVERIFY(page.chart()->bandNames().contains(QStringLiteral("Gaps")));
    QVERIFY(page.chart()->bandNames().contains(QStringLiteral("Non-interleaved")));

    page.breakdownBox()->setCurrentIndex(2);
    QCOMPARE(page.chart()->breakdown(), MemoryBreakdown::Category);
    QVERIFY(page.chart()->bandNames().contains(QStringLiteral("internalExchangeCode")));
    QVERIFY(page.chart()->bandNames().contains(QStringLiteral("Shared (disjoint lives)")));
    page.breakdownBox()->setCurrentIndex(3);
    QVERIFY(page.chart()->bandNames().contains(QStringLiteral("Always live")));
    QVERIFY(viewer_test::distinctColors(page.chart()->grab().toImage()) >= 6);

    page.maxMemoryBox()->setChecked(true);
    page.chart()->grab();
    QVERIFY(page.chart()->plottedRange().second >= double(page.data()->bytesPerTile));

    Settings::instance().setMemoryUnits(MemoryUnits::Bytes);
    const QString bytesText =
        page.detailsModel()
            ->index(page.detailsModel()->rowCount() - 1, TileMemoryDetailsModel::TotalColumn)
            .data()
            .toString();
    QVERIFY2(bytesText.endsWith(QStringLiteral(" B")) && !bytesText.contains(QStringLiteral("iB")),
             qPrintable(bytesText));
    QVERIFY2(!page.summaryLabel()->text().contains(QStringLiteral("iB")),
             qPrintable(page.summaryLabel()->text()));
    Settings::instance().setMemoryUnits(MemoryUnits::Binary);
    const QString binaryText =
        page.detailsModel()
            ->index(page.detailsModel()->rowCount() - 1, TileMemoryDetailsModel::TotalColumn)
            .data()
            .toString();
    QVERIFY2(binaryText.contains(QStringLiteral("iB")), qPrintable(binaryText));
    QVERIFY(page.summaryLabel()->text().contains(QStringLiteral("KiB")));

    // One IPU: the chart's domain is that IPU's tiles.
    QCOMPARE(page.chart()->domain(), (std::pair<std::size_t, std::size_t>(0, 1472)));
  }

  void pipelineHasAnIpuFilter() {
    MemoryPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::pipelineReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QCOMPARE(page.ipuBox()->count(), int(page.data()->numIpus) + 1);
    page.ipuBox()->setCurrentIndex(2); // IPU 1
    QCOMPARE(page.chart()->domain(), (std::pair<std::size_t, std::size_t>(
                                         page.data()->tilesPerIpu, 2 * page.data()->tilesPerIpu)));
    // A variable filter on one IPU: its tiles' bytes of the matching variables.
    QSignalSpy applied(&page, &MemoryPage::variableFilterApplied);
    page.setVariableFilter(QStringLiteral("stage2"));
    QVERIFY(applied.wait(60000));
    std::uint64_t onIpu1 = 0, onIpu0 = 0;
    for (unsigned t = 0; t < page.data()->numTiles; ++t)
      (page.data()->ipuOf(t) == 1 ? onIpu1 : onIpu0) += (*page.chart()->variableBytes())[t];
    QVERIFY(onIpu1 > 0);
    page.grab().save(viewer_test::tmpDir(QStringLiteral("memory-pipeline-filter")) +
                     QStringLiteral("/ipu1-stage2.png"));
  }

  void outOfMemoryReportShowsOverflow() {
    MemoryPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::resolve(viewer_test::oomReport()));
    QVERIFY(viewer_test::waitReady(&page));
    const MemoryData& d = *page.data();
    QVERIFY(d.outOfMemory);
    QVERIFY(page.maxMemoryBox()->isChecked());
    std::uint64_t overflowed = 0;
    unsigned over = 0;
    for (unsigned t = 0; t < d.numTiles; ++t) {
      overflowed += d.overflowedIncluding[t];
      over += d.includingGaps[t] > d.bytesPerTile ? 1 : 0;
    }
    QVERIFY(overflowed > 0);
    QVERIFY(over > 0);
    page.breakdownBox()->setCurrentIndex(1); // by region: an Overflowed band with bytes in it
    QVERIFY(page.chart()->bandNames().contains(QStringLiteral("Overflowed")));
    const MemoryBands bands(d, MemoryBreakdown::Region, true);
    std::vector<std::uint64_t> v(std::size_t(bands.size()));
    bands.values(d.largestTile(), v.data());
    QVERIFY(v[2] > 0);
    page.chart()->grab();
    QVERIFY(page.chart()->plottedRange().second > double(d.bytesPerTile)); // the line is crossed
    QVERIFY(page.summaryLabel()->text().contains(QStringLiteral("Out of memory")));
    // Details of a tile with no execution profile still load.
    QVERIFY(page.selectTiles(QString::number(d.largestTile())));
    QVERIFY(waitDetails(page, {d.largestTile()}));
    QVERIFY(page.detailsModel()->find(QStringLiteral("variable"))->values[2] > 0 ||
            page.detailsModel()->find(QStringLiteral("message"))->values[2] > 0);
    // The memory map of the worst tile runs past the capacity mark.
    page.tabs()->setCurrentIndex(1);
    page.mapButton()->setChecked(true);
    QCOMPARE(page.memoryMap()->tile(), int(d.largestTile()));
    QVERIFY(page.memoryMap()->extent() > d.bytesPerTile);
    page.grab().save(viewer_test::tmpDir(QStringLiteral("memory-oom")) +
                     QStringLiteral("/largest-tile-map.png"));
  }

  void comparingShowsTheDifference() {
    MemoryPage page;
    page.resize(1200, 800);
    page.show();
    page.setDocument(Document::comparison(viewer_test::mlpReport(), viewer_test::mlpBigReport()));
    QVERIFY(viewer_test::waitReady(&page));
    QVERIFY(page.baseData() != nullptr);
    QVERIFY(!page.differenceBox()->isHidden());
    QVERIFY(!page.breakdownBox()->isEnabled());
    std::int64_t diff = 0;
    for (unsigned t = 0; t < page.data()->numTiles; ++t)
      diff += std::int64_t(page.data()->includingGaps[t]) -
              std::int64_t(t < page.baseData()->numTiles ? page.baseData()->includingGaps[t] : 0);
    QVERIFY2(diff > 0, "batch 64 has bigger activations");
    QCOMPARE(page.chart()->bandNames().mid(0, 2),
             (QStringList{QStringLiteral("Base"), QStringLiteral("Current")}));
    page.differenceBox()->setChecked(true);
    page.chart()->grab();
    QVERIFY(page.chart()->plottedRange().second > 0);
    QVERIFY(page.chart()->bandNames().first().startsWith(QStringLiteral("Grew")));
    QVERIFY(viewer_test::distinctColors(page.chart()->grab().toImage()) >= 4);
    const QString out = viewer_test::tmpDir(QStringLiteral("memory-compare"));
    page.grab().save(out + QStringLiteral("/difference.png"));

    // A variable filter compares the matching variables' bytes of both reports.
    page.differenceBox()->setChecked(false);
    QSignalSpy applied(&page, &MemoryPage::variableFilterApplied);
    page.setVariableFilter(QStringLiteral("partials"));
    QVERIFY(applied.wait(60000));
    for (bool base : {false, true}) {
      const pva::Report report =
          Document::resolve(base ? viewer_test::mlpReport() : viewer_test::mlpBigReport())
              ->report();
      std::vector<std::uint64_t> expected(report.compilation().target().numTiles(), 0);
      for (unsigned t = 0; t < expected.size(); ++t)
        for (const pva::LoweredVariable& v : report.compilation().loweredVariables().forTile(t))
          if (QString::fromStdString(v.name()).contains(QStringLiteral("partials")))
            expected[t] += v.bytes();
      const auto& shown = base ? page.chart()->baseVariableBytes() : page.chart()->variableBytes();
      QVERIFY(shown);
      QCOMPARE(*shown, expected);
    }
    QVERIFY(page.chart()->bandNames().first().startsWith(
        QStringLiteral("Base: variables matching 'partials'")));
    page.chart()->grab();
    const std::uint64_t highest =
        std::max(*std::max_element(page.chart()->variableBytes()->begin(),
                                   page.chart()->variableBytes()->end()),
                 *std::max_element(page.chart()->baseVariableBytes()->begin(),
                                   page.chart()->baseVariableBytes()->end()));
    QVERIFY(page.chart()->plottedRange().second <
            1.2 * double(highest)); // the filter's scale, not the totals'
    page.grab().save(out + QStringLiteral("/partials.png"));
  }

  void keysZoomAndPan() {
    MemoryChart chart;
    chart.resize(800, 400);
    chart.show();
    auto doc = Document::resolve(viewer_test::mlpReport());
    auto p = Progress::standalone(QStringLiteral("test"));
    chart.setData(std::make_shared<const MemoryData>(loadMemory(*doc, p)));
    QCOMPARE(chart.viewRange(), (std::pair<double, double>(0, 1472)));
    QTest::keyClick(&chart, Qt::Key_Plus);
    QVERIFY(chart.viewRange().second - chart.viewRange().first < 1472);
    const double before = chart.viewRange().first;
    QTest::keyClick(&chart, Qt::Key_Right);
    QVERIFY(chart.viewRange().first > before);
    QTest::keyClick(&chart, Qt::Key_0);
    QCOMPARE(chart.viewRange(), (std::pair<double, double>(0, 1472)));
    // Drag pans without selecting.
    chart.setViewRange(100, 200);
    QTest::mousePress(&chart, Qt::LeftButton, {}, QPoint(400, 200));
    QMouseEvent move(QEvent::MouseMove, QPointF(300, 200), QPointF(300, 200), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&chart, &move);
    QTest::mouseRelease(&chart, Qt::LeftButton, {}, QPoint(300, 200));
    QVERIFY(chart.viewRange().first > 100);
    QVERIFY(chart.selection().empty());
  }
};

QTEST_MAIN(MemoryTest)
#include "test_memory.moc"
