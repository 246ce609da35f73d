// Painting of the trace timeline: statistics line, overview strip, time axis, lanes (flame rows,
// instant markers, line graphs, heatmaps) and tooltips' text. Every row is reduced to the pixel
// width by TraceLod before anything is drawn.
#include "charts/TraceTimeline.hpp"
#include "core/Format.hpp"
#include "core/HeatmapAxis.hpp"
#include "core/TraceTime.hpp"

#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <algorithm>
#include <cmath>

namespace tessera::viewer {

namespace {

QColor eventColor(std::uint32_t label) {
  return ChartWidget::seriesColor(int(label));
}

QColor readableTextOn(const QColor& c) {
  return qGray(c.rgb()) > 140 ? QColor(Qt::black) : QColor(Qt::white);
}

// Graph values in one style: plain for ordinary magnitudes, scientific otherwise.
QString formatValue(double v, const QString& unit) {
  const double a = std::fabs(v);
  const QString number =
      (a != 0 && (a >= 1e5 || a < 1e-2)) ? QString::number(v, 'e', 2) : QString::number(v, 'g', 4);
  return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

QString kindName(pva::InstantEvent::Kind kind) {
  switch (kind) {
  case pva::InstantEvent::Kind::Instant:
    return QObject::tr("instant event");
  case pva::InstantEvent::Kind::UnmatchedEnd:
    return QObject::tr("end() with nothing open");
  case pva::InstantEvent::Kind::MismatchedEnd:
    return QObject::tr("end() of a different label");
  }
  return {};
}

QString escaped(const QString& s) {
  return s.toHtmlEscaped();
}

QFont smallFont(const QFont& f) {
  QFont small = f;
  small.setPointSizeF(f.pointSizeF() * 0.85);
  return small;
}

/// Axis labels (a graph's ticks, a heatmap's bins) sit right-aligned in the label column, against
/// the chart; this is the space they take there.
int axisLabelWidth(const QFontMetrics& fm, const QStringList& labels) {
  int w = 0;
  for (const QString& l : labels)
    w = std::max(w, fm.horizontalAdvance(l));
  return w;
}

} // namespace

QString TraceTimeline::timeLabel(double ns, double stepNs) const {
  return absoluteTime_ && index_ ? formatAbsoluteTraceTime(index_->startTimestampUs, ns, stepNs)
                                 : formatTraceTime(ns, stepNs);
}

void TraceTimeline::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), backgroundColor());
  if (!index_) {
    p.setPen(textColor());
    p.drawText(rect(), Qt::AlignCenter, tr("No trace"));
    return;
  }
  const QRect plot = plotRect();
  const QRect lanes(0, plot.top(), plot.right() + 1, plot.height());
  paintStats(p);
  paintOverview(p);
  paintAxis(p, lanes);

  p.save();
  p.setClipRect(lanes);
  const int scroll = vscroll_->value();
  const int first = std::max(0, layout_.laneAt(scroll));
  for (std::size_t i = std::size_t(first); i < layout_.lanes.size(); ++i) {
    const TraceLane& lane = layout_.lanes[i];
    const int top = plot.top() + lane.y - scroll;
    if (top > plot.bottom()) break;
    if (lane.kind == TraceLane::Kind::File || lane.kind == TraceLane::Kind::Process) {
      QColor band = palette().color(QPalette::Button);
      if (lane.kind == TraceLane::Kind::Process) band = band.lighter(104);
      p.fillRect(QRect(0, top, plot.right() + 1, lane.height), band);
    }
    p.save();
    p.setClipRect(QRect(plot.left(), top, plot.width(), lane.height).intersected(lanes));
    if (lane.kind == TraceLane::Kind::Thread)
      paintThreadLane(p, lane, top);
    else if (lane.kind == TraceLane::Kind::Graph)
      paintGraphLane(p, lane, top);
    else if (lane.kind == TraceLane::Kind::Heatmap)
      paintHeatmapLane(p, lane, top);
    p.restore();
    paintLaneLabel(p, lane, top);
    p.setPen(gridColor());
    p.drawLine(0, top + lane.height - 1, plot.right(), top + lane.height - 1);
  }
  paintSelection(p);
  p.restore();
  p.setPen(gridColor());
  p.drawLine(labelWidth - 1, plot.top(), labelWidth - 1, plot.bottom());
}

