// Stacks the trace timeline's lanes: headers, heatmaps, flame lanes, graphs.
#include "core/TraceLayout.hpp"

#include <algorithm>

namespace tessera::viewer {

int TraceLane::rowTop(int depth) const {
  return instantHeight + depth * TraceLayout::rowHeight;
}

int TraceLane::binTop(int bin) const {
  if (bin < binFirst || bin >= binFirst + binRows) return -1;
  return chartTop + (binFirst + binRows - 1 - bin) * binRowHeight;
}

int TraceLane::binAt(int atY) const {
  if (binRowHeight <= 0 || atY < chartTop) return -1;
  const int row = (atY - chartTop) / binRowHeight;
  return row < binRows ? binFirst + binRows - 1 - row : -1;
}

int TraceLayout::laneAt(int y) const {
  if (y < 0 || y >= height) return -1;
  auto it = std::upper_bound(lanes.begin(), lanes.end(), y,
                             [](int v, const TraceLane& l) { return v < l.y; });
  return it == lanes.begin() ? -1 : int(it - lanes.begin()) - 1;
}

int TraceLayout::laneOfThread(int thread) const {
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const TraceLane& l = lanes[i];
    if (l.kind == TraceLane::Kind::Thread && l.thread == thread) return int(i);
  }
  return -1;
}

int TraceLayout::depthCount(const TraceIndex& index, const TraceLane& lane) {
  if (lane.thread >= 0) return int(index.threads[std::size_t(lane.thread)].depthCount());
  int n = 0;
  for (int t : index.processes[std::size_t(lane.process)].threads)
    n = std::max(n, int(index.threads[std::size_t(t)].depthCount()));
  return n;
}

namespace {

bool hasInstants(const TraceIndex& index, const TraceLane& lane) {
  if (lane.thread >= 0) return !index.threads[std::size_t(lane.thread)].instants.empty();
  for (int t : index.processes[std::size_t(lane.process)].threads)
    if (!index.threads[std::size_t(t)].instants.empty()) return true;
  return false;
}

} // namespace

TraceLayout buildTraceLayout(const TraceIndex& index, const TraceLayoutOptions& options) {
  TraceLayout layout;
  int y = 0;
  auto add = [&](TraceLane lane, int height) {
    lane.collapsed = lane.collapsible && options.collapsed.contains(lane.key);
    lane.y = y;
    lane.height = height;
    y += height;
    layout.lanes.push_back(std::move(lane));
    return &layout.lanes.back();
  };

  const bool several = index.files.size() > 1;
  bool fileCollapsed = false;
  for (std::size_t p = 0; p < index.processes.size(); ++p) {
    const TraceProcessIndex& proc = index.processes[p];
    // A trace's processes are consecutive: its group's header comes before its first.
    if (p == 0 || proc.file != index.processes[p - 1].file) {
      TraceLane file;
      file.kind = TraceLane::Kind::File;
      file.file = proc.file;
      file.key = several ? QStringLiteral("file%1").arg(proc.file) : QStringLiteral("file");
      const TraceFileInfo* info = std::size_t(proc.file) < index.files.size()
                                      ? &index.files[std::size_t(proc.file)]
                                      : nullptr;
      // "instance 1 — <file>.pvti"; a group named after its file (files given together) once.
      if (!several || !info)
        file.title = index.fileName;
      else if (info->group == info->fileName)
        file.title = info->fileName;
      else
        file.title = info->group + QStringLiteral(" — ") + info->fileName;
      file.collapsible = true;
      fileCollapsed = add(file, TraceLayout::headerHeight)->collapsed;
    }
    if (fileCollapsed) continue;
    TraceLane header;
    header.file = proc.file;
    header.kind = TraceLane::Kind::Process;
    header.process = int(p);
    header.key = QStringLiteral("p%1").arg(p);
    header.title = QStringLiteral("%1 (pid %2)")
                       .arg(proc.name.isEmpty() ? QStringLiteral("process") : proc.name)
                       .arg(proc.pid);
    header.collapsible = true;
    header.indent = 1;
    if (add(header, TraceLayout::headerHeight)->collapsed) continue;

    for (std::size_t h = 0; h < proc.heatmaps.size(); ++h) {
      const TraceHeatmapInfo& info = proc.heatmaps[h];
      const pva::TraceHeatmap& map = *info.heatmap;
      TraceLane lane;
      lane.kind = TraceLane::Kind::Heatmap;
      lane.process = int(p);
      lane.file = proc.file;
      lane.chart = int(h);
      lane.key = QStringLiteral("p%1h%2").arg(p).arg(h);
      lane.title = QString::fromStdString(map.name());
      lane.indent = 2;
      lane.chartTop = TraceLayout::rowHeight;
      lane.binFirst = info.rows.first;
      lane.binRows = std::max(info.rows.count, 1);
      lane.binRowHeight = std::clamp(TraceLayout::binAreaTarget / lane.binRows,
                                     TraceLayout::binRowMin, TraceLayout::binRowMax);
      add(lane, lane.chartTop + lane.binRows * lane.binRowHeight + TraceLayout::lanePadding);
    }

    auto addThreadLane = [&](int thread, QString key, QString title) {
      TraceLane lane;
      lane.kind = TraceLane::Kind::Thread;
      lane.process = int(p);
      lane.file = proc.file;
      lane.thread = thread;
      lane.key = std::move(key);
      lane.title = std::move(title);
      lane.collapsible = true;
      lane.indent = 2;
      lane.collapsed = options.collapsed.contains(lane.key);
      const int depths = TraceLayout::depthCount(index, lane);
      lane.depthRows = lane.collapsed ? std::min(depths, 1) : depths;
      lane.instantHeight =
          !lane.collapsed && hasInstants(index, lane) ? TraceLayout::instantRowHeight : 0;
      // A thread with nothing to draw keeps one row for its name.
      const int rows = std::max(lane.depthRows, 1);
      add(lane, lane.instantHeight + rows * TraceLayout::rowHeight + TraceLayout::lanePadding);
    };
    if (options.merged) {
      addThreadLane(-1, QStringLiteral("p%1m").arg(p),
                    QStringLiteral("All threads (%1)").arg(proc.threads.size()));
    } else {
      for (int t : proc.threads)
        addThreadLane(t, QStringLiteral("t%1").arg(t), index.threadTitle(t));
    }

    for (std::size_t g = 0; g < proc.graphs.size(); ++g) {
      const pva::TraceGraph& graph = *proc.graphs[g].graph;
      TraceLane lane;
      lane.kind = TraceLane::Kind::Graph;
      lane.process = int(p);
      lane.file = proc.file;
      lane.chart = int(g);
      lane.key = QStringLiteral("p%1g%2").arg(p).arg(g);
      lane.title = QString::fromStdString(graph.name());
      lane.indent = 2;
      lane.chartTop = TraceLayout::rowHeight;
      add(lane, TraceLayout::graphHeight);
    }
  }
  if (index.processes.empty()) {
    // A trace without a process still shows its header.
    TraceLane file;
    file.kind = TraceLane::Kind::File;
    file.key = QStringLiteral("file");
    file.title = index.fileName;
    file.collapsible = true;
    add(file, TraceLayout::headerHeight);
  }
  layout.height = y;
  return layout;
}

} // namespace tessera::viewer
