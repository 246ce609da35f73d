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

namespace {} // namespace

TraceTimeline::TraceTimeline(QWidget* parent)
    : ChartWidget(parent), vscroll_(new QScrollBar(Qt::Vertical, this)) {
  setObjectName(QStringLiteral("trace-timeline"));
  setMouseTracking(true);
  setMinimumSize(400, 240);
  connect(vscroll_, &QScrollBar::valueChanged, this, [this] { update(); });
  vscroll_->hide();
}

void TraceTimeline::setIndex(std::shared_ptr<const TraceIndex> index) {
  index_ = std::move(index);
  selection_ = {};
  options_.collapsed.clear();
  relayout();
  vscroll_->setValue(0);
  window_.setRange(fullBegin(), fullEnd());
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
  const double end = index_ ? double(index_->endNs) : 0.0;
  return end > 0 ? end * 1.01 : 1000.0;
}

void TraceTimeline::setView(double t0, double t1) {
  if (!window_.show(t0, t1)) return;
  emit viewChanged();
  update();
}

void TraceTimeline::fit() {
  if (!index_ || index_->endNs <= index_->beginNs) return setView(fullBegin(), fullEnd());
  const double a = double(index_->beginNs), b = double(index_->endNs);
  const double margin = std::max((b - a) * 0.02, 500.0);
  setView(a - margin, b + margin);
}

void TraceTimeline::zoomAt(double x, double factor) {
  if (!window_.zoom(factor, viewport().time(x))) return;
  emit viewChanged();
  update();
}

void TraceTimeline::panPixels(double dx) {
  const double dt = dx * viewport().nsPerPx;
  setView(window_.from() + dt, window_.to() + dt);
}

TraceViewport TraceTimeline::viewport() const {
  TraceViewport v;
  v.width = std::max(1, plotRect().width());
  v.t0 = window_.from();
  v.nsPerPx = (window_.span()) / v.width;
  return v;
}

std::size_t TraceTimeline::eventsInView() const {
  if (!index_) return 0;
  return index_->eventsOverlapping(std::int64_t(std::floor(window_.from())),
                                   std::int64_t(std::ceil(window_.to())));
}

// ---- options and layout ----

void TraceTimeline::setMerged(bool merged) {
  if (merged == options_.merged) return;
  options_.merged = merged;
  relayout();
}

void TraceTimeline::setAbsoluteTime(bool absolute) {
  absoluteTime_ = absolute;
  update();
}

void TraceTimeline::setFilledGraphs(bool filled) {
  filledGraphs_ = filled;
  update();
}

void TraceTimeline::setCollapsed(const QString& laneKey, bool collapsed) {
  if (collapsed)
    options_.collapsed.insert(laneKey);
  else
    options_.collapsed.remove(laneKey);
  relayout();
}

void TraceTimeline::collapseAll() {
  if (!index_) return;
  // Processes and threads, not the file: the lanes' names stay visible.
  for (std::size_t p = 0; p < index_->processes.size(); ++p)
    options_.collapsed.insert(QStringLiteral("p%1m").arg(p));
  for (std::size_t t = 0; t < index_->threads.size(); ++t)
    options_.collapsed.insert(QStringLiteral("t%1").arg(t));
  relayout();
}

void TraceTimeline::expandAll() {
  options_.collapsed.clear();
  relayout();
}

void TraceTimeline::relayout() {
  layout_ = index_ ? buildTraceLayout(*index_, options_) : TraceLayout{};
  updateScrollBar();
  update();
}

int TraceTimeline::lanesViewportHeight() const {
  return std::max(0, height() - lanesTop());
}

void TraceTimeline::updateScrollBar() {
  const int w = vscroll_->sizeHint().width();
  vscroll_->setGeometry(width() - w, lanesTop(), w, lanesViewportHeight());
  const int excess = std::max(0, layout_.height - lanesViewportHeight());
  vscroll_->setRange(0, excess);
  vscroll_->setPageStep(std::max(1, lanesViewportHeight()));
  vscroll_->setSingleStep(TraceLayout::rowHeight);
  vscroll_->setVisible(excess > 0);
}

QRect TraceTimeline::plotRect() const {
  const int right = width() - (vscroll_->isVisible() ? vscroll_->width() : 0);
  return QRect(labelWidth, lanesTop(), std::max(1, right - labelWidth), lanesViewportHeight());
}