void TraceTimeline::paintStats(QPainter& p) const {
  const std::size_t threads = index_->threads.size();
  const QString text =
      tr("%1 events in view   ·   visible %2 of %3   ·   %4 events, %5 instant events, %6 %7")
          .arg(formatCount(eventsInView()), formatDurationNs(window_.span()),
               formatDurationNs(double(index_->endNs)), formatCount(index_->eventCount),
               formatCount(index_->instantCount), formatCount(threads),
               threads == 1 ? tr("thread") : tr("threads"));
  p.setPen(textColor());
  p.drawText(QRect(8, 0, width() - 16, statsHeight), Qt::AlignLeft | Qt::AlignVCenter, text);
}

void TraceTimeline::paintOverview(QPainter& p) const {
  const QRect r = overviewRect();
  p.setPen(textColor());
  p.drawText(QRect(8, r.top(), labelWidth - 16, r.height()), Qt::AlignLeft | Qt::AlignVCenter,
             tr("Overview"));
  p.fillRect(r, palette().color(QPalette::AlternateBase));
  if (overviewMax_ > 0) {
    // Log scale: one busy burst should not flatten everything else.
    const double scale = std::log1p(double(overviewMax_));
    const QColor bar = seriesColor(0);
    for (std::size_t c = 0; c < overview_.size() && int(c) < r.width(); ++c) {
      if (overview_[c] == 0) continue;
      const int h = std::max(
          1, int(std::lround((r.height() - 2) * std::log1p(double(overview_[c])) / scale)));
      p.fillRect(QRect(r.left() + int(c), r.bottom() - h + 1, 1, h), bar);
    }
  }
  // The visible window, dragged to pan.
  const double k = r.width() / (fullEnd() - fullBegin());
  const int x0 = r.left() + int(std::floor((window_.from() - fullBegin()) * k));
  const int x1 = r.left() + int(std::ceil((window_.to() - fullBegin()) * k));
  QColor fill = palette().color(QPalette::Highlight);
  fill.setAlpha(28);
  const QRect window(x0, r.top(), std::max(3, x1 - x0), r.height());
  p.fillRect(window, fill);
  p.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
  p.drawRect(window.adjusted(0, 0, -1, -1));
  p.setPen(gridColor());
  p.drawRect(r.adjusted(0, 0, -1, -1));
}

void TraceTimeline::paintAxis(QPainter& p, const QRect& lanes) const {
  const TraceViewport v = viewport();
  const QRect plot = plotRect();
  const int top = statsHeight + overviewHeight;
  const double step = niceTimeStep(v.nsPerPx * (absoluteTime_ ? 130 : 110));
  p.setPen(textColor());
  p.drawText(QRect(8, top, labelWidth - 16, axisHeight), Qt::AlignLeft | Qt::AlignVCenter,
             absoluteTime_ ? tr("Time of day") : tr("Time from start"));
  for (double t = std::ceil(window_.from() / step) * step; t <= window_.to(); t += step) {
    const int x = plot.left() + int(std::lround(v.x(t)));
    p.setPen(gridColor());
    p.drawLine(x, top + axisHeight - 6, x, lanes.bottom());
    const QString label = timeLabel(t, step);
    if (x + 3 + p.fontMetrics().horizontalAdvance(label) > plot.right())
      continue; // would be clipped
    p.setPen(textColor());
    p.drawText(QRect(x + 3, top, 200, axisHeight - 2), Qt::AlignLeft | Qt::AlignVCenter, label);
  }
  p.setPen(gridColor());
  p.drawLine(0, top + axisHeight - 1, width(), top + axisHeight - 1);
}

