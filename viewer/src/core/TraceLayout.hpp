// The vertical layout of the trace timeline: file (a lane group per trace when several share the
// axis, "instance 1") -> process -> lanes (heatmaps first, then one
// flame lane per thread, or one per process when "Merge all charts" is on, then line graphs), with
// collapsed lanes shrunk. Chart lanes have a title row (the colour scale, the bins' count) above
// the chart; a heatmap has one row per bin it shows (HeatmapAxis.hpp says which). Pure and cheap
// (O(lanes)); recomputed when an option changes.
#pragma once

#include "core/TraceIndex.hpp"

#include <QSet>
#include <QString>
#include <vector>

namespace tessera::viewer {

struct TraceLane {
  enum class Kind { File, Process, Thread, Graph, Heatmap };
  Kind kind = Kind::File;
  int file = 0; ///< TraceIndex::files: the trace the lane belongs to
  int process = -1;
  int thread = -1; ///< Thread lanes: the thread, or -1 for every thread of the process (merged)
  int chart = -1;  ///< Graph / Heatmap lanes: index into the process's graphs / heatmaps
  QString key;     ///< identifies the lane across layouts (collapsing, scrolling)
  QString title;
  bool collapsible = false, collapsed = false;
  int indent = 0; ///< 0 file, 1 process, 2 lanes
  int y = 0, height = 0;
  int instantHeight = 0; ///< Thread lanes: the row of instant-event markers at the top
  int depthRows = 0;     ///< Thread lanes: flame rows shown (1 when collapsed)
  /// Graph / Heatmap lanes: where the chart starts below the title row, relative to the lane's top.
  int chartTop = 0;
  /// Heatmap lanes: the bins shown (TraceHeatmapInfo::rows, highest at the top) and their height.
  int binFirst = 0, binRows = 0, binRowHeight = 0;

  /// Top of the flame row for `depth`, relative to the lane's top.
  int rowTop(int depth) const;
  /// Heatmap lanes: top of bin `bin`'s row relative to the lane's top (-1 when not shown), and
  /// the bin whose row holds `y` (relative to the lane's top; -1 when none).
  int binTop(int bin) const;
  int binAt(int atY) const;
};

struct TraceLayoutOptions {
  bool merged = false;
  QSet<QString> collapsed; ///< lane keys
};

struct TraceLayout {
  static constexpr int headerHeight = 20, rowHeight = 18, instantRowHeight = 16, graphHeight = 104,
                       lanePadding = 4;
  /// Heatmap bin rows: as tall as this when few, never thinner than binRowMin.
  static constexpr int binRowMax = 16, binRowMin = 6, binAreaTarget = 168;

  std::vector<TraceLane> lanes;
  int height = 0;

  /// The lane at y (lane coordinates), or -1.
  int laneAt(int y) const;
  /// The lane that draws this thread's events (its own or its process' merged lane), or -1.
  int laneOfThread(int thread) const;
  /// Flame rows in a thread lane: the maximum depth of the threads it draws.
  static int depthCount(const TraceIndex& index, const TraceLane& lane);
};

TraceLayout buildTraceLayout(const TraceIndex& index, const TraceLayoutOptions& options);

} // namespace tessera::viewer