QRect TraceTimeline::overviewRect() const {
  const QRect plot = plotRect();
  return QRect(plot.left(), statsHeight + 2, plot.width(), overviewHeight - 6);
}

std::vector<int> TraceTimeline::laneThreads(const TraceLane& lane) const {
  if (lane.thread >= 0) return {lane.thread};
  return index_->processes[std::size_t(lane.process)].threads;
}

void TraceTimeline::resizeEvent(QResizeEvent* event) {
  ChartWidget::resizeEvent(event);
  updateScrollBar();
  recomputeOverview();
}

void TraceTimeline::recomputeOverview() {
  overview_.clear();
  overviewMax_ = 0;
  if (!index_) return;
  // Events beginning per pixel column of the whole trace: O(min(events, columns x log n)) per row.
  const QRect r = overviewRect();
  const double lo = fullBegin(), step = (fullEnd() - lo) / std::max(1, r.width());
  overview_.assign(std::size_t(std::max(1, r.width())), 0);
  for (const TraceThreadIndex& t : index_->threads)
    for (const TraceDepthRow& row : t.depths) {
      if (row.size() < overview_.size()) {
        // Fewer events than columns: bucketing each event is cheaper than searching per column.
        for (std::int64_t b : row.begin) {
          const auto c =
              std::size_t(std::clamp((double(b) - lo) / step, 0.0, double(overview_.size() - 1)));
          ++overview_[c];
        }
        continue;
      }
      auto it = row.begin.begin();
      for (std::size_t c = 0; c < overview_.size(); ++c) {
        const auto next = std::lower_bound(it, row.begin.end(),
                                           std::int64_t(std::ceil(lo + step * double(c + 1))));
        overview_[c] += int(next - it);
        it = next;
      }
    }
  overviewMax_ = *std::max_element(overview_.begin(), overview_.end());
}

void TraceTimeline::scrollToLaneRow(int lane, int rowTop, int rowHeight) {
  const int y = layout_.lanes[std::size_t(lane)].y + rowTop;
  const int top = vscroll_->value(), h = lanesViewportHeight();
  if (y < top || y + rowHeight > top + h) vscroll_->setValue(std::max(0, y - h / 3));
}

// ---- selection ----

void TraceTimeline::setSelection(TraceEventRef ref) {
  if (ref == selection_) return;
  selection_ = ref;
  update();
  emit selectionChanged(ref);
}

void TraceTimeline::reveal(TraceEventRef ref) {
  if (!index_ || !ref.valid()) return;
  const TraceThreadIndex& t = index_->threads[std::size_t(ref.thread)];
  // Expand what hides it.
  bool changed = options_.collapsed.remove(QStringLiteral("file"));
  changed |= options_.collapsed.remove(QStringLiteral("p%1").arg(t.process));
  changed |= options_.collapsed.remove(options_.merged ? QStringLiteral("p%1m").arg(t.process)
                                                       : QStringLiteral("t%1").arg(ref.thread));
  if (changed) relayout();

  if (ref.instant) {
    const double at = double(index_->instant(ref).time);
    const double span = std::min(window_.span(), 1e6);
    setView(at - span / 2, at + span / 2);
  } else {
    const TraceEventRecord& e = index_->event(ref);
    const double span = std::max(3.0 * double(e.duration()), 2000.0);
    const double mid = 0.5 * double(e.begin + e.end);
    setView(mid - span / 2, mid + span / 2);
  }
  const int laneIndex = laneOf(ref);
  if (laneIndex >= 0) {
    const TraceLane& l = layout_.lanes[std::size_t(laneIndex)];
    if (ref.instant)
      scrollToLaneRow(laneIndex, 0, l.instantHeight);
    else
      scrollToLaneRow(laneIndex, l.rowTop(int(index_->event(ref).depth)), TraceLayout::rowHeight);
  }
  setSelection(ref);
}

// ---- hit testing ----

int TraceTimeline::laneOf(TraceEventRef ref) const {
  const int process = index_->threads[std::size_t(ref.thread)].process;
  for (std::size_t i = 0; i < layout_.lanes.size(); ++i) {
    const TraceLane& l = layout_.lanes[i];
    if (l.kind == TraceLane::Kind::Thread &&
        (l.thread == ref.thread || (l.thread < 0 && l.process == process)))
      return int(i);
  }
  return -1;
}

