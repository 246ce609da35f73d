// The trace timeline's state and interaction: view window, zoom and pan, lanes and scrolling,
// hit testing and selection. Painting is in TraceTimelinePaint.cpp.
#include "charts/TraceTimeline.hpp"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <utility>

namespace tessera::viewer {

namespace {
} // namespace

TraceTimeline::TraceTimeline(QWidget* parent) : ChartWidget(parent), m_vscroll(new QScrollBar(Qt::Vertical, this)) {
  setObjectName(QStringLiteral("trace-timeline"));
  setMouseTracking(true);
  setMinimumSize(400, 240);
  connect(m_vscroll, &QScrollBar::valueChanged, this, [this] { update(); });
  m_vscroll->hide();
}

void TraceTimeline::setIndex(std::shared_ptr<const TraceIndex> index) {
  m_index = std::move(index);
  m_selection = {};
  m_options.collapsed.clear();
  relayout();
  m_vscroll->setValue(0);
  m_window.setRange(fullBegin(), fullEnd());
  fit();
  recomputeOverview();
  update();
}

// ---- view window ----

double TraceTimeline::fullBegin() const {
  const double end = fullEnd();
  return -0.01 * end;
}

double TraceTimeline::fullEnd() const {
  const double end = m_index ? double(m_index->endNs) : 0.0;
  return end > 0 ? end * 1.01 : 1000.0;
}

void TraceTimeline::setView(double t0, double t1) {
  if (!m_window.show(t0, t1)) return;
  emit viewChanged();
  update();
}

void TraceTimeline::fit() {
  if (!m_index || m_index->endNs <= m_index->beginNs) return setView(fullBegin(), fullEnd());
  const double a = double(m_index->beginNs), b = double(m_index->endNs);
  const double margin = std::max((b - a) * 0.02, 500.0);
  setView(a - margin, b + margin);
}

void TraceTimeline::zoomAt(double x, double factor) {
  if (!m_window.zoom(factor, viewport().time(x))) return;
  emit viewChanged();
  update();
}

void TraceTimeline::panPixels(double dx) {
  const double dt = dx * viewport().nsPerPx;
  setView(m_window.from() + dt, m_window.to() + dt);
}

TraceViewport TraceTimeline::viewport() const {
  TraceViewport v;
  v.width = std::max(1, plotRect().width());
  v.t0 = m_window.from();
  v.nsPerPx = (m_window.span()) / v.width;
  return v;
}

std::size_t TraceTimeline::eventsInView() const {
  if (!m_index) return 0;
  return m_index->eventsOverlapping(std::int64_t(std::floor(m_window.from())), std::int64_t(std::ceil(m_window.to())));
}

// ---- options and layout ----

void TraceTimeline::setMerged(bool merged) {
  if (merged == m_options.merged) return;
  m_options.merged = merged;
  relayout();
}

void TraceTimeline::setAbsoluteTime(bool absolute) {
  m_absoluteTime = absolute;
  update();
}

void TraceTimeline::setFilledGraphs(bool filled) {
  m_filledGraphs = filled;
  update();
}

void TraceTimeline::setCollapsed(const QString& laneKey, bool collapsed) {
  if (collapsed) m_options.collapsed.insert(laneKey);
  else m_options.collapsed.remove(laneKey);
  relayout();
}

void TraceTimeline::collapseAll() {
  if (!m_index) return;
  // Processes and threads, not the file: the lanes' names stay visible.
  for (std::size_t p = 0; p < m_index->processes.size(); ++p) m_options.collapsed.insert(QStringLiteral("p%1m").arg(p));
  for (std::size_t t = 0; t < m_index->threads.size(); ++t) m_options.collapsed.insert(QStringLiteral("t%1").arg(t));
  relayout();
}

void TraceTimeline::expandAll() {
  m_options.collapsed.clear();
  relayout();
}

void TraceTimeline::relayout() {
  m_layout = m_index ? buildTraceLayout(*m_index, m_options) : TraceLayout{};
  updateScrollBar();
  update();
}

int TraceTimeline::lanesViewportHeight() const { return std::max(0, height() - lanesTop()); }

void TraceTimeline::updateScrollBar() {
  const int w = m_vscroll->sizeHint().width();
  m_vscroll->setGeometry(width() - w, lanesTop(), w, lanesViewportHeight());
  const int excess = std::max(0, m_layout.height - lanesViewportHeight());
  m_vscroll->setRange(0, excess);
  m_vscroll->setPageStep(std::max(1, lanesViewportHeight()));
  m_vscroll->setSingleStep(TraceLayout::rowHeight);
  m_vscroll->setVisible(excess > 0);
}

QRect TraceTimeline::plotRect() const {
  const int right = width() - (m_vscroll->isVisible() ? m_vscroll->width() : 0);
  return QRect(labelWidth, lanesTop(), std::max(1, right - labelWidth), lanesViewportHeight());
}

QRect TraceTimeline::overviewRect() const {
  const QRect plot = plotRect();
  return QRect(plot.left(), statsHeight + 2, plot.width(), overviewHeight - 6);
}

std::vector<int> TraceTimeline::laneThreads(const TraceLane& lane) const {
  if (lane.thread >= 0) return {lane.thread};
  return m_index->processes[std::size_t(lane.process)].threads;
}

void TraceTimeline::resizeEvent(QResizeEvent* event) {
  ChartWidget::resizeEvent(event);
  updateScrollBar();
  recomputeOverview();
}

void TraceTimeline::recomputeOverview() {
  m_overview.clear();
  m_overviewMax = 0;
  if (!m_index) return;
  // Events beginning per pixel column of the whole trace: O(min(events, columns x log n)) per row.
  const QRect r = overviewRect();
  const double lo = fullBegin(), step = (fullEnd() - lo) / std::max(1, r.width());
  m_overview.assign(std::size_t(std::max(1, r.width())), 0);
  for (const TraceThreadIndex& t : m_index->threads)
    for (const TraceDepthRow& row : t.depths) {
      if (row.size() < m_overview.size()) {
        // Fewer events than columns: bucketing each event is cheaper than searching per column.
        for (std::int64_t b : row.begin) {
          const auto c = std::size_t(std::clamp((double(b) - lo) / step, 0.0, double(m_overview.size() - 1)));
          ++m_overview[c];
        }
        continue;
      }
      auto it = row.begin.begin();
      for (std::size_t c = 0; c < m_overview.size(); ++c) {
        const auto next = std::lower_bound(it, row.begin.end(), std::int64_t(std::ceil(lo + step * double(c + 1))));
        m_overview[c] += int(next - it);
        it = next;
      }
    }
  m_overviewMax = *std::max_element(m_overview.begin(), m_overview.end());
}

void TraceTimeline::scrollToLaneRow(int lane, int rowTop, int rowHeight) {
  const int y = m_layout.lanes[std::size_t(lane)].y + rowTop;
  const int top = m_vscroll->value(), h = lanesViewportHeight();
  if (y < top || y + rowHeight > top + h) m_vscroll->setValue(std::max(0, y - h / 3));
}

// ---- selection ----

void TraceTimeline::setSelection(TraceEventRef ref) {
  if (ref == m_selection) return;
  m_selection = ref;
  update();
  emit selectionChanged(ref);
}

void TraceTimeline::reveal(TraceEventRef ref) {
  if (!m_index || !ref.valid()) return;
  const TraceThreadIndex& t = m_index->threads[std::size_t(ref.thread)];
  // Expand what hides it.
  bool changed = m_options.collapsed.remove(QStringLiteral("file"));
  changed |= m_options.collapsed.remove(QStringLiteral("p%1").arg(t.process));
  changed |= m_options.collapsed.remove(m_options.merged ? QStringLiteral("p%1m").arg(t.process) : QStringLiteral("t%1").arg(ref.thread));
  if (changed) relayout();

  if (ref.instant) {
    const double at = double(m_index->instant(ref).time);
    const double span = std::min(m_window.span(), 1e6);
    setView(at - span / 2, at + span / 2);
  } else {
    const TraceEventRecord& e = m_index->event(ref);
    const double span = std::max(3.0 * double(e.duration()), 2000.0);
    const double mid = 0.5 * double(e.begin + e.end);
    setView(mid - span / 2, mid + span / 2);
  }
  const int laneIndex = laneOf(ref);
  if (laneIndex >= 0) {
    const TraceLane& l = m_layout.lanes[std::size_t(laneIndex)];
    if (ref.instant) scrollToLaneRow(laneIndex, 0, l.instantHeight);
    else scrollToLaneRow(laneIndex, l.rowTop(int(m_index->event(ref).depth)), TraceLayout::rowHeight);
  }
  setSelection(ref);
}

// ---- hit testing ----

int TraceTimeline::laneOf(TraceEventRef ref) const {
  const int process = m_index->threads[std::size_t(ref.thread)].process;
  for (std::size_t i = 0; i < m_layout.lanes.size(); ++i) {
    const TraceLane& l = m_layout.lanes[i];
    if (l.kind == TraceLane::Kind::Thread && (l.thread == ref.thread || (l.thread < 0 && l.process == process)))
      return int(i);
  }
  return -1;
}

TraceTimeline::Hit TraceTimeline::hitTest(QPoint pos) const {
  Hit hit;
  const QRect plot = plotRect();
  if (!m_index || pos.y() < plot.top()) return hit;
  const int laneIndex = m_layout.laneAt(pos.y() - plot.top() + m_vscroll->value());
  hit.lane = laneIndex;
  if (laneIndex < 0 || pos.x() < plot.left() || pos.x() > plot.right()) return hit;
  const TraceLane& lane = m_layout.lanes[std::size_t(laneIndex)];
  if (lane.kind != TraceLane::Kind::Thread) return hit;
  const int inLane = pos.y() - plot.top() + m_vscroll->value() - lane.y;
  const double x = pos.x() - plot.left();
  const TraceViewport v = viewport();
  if (inLane < lane.instantHeight) {
    double best = 6;
    for (int t : laneThreads(lane)) {
      std::vector<TraceMarker> markers;
      visibleMarkers(m_index->threads[std::size_t(t)].instants, v, markers);
      for (const TraceMarker& m : markers)
        if (std::fabs(m.x - x) < best) {
          best = std::fabs(m.x - x);
          hit.ref = {t, m.instant, true};
          hit.block = {m.x, m.x, m.instant, m.count, false};
        }
    }
    return hit;
  }
  const int depth = (inLane - lane.instantHeight) / TraceLayout::rowHeight;
  if (depth >= lane.depthRows) return hit;
  double best = 3; // pixels of slack around thin blocks
  for (int t : laneThreads(lane)) {
    const TraceThreadIndex& thread = m_index->threads[std::size_t(t)];
    if (std::size_t(depth) >= thread.depths.size()) continue;
    std::vector<TraceBlock> blocks;
    TraceViewport near = v;
    near.t0 = v.time(x - 4);
    near.width = 9;
    visibleBlocks(thread.depths[std::size_t(depth)], near, blocks);
    for (TraceBlock b : blocks) {
      // Back to the full view's pixels.
      b.x0 += x - 4;
      b.x1 += x - 4;
      // Measured from the pixel's centre, so a block that covers most of the pixel wins.
      const double xc = x + 0.5;
      const double distance = xc < b.x0 ? b.x0 - xc : (xc > b.x1 ? xc - b.x1 : 0);
      if (distance < best || (distance == 0 && best == 0)) {
        best = distance;
        hit.ref = {t, b.event, false};
        hit.block = b;
      }
    }
  }
  return hit;
}

QRect TraceTimeline::eventRect(TraceEventRef ref) const {
  if (!m_index || !ref.valid()) return {};
  const QRect plot = plotRect();
  const int laneIndex = laneOf(ref);
  if (laneIndex < 0) return {};
  const TraceLane& lane = m_layout.lanes[std::size_t(laneIndex)];
  const TraceViewport v = viewport();
  QRectF r;
  const int laneTop = plot.top() + lane.y - m_vscroll->value();
  if (ref.instant) {
    const double x = v.x(double(m_index->instant(ref).time));
    r = QRectF(plot.left() + x - 4, laneTop, 8, lane.instantHeight);
  } else {
    const TraceEventRecord& e = m_index->event(ref);
    if (int(e.depth) >= lane.depthRows) return {};
    const double x0 = v.x(double(e.begin));
    double x1 = std::max(v.x(double(e.end)), x0 + 1);
    if (e.duration() < 1000) {
      // Drawn at least 0.5 µs wide unless the next event of its row begins sooner (TraceLod).
      const TraceDepthRow& row = m_index->threads[std::size_t(ref.thread)].depths[e.depth];
      double limit = kMinEventDrawNs / v.nsPerPx;
      if (e.rowPos + 1 < row.size()) limit = std::min(limit, v.x(double(row.begin[e.rowPos + 1])) - x0);
      x1 = std::max(x1, x0 + limit);
    }
    r = QRectF(plot.left() + x0, laneTop + lane.rowTop(int(e.depth)) + 1, x1 - x0, TraceLayout::rowHeight - 2);
  }
  return r.toAlignedRect().intersected(plot);
}

QString TraceTimeline::toolTipAt(QPoint pos) const {
  if (!m_index) return {};
  const QRect plot = plotRect();
  if (pos.y() < plot.top()) return {};
  const int laneIndex = m_layout.laneAt(pos.y() - plot.top() + m_vscroll->value());
  if (laneIndex < 0) return {};
  const TraceLane& lane = m_layout.lanes[std::size_t(laneIndex)];
  if (pos.x() < plot.left()) return lane.title;
  if (lane.kind == TraceLane::Kind::Graph || lane.kind == TraceLane::Kind::Heatmap) return chartToolTip(lane, pos);
  const Hit hit = hitTest(pos);
  return hit.ref.valid() ? eventToolTip(hit) : QString();
}

// ---- input ----

bool TraceTimeline::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return ChartWidget::event(e);
}