void TraceTimeline::paintLaneLabel(QPainter& p, const TraceLane& lane, int top) const {
  const int x = 6 + lane.indent * 12;
  p.setPen(textColor());
  QFont f = font();
  if (lane.kind == TraceLane::Kind::File || lane.kind == TraceLane::Kind::Process) f.setBold(true);
  p.setFont(f);
  int textX = x;
  if (lane.collapsible) {
    // A small triangle: pointing right when collapsed, down when expanded.
    const QPointF c(x + 4, top + TraceLayout::rowHeight / 2.0 + 1);
    QPolygonF tri;
    if (lane.collapsed)
      tri << c + QPointF(-3, -4) << c + QPointF(3, 0) << c + QPointF(-3, 4);
    else
      tri << c + QPointF(-4, -2) << c + QPointF(4, -2) << c + QPointF(0, 3);
    p.setBrush(textColor());
    p.setPen(Qt::NoPen);
    p.drawPolygon(tri);
    p.setPen(textColor());
    textX += 12;
  }
  // Headers are bands across the whole width: their titles may run over the plot.
  const bool header = lane.kind == TraceLane::Kind::File || lane.kind == TraceLane::Kind::Process;
  const QRect textRect(textX, top, (header ? plotRect().right() : labelWidth - 6) - textX,
                       TraceLayout::rowHeight + 1);
  QString title = lane.title;
  if (lane.kind == TraceLane::Kind::File)
    title = tr("%1 (format %2)")
                .arg(lane.title, std::size_t(lane.file) < index_->files.size()
                                     ? index_->files[std::size_t(lane.file)].formatVersion
                                     : index_->formatVersion);
  p.drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter,
             p.fontMetrics().elidedText(title, Qt::ElideMiddle, textRect.width()));
  p.setFont(smallFont(font()));
  QColor dim = textColor();
  dim.setAlpha(150);
  p.setPen(dim);
  const int lineY = top + TraceLayout::rowHeight;
  if (lane.kind == TraceLane::Kind::Thread && lane.height >= 2 * TraceLayout::rowHeight) {
    std::size_t events = 0;
    for (int t : laneThreads(lane))
      events += index_->threads[std::size_t(t)].events.size();
    p.drawText(QRect(textX, lineY, labelWidth - textX - 6, 16), Qt::AlignLeft | Qt::AlignVCenter,
               tr("%1 events").arg(formatCount(events)));
  } else if (lane.kind == TraceLane::Kind::Graph) {
    // Series legend on the left, the value axis right-aligned against the chart.
    const pva::TraceGraph& g =
        *index_->processes[std::size_t(lane.process)].graphs[std::size_t(lane.chart)].graph;
    const ValueTicks ticks = graphTicks(lane);
    const QString unit = QString::fromStdString(g.unit());
    QStringList labels;
    for (double v : ticks.values)
      labels << formatTick(v, ticks, unit);
    const int axisWidth = axisLabelWidth(p.fontMetrics(), labels);
    const auto [yHi, yLo] = graphSpan(lane);
    const int fh = p.fontMetrics().height();
    int lastY = top - fh; // the last label drawn: none overlaps it
    for (int i = int(ticks.values.size()) - 1; i >= 0; --i) {
      const double share = (ticks.values[std::size_t(i)] - ticks.lo()) / (ticks.hi() - ticks.lo());
      const int y = top + int(std::lround(yLo - share * (yLo - yHi)));
      if (y - lastY < fh) continue;
      lastY = y;
      p.setPen(textColor());
      p.drawText(QRect(labelWidth - 10 - axisWidth, y - fh / 2, axisWidth, fh),
                 Qt::AlignRight | Qt::AlignVCenter, labels[i]);
      p.setPen(gridColor());
      p.drawLine(labelWidth - 6, y, labelWidth - 1, y);
    }
    const int legendWidth = labelWidth - 16 - axisWidth - textX;
    int y = lineY;
    for (std::size_t s = 0; s < g.series().size() && y + 14 <= top + lane.height; ++s, y += 14) {
      p.fillRect(QRect(textX, y + 4, 10, 6), seriesColor(int(s)));
      p.setPen(dim);
      p.drawText(QRect(textX + 14, y, legendWidth - 14, 14), Qt::AlignLeft | Qt::AlignVCenter,
                 p.fontMetrics().elidedText(QString::fromStdString(g.series()[s].name()),
                                            Qt::ElideRight, legendWidth - 14));
    }
  } else if (lane.kind == TraceLane::Kind::Heatmap) {
    // The bin axis: each row's value range, right-aligned against the chart; every k-th row when
    // the rows are thinner than the text.
    const pva::TraceHeatmap& h =
        *index_->processes[std::size_t(lane.process)].heatmaps[std::size_t(lane.chart)].heatmap;
    const QString unit = QString::fromStdString(h.unit());
    const int fh = p.fontMetrics().height();
    const int every = std::max(1, (fh + lane.binRowHeight - 1) / lane.binRowHeight);
    for (int row = 0; row < lane.binRows; ++row) {
      const int bin = lane.binFirst + lane.binRows - 1 - row;
      const int y = top + lane.binTop(bin) + lane.binRowHeight / 2;
      p.setPen(gridColor());
      p.drawLine(labelWidth - 5, y, labelWidth - 1, y);
      if ((lane.binRows - 1 - row) % every != 0) continue;
      p.setPen(textColor());
      p.drawText(QRect(textX, y - fh / 2, labelWidth - 8 - textX, fh),
                 Qt::AlignRight | Qt::AlignVCenter, heatmapBinLabel(h.binEdges(), bin, unit));
    }
  }
  p.setFont(font());
}