TraceTimeline::Hit TraceTimeline::hitTest(QPoint pos) const {
  Hit hit;
  const QRect plot = plotRect();
  if (!index_ || pos.y() < plot.top()) return hit;
  const int laneIndex = layout_.laneAt(pos.y() - plot.top() + vscroll_->value());
  hit.lane = laneIndex;
  if (laneIndex < 0 || pos.x() < plot.left() || pos.x() > plot.right()) return hit;
  const TraceLane& lane = layout_.lanes[std::size_t(laneIndex)];
  if (lane.kind != TraceLane::Kind::Thread) return hit;
  const int inLane = pos.y() - plot.top() + vscroll_->value() - lane.y;
  const double x = pos.x() - plot.left();
  const TraceViewport v = viewport();
  if (inLane < lane.instantHeight) {
    double best = 6;
    for (int t : laneThreads(lane)) {
      std::vector<TraceMarker> markers;
      visibleMarkers(index_->threads[std::size_t(t)].instants, v, markers);
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
    const TraceThreadIndex& thread = index_->threads[std::size_t(t)];
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
  if (!index_ || !ref.valid()) return {};
  const QRect plot = plotRect();
  const int laneIndex = laneOf(ref);
  if (laneIndex < 0) return {};
  const TraceLane& lane = layout_.lanes[std::size_t(laneIndex)];
  const TraceViewport v = viewport();
  QRectF r;
  const int laneTop = plot.top() + lane.y - vscroll_->value();
  if (ref.instant) {
    const double x = v.x(double(index_->instant(ref).time));
    r = QRectF(plot.left() + x - 4, laneTop, 8, lane.instantHeight);
  } else {
    const TraceEventRecord& e = index_->event(ref);
    if (int(e.depth) >= lane.depthRows) return {};
    const double x0 = v.x(double(e.begin));
    double x1 = std::max(v.x(double(e.end)), x0 + 1);
    if (e.duration() < 1000) {
      // Drawn at least 0.5 µs wide unless the next event of its row begins sooner (TraceLod).
      const TraceDepthRow& row = index_->threads[std::size_t(ref.thread)].depths[e.depth];
      double limit = kMinEventDrawNs / v.nsPerPx;
      if (e.rowPos + 1 < row.size())
        limit = std::min(limit, v.x(double(row.begin[e.rowPos + 1])) - x0);
      x1 = std::max(x1, x0 + limit);
    }
    r = QRectF(plot.left() + x0, laneTop + lane.rowTop(int(e.depth)) + 1, x1 - x0,
               TraceLayout::rowHeight - 2);
  }
  return r.toAlignedRect().intersected(plot);
}

QString TraceTimeline::toolTipAt(QPoint pos) const {
  if (!index_) return {};
  const QRect plot = plotRect();
  if (pos.y() < plot.top()) return {};
  const int laneIndex = layout_.laneAt(pos.y() - plot.top() + vscroll_->value());
  if (laneIndex < 0) return {};
  const TraceLane& lane = layout_.lanes[std::size_t(laneIndex)];
  if (pos.x() < plot.left()) return lane.title;
  if (lane.kind == TraceLane::Kind::Graph || lane.kind == TraceLane::Kind::Heatmap)
    return chartToolTip(lane, pos);
  const Hit hit = hitTest(pos);
  return hit.ref.valid() ? eventToolTip(hit) : QString();
}

// ---- input ----

bool TraceTimeline::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return ChartWidget::event(e);
}

void TraceTimeline::wheelEvent(QWheelEvent* event) {
  const QPointF pos = event->position();
  const QPoint delta = event->angleDelta();
  const bool scrollLanes = (event->modifiers() & Qt::ShiftModifier) || pos.x() < labelWidth;
  if (scrollLanes) {
    vscroll_->setValue(vscroll_->value() - delta.y() - delta.x());
  } else {
    if (delta.y() != 0)
      zoomAt(pos.x() - plotRect().left(), std::pow(AxisWindow::kWheelZoom, delta.y() / 120.0));
    if (delta.x() != 0) panPixels(-delta.x() / 2.0);
  }
  event->accept();
}

void TraceTimeline::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return ChartWidget::mousePressEvent(event);
  pressPos_ = event->pos();
  pressT0_ = window_.from();
  pressT1_ = window_.to();
  pressScroll_ = vscroll_->value();
  moved_ = false;
  const QRect overview = overviewRect();
  if (overview.contains(event->pos())) {
    // Centre the window on the pressed time, then follow the mouse.
    drag_ = Drag::Overview;
    const double t = fullBegin() + (event->pos().x() - overview.left()) *
                                       (fullEnd() - fullBegin()) / overview.width();
    const double span = window_.span();
    setView(t - span / 2, t + span / 2);
  } else {
    drag_ = Drag::Pan;
  }
}

