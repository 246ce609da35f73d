// The Host trace page: a trace written with libpvti (viewer_trace_writer, RichTraceShape.hpp)
// is indexed exactly as written; the level of detail merges sub-pixel events; the call tree
// model passes QAbstractItemModelTester; the timeline is driven by wheel, keys, drags and clicks;
// search steps through matches; merge-all-charts changes the lanes; the MLP fixture's trace
// loads; broken .pvti files give an error naming the file.
#include "RichTraceShape.hpp"
#include "ViewerTestPaths.hpp"
#include "ViewerTestUtil.hpp"
#include "charts/TraceTimeline.hpp"
#include "core/Format.hpp"
#include "core/HeatmapAxis.hpp"
#include "core/TraceIndex.hpp"
#include "core/TraceLayout.hpp"
#include "core/TraceLod.hpp"
#include "core/TraceTime.hpp"
#include "core/ValueAxis.hpp"
#include "models/TraceCallTreeModel.hpp"
#include "widgets/HostTracePage.hpp"
#include "widgets/PageRegistry.hpp"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProcess>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>
#include <QWheelEvent>
#include <algorithm>

using namespace tessera::viewer;

namespace {

// Runs viewer_trace_writer with tracing on, into `dir`; returns the trace's path.
QString writeTrace(const QString& dir, int ticks = rich_trace::defaultTicks) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("PVTI_OPTIONS"),
             QStringLiteral("{\"enable\":\"true\",\"directory\":\"%1\"}").arg(dir));
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(VIEWER_TRACE_WRITER), {QStringLiteral("--ticks"), QString::number(ticks)});
  if (!p.waitForFinished(120000) || p.exitCode() != 0) return {};
  return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

int threadNamed(const TraceIndex& index, const QString& name) {
  for (std::size_t t = 0; t < index.threads.size(); ++t)
    if (index.threads[t].name == name) return int(t);
  return -1;
}

std::vector<TraceEventRef> topLevel(const TraceIndex& index, int thread) {
  std::vector<TraceEventRef> out;
  const auto& events = index.threads[std::size_t(thread)].events;
  for (std::uint32_t i = 0; i < events.size(); i = events[i].next)
    out.push_back({thread, i, false});
  return out;
}

QStringList childLabels(const TraceIndex& index, TraceEventRef e) {
  QStringList out;
  for (std::uint32_t c : index.children(e.thread, e.index))
    out << index.labels[index.threads[std::size_t(e.thread)].events[c].label];
  return out;
}

void sendWheel(QWidget* w, QPoint pos, int delta) {
  QWheelEvent e(QPointF(pos), QPointF(w->mapToGlobal(pos)), QPoint(), QPoint(0, delta),
                Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &e);
}

} // namespace

class TraceTest : public QObject {
  Q_OBJECT
private:
  QString rich_;
  std::shared_ptr<const TraceIndex> index_;

  std::unique_ptr<HostTracePage> openPage(const QString& path) {
    auto page = std::make_unique<HostTracePage>();
    page->resize(1200, 800);
    page->show();
    page->setDocument(Document::resolve(path));
    return page;
  }

private slots:
  void initTestCase() {
    rich_ = writeTrace(viewer_test::tmpDir(QStringLiteral("trace-writer")));
    QVERIFY2(QFile::exists(rich_), qPrintable(rich_));
    Progress progress = Progress::standalone(QStringLiteral("test"));
    index_ = std::make_shared<const TraceIndex>(loadTraceIndex(rich_, progress));
  }