void TraceTimeline::paintThreadLane(QPainter& p, const TraceLane& lane, int top) const {
  const QRect plot = plotRect();
  const TraceViewport v = viewport();
  const std::vector<int> threads = laneThreads(lane);
  const QFontMetrics fm = p.fontMetrics();
  const double left = plot.left();
  // Instant events: a stem and a head per pixel column that has any.
  if (lane.instantHeight > 0) {
    std::vector<TraceMarker> markers;
    for (int t : threads) {
      const auto& instants = index_->threads[std::size_t(t)].instants;
      markers.clear();
      visibleMarkers(instants, v, markers);
      for (const TraceMarker& m : markers) {
        const TraceInstant& e = instants[m.instant];
        const QColor c = e.kind == pva::InstantEvent::Kind::Instant ? eventColor(e.label)
                                                                    : QColor(0xd6, 0x27, 0x28);
        const double x = left + m.x;
        p.setPen(QPen(textColor(), 1));
        p.drawLine(QPointF(x, top + 7), QPointF(x, top + lane.instantHeight));
        p.setPen(QPen(textColor(), 0.8));
        p.setBrush(c);
        const double r = m.count > 1 ? 4.5 : 3.5;
        p.drawEllipse(QPointF(x, top + 5), r, r);
      }
    }
  }
  std::vector<TraceBlock> blocks;
  QColor mergedColor = textColor();
  mergedColor.setAlpha(90);
  for (int d = 0; d < lane.depthRows; ++d) {
    const int y = top + lane.rowTop(d);
    if (y > plot.bottom() || y + TraceLayout::rowHeight < plot.top()) continue;
    for (int t : threads) {
      const TraceThreadIndex& thread = index_->threads[std::size_t(t)];
      if (std::size_t(d) >= thread.depths.size()) continue;
      blocks.clear();
      visibleBlocks(thread.depths[std::size_t(d)], v, blocks);
      for (const TraceBlock& b : blocks) {
        const double x0 = std::max(b.x0, -2.0), x1 = std::min(b.x1, double(v.width) + 2);
        const QRectF r(left + x0, y + 1, x1 - x0, TraceLayout::rowHeight - 2);
        if (b.count > 1) {
          p.fillRect(r, mergedColor);
          continue;
        }
        const TraceEventRecord& e = thread.events[b.event];
        const QColor c = eventColor(e.label);
        p.fillRect(r, c);
        if (r.width() >= 4) {
          p.setPen(c.darker(140));
          p.setBrush(Qt::NoBrush);
          p.drawRect(r.adjusted(0, 0, -0.5, -0.5));
        }
        if (r.width() >= 14) {
          const QString& label = index_->labels[e.label];
          QString text = fm.elidedText(label, Qt::ElideRight, int(r.width()) - 6);
          // A sub-microsecond event too narrow for its name says how short it is.
          if (b.subMicrosecond && text != label &&
              fm.horizontalAdvance(QStringLiteral("<1µs")) <= r.width() - 4)
            text = QStringLiteral("<1µs");
          if (text.size() > 1 || text == label) {
            p.setPen(readableTextOn(c));
            p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
          }
        }
      }
    }
  }
}

