// The Host trace timeline: flame lanes per thread (file -> process -> thread, collapsible),
// instant events as lollipop markers, line graphs (with a value axis) and heatmaps (with a bin
// axis and a colour scale) as their own lanes, a time axis,
// the visible window's statistics and an overview strip of the whole trace whose window can be
// dragged.
//
// Interaction: mouse wheel zooms on the hovered time (Shift+wheel or the label column scrolls the
// lanes), drag pans, +/- zoom, arrows pan and scroll, 0/Home fits; hover shows event details;
// click selects an event or instant (selectionChanged), clicking a merged block zooms into it,
// clicking a lane's name collapses or expands it.
//
// Cost: painting asks TraceLod for each visible row's blocks, O(pixels x depth x log n); the
// overview histogram is recomputed only when the width or the trace changes. GUI thread only;
// the TraceIndex is shared and immutable.
#pragma once

#include "charts/ChartWidget.hpp"
#include "core/AxisWindow.hpp"
#include "core/TraceIndex.hpp"
#include "core/TraceLayout.hpp"
#include "core/TraceLod.hpp"
#include "core/ValueAxis.hpp"

#include <memory>
#include <vector>

class QScrollBar;

namespace tessera::viewer {

class TraceTimeline : public ChartWidget {
  Q_OBJECT
public:
  static constexpr int statsHeight = 22, overviewHeight = 44, axisHeight = 24, labelWidth = 190;

  explicit TraceTimeline(QWidget* parent = nullptr);

  /// Shows a trace (null: nothing) and fits it.
  void setIndex(std::shared_ptr<const TraceIndex> index);
  const std::shared_ptr<const TraceIndex>& index() const { return index_; }

  // The visible time window, in nanoseconds since the trace started.
  double viewBegin() const { return window_.from(); }
  double viewEnd() const { return window_.to(); }
  /// Clamped to the trace (with a small margin) and to a minimum span of 20 ns.
  void setView(double t0, double t1);
  /// Frames the trace's activity (first to last event or sample); zooming out reaches the
  /// whole trace from the moment tracing started.
  void fit();
  /// Zooms by `factor` (< 1: in) keeping the time under plot x `x` in place.
  void zoomAt(double x, double factor);
  void panPixels(double dx);
  /// Duration events overlapping the visible window (the statistics line).
  std::size_t eventsInView() const;

  bool merged() const { return options_.merged; }
  void setMerged(bool merged);
  bool absoluteTime() const { return absoluteTime_; }
  void setAbsoluteTime(bool absolute);
  bool filledGraphs() const { return filledGraphs_; }
  void setFilledGraphs(bool filled);
  void setCollapsed(const QString& laneKey, bool collapsed);
  void collapseAll();
  void expandAll();
  const TraceLayout& layout() const { return layout_; }
  int laneCount() const { return int(layout_.lanes.size()); }

  TraceEventRef selection() const { return selection_; }
  void setSelection(TraceEventRef ref);
  /// Makes the event visible: expands its lanes, zooms to it and scrolls its row into view.
  void reveal(TraceEventRef ref);

  // Geometry, in widget coordinates (also for tests).
  QRect plotRect() const; ///< lanes area right of the label column
  QRect overviewRect() const;
  /// Where an event or instant is drawn now (empty when off screen).
  QRect eventRect(TraceEventRef ref) const;
  /// The event, instant or merged block under a point.
  struct Hit {
    TraceEventRef ref;
    TraceBlock block; ///< for events: the drawn block (count > 1: merged)
    int lane = -1;
  };
  Hit hitTest(QPoint pos) const;
  QString toolTipAt(QPoint pos) const;
  /// A graph lane's value axis as drawn: ticks over its data's range (also for tests).
  ValueTicks graphTicks(const TraceLane& lane) const;
  /// A graph lane's chart, top to bottom, relative to the lane's top: where the highest and
  /// lowest ticks are drawn.
  static std::pair<int, int> graphSpan(const TraceLane& lane);

signals:
  void selectionChanged(TraceEventRef ref);
  void viewChanged();

protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;
  void addContextActions(QMenu& menu) override;

private:
  // Layout and scrolling.
  void relayout();
  void updateScrollBar();
  int lanesTop() const { return statsHeight + overviewHeight + axisHeight; }
  int lanesViewportHeight() const;
  TraceViewport viewport() const;
  double fullBegin() const;
  double fullEnd() const;
  /// The threads a thread lane draws (one, or every thread of the process when merged).
  std::vector<int> laneThreads(const TraceLane& lane) const;
  /// The thread lane that draws the event, or -1 (its process or the file is collapsed).
  int laneOf(TraceEventRef ref) const;
  void scrollToLaneRow(int lane, int rowTop, int rowHeight);
  void recomputeOverview();

  // Painting (TraceTimelinePaint.cpp).
  void paintStats(class QPainter& p) const;
  void paintOverview(QPainter& p) const;
  void paintAxis(QPainter& p, const QRect& lanes) const;
  void paintLaneLabel(QPainter& p, const TraceLane& lane, int top) const;
  void paintThreadLane(QPainter& p, const TraceLane& lane, int top) const;
  void paintGraphLane(QPainter& p, const TraceLane& lane, int top) const;
  void paintHeatmapLane(QPainter& p, const TraceLane& lane, int top) const;
  void paintHeatmapHeader(QPainter& p, const TraceLane& lane, int top) const;
  void paintSelection(QPainter& p) const;
  QString timeLabel(double ns, double stepNs) const;
  QString eventToolTip(const Hit& hit) const;
  QString chartToolTip(const TraceLane& lane, QPoint pos) const;

  std::shared_ptr<const TraceIndex> index_;
  TraceLayoutOptions options_;
  TraceLayout layout_;
  QScrollBar* vscroll_;
  AxisWindow window_{20}; ///< ns since the trace started; 20 ns at the deepest zoom
  bool absoluteTime_ = false, filledGraphs_ = false;
  TraceEventRef selection_;
  std::vector<int> overview_; ///< events beginning per overview pixel column
  int overviewMax_ = 0;

  // Mouse state.
  enum class Drag { None, Pan, Overview };
  Drag drag_ = Drag::None;
  bool moved_ = false;
  QPoint pressPos_;
  double pressT0_ = 0, pressT1_ = 0;
  int pressScroll_ = 0;
};

} // namespace tessera::viewer