void TraceTimeline::wheelEvent(QWheelEvent* event) {
  const QPointF pos = event->position();
  const QPoint delta = event->angleDelta();
  const bool scrollLanes = (event->modifiers() & Qt::ShiftModifier) || pos.x() < labelWidth;
  if (scrollLanes) {
    m_vscroll->setValue(m_vscroll->value() - delta.y() - delta.x());
  } else {
    if (delta.y() != 0) zoomAt(pos.x() - plotRect().left(), std::pow(AxisWindow::kWheelZoom, delta.y() / 120.0));
    if (delta.x() != 0) panPixels(-delta.x() / 2.0);
  }
  event->accept();
}

void TraceTimeline::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return ChartWidget::mousePressEvent(event);
  m_pressPos = event->pos();
  m_pressT0 = m_window.from();
  m_pressT1 = m_window.to();
  m_pressScroll = m_vscroll->value();
  m_moved = false;
  const QRect overview = overviewRect();
  if (overview.contains(event->pos())) {
    // Centre the window on the pressed time, then follow the mouse.
    m_drag = Drag::Overview;
    const double t = fullBegin() + (event->pos().x() - overview.left()) * (fullEnd() - fullBegin()) / overview.width();
    const double span = m_window.span();
    setView(t - span / 2, t + span / 2);
  } else {
    m_drag = Drag::Pan;
  }
}