std::pair<int, int> TraceTimeline::graphSpan(const TraceLane& lane) {
  // Half a label's height of room above the top tick and below the bottom one.
  return {lane.chartTop + 6, lane.height - TraceLayout::lanePadding - 6};
}

ValueTicks TraceTimeline::graphTicks(const TraceLane& lane) const {
  const TraceGraphInfo& info =
      index_->processes[std::size_t(lane.process)].graphs[std::size_t(lane.chart)];
  const auto [yHi, yLo] = graphSpan(lane);
  // A labelled tick every 20 px or more; never fewer than 3.
  return niceValueTicks(info.min, info.max, std::max(3, 1 + (yLo - yHi) / 20));
}

void TraceTimeline::paintGraphLane(QPainter& p, const TraceLane& lane, int top) const {
  const QRect plot = plotRect();
  const TraceProcessIndex& proc = index_->processes[std::size_t(lane.process)];
  // Samples count from their own trace's start: the viewport moves by where it starts.
  TraceViewport v = viewport();
  v.t0 -= double(proc.offsetNs);
  const TraceGraphInfo& info = proc.graphs[std::size_t(lane.chart)];
  const pva::TraceGraph& g = *info.graph;
  const auto [spanHi, spanLo] = graphSpan(lane);
  const double y0 = top + spanLo, y1 = top + spanHi;
  const ValueTicks ticks = graphTicks(lane);
  const double lo = ticks.lo(), hi = ticks.hi();
  auto yOf = [&](double value) { return y0 - (value - lo) / (hi - lo) * (y0 - y1); };
  // A grid line per tick (the labels are in the label column, paintLaneLabel).
  QColor grid = gridColor();
  for (double t : ticks.values) {
    p.setPen(t == lo || t == hi ? grid : grid.lighter(115));
    p.drawLine(QPointF(plot.left(), std::round(yOf(t))), QPointF(plot.right(), std::round(yOf(t))));
  }
  p.setPen(textColor());
  p.setFont(smallFont(font()));
  const QString unit = QString::fromStdString(g.unit());
  p.drawText(QRect(plot.left() + 6, top, plot.width() - 12, lane.chartTop),
             Qt::AlignLeft | Qt::AlignVCenter,
             unit.isEmpty() ? tr("%n series", nullptr, int(g.series().size()))
                            : tr("%n series, in %1", nullptr, int(g.series().size())).arg(unit));
  p.setFont(font());
  p.setRenderHint(QPainter::Antialiasing, true);
  for (std::size_t s = 0; s < g.series().size(); ++s) {
    const std::vector<TraceColumnRange> cols = visibleSamples(g.series()[s].samples(), v);
    if (cols.empty()) continue;
    QPolygonF line;
    for (const TraceColumnRange& c : cols) {
      const double x = plot.left() + c.x + 0.5;
      line << QPointF(x, yOf(c.first));
      if (c.min != c.max) line << QPointF(x, yOf(c.min)) << QPointF(x, yOf(c.max));
      if (c.last != c.first || c.min != c.max) line << QPointF(x, yOf(c.last));
    }
    const QColor color = seriesColor(int(s));
    if (filledGraphs_) {
      QPolygonF area = line;
      const double base = yOf(std::clamp(0.0, lo, hi));
      area << QPointF(line.back().x(), base) << QPointF(line.front().x(), base);
      QColor fill = color;
      fill.setAlpha(70);
      p.setPen(Qt::NoPen);
      p.setBrush(fill);
      p.drawPolygon(area);
    }
    p.setPen(QPen(color, 1.5));
    p.setBrush(Qt::NoBrush);
    p.drawPolyline(line);
  }
  p.setRenderHint(QPainter::Antialiasing, false);
}