  void indexHoldsWhatWasWritten() {
    const TraceIndex& index = *index_;
    QCOMPARE(index.processes.size(), std::size_t(1));
    QCOMPARE(index.threads.size(), std::size_t(2));
    const int main = threadNamed(index, QStringLiteral("main")),
              loader = threadNamed(index, QStringLiteral("loader"));
    QVERIFY(main >= 0 && loader >= 0);
    QCOMPARE(index.threads[std::size_t(main)].events.size(), std::size_t(rich_trace::mainEvents));
    QCOMPARE(index.threads[std::size_t(main)].depthCount(), std::size_t(rich_trace::mainDepths));
    QCOMPARE(index.threads[std::size_t(loader)].events.size(),
             std::size_t(rich_trace::loaderEvents));
    QCOMPARE(index.eventCount, std::size_t(rich_trace::mainEvents + rich_trace::loaderEvents));
    QCOMPARE(index.threads[std::size_t(main)].instants.size(),
             std::size_t(rich_trace::mainInstants));
    QCOMPARE(index.threads[std::size_t(loader)].instants.size(),
             std::size_t(rich_trace::loaderInstants));
    QCOMPARE(index.instantCount,
             std::size_t(rich_trace::mainInstants + rich_trace::loaderInstants));

    // Nesting and labels on the main thread.
    const auto steps = topLevel(index, main);
    QCOMPARE(int(steps.size()), rich_trace::steps);
    for (int s = 0; s < rich_trace::steps; ++s) {
      const TraceEventRef step = steps[std::size_t(s)];
      QCOMPARE(index.label(step), QStringLiteral("step"));
      QStringList expected{QStringLiteral("forward"), QStringLiteral("backward")};
      if (s == rich_trace::steps - 1) expected << QStringLiteral("tiny");
      QCOMPARE(childLabels(index, step), expected);
      const auto kids = index.children(main, step.index);
      QCOMPARE(childLabels(index, {main, kids[0], false}),
               (QStringList{QStringLiteral("layer0"), QStringLiteral("layer1")}));
      QCOMPARE(childLabels(index, {main, kids[1], false}),
               QStringList{QStringLiteral("allreduce")});
      // Durations: each layer slept, a parent lasts at least as long as its children, self time
      // is what the children leave.
      const TraceEventRecord& rec = index.event(step);
      std::int64_t children = 0;
      for (std::uint32_t k : kids) {
        children += index.threads[std::size_t(main)].events[k].duration();
        QCOMPARE(index.threads[std::size_t(main)].events[k].depth, 1u);
        QCOMPARE(index.threads[std::size_t(main)].events[k].parent, step.index);
      }
      QVERIFY(rec.duration() >= 2 * rich_trace::stepSleepMs * 1000000LL);
      QVERIFY(rec.duration() >= children);
      QCOMPARE(rec.self, rec.duration() - children);
      QVERIFY(rec.metadata &&
              QString::fromStdString(*rec.metadata).contains(QStringLiteral("\"step\"")));
      // child() agrees with children().
      for (std::uint32_t r = 0; r < rec.childCount; ++r)
        QCOMPARE(index.child(main, step.index, r), kids[r]);
    }

    // The same as libpva reads directly.
    const pva::Trace trace = pva::openTrace(rich_.toStdString());
    for (const pva::Thread& t : trace.processes()[0].threads()) {
      const int mine = threadNamed(index, QString::fromStdString(t.name()));
      QCOMPARE(index.threads[std::size_t(mine)].events.size(), t.numEvents());
      const auto tops = topLevel(index, mine);
      QCOMPARE(tops.size(), t.events().size());
      for (std::size_t i = 0; i < tops.size(); ++i) {
        QCOMPARE(index.event(tops[i]).begin, t.events()[i].beginNs());
        QCOMPARE(index.event(tops[i]).end, t.events()[i].endNs());
        QCOMPARE(index.label(tops[i]), QString::fromStdString(t.events()[i].label()));
      }
    }

    // Instants.
    const TraceInstant& checkpoint = index.threads[std::size_t(main)].instants[0];
    QCOMPARE(index.labels[checkpoint.label], QStringLiteral("checkpoint"));
    QVERIFY(QString::fromStdString(*checkpoint.metadata).contains(QStringLiteral("checkpoint-1")));
    QCOMPARE(index.labels[index.threads[std::size_t(loader)].instants[1].label],
             QStringLiteral("queue empty"));

    // Graph and heatmap.
    const TraceProcessIndex& proc = index.processes[0];
    QCOMPARE(proc.graphs.size(), std::size_t(1));
    const pva::TraceGraph& g = *proc.graphs[0].graph;
    QCOMPARE(QString::fromStdString(g.name()), QStringLiteral("memory"));
    QCOMPARE(QString::fromStdString(g.unit()), QStringLiteral("MB"));
    QCOMPARE(g.series().size(), std::size_t(2));
    QCOMPARE(QString::fromStdString(g.series()[1].name()), QStringLiteral("device"));
    QCOMPARE(int(g.series()[0].samples().size()), rich_trace::graphSamples);
    QCOMPARE(proc.graphs[0].max, 100 + 50.0 * rich_trace::steps);
    QCOMPARE(proc.graphs[0].min, 0.0);
    QCOMPARE(proc.heatmaps.size(), std::size_t(1));
    const pva::TraceHeatmap& h = *proc.heatmaps[0].heatmap;
    QCOMPARE(h.binEdges().size(), std::size_t(5));
    QCOMPARE(int(h.samples().size()), rich_trace::heatmapSamples);
    std::uint32_t biggest = 0;
    for (const pva::HeatmapSample& s : h.samples()) {
      std::uint32_t sum = 0;
      for (std::uint32_t c : s.bins) {
        sum += c;
        biggest = std::max(biggest, c);
      }
      QCOMPARE(int(sum), rich_trace::heatmapValuesPerSample);
    }
    QCOMPARE(proc.heatmaps[0].maxCount, biggest);

    // The activity's extent: tracing starts before the first event.
    QVERIFY(index.beginNs >= 0 && index.beginNs <= index.endNs);
    for (const TraceThreadIndex& t : index.threads)
      QVERIFY(index.beginNs <= t.events.front().begin);

    // Range counts and search.
    QCOMPARE(index.eventsOverlapping(0, index.endNs + 1), index.eventCount);
    const auto layers = index.search(QStringLiteral("layer"));
    QCOMPARE(int(layers.size()), 2 * rich_trace::steps);
    for (std::size_t i = 1; i < layers.size(); ++i)
      QVERIFY(index.event(layers[i - 1]).begin <= index.event(layers[i]).begin);
    QCOMPARE(int(index.search(QStringLiteral("LAYER0")).size()), rich_trace::steps);
    QVERIFY(index.search(QStringLiteral("no such label")).empty());
  }

  void levelOfDetailMergesSubPixelEvents() {
    const TraceIndex& index = *index_;
    const int loader = threadNamed(index, QStringLiteral("loader"));
    const TraceDepthRow& row = index.threads[std::size_t(loader)].depths[0];
    TraceViewport v;
    v.width = 800;
    v.t0 = 0;
    v.nsPerPx = double(index.endNs) / v.width;
    std::vector<TraceBlock> blocks;
    visibleBlocks(row, v, blocks);
    std::size_t merged = 0, covered = 0;
    for (const TraceBlock& b : blocks) {
      covered += b.count;
      if (b.count > 1) ++merged;
      QVERIFY(b.x1 >= b.x0 + 1.0);
    }
    // The 1,000 ticks take far less than a pixel each: they collapse into a few blocks.
    QVERIFY2(blocks.size() < 100, qPrintable(QString::number(blocks.size())));
    QVERIFY(merged >= 1);
    QCOMPARE(covered, row.size());

    // Zoomed in on one tick, it is drawn on its own and at least 0.5 µs wide.
    const std::int64_t tick = row.begin[row.size() / 2];
    v.nsPerPx = 1;
    v.t0 = double(tick) - 100;
    blocks.clear();
    visibleBlocks(row, v, blocks);
    QVERIFY(!blocks.empty());
    auto it = std::find_if(blocks.begin(), blocks.end(), [&](const TraceBlock& b) {
      return b.event == row.event[row.size() / 2];
    });
    QVERIFY(it != blocks.end());
    QCOMPARE(it->count, 1u);
    if (row.end[row.size() / 2] - tick < 1000) {
      QVERIFY(it->subMicrosecond);
      const std::int64_t gap = row.begin[row.size() / 2 + 1] - tick;
      QVERIFY(it->x1 - it->x0 >= std::min<double>(kMinEventDrawNs, double(gap)) - 0.01);
    }
  }