void TraceTimeline::mouseMoveEvent(QMouseEvent* event) {
  if (m_drag == Drag::None) return;
  const QPoint d = event->pos() - m_pressPos;
  if (!m_moved && d.manhattanLength() < 4) return;
  m_moved = true;
  if (m_drag == Drag::Overview) {
    const QRect overview = overviewRect();
    const double t = fullBegin() + (event->pos().x() - overview.left()) * (fullEnd() - fullBegin()) / overview.width();
    const double span = m_window.span();
    setView(t - span / 2, t + span / 2);
  } else {
    setCursor(Qt::ClosedHandCursor);
    const double dt = d.x() * (m_pressT1 - m_pressT0) / std::max(1, plotRect().width());
    setView(m_pressT0 - dt, m_pressT1 - dt);
    m_vscroll->setValue(m_pressScroll - d.y());
  }
}

void TraceTimeline::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return ChartWidget::mouseReleaseEvent(event);
  const Drag drag = std::exchange(m_drag, Drag::None);
  unsetCursor();
  if (drag != Drag::Pan || m_moved || !m_index) return;
  const QPoint pos = event->pos();
  const QRect plot = plotRect();
  if (pos.y() < plot.top()) return;
  const int laneIndex = m_layout.laneAt(pos.y() - plot.top() + m_vscroll->value());
  if (laneIndex >= 0 && pos.x() < plot.left()) {
    const TraceLane& lane = m_layout.lanes[std::size_t(laneIndex)];
    if (lane.collapsible) setCollapsed(lane.key, !lane.collapsed);
    return;
  }
  const Hit hit = hitTest(pos);
  if (hit.ref.valid() && !hit.ref.instant && hit.block.count > 1) {
    // A merged block: zoom in until its events separate.
    const TraceViewport v = viewport();
    const double a = v.time(hit.block.x0), b = v.time(hit.block.x1);
    setView(a - (b - a) * 0.1, b + (b - a) * 0.1);
    return;
  }
  setSelection(hit.ref);
}