void TraceTimeline::paintHeatmapLane(QPainter& p, const TraceLane& lane, int top) const {
  const QRect plot = plotRect();
  const TraceProcessIndex& proc = index_->processes[std::size_t(lane.process)];
  // Samples count from their own trace's start: the viewport moves by where it starts.
  TraceViewport v = viewport();
  v.t0 -= double(proc.offsetNs);
  const TraceHeatmapInfo& info = proc.heatmaps[std::size_t(lane.chart)];
  const auto& samples = info.heatmap->samples();
  paintHeatmapHeader(p, lane, top);
  // Faint lines between the bins' rows.
  p.setPen(gridColor().lighter(112));
  for (int r = 1; r < lane.binRows; ++r) {
    const int y = top + lane.chartTop + r * lane.binRowHeight;
    p.drawLine(plot.left(), y, plot.right(), y);
  }
  if (samples.empty() || info.maxCount == 0) return;
  const int bins = int(info.heatmap->binEdges().size()) + 1;
  // A sample's histogram holds until the next sample; the last one for the mean interval.
  const double lastSpan = samples.size() > 1
                              ? double(samples.back().timestampNs - samples.front().timestampNs) /
                                    double(samples.size() - 1)
                              : double(index_->endNs - proc.offsetNs - samples.back().timestampNs);
  auto sampleEnd = [&](std::size_t i) {
    return i + 1 < samples.size() ? double(samples[i + 1].timestampNs)
                                  : double(samples[i].timestampNs) + std::max(lastSpan, 1.0);
  };
  auto byTime = [](const pva::HeatmapSample& s, double t) { return double(s.timestampNs) < t; };
  std::size_t i =
      std::size_t(std::lower_bound(samples.begin(), samples.end(), v.t0, byTime) - samples.begin());
  if (i > 0) --i;
  std::vector<std::uint32_t> counts(std::size_t(bins), 0);
  while (i < samples.size() && double(samples[i].timestampNs) < v.t1()) {
    const double x0 = v.x(double(samples[i].timestampNs));
    double x1 = v.x(sampleEnd(i));
    std::size_t next = i + 1;
    std::fill(counts.begin(), counts.end(), 0);
    if (x1 - x0 < 1.0) {
      // Several samples in one pixel column: the largest count of each bin.
      next = std::size_t(std::lower_bound(samples.begin() + std::ptrdiff_t(i), samples.end(),
                                          v.time(std::floor(x0) + 1), byTime) -
                         samples.begin());
      next = std::max(next, i + 1);
      x1 = x0 + 1;
    }
    for (std::size_t s = i; s < next; ++s)
      for (std::size_t b = 0; b < samples[s].bins.size() && b < counts.size(); ++b)
        counts[b] = std::max(counts[b], samples[s].bins[b]);
    const double a = std::max(x0, -1.0), z = std::min(x1, double(v.width) + 1);
    for (int b = lane.binFirst; b < lane.binFirst + lane.binRows && b < bins; ++b) {
      if (counts[std::size_t(b)] == 0) continue;
      p.fillRect(QRectF(plot.left() + a, top + lane.binTop(b), z - a, lane.binRowHeight),
                 heatmapColor(double(counts[std::size_t(b)]) / info.maxCount));
    }
    i = next;
  }
}