  void levelOfDetailCostFollowsPixels() {
    // A million back-to-back 100 ns events: one row's blocks cost O(width log n), not O(n).
    TraceDepthRow row;
    const std::size_t n = 1000000;
    for (std::size_t i = 0; i < n; ++i) {
      row.begin.push_back(std::int64_t(i) * 150);
      row.end.push_back(std::int64_t(i) * 150 + 100);
      row.event.push_back(std::uint32_t(i));
    }
    TraceViewport v;
    v.width = 1600;
    v.nsPerPx = 150.0 * n / v.width;
    std::vector<TraceBlock> blocks;
    QElapsedTimer timer;
    timer.start();
    for (int rep = 0; rep < 100; ++rep) {
      blocks.clear();
      visibleBlocks(row, v, blocks);
    }
    const double perRowMs = timer.nsecsElapsed() / 1e6 / 100;
    qInfo("1M events, 1600 px: %zu blocks, %.3f ms per row", blocks.size(), perRowMs);
    QVERIFY(blocks.size() <= std::size_t(v.width) + 1);
    QVERIFY2(perRowMs < 20, qPrintable(QString::number(perRowMs)));
    std::size_t covered = 0;
    for (const TraceBlock& b : blocks)
      covered += b.count;
    QCOMPARE(covered, n);
  }

  void timeLabels() {
    QCOMPARE(niceTimeStep(130), 200.0);
    QCOMPARE(niceTimeStep(4e6), 5e6);
    QCOMPARE(formatTraceTime(1.25e9, 1e6), QStringLiteral("0:00:01.250"));
    QCOMPARE(formatTraceTime(3723e9, 1e9), QStringLiteral("1:02:03"));
    QCOMPARE(formatTraceTime(1.5e9, 2.5e8), QStringLiteral("0:00:01.50"));
    QCOMPARE(formatTraceTime(1234, 1), QStringLiteral("0:00:00.000001234"));
    QCOMPARE(formatTraceTime(0.9999999e9, 1e6), QStringLiteral("0:00:01.000"));
    QCOMPARE(formatTraceTime(-2e6, 1e6), QStringLiteral("-0:00:00.002"));
    QVERIFY(formatAbsoluteTraceTime(1000000, 1.5e9, 1e8).endsWith(QStringLiteral(".5")));
  }

  void heatmapBinLabelsAndScale() {
    // The bin axis names each bin's range from pva::TraceHeatmap's own edges; with the unit
    // "2^x" the edges are exponents, read as powers of two.
    QCOMPARE(heatmapEdgeLabel(-2, QStringLiteral("2^x")), QStringLiteral("2⁻²"));
    QCOMPARE(heatmapEdgeLabel(10, QStringLiteral("2^x")), QStringLiteral("2¹⁰"));
    QCOMPARE(heatmapEdgeLabel(0, QStringLiteral("2^x")), QStringLiteral("2⁰"));
    QCOMPARE(heatmapEdgeLabel(0.5, QStringLiteral("2^x")), QStringLiteral("2^0.5"));
    QCOMPARE(heatmapEdgeLabel(0.25, QStringLiteral("ms")), QStringLiteral("0.25 ms"));
    QCOMPARE(heatmapEdgeLabel(3, QString()), QStringLiteral("3"));
    QCOMPARE(heatmapBinLabel({}, 0, QString()), QStringLiteral("all values"));

    const TraceHeatmapInfo& info = index_->processes[0].heatmaps.at(0);
    const pva::TraceHeatmap& h = *info.heatmap;
    const QString unit = QString::fromStdString(h.unit());
    QCOMPARE(unit, QStringLiteral("2^x"));
    const std::vector<double>& edges = h.binEdges();
    QCOMPARE(edges, (std::vector<double>{-2, -1, 0, 1, 2}));
    const int bins = int(edges.size()) + 1;
    QCOMPARE(heatmapBinLabel(edges, 0, unit), QStringLiteral("< 2⁻²"));
    QCOMPARE(heatmapBinLabel(edges, 3, unit), QStringLiteral("[2⁰, 2¹)"));
    QCOMPARE(heatmapBinLabel(edges, bins - 1, unit), QStringLiteral("≥ 2²"));
    for (int b = 1; b + 1 < bins; ++b)
      QCOMPARE(heatmapBinLabel(edges, b, unit),
               QStringLiteral("[%1, %2)")
                   .arg(heatmapEdgeLabel(edges[std::size_t(b - 1)], unit),
                        heatmapEdgeLabel(edges[std::size_t(b)], unit)));

    // Rows: the span of bins any sample uses; the colour scale: 1 to the largest count.
    int lo = bins, hi = -1;
    std::uint32_t most = 0;
    for (const pva::HeatmapSample& s : h.samples())
      for (int b = 0; b < int(s.bins.size()); ++b) {
        most = std::max(most, s.bins[std::size_t(b)]);
        if (s.bins[std::size_t(b)] != 0) lo = std::min(lo, b), hi = std::max(hi, b);
      }
    QVERIFY(hi >= 0);
    QCOMPARE(info.rows.first, lo);
    QCOMPARE(info.rows.count, hi - lo + 1);
    QCOMPARE(info.rows.total, bins);
    QCOMPARE(info.maxCount, most);
    QCOMPARE(heatmapMaxCount(h), most);
    // More values in a bin: a darker colour.
    QVERIFY(heatmapColor(1.0).lightness() < heatmapColor(1.0 / most).lightness());
    QVERIFY(heatmapColor(0.5).lightness() < heatmapColor(0.1).lightness());
  }