void TraceTimeline::mouseMoveEvent(QMouseEvent* event) {
  if (drag_ == Drag::None) return;
  const QPoint d = event->pos() - pressPos_;
  if (!moved_ && d.manhattanLength() < 4) return;
  moved_ = true;
  if (drag_ == Drag::Overview) {
    const QRect overview = overviewRect();
    const double t = fullBegin() + (event->pos().x() - overview.left()) *
                                       (fullEnd() - fullBegin()) / overview.width();
    const double span = window_.span();
    setView(t - span / 2, t + span / 2);
  } else {
    setCursor(Qt::ClosedHandCursor);
    const double dt = d.x() * (pressT1_ - pressT0_) / std::max(1, plotRect().width());
    setView(pressT0_ - dt, pressT1_ - dt);
    vscroll_->setValue(pressScroll_ - d.y());
  }
}

void TraceTimeline::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return ChartWidget::mouseReleaseEvent(event);
  const Drag drag = std::exchange(drag_, Drag::None);
  unsetCursor();
  if (drag != Drag::Pan || moved_ || !index_) return;
  const QPoint pos = event->pos();
  const QRect plot = plotRect();
  if (pos.y() < plot.top()) return;
  const int laneIndex = layout_.laneAt(pos.y() - plot.top() + vscroll_->value());
  if (laneIndex >= 0 && pos.x() < plot.left()) {
    const TraceLane& lane = layout_.lanes[std::size_t(laneIndex)];
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
    const TraceEventRecord& e = index_->event(hit.ref);
    const double pad = std::max(double(e.duration()) * 0.05, 50.0);
    setView(double(e.begin) - pad, double(e.end) + pad);
  }
}

void TraceTimeline::keyPressEvent(QKeyEvent* event) {
  const double centre = plotRect().width() / 2.0;
  switch (event->key()) {
  case Qt::Key_Plus:
  case Qt::Key_Equal:
    zoomAt(centre, AxisWindow::kKeyZoom);
    break;
  case Qt::Key_Minus:
  case Qt::Key_Underscore:
    zoomAt(centre, 1 / AxisWindow::kKeyZoom);
    break;
  case Qt::Key_Left:
    panPixels(-plotRect().width() * AxisWindow::kKeyPan);
    break;
  case Qt::Key_Right:
    panPixels(plotRect().width() * AxisWindow::kKeyPan);
    break;
  case Qt::Key_Up:
    vscroll_->setValue(vscroll_->value() - TraceLayout::rowHeight * 2);
    break;
  case Qt::Key_Down:
    vscroll_->setValue(vscroll_->value() + TraceLayout::rowHeight * 2);
    break;
  case Qt::Key_PageUp:
    vscroll_->setValue(vscroll_->value() - lanesViewportHeight());
    break;
  case Qt::Key_PageDown:
    vscroll_->setValue(vscroll_->value() + lanesViewportHeight());
    break;
  case Qt::Key_0:
  case Qt::Key_Home:
    fit();
    break;
  case Qt::Key_Escape:
    setSelection({});
    break;
  default:
    ChartWidget::keyPressEvent(event);
    return;
  }
  event->accept();
}

void TraceTimeline::addContextActions(QMenu& menu) {
  menu.addAction(tr("Fit the whole trace (0)"), this, [this] { fit(); });
  menu.addAction(tr("Collapse all"), this, [this] { collapseAll(); });
  menu.addAction(tr("Expand all"), this, [this] { expandAll(); });
}

} // namespace tessera::viewer