void TraceTimeline::paintHeatmapHeader(QPainter& p, const TraceLane& lane, int top) const {
  // Left: how many bins there are and which are shown. Right: the colour scale, count 1 to the
  // largest count of any bin in any sample.
  const QRect plot = plotRect();
  const TraceHeatmapInfo& info =
      index_->processes[std::size_t(lane.process)].heatmaps[std::size_t(lane.chart)];
  const QString unit = QString::fromStdString(info.heatmap->unit());
  p.setFont(smallFont(font()));
  const QFontMetrics fm = p.fontMetrics();
  const QRect row(plot.left() + 6, top, plot.width() - 12, lane.chartTop);
  const int rampWidth = 120;
  const QString from = QStringLiteral("1"), to = formatCount(info.maxCount);
  const QString title = tr("values per bin per sample:");
  int x = row.right() - fm.horizontalAdvance(to);
  p.setPen(textColor());
  if (info.maxCount > 0) {
    p.drawText(QRect(x, row.top(), fm.horizontalAdvance(to), row.height()), Qt::AlignVCenter, to);
    x -= 4 + rampWidth;
    const QRect ramp(x, row.top() + 5, rampWidth, row.height() - 9);
    QLinearGradient gradient(ramp.topLeft(), ramp.topRight());
    for (int i = 0; i <= 8; ++i)
      gradient.setColorAt(i / 8.0,
                          heatmapColor(info.maxCount <= 1
                                           ? 1.0
                                           : (1 + (info.maxCount - 1) * i / 8.0) / info.maxCount));
    p.fillRect(ramp, gradient);
    p.setPen(gridColor());
    p.setBrush(Qt::NoBrush);
    p.drawRect(ramp.adjusted(0, 0, -1, -1));
    p.setPen(textColor());
    x -= 4 + fm.horizontalAdvance(from);
    p.drawText(QRect(x, row.top(), fm.horizontalAdvance(from), row.height()), Qt::AlignVCenter,
               from);
    x -= 6 + fm.horizontalAdvance(title);
    p.drawText(QRect(x, row.top(), fm.horizontalAdvance(title), row.height()), Qt::AlignVCenter,
               title);
  }
  const HeatmapRows& rows = info.rows;
  QString bins = rows.all()
                     ? tr("%n bins", nullptr, rows.total)
                     : tr("bins %1 to %2 of %3 hold values (the empty bins outside are not drawn)")
                           .arg(rows.first + 1)
                           .arg(rows.first + rows.count)
                           .arg(rows.total);
  if (!unit.isEmpty()) bins += tr(", edges in %1").arg(unit);
  p.drawText(QRect(row.left(), row.top(), x - 12 - row.left(), row.height()),
             Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(bins, Qt::ElideRight, x - 12 - row.left()));
  p.setFont(font());
}

void TraceTimeline::paintSelection(QPainter& p) const {
  if (!selection_.valid()) return;
  const QRect r = eventRect(selection_);
  if (r.isEmpty()) return;
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(palette().color(QPalette::Highlight), 2.5));
  p.drawRect(r.adjusted(-1, -1, 1, 1));
}

QString TraceTimeline::eventToolTip(const Hit& hit) const {
  const TraceViewport v = viewport();
  if (hit.ref.instant) {
    const TraceInstant& e = index_->instant(hit.ref);
    QString text = QStringLiteral("<b>%1</b><br>%2<br>%3: %4<br>%5: %6<br>%7: %8")
                       .arg(escaped(index_->labels[e.label]), kindName(e.kind), tr("Time"),
                            formatTraceTime(double(e.time), 1), tr("Channel"),
                            escaped(index_->channels[e.channel]), tr("Thread"),
                            escaped(index_->threadTitle(hit.ref.thread)));
    if (hit.block.count > 1)
      text += QStringLiteral("<br>") + tr("%1 instant events at this pixel").arg(hit.block.count);
    return text;
  }
  if (hit.block.count > 1) {
    return tr("<b>%1 events</b> too short to draw apart<br>%2 to %3<br>Click to zoom in")
        .arg(formatCount(hit.block.count), formatTraceTime(v.time(hit.block.x0), v.nsPerPx),
             formatTraceTime(v.time(hit.block.x1), v.nsPerPx));
  }
  const TraceEventRecord& e = index_->event(hit.ref);
  QString text =
      QStringLiteral("<b>%1</b><br>%2: %3<br>%4: %5<br>%6: %7%8<br>%9: %10")
          .arg(escaped(index_->labels[e.label]), tr("Begin"), formatTraceTime(double(e.begin), 1),
               tr("Duration"), formatDurationNs(double(e.duration())), tr("Self time"),
               formatDurationNs(double(e.self)), e.finished ? QString() : tr(" (unfinished)"),
               tr("Thread"), escaped(index_->threadTitle(hit.ref.thread)));
  text += QStringLiteral("<br>%1: %2 · %3: %4 · %5: %6")
              .arg(tr("Channel"), escaped(index_->channels[e.channel]), tr("Depth"))
              .arg(e.depth)
              .arg(tr("Children"))
              .arg(e.childCount);
  if (e.metadata && !e.metadata->empty()) {
    QString meta = QString::fromStdString(*e.metadata);
    if (meta.size() > 200) meta = meta.left(200) + QStringLiteral("…");
    text += QStringLiteral("<br>%1: <tt>%2</tt>").arg(tr("Metadata"), escaped(meta));
  }
  return text;
}