  void heatmapLaneRowsAndHover() {
    auto page = openPage(rich_);
    QVERIFY(viewer_test::waitReady(page.get()));
    TraceTimeline* t = page->timeline();
    const QRect plot = t->plotRect();
    const TraceHeatmapInfo& info = page->index()->processes[0].heatmaps.at(0);
    const pva::TraceHeatmap& h = *info.heatmap;
    const QString unit = QString::fromStdString(h.unit());
    const TraceLane* lane = nullptr;
    for (const TraceLane& l : t->layout().lanes)
      if (l.kind == TraceLane::Kind::Heatmap) lane = &l;
    QVERIFY(lane);
    // One row per shown bin, every one at least binRowMin pixels tall and inside the lane.
    QCOMPARE(lane->binFirst, info.rows.first);
    QCOMPARE(lane->binRows, info.rows.count);
    QVERIFY(lane->binRowHeight >= TraceLayout::binRowMin);
    QVERIFY(lane->binTop(lane->binFirst) + lane->binRowHeight <= lane->height);
    QCOMPARE(lane->binTop(lane->binFirst - 1), -1);
    // Hovering a row names its bin, the sample's time and the count of that sample's bin.
    const int x = plot.right() - 20;
    const double time =
        t->viewBegin() + (x - plot.left()) * (t->viewEnd() - t->viewBegin()) / plot.width();
    auto it = std::upper_bound(
        h.samples().begin(), h.samples().end(), time,
        [](double v, const pva::HeatmapSample& s) { return v < double(s.timestampNs); });
    QVERIFY(it != h.samples().begin());
    const pva::HeatmapSample& sample = *(it - 1);
    for (int b = lane->binFirst; b < lane->binFirst + lane->binRows; ++b) {
      const int y = plot.top() + lane->y + lane->binTop(b) + lane->binRowHeight / 2;
      QCOMPARE(lane->binAt(lane->binTop(b) + lane->binRowHeight / 2), b);
      const QString tip = t->toolTipAt(QPoint(x, y));
      QVERIFY2(tip.contains(heatmapBinLabel(h.binEdges(), b, unit).toHtmlEscaped()),
               qPrintable(tip));
      QVERIFY2(tip.contains(QStringLiteral("Values in the bin: %1 of")
                                .arg(formatCount(sample.bins[std::size_t(b)]))),
               qPrintable(tip));
      QVERIFY2(tip.contains(formatTraceTime(double(sample.timestampNs), 1).left(10)),
               qPrintable(tip));
    }
    // The title row explains the colour scale with its range.
    const QString scale = t->toolTipAt(QPoint(x, plot.top() + lane->y + 4));
    QVERIFY2(scale.contains(QStringLiteral("from 1 (pale) to %1").arg(formatCount(info.maxCount))),
             qPrintable(scale));
  }

  void valueTicks() {
    // Ticks cover the range in 1-2-5 steps, at least 3 and at most the number asked for.
    auto check = [](double lo, double hi, int most, ValueTicks* out = nullptr) {
      const ValueTicks t = niceValueTicks(lo, hi, most);
      if (out) *out = t;
      QVERIFY2(t.values.size() >= 3 && int(t.values.size()) <= std::max(most, 3),
               qPrintable(QString::number(t.values.size())));
      QVERIFY(t.lo() <= std::min(lo, hi) && t.hi() >= std::max(lo, hi));
      for (std::size_t i = 1; i < t.values.size(); ++i)
        QVERIFY(std::fabs(t.values[i] - t.values[i - 1] - t.step) < t.step * 1e-6);
      const double mantissa = t.step / std::pow(10.0, std::floor(std::log10(t.step) + 1e-9));
      QVERIFY2(std::fabs(mantissa - 1) < 1e-6 || std::fabs(mantissa - 2) < 1e-6 ||
                   std::fabs(mantissa - 5) < 1e-6,
               qPrintable(QString::number(t.step)));
    };
    ValueTicks mb, fine, big;
    check(0, 250, 4, &mb);
    QCOMPARE(mb.values, (std::vector<double>{0, 100, 200, 300}));
    QCOMPARE(formatTick(200, mb, QStringLiteral("MB")), QStringLiteral("200 MB"));
    check(0, 0, 4);
    check(5, 5, 4);
    check(-3.2, 7.9, 6);
    check(0.001, 0.0042, 5);
    check(97.5, 98.25, 4);
    check(0.001, 0.0042, 5, &fine);
    QCOMPARE(formatTick(fine.values[1], fine, QString()),
             QString::number(fine.values[1], 'f', fine.decimals));
    check(1e9, 3.2e9, 4, &big);
    QVERIFY(big.scientific);
    QVERIFY(formatTick(big.values[1], big, QStringLiteral("B")).endsWith(QStringLiteral("e+09 B")));
  }