void TraceTimeline::mouseDoubleClickEvent(QMouseEvent* event) {
  const Hit hit = hitTest(event->pos());
  if (hit.ref.valid() && !hit.ref.instant && hit.block.count == 1) {
    const TraceEventRecord& e = m_index->event(hit.ref);
    const double pad = std::max(double(e.duration()) * 0.05, 50.0);
    setView(double(e.begin) - pad, double(e.end) + pad);
  }
}

void TraceTimeline::keyPressEvent(QKeyEvent* event) {
  const double centre = plotRect().width() / 2.0;
  switch (event->key()) {
  case Qt::Key_Plus:
  case Qt::Key_Equal: zoomAt(centre, AxisWindow::kKeyZoom); break;
  case Qt::Key_Minus:
  case Qt::Key_Underscore: zoomAt(centre, 1 / AxisWindow::kKeyZoom); break;
  case Qt::Key_Left: panPixels(-plotRect().width() * AxisWindow::kKeyPan); break;
  case Qt::Key_Right: panPixels(plotRect().width() * AxisWindow::kKeyPan); break;
  case Qt::Key_Up: m_vscroll->setValue(m_vscroll->value() - TraceLayout::rowHeight * 2); break;
  case Qt::Key_Down: m_vscroll->setValue(m_vscroll->value() + TraceLayout::rowHeight * 2); break;
  case Qt::Key_PageUp: m_vscroll->setValue(m_vscroll->value() - lanesViewportHeight()); break;
  case Qt::Key_PageDown: m_vscroll->setValue(m_vscroll->value() + lanesViewportHeight()); break;
  case Qt::Key_0:
  case Qt::Key_Home: fit(); break;
  case Qt::Key_Escape: setSelection({}); break;
  default: ChartWidget::keyPressEvent(event); return;
  }
  event->accept();
}

void TraceTimeline::addContextActions(QMenu& menu) {
  menu.addAction(tr("Fit the whole trace (0)"), this, [this] { fit(); });
  menu.addAction(tr("Collapse all"), this, [this] { collapseAll(); });
  menu.addAction(tr("Expand all"), this, [this] { expandAll(); });
}

} // namespace tessera::viewer