QString TraceTimeline::chartToolTip(const TraceLane& lane, QPoint pos) const {
  const TraceViewport v = viewport();
  const TraceProcessIndex& proc = index_->processes[std::size_t(lane.process)];
  // The samples' own time (since their trace's start) under the pointer.
  const double t = v.time(pos.x() - plotRect().left()) - double(proc.offsetNs);
  QString text;
  if (lane.kind == TraceLane::Kind::Graph) {
    const pva::TraceGraph& g = *proc.graphs[std::size_t(lane.chart)].graph;
    text = QStringLiteral("<b>%1</b> %2")
               .arg(escaped(lane.title), formatTraceTime(t + double(proc.offsetNs), v.nsPerPx));
    const QString unit = QString::fromStdString(g.unit());
    for (const pva::TraceSeries& s : g.series()) {
      // The value in force at t: the last sample at or before it.
      auto it = std::upper_bound(
          s.samples().begin(), s.samples().end(), t,
          [](double x, const pva::SeriesSample& a) { return x < double(a.timestampNs); });
      if (it == s.samples().begin()) continue;
      text +=
          QStringLiteral("<br>%1: %2")
              .arg(escaped(QString::fromStdString(s.name())), formatValue((it - 1)->value, unit));
    }
    return text;
  }
  const TraceHeatmapInfo& info = proc.heatmaps[std::size_t(lane.chart)];
  const pva::TraceHeatmap& h = *info.heatmap;
  const auto& samples = h.samples();
  const int laneTop = plotRect().top() + lane.y - vscroll_->value();
  const int bin = lane.binAt(pos.y() - laneTop);
  if (bin < 0)
    return tr("<b>%1</b><br>Colour: how many values of a sample fell in a bin, from 1 (pale) to %2 "
              "(dark); "
              "empty bins are not drawn")
        .arg(escaped(lane.title), formatCount(info.maxCount));
  const QString range = heatmapBinLabel(h.binEdges(), bin, QString::fromStdString(h.unit()));
  auto it = std::upper_bound(
      samples.begin(), samples.end(), t,
      [](double x, const pva::HeatmapSample& a) { return x < double(a.timestampNs); });
  if (it == samples.begin())
    return QStringLiteral("<b>%1</b><br>%2: %3<br>%4")
        .arg(escaped(lane.title), tr("Bin"), escaped(range), tr("no sample yet"));
  const pva::HeatmapSample& s = *(it - 1);
  const std::uint32_t count = std::size_t(bin) < s.bins.size() ? s.bins[std::size_t(bin)] : 0;
  std::uint64_t total = 0;
  for (std::uint32_t c : s.bins)
    total += c;
  return QStringLiteral("<b>%1</b><br>%2: %3<br>%4: %5<br>%6: %7 of %8")
      .arg(escaped(lane.title), tr("Bin"), escaped(range), tr("Sample at"),
           formatTraceTime(double(s.timestampNs + proc.offsetNs), v.nsPerPx),
           tr("Values in the bin"), formatCount(count), formatCount(total));
}

} // namespace tessera::viewer