  void graphLaneAxis() {
    // The rich trace's "memory" graph: its value axis as drawn covers every sample of every
    // series, with at least 3 labelled ticks in the graph's one unit.
    auto page = openPage(rich_);
    QVERIFY(viewer_test::waitReady(page.get()));
    TraceTimeline* t = page->timeline();
    const TraceGraphInfo& info = page->index()->processes[0].graphs.at(0);
    const QString unit = QString::fromStdString(info.graph->unit());
    QCOMPARE(unit, QStringLiteral("MB"));
    for (const TraceLane& l : t->layout().lanes) {
      if (l.kind != TraceLane::Kind::Graph) continue;
      const ValueTicks ticks = t->graphTicks(l);
      QVERIFY(ticks.values.size() >= 3);
      QVERIFY(ticks.lo() <= info.min && ticks.hi() >= info.max);
      for (const pva::TraceSeries& s : info.graph->series())
        for (const pva::SeriesSample& v : s.samples())
          QVERIFY(v.value >= ticks.lo() && v.value <= ticks.hi());
      for (double v : ticks.values) {
        const QString label = formatTick(v, ticks, unit);
        QVERIFY2(label.endsWith(QStringLiteral(" MB")) && label.count(QLatin1Char(' ')) == 1,
                 qPrintable(label));
      }
      // Room for every label: at least a line of text between ticks.
      const auto [top, bottom] = TraceTimeline::graphSpan(l);
      QVERIFY((bottom - top) / double(ticks.values.size() - 1) >= t->fontMetrics().height());
    }
  }

  void layoutFollowsOptions() {
    TraceLayoutOptions options;
    TraceLayout layout = buildTraceLayout(*index_, options);
    // file, process, heatmap, two threads, graph
    QCOMPARE(layout.lanes.size(), std::size_t(6));
    QCOMPARE(layout.lanes[2].kind, TraceLane::Kind::Heatmap);
    QCOMPARE(layout.lanes.back().kind, TraceLane::Kind::Graph);
    for (const TraceLane& l : layout.lanes) {
      QCOMPARE(layout.laneAt(l.y), int(&l - layout.lanes.data()));
      QCOMPARE(layout.laneAt(l.y + l.height - 1), int(&l - layout.lanes.data()));
    }
    options.merged = true;
    QCOMPARE(buildTraceLayout(*index_, options).lanes.size(), std::size_t(5));
    options.collapsed.insert(QStringLiteral("p0"));
    QCOMPARE(buildTraceLayout(*index_, options).lanes.size(), std::size_t(2));
    options.collapsed.insert(QStringLiteral("file"));
    QCOMPARE(buildTraceLayout(*index_, options).lanes.size(), std::size_t(1));
  }

  void callTreeModel() {
    TraceCallTreeModel model;
    const auto tester = viewer_test::checkModel(&model);
    const int main = threadNamed(*index_, QStringLiteral("main"));
    const TraceEventRef last = topLevel(*index_, main).back();
    model.setEvent(index_, last);
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex root = model.index(0, 0);
    QCOMPARE(root.data().toString(), QStringLiteral("step"));
    QCOMPARE(model.rowCount(root), 3);
    const QModelIndex forward = model.index(0, 0, root);
    QCOMPARE(forward.data().toString(), QStringLiteral("forward"));
    QCOMPARE(model.rowCount(forward), 2);
    const QModelIndex layer1 = model.index(1, 0, forward);
    QCOMPARE(layer1.data().toString(), QStringLiteral("layer1"));
    QCOMPARE(model.parent(layer1), forward);
    QCOMPARE(model.parent(forward), root);
    QCOMPARE(model.index(2, 0, root).data().toString(), QStringLiteral("tiny"));
    // Durations and self time in nanoseconds, as indexed.
    const TraceEventRecord& rec = index_->event(last);
    QCOMPARE(model.index(0, TraceCallTreeModel::DurationColumn)
                 .data(TraceCallTreeModel::NanosecondsRole)
                 .toLongLong(),
             qlonglong(rec.duration()));
    QCOMPARE(model.index(0, TraceCallTreeModel::SelfColumn)
                 .data(TraceCallTreeModel::NanosecondsRole)
                 .toLongLong(),
             qlonglong(rec.self));
    QVERIFY(!model.index(0, TraceCallTreeModel::ShareColumn).data().toString().isEmpty());
    // An instant event has no call tree; a loader event has one child.
    model.setEvent(index_, {main, 0, true});
    QCOMPARE(model.rowCount(), 0);
    const int loader = threadNamed(*index_, QStringLiteral("loader"));
    model.setEvent(index_, {loader, 0, false});
    QCOMPARE(model.rowCount(model.index(0, 0)), 1);
    model.setEvent(nullptr, {});
    QCOMPARE(model.rowCount(), 0);
  }

