// Painting of the trace timeline: statistics line, overview strip, time axis, lanes (flame rows,
// instant markers, line graphs, heatmaps) and tooltips' text. Every row is reduced to the pixel
// width by TraceLod before anything is drawn.
#include "charts/TraceTimeline.hpp"

#include "core/Format.hpp"
#include "core/TraceTime.hpp"

#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace tessera::viewer {

namespace {

QColor eventColor(std::uint32_t label) { return ChartWidget::seriesColor(int(label)); }

QColor readableTextOn(const QColor& c) { return qGray(c.rgb()) > 140 ? QColor(Qt::black) : QColor(Qt::white); }

// Graph values in one style: plain for ordinary magnitudes, scientific otherwise.
QString formatValue(double v, const QString& unit) {
  const double a = std::fabs(v);
  const QString number = (a != 0 && (a >= 1e5 || a < 1e-2)) ? QString::number(v, 'e', 2) : QString::number(v, 'g', 4);
  return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

// Heatmap counts: pale yellow (few) to deep red (many), readable on light and dark themes.
QColor heatColor(double fraction) {
  const QColor lo(255, 237, 160), hi(189, 0, 38);
  const double f = 0.15 + 0.85 * std::clamp(fraction, 0.0, 1.0);
  return QColor::fromRgbF(float(lo.redF() + (hi.redF() - lo.redF()) * f), float(lo.greenF() + (hi.greenF() - lo.greenF()) * f),
                          float(lo.blueF() + (hi.blueF() - lo.blueF()) * f));
}

QString kindName(pva::InstantEvent::Kind kind) {
  switch (kind) {
  case pva::InstantEvent::Kind::Instant: return QObject::tr("instant event");
  case pva::InstantEvent::Kind::UnmatchedEnd: return QObject::tr("end() with nothing open");
  case pva::InstantEvent::Kind::MismatchedEnd: return QObject::tr("end() of a different label");
  }
  return {};
}

QString escaped(const QString& s) { return s.toHtmlEscaped(); }

} // namespace

QString TraceTimeline::timeLabel(double ns, double stepNs) const {
  return m_absoluteTime && m_index ? formatAbsoluteTraceTime(m_index->startTimestampUs, ns, stepNs) : formatTraceTime(ns, stepNs);
}

void TraceTimeline::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), backgroundColor());
  if (!m_index) {
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
  const int scroll = m_vscroll->value();
  const int first = std::max(0, m_layout.laneAt(scroll));
  for (std::size_t i = std::size_t(first); i < m_layout.lanes.size(); ++i) {
    const TraceLane& lane = m_layout.lanes[i];
    const int top = plot.top() + lane.y - scroll;
    if (top > plot.bottom()) break;
    if (lane.kind == TraceLane::Kind::File || lane.kind == TraceLane::Kind::Process) {
      QColor band = palette().color(QPalette::Button);
      if (lane.kind == TraceLane::Kind::Process) band = band.lighter(104);
      p.fillRect(QRect(0, top, plot.right() + 1, lane.height), band);
    }
    p.save();
    p.setClipRect(QRect(plot.left(), top, plot.width(), lane.height).intersected(lanes));
    if (lane.kind == TraceLane::Kind::Thread) paintThreadLane(p, lane, top);
    else if (lane.kind == TraceLane::Kind::Graph) paintGraphLane(p, lane, top);
    else if (lane.kind == TraceLane::Kind::Heatmap) paintHeatmapLane(p, lane, top);
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
  const std::size_t threads = m_index->threads.size();
  const QString text = tr("%1 events in view   ·   visible %2 of %3   ·   %4 events, %5 instant events, %6 %7")
                           .arg(formatCount(eventsInView()), formatDurationNs(m_window.span()),
                                formatDurationNs(double(m_index->endNs)), formatCount(m_index->eventCount),
                                formatCount(m_index->instantCount), formatCount(threads),
                                threads == 1 ? tr("thread") : tr("threads"));
  p.setPen(textColor());
  p.drawText(QRect(8, 0, width() - 16, statsHeight), Qt::AlignLeft | Qt::AlignVCenter, text);
}

void TraceTimeline::paintOverview(QPainter& p) const {
  const QRect r = overviewRect();
  p.setPen(textColor());
  p.drawText(QRect(8, r.top(), labelWidth - 16, r.height()), Qt::AlignLeft | Qt::AlignVCenter, tr("Overview"));
  p.fillRect(r, palette().color(QPalette::AlternateBase));
  if (m_overviewMax > 0) {
    // Log scale: one busy burst should not flatten everything else.
    const double scale = std::log1p(double(m_overviewMax));
    const QColor bar = seriesColor(0);
    for (std::size_t c = 0; c < m_overview.size() && int(c) < r.width(); ++c) {
      if (m_overview[c] == 0) continue;
      const int h = std::max(1, int(std::lround((r.height() - 2) * std::log1p(double(m_overview[c])) / scale)));
      p.fillRect(QRect(r.left() + int(c), r.bottom() - h + 1, 1, h), bar);
    }
  }
  // The visible window, dragged to pan.
  const double k = r.width() / (fullEnd() - fullBegin());
  const int x0 = r.left() + int(std::floor((m_window.from() - fullBegin()) * k));
  const int x1 = r.left() + int(std::ceil((m_window.to() - fullBegin()) * k));
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
  const double step = niceTimeStep(v.nsPerPx * (m_absoluteTime ? 130 : 110));
  p.setPen(textColor());
  p.drawText(QRect(8, top, labelWidth - 16, axisHeight), Qt::AlignLeft | Qt::AlignVCenter,
             m_absoluteTime ? tr("Time of day") : tr("Time from start"));
  for (double t = std::ceil(m_window.from() / step) * step; t <= m_window.to(); t += step) {
    const int x = plot.left() + int(std::lround(v.x(t)));
    p.setPen(gridColor());
    p.drawLine(x, top + axisHeight - 6, x, lanes.bottom());
    const QString label = timeLabel(t, step);
    if (x + 3 + p.fontMetrics().horizontalAdvance(label) > plot.right()) continue; // would be clipped
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
    if (lane.collapsed) tri << c + QPointF(-3, -4) << c + QPointF(3, 0) << c + QPointF(-3, 4);
    else tri << c + QPointF(-4, -2) << c + QPointF(4, -2) << c + QPointF(0, 3);
    p.setBrush(textColor());
    p.setPen(Qt::NoPen);
    p.drawPolygon(tri);
    p.setPen(textColor());
    textX += 12;
  }
  // Headers are bands across the whole width: their titles may run over the plot.
  const bool header = lane.kind == TraceLane::Kind::File || lane.kind == TraceLane::Kind::Process;
  const QRect textRect(textX, top, (header ? plotRect().right() : labelWidth - 6) - textX, TraceLayout::rowHeight + 1);
  QString title = lane.title;
  if (lane.kind == TraceLane::Kind::File)
    title = tr("%1 (format %2)").arg(lane.title, m_index->formatVersion);
  p.drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter, p.fontMetrics().elidedText(title, Qt::ElideMiddle, textRect.width()));
  p.setFont(font());
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  p.setFont(small);
  QColor dim = textColor();
  dim.setAlpha(150);
  p.setPen(dim);
  const int lineY = top + TraceLayout::rowHeight;
  if (lane.kind == TraceLane::Kind::Thread && lane.height >= 2 * TraceLayout::rowHeight) {
    std::size_t events = 0;
    for (int t : laneThreads(lane)) events += m_index->threads[std::size_t(t)].events.size();
    p.drawText(QRect(textX, lineY, labelWidth - textX - 6, 16), Qt::AlignLeft | Qt::AlignVCenter,
               tr("%1 events").arg(formatCount(events)));
  } else if (lane.kind == TraceLane::Kind::Graph) {
    const pva::TraceGraph& g = *m_index->processes[std::size_t(lane.process)].graphs[std::size_t(lane.chart)].graph;
    int y = lineY;
    for (std::size_t s = 0; s < g.series().size() && y + 14 <= top + lane.height; ++s, y += 14) {
      p.fillRect(QRect(textX, y + 4, 10, 6), seriesColor(int(s)));
      p.setPen(dim);
      p.drawText(QRect(textX + 14, y, labelWidth - textX - 20, 14), Qt::AlignLeft | Qt::AlignVCenter,
                 p.fontMetrics().elidedText(QString::fromStdString(g.series()[s].name()), Qt::ElideRight, labelWidth - textX - 20));
    }
  } else if (lane.kind == TraceLane::Kind::Heatmap) {
    const pva::TraceHeatmap& h = *m_index->processes[std::size_t(lane.process)].heatmaps[std::size_t(lane.chart)].heatmap;
    const QString unit = QString::fromStdString(h.unit());
    p.drawText(QRect(textX, lineY, labelWidth - textX - 6, 16), Qt::AlignLeft | Qt::AlignVCenter,
               tr("%1 bins%2").arg(h.binEdges().size() + 1).arg(unit.isEmpty() ? QString() : QStringLiteral(", ") + unit));
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
      const auto& instants = m_index->threads[std::size_t(t)].instants;
      markers.clear();
      visibleMarkers(instants, v, markers);
      for (const TraceMarker& m : markers) {
        const TraceInstant& e = instants[m.instant];
        const QColor c = e.kind == pva::InstantEvent::Kind::Instant ? eventColor(e.label) : QColor(0xd6, 0x27, 0x28);
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
      const TraceThreadIndex& thread = m_index->threads[std::size_t(t)];
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
          const QString& label = m_index->labels[e.label];
          QString text = fm.elidedText(label, Qt::ElideRight, int(r.width()) - 6);
          // A sub-microsecond event too narrow for its name says how short it is.
          if (b.subMicrosecond && text != label && fm.horizontalAdvance(QStringLiteral("<1µs")) <= r.width() - 4)
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

void TraceTimeline::paintGraphLane(QPainter& p, const TraceLane& lane, int top) const {
  const QRect plot = plotRect();
  const TraceViewport v = viewport();
  const TraceGraphInfo& info = m_index->processes[std::size_t(lane.process)].graphs[std::size_t(lane.chart)];
  const pva::TraceGraph& g = *info.graph;
  const double y0 = top + lane.height - 6, y1 = top + 8;
  const double lo = info.min, hi = info.max > info.min ? info.max : info.min + 1;
  auto yOf = [&](double value) { return y0 - (value - lo) / (hi - lo) * (y0 - y1); };
  p.setPen(gridColor());
  p.drawLine(QPointF(plot.left(), y0), QPointF(plot.right(), y0));
  p.drawLine(QPointF(plot.left(), y1), QPointF(plot.right(), y1));
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
    if (m_filledGraphs) {
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
  // Scale in one notation, at the top and bottom of the plot.
  const QString unit = QString::fromStdString(g.unit());
  p.setPen(textColor());
  p.drawText(QRectF(plot.left() + 4, y1 - 8, 200, 14), Qt::AlignLeft | Qt::AlignVCenter, formatValue(hi, unit));
  p.drawText(QRectF(plot.left() + 4, y0 - 14, 200, 14), Qt::AlignLeft | Qt::AlignVCenter, formatValue(lo, unit));
}

void TraceTimeline::paintHeatmapLane(QPainter& p, const TraceLane& lane, int top) const {
  const QRect plot = plotRect();
  const TraceViewport v = viewport();
  const TraceHeatmapInfo& info = m_index->processes[std::size_t(lane.process)].heatmaps[std::size_t(lane.chart)];
  const auto& samples = info.heatmap->samples();
  if (samples.empty() || info.maxCount == 0) return;
  const int bins = int(info.heatmap->binEdges().size()) + 1;
  const double h = double(lane.height - TraceLayout::lanePadding - 2) / bins;
  const double bottom = top + lane.height - TraceLayout::lanePadding;
  // A sample's histogram holds until the next sample; the last one for the mean interval.
  const double lastSpan = samples.size() > 1
                              ? double(samples.back().timestampNs - samples.front().timestampNs) / double(samples.size() - 1)
                              : double(m_index->endNs - samples.back().timestampNs);
  auto sampleEnd = [&](std::size_t i) {
    return i + 1 < samples.size() ? double(samples[i + 1].timestampNs) : double(samples[i].timestampNs) + std::max(lastSpan, 1.0);
  };
  auto byTime = [](const pva::HeatmapSample& s, double t) { return double(s.timestampNs) < t; };
  std::size_t i = std::size_t(std::lower_bound(samples.begin(), samples.end(), v.t0, byTime) - samples.begin());
  if (i > 0) --i;
  std::vector<std::uint32_t> counts(std::size_t(bins), 0);
  while (i < samples.size() && double(samples[i].timestampNs) < v.t1()) {
    const double x0 = v.x(double(samples[i].timestampNs));
    double x1 = v.x(sampleEnd(i));
    std::size_t next = i + 1;
    std::fill(counts.begin(), counts.end(), 0);
    if (x1 - x0 < 1.0) {
      // Several samples in one pixel column: the largest count of each bin.
      next = std::size_t(std::lower_bound(samples.begin() + std::ptrdiff_t(i), samples.end(), v.time(std::floor(x0) + 1), byTime) -
                         samples.begin());
      next = std::max(next, i + 1);
      x1 = x0 + 1;
    }
    for (std::size_t s = i; s < next; ++s)
      for (std::size_t b = 0; b < samples[s].bins.size() && b < counts.size(); ++b) counts[b] = std::max(counts[b], samples[s].bins[b]);
    const double a = std::max(x0, -1.0), z = std::min(x1, double(v.width) + 1);
    for (int b = 0; b < bins; ++b) {
      if (counts[std::size_t(b)] == 0) continue;
      p.fillRect(QRectF(plot.left() + a, bottom - (b + 1) * h, z - a, h), heatColor(double(counts[std::size_t(b)]) / info.maxCount));
    }
    i = next;
  }
}

void TraceTimeline::paintSelection(QPainter& p) const {
  if (!m_selection.valid()) return;
  const QRect r = eventRect(m_selection);
  if (r.isEmpty()) return;
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(palette().color(QPalette::Highlight), 2.5));
  p.drawRect(r.adjusted(-1, -1, 1, 1));
}

QString TraceTimeline::eventToolTip(const Hit& hit) const {
  const TraceViewport v = viewport();
  if (hit.ref.instant) {
    const TraceInstant& e = m_index->instant(hit.ref);
    QString text = QStringLiteral("<b>%1</b><br>%2<br>%3: %4<br>%5: %6<br>%7: %8")
                       .arg(escaped(m_index->labels[e.label]), kindName(e.kind), tr("Time"),
                            formatTraceTime(double(e.time), 1), tr("Channel"), escaped(m_index->channels[e.channel]),
                            tr("Thread"), escaped(m_index->threadTitle(hit.ref.thread)));
    if (hit.block.count > 1) text += QStringLiteral("<br>") + tr("%1 instant events at this pixel").arg(hit.block.count);
    return text;
  }
  if (hit.block.count > 1) {
    return tr("<b>%1 events</b> too short to draw apart<br>%2 to %3<br>Click to zoom in")
        .arg(formatCount(hit.block.count), formatTraceTime(v.time(hit.block.x0), v.nsPerPx),
             formatTraceTime(v.time(hit.block.x1), v.nsPerPx));
  }
  const TraceEventRecord& e = m_index->event(hit.ref);
  QString text = QStringLiteral("<b>%1</b><br>%2: %3<br>%4: %5<br>%6: %7%8<br>%9: %10")
                     .arg(escaped(m_index->labels[e.label]), tr("Begin"), formatTraceTime(double(e.begin), 1), tr("Duration"),
                          formatDurationNs(double(e.duration())), tr("Self time"), formatDurationNs(double(e.self)),
                          e.finished ? QString() : tr(" (unfinished)"), tr("Thread"), escaped(m_index->threadTitle(hit.ref.thread)));
  text += QStringLiteral("<br>%1: %2 · %3: %4 · %5: %6")
              .arg(tr("Channel"), escaped(m_index->channels[e.channel]), tr("Depth"))
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
  const double t = v.time(pos.x() - plotRect().left());
  const TraceProcessIndex& proc = m_index->processes[std::size_t(lane.process)];
  QString text;
  if (lane.kind == TraceLane::Kind::Graph) {
    const pva::TraceGraph& g = *proc.graphs[std::size_t(lane.chart)].graph;
    text = QStringLiteral("<b>%1</b> %2").arg(escaped(lane.title), formatTraceTime(t, v.nsPerPx));
    const QString unit = QString::fromStdString(g.unit());
    for (const pva::TraceSeries& s : g.series()) {
      // The value in force at t: the last sample at or before it.
      auto it = std::upper_bound(s.samples().begin(), s.samples().end(), t,
                                 [](double x, const pva::SeriesSample& a) { return x < double(a.timestampNs); });
      if (it == s.samples().begin()) continue;
      text += QStringLiteral("<br>%1: %2").arg(escaped(QString::fromStdString(s.name())), formatValue((it - 1)->value, unit));
    }
    return text;
  }
  const pva::TraceHeatmap& h = *proc.heatmaps[std::size_t(lane.chart)].heatmap;
  const auto& samples = h.samples();
  auto it = std::upper_bound(samples.begin(), samples.end(), t,
                             [](double x, const pva::HeatmapSample& a) { return x < double(a.timestampNs); });
  if (it == samples.begin()) return lane.title;
  const pva::HeatmapSample& s = *(it - 1);
  const int bins = int(h.binEdges().size()) + 1;
  const int top = plotRect().top() + lane.y - m_vscroll->value();
  const double binHeight = double(lane.height - TraceLayout::lanePadding - 2) / bins;
  const int bin = std::clamp(int((top + lane.height - TraceLayout::lanePadding - pos.y()) / binHeight), 0, bins - 1);
  const auto& edges = h.binEdges();
  const QString unit = QString::fromStdString(h.unit());
  QString range;
  if (edges.empty()) range = tr("all values");
  else if (bin == 0) range = QStringLiteral("< %1").arg(formatValue(edges.front(), unit));
  else if (bin == bins - 1) range = QStringLiteral("≥ %1").arg(formatValue(edges.back(), unit));
  else range = QStringLiteral("[%1, %2)").arg(formatValue(edges[std::size_t(bin - 1)], unit), formatValue(edges[std::size_t(bin)], unit));
  const std::uint32_t count = std::size_t(bin) < s.bins.size() ? s.bins[std::size_t(bin)] : 0;
  return QStringLiteral("<b>%1</b> %2<br>%3: %4").arg(escaped(lane.title), formatTraceTime(double(s.timestampNs), v.nsPerPx), range).arg(count);
}

} // namespace tessera::viewer