  void timelineZoomPanAndFit() {
    auto page = openPage(rich_);
    QVERIFY(viewer_test::waitReady(page.get()));
    TraceTimeline* t = page->timeline();
    QVERIFY(t->index() != nullptr);
    const double fullSpan = t->viewEnd() - t->viewBegin();
    // Fitted to the activity: from just before the first event or sample to just after the last.
    QVERIFY(t->viewBegin() <= double(t->index()->beginNs) &&
            t->viewEnd() >= double(t->index()->endNs));
    QVERIFY(t->viewEnd() - t->viewBegin() < double(t->index()->endNs - t->index()->beginNs) * 1.1);
    QCOMPARE(t->eventsInView(), t->index()->eventCount);

    // The wheel zooms on the hovered time: it stays under the mouse.
    const QRect plot = t->plotRect();
    const QPoint at(plot.left() + plot.width() / 4, plot.top() + 10);
    const double before = t->viewBegin() + (t->viewEnd() - t->viewBegin()) * 0.25;
    sendWheel(t, at, 240);
    QVERIFY(t->viewEnd() - t->viewBegin() < fullSpan * 0.8);
    const double after =
        t->viewBegin() + (t->viewEnd() - t->viewBegin()) * (at.x() - plot.left()) / plot.width();
    QVERIFY(std::abs(after - before) < fullSpan * 0.01);
    QVERIFY(t->eventsInView() <= t->index()->eventCount);

    // Keys: + zooms in, Right pans, 0 fits, Home fits.
    const double span = t->viewEnd() - t->viewBegin();
    QTest::keyClick(t, Qt::Key_Plus);
    QVERIFY(t->viewEnd() - t->viewBegin() < span * 0.6);
    const double begin = t->viewBegin();
    QTest::keyClick(t, Qt::Key_Right);
    QVERIFY(t->viewBegin() > begin);
    QTest::keyClick(t, Qt::Key_0);
    QCOMPARE(t->viewEnd() - t->viewBegin(), fullSpan);
    // Zooming out stops at the whole trace, from the start of tracing.
    for (int i = 0; i < 12; ++i)
      QTest::keyClick(t, Qt::Key_Minus);
    const double widest = t->viewEnd() - t->viewBegin();
    QVERIFY(widest >= fullSpan && t->viewBegin() <= 0);
    QTest::keyClick(t, Qt::Key_Minus);
    QCOMPARE(t->viewEnd() - t->viewBegin(), widest);
    QTest::keyClick(t, Qt::Key_0);

    // Dragging pans by the dragged distance.
    t->zoomAt(plot.width() / 2.0, 0.25);
    const double b0 = t->viewBegin(), nsPerPx = (t->viewEnd() - t->viewBegin()) / plot.width();
    const QPoint from(plot.center().x(), plot.top() + 5);
    QTest::mousePress(t, Qt::LeftButton, {}, from);
    QTest::mouseMove(t, from + QPoint(-50, 0));
    QTest::mouseMove(t, from + QPoint(-100, 0));
    QTest::mouseRelease(t, Qt::LeftButton, {}, from + QPoint(-100, 0));
    QVERIFY(std::abs((t->viewBegin() - b0) - 100 * nsPerPx) < nsPerPx);
    QTest::keyClick(t, Qt::Key_Home);
    QCOMPARE(t->viewEnd() - t->viewBegin(), fullSpan);

    // The overview's window follows a click there.
    t->zoomAt(0, 0.1);
    const QRect ov = t->overviewRect();
    QTest::mouseClick(t, Qt::LeftButton, {}, QPoint(ov.right() - 5, ov.center().y()));
    QVERIFY(t->viewEnd() > double(t->index()->endNs) * 0.9);
  }

  void clickingAnEventShowsItsDetails() {
    auto page = openPage(rich_);
    QVERIFY(viewer_test::waitReady(page.get()));
    TraceTimeline* t = page->timeline();
    const int main = threadNamed(*page->index(), QStringLiteral("main"));
    const TraceEventRef first = topLevel(*page->index(), main).front();
    const QRect r = t->eventRect(first);
    QVERIFY2(r.width() >= 3, qPrintable(QStringLiteral("%1x%2").arg(r.width()).arg(r.height())));
    QVERIFY(t->toolTipAt(r.center()).contains(QStringLiteral("step")));
    QSignalSpy spy(t, &TraceTimeline::selectionChanged);
    QTest::mouseClick(t, Qt::LeftButton, {}, r.center());
    QCOMPARE(spy.count(), 1);
    QVERIFY(t->selection() == first);
    QVERIFY(page->summary()->text().contains(QStringLiteral("step")));
    QVERIFY(page->summary()->text().contains(QStringLiteral("Duration")));
    TraceCallTreeModel* tree = page->callTree();
    QCOMPARE(tree->rowCount(), 1);
    const QModelIndex root = tree->index(0, 0);
    QCOMPARE(tree->rowCount(root), 2);
    QCOMPARE(tree->index(0, 0, root).data().toString(), QStringLiteral("forward"));
    QCOMPARE(tree->index(1, 0, root).data().toString(), QStringLiteral("backward"));
    // Metadata, pretty-printed.
    QVERIFY(page->metadata()->toPlainText().contains(QStringLiteral("\"phase\": \"train\"")));
    QVERIFY(page->metadata()->toPlainText().contains(QLatin1Char('\n')));

    // An instant marker is selectable too.
    const TraceEventRef checkpoint{main, 0, true};
    const QRect m = t->eventRect(checkpoint);
    QVERIFY(!m.isEmpty());
    QTest::mouseClick(t, Qt::LeftButton, {}, QPoint(m.center().x(), m.top() + 5));
    QVERIFY(t->selection() == checkpoint);
    QVERIFY(page->summary()->text().contains(QStringLiteral("checkpoint")));
    QVERIFY(page->metadata()->toPlainText().contains(QStringLiteral("checkpoint-1")));
    QCOMPARE(tree->rowCount(), 0);

    // Escape clears the selection.
    QTest::keyClick(t, Qt::Key_Escape);
    QVERIFY(!t->selection().valid());

    // Clicking a thread's name collapses it to its top-level row.
    const int lane = t->layout().laneOfThread(main);
    const int height = t->layout().lanes[std::size_t(lane)].height;
    const QPoint label(20, t->plotRect().top() + t->layout().lanes[std::size_t(lane)].y + 8);
    QTest::mouseClick(t, Qt::LeftButton, {}, label);
    QVERIFY(t->layout().lanes[std::size_t(lane)].collapsed);
    QVERIFY(t->layout().lanes[std::size_t(lane)].height < height);
    QTest::mouseClick(t, Qt::LeftButton, {}, label);
    QCOMPARE(t->layout().lanes[std::size_t(lane)].height, height);

    // Painting (offscreen, into an image) shows real content; kept for a person to look at, with
    // an event selected, then with merged charts, filled graphs and absolute time.
    QImage image(t->size(), QImage::Format_ARGB32);
    t->render(&image);
    QVERIFY(viewer_test::distinctColors(image) >= 8);
    const QString dir = viewer_test::tmpDir(QStringLiteral("trace-images"));
    page->searchBox()->setText(QStringLiteral("forward"));
    page->findNext();
    QVERIFY(page->grab().save(dir + QStringLiteral("/selected.png")));
    page->details()->setCurrentIndex(1);
    t->fit();
    page->mergeCharts()->setChecked(true);
    page->filledGraphs()->setChecked(true);
    page->absoluteTime()->setChecked(true);
    QVERIFY(t->filledGraphs() && t->absoluteTime());
    QVERIFY(page->grab().save(dir + QStringLiteral("/merged-filled-absolute.png")));
  }

  void searchStepsThroughMatches() {
    auto page = openPage(rich_);
    QVERIFY(viewer_test::waitReady(page.get()));
    TraceTimeline* t = page->timeline();
    const double fullSpan = t->viewEnd() - t->viewBegin();
    QTest::keyClicks(page->searchBox(), QStringLiteral("layer1"));
    QCOMPARE(int(page->matches().size()), rich_trace::steps);
    QCOMPARE(page->matchLabel()->text(), QStringLiteral("3 matches"));
    QTest::keyClick(page->searchBox(), Qt::Key_Return);
    QCOMPARE(page->matchLabel()->text(), QStringLiteral("1 of 3"));
    QVERIFY(t->selection() == page->matches()[0]);
    QTest::keyClick(page->searchBox(), Qt::Key_F3);
    QCOMPARE(page->matchLabel()->text(), QStringLiteral("2 of 3"));
    const TraceEventRef second = page->matches()[1];
    QVERIFY(t->selection() == second);
    // The view moved and zoomed to it, and it is on screen.
    const TraceEventRecord& e = page->index()->event(second);
    QVERIFY(t->viewBegin() <= double(e.begin) && t->viewEnd() >= double(e.end));
    // Zoomed to the event: a few times its length. (Not "less than half the trace": the fixture
    // is traced in real time, so on a loaded machine one layer can take a sixth of the trace.)
    QVERIFY(t->viewEnd() - t->viewBegin() < fullSpan);
    QVERIFY(t->viewEnd() - t->viewBegin() <= std::max(4.0 * double(e.end - e.begin), 4000.0));
    QVERIFY(!t->eventRect(second).isEmpty());
    QVERIFY(page->summary()->text().contains(QStringLiteral("layer1")));
    QTest::keyClick(page->searchBox(), Qt::Key_F3, Qt::ShiftModifier);
    QCOMPARE(page->matchLabel()->text(), QStringLiteral("1 of 3"));
    QTest::keyClick(page->searchBox(), Qt::Key_F3, Qt::ShiftModifier);
    QCOMPARE(page->matchLabel()->text(), QStringLiteral("3 of 3")); // wraps
    QTest::keyClick(page->searchBox(), Qt::Key_Return);
    QCOMPARE(page->matchLabel()->text(), QStringLiteral("1 of 3"));
    QTest::keyClick(page->searchBox(), Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(page->matchLabel()->text(), QStringLiteral("3 of 3"));
    page->searchBox()->setText(QStringLiteral("nothing like this"));
    QCOMPARE(page->matchLabel()->text(), QStringLiteral("no match"));

    // A search reveals events in collapsed lanes.
    t->collapseAll();
    page->searchBox()->setText(QStringLiteral("allreduce"));
    page->findNext();
    QVERIFY(!t->eventRect(t->selection()).isEmpty());
  }

  void mergedBlocksAndChartLanes() {
    auto page = openPage(rich_);
    QVERIFY(viewer_test::waitReady(page.get()));
    TraceTimeline* t = page->timeline();
    const QRect plot = t->plotRect();
    const TraceIndex& index = *page->index();
    // The loader's burst of ticks is one merged block at this zoom: its tooltip says how many
    // events it holds, and clicking it zooms in rather than selecting.
    const int loader = threadNamed(index, QStringLiteral("loader"));
    TraceViewport v;
    v.t0 = t->viewBegin();
    v.width = plot.width();
    v.nsPerPx = (t->viewEnd() - t->viewBegin()) / plot.width();
    std::vector<TraceBlock> blocks;
    visibleBlocks(index.threads[std::size_t(loader)].depths[0], v, blocks);
    auto merged =
        std::find_if(blocks.begin(), blocks.end(), [](const TraceBlock& b) { return b.count > 1; });
    QVERIFY(merged != blocks.end());
    const TraceLane& lane = t->layout().lanes[std::size_t(t->layout().laneOfThread(loader))];
    const QPoint at(plot.left() + int(std::floor((merged->x0 + merged->x1) / 2)),
                    plot.top() + lane.y + lane.rowTop(0) + TraceLayout::rowHeight / 2);
    QVERIFY2(t->toolTipAt(at).contains(QStringLiteral("events")), qPrintable(t->toolTipAt(at)));
    const double span = t->viewEnd() - t->viewBegin();
    QTest::mouseClick(t, Qt::LeftButton, {}, at);
    QVERIFY(t->viewEnd() - t->viewBegin() < span / 4);
    QVERIFY(!t->selection().valid());
    QTest::keyClick(t, Qt::Key_0);

    // Graph and heatmap lanes explain the value under the mouse.
    for (const TraceLane& l : t->layout().lanes) {
      const QPoint p(plot.right() - 20, plot.top() + l.y + l.height / 2);
      if (l.kind == TraceLane::Kind::Graph) {
        const QString tip = t->toolTipAt(p);
        QVERIFY2(tip.contains(QStringLiteral("host")) && tip.contains(QStringLiteral("MB")),
                 qPrintable(tip));
      } else if (l.kind == TraceLane::Kind::Heatmap) {
        QVERIFY2(t->toolTipAt(p).contains(QStringLiteral("gradients")),
                 qPrintable(t->toolTipAt(p)));
      }
    }
    // The label column names the lane.
    QCOMPARE(t->toolTipAt(QPoint(20, plot.top() + lane.y + 5)), lane.title);
  }

  void mergeAllChartsPutsThreadsInOneLane() {
    auto page = openPage(rich_);
    QVERIFY(viewer_test::waitReady(page.get()));
    TraceTimeline* t = page->timeline();
    const int lanes = t->laneCount();
    page->mergeCharts()->setChecked(true);
    QCOMPARE(t->laneCount(), lanes - 1);
    // Both threads' events are drawn (and clickable) in the merged lane.
    const int loader = threadNamed(*page->index(), QStringLiteral("loader"));
    const TraceEventRef load = topLevel(*page->index(), loader).front();
    const QRect r = t->eventRect(load);
    QVERIFY(!r.isEmpty());
    QTest::mouseClick(t, Qt::LeftButton, {}, r.center());
    QCOMPARE(t->selection().thread, loader);
    page->mergeCharts()->setChecked(false);
    QCOMPARE(t->laneCount(), lanes);
  }

  void tracesShowOnlyThisPage() {
    // Of every registered page, only this one takes a trace, and it takes nothing else.
    QWidget parent;
    const auto trace = Document::resolve(viewer_test::traceFile());
    const auto report = Document::resolve(viewer_test::mlpReport());
    int taking = 0;
    for (Page* p : createPages(&parent)) {
      const bool mine = p->viewKey() == QStringLiteral("trace");
      QCOMPARE(p->accepts(*trace), mine);
      if (mine) QVERIFY(!p->accepts(*report));
      taking += p->accepts(*trace) ? 1 : 0;
    }
    QCOMPARE(taking, 1);
  }

  void fixtureTraceLoads() {
    auto page = openPage(viewer_test::traceFile());
    QVERIFY(viewer_test::waitReady(page.get()));
    const TraceIndex& index = *page->index();
    QVERIFY(index.eventCount > 0);
    QVERIFY(!index.threads.empty());
    QCOMPARE(page->timeline()->eventsInView(), index.eventCount);
    // Real engine phases are there, findable by label.
    QStringList labels;
    for (const QString& l : index.labels)
      labels << l;
    QVERIFY2(!labels.isEmpty(), "no labels");
    page->searchBox()->setText(labels.front());
    page->findNext();
    QVERIFY(page->timeline()->selection().valid());
    QImage image(page->timeline()->size(), QImage::Format_ARGB32);
    page->timeline()->render(&image);
    QVERIFY(viewer_test::distinctColors(image) >= 8);
  }

  void largeTraceStaysResponsive() {
    // 200,000 tiny events on one thread: building the index and painting a frame stay quick.
    const QString path = writeTrace(viewer_test::tmpDir(QStringLiteral("trace-large")), 200000);
    QVERIFY(QFile::exists(path));
    QElapsedTimer timer;
    timer.start();
    Progress progress = Progress::standalone(QStringLiteral("test"));
    auto index = std::make_shared<const TraceIndex>(loadTraceIndex(path, progress));
    const double loadMs = timer.nsecsElapsed() / 1e6;
    QVERIFY(index->eventCount >= 200000);
    TraceTimeline t;
    t.resize(1600, 900);
    t.setIndex(index);
    QImage image(t.size(), QImage::Format_ARGB32);
    timer.restart();
    t.render(&image);
    const double paintMs = timer.nsecsElapsed() / 1e6;
    qInfo("%zu events: index %.1f ms (open + build), first frame %.1f ms", index->eventCount,
          loadMs, paintMs);
    QVERIFY2(paintMs < 500, qPrintable(QString::number(paintMs)));
  }

  void brokenFilesGiveAnErrorNamingThem_data() {
    QTest::addColumn<QByteArray>("bytes");
    QByteArray random(4096, '\0');
    for (char& c : random)
      c = char(QRandomGenerator::global()->bounded(256));
    QTest::newRow("random") << random;
    QTest::newRow("empty") << QByteArray();
    QFile pop(viewer_test::testDataDir() + QStringLiteral("/random.pop"));
    QVERIFY(pop.open(QIODevice::ReadOnly));
    QTest::newRow("a report's bytes") << pop.readAll();
    QFile real(viewer_test::traceFile());
    QVERIFY(real.open(QIODevice::ReadOnly));
    const QByteArray whole = real.readAll();
    QTest::newRow("truncated trace") << whole.left(whole.size() / 3);
  }
  void brokenFilesGiveAnErrorNamingThem() {
    QFETCH(QByteArray, bytes);
    const QString path =
        viewer_test::tmpDir(QStringLiteral("trace-broken")) + QStringLiteral("/x.pvti");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    f.close();
    HostTracePage page;
    QSignalSpy errors(&page, &Page::errorOccurred);
    page.setDocument(Document::resolve(path));
    QVERIFY(errors.wait(30000));
    QVERIFY2(errors.front().front().toString().contains(QStringLiteral("x.pvti")),
             qPrintable(errors.front().front().toString()));
    QVERIFY(!page.isReady());
  }
};

QTEST_MAIN(TraceTest)
#include "test_trace.moc"
