// The Host trace page's snapshot of a .pvti: every duration event flattened per thread in begin
// order (a subtree is a contiguous range, as in libpva), plus one sorted array per thread and
// nesting depth (begin, end, event) so a timeline finds the visible events of a row by binary
// search and merges the sub-pixel ones: painting costs O(pixels x depth), not O(events).
//
// Several traces (a poprun job's instances, or .pvti files opened together) make one index on one
// time axis (core/TraceMerge.hpp): each trace's threads and processes follow the previous one's,
// their times shifted by where the trace starts on the axis (pva::alignTraces), so the per-row
// index and level of detail work unchanged on each trace's rows.
//
// Threads: built once off the GUI thread by loadTraceIndex, then immutable and shared
// (shared_ptr<const TraceIndex>) by the timeline, the models and the search. It keeps the
// pva::Trace alive, so the metadata, graph and heatmap pointers into it stay valid.
// Cost: O(events) time to build, ~90 bytes per event.
#pragma once

#include "core/Background.hpp"
#include "core/HeatmapAxis.hpp"

#include <QString>
#include <cstdint>
#include <optional>
#include <pva/Trace.hpp>
#include <string>
#include <utility>
#include <vector>

namespace tessera::viewer {

inline constexpr std::uint32_t kNoTraceEvent = 0xffffffffu;

/// One duration event. Times are nanoseconds since the trace started.
struct TraceEventRecord {
  std::int64_t begin = 0;
  /// End as drawn: an unfinished event lasts until the next event after it on its thread (or the
  /// thread's last timestamp), since it was still open then.
  std::int64_t end = 0;
  std::int64_t self = 0;                 ///< end - begin minus the children's durations
  const std::string* metadata = nullptr; ///< JSON, empty when none (owned by the pva::Trace)
  std::uint32_t next = 0;                ///< index just after this event's subtree
  std::uint32_t parent = kNoTraceEvent;
  std::uint32_t label = 0;   ///< TraceIndex::labels
  std::uint32_t channel = 0; ///< TraceIndex::channels
  std::uint32_t depth = 0;
  std::uint32_t rowPos = 0; ///< position in the thread's depth row
  std::uint32_t childCount = 0;
  bool finished = true;

  std::int64_t duration() const { return end - begin; }
};

/// The events of one thread at one nesting depth, sorted by begin; they never overlap, so the
/// ends are sorted too.
struct TraceDepthRow {
  std::vector<std::int64_t> begin, end;
  std::vector<std::uint32_t> event; ///< index into TraceThreadIndex::events

  std::size_t size() const { return event.size(); }
  /// The positions [first, last) of the events that overlap [t0, t1). O(log n).
  std::pair<std::size_t, std::size_t> overlapping(std::int64_t t0, std::int64_t t1) const;
};

struct TraceInstant {
  std::int64_t time = 0;
  std::uint32_t label = 0, channel = 0;
  pva::InstantEvent::Kind kind = pva::InstantEvent::Kind::Instant;
  const std::string* metadata = nullptr;
};

struct TraceThreadIndex {
  std::uint64_t tid = 0;
  QString name;
  int process = 0;                      ///< TraceIndex::processes
  std::vector<TraceEventRecord> events; ///< preorder = begin order
  std::vector<TraceDepthRow> depths;    ///< depths[d]: the events at depth d
  std::vector<TraceInstant> instants;   ///< sorted by time
  std::size_t depthCount() const { return depths.size(); }
};

struct TraceGraphInfo {
  const pva::TraceGraph* graph = nullptr;
  double min = 0, max = 0; ///< over every sample of every series (0 included)
};

struct TraceHeatmapInfo {
  const pva::TraceHeatmap* heatmap = nullptr;
  std::uint32_t maxCount = 0; ///< the largest bin count of any sample (the colour scale)
  HeatmapRows rows;           ///< the bins the lane shows
};

struct TraceProcessIndex {
  std::uint64_t pid = 0;
  QString name;
  int file = 0; ///< TraceIndex::files: the trace it came from
  /// Where its trace starts on the index's axis. Events and instants are stored shifted; graph
  /// and heatmap samples stay in the pva::Trace, in ns since their own trace's start: add this.
  std::int64_t offsetNs = 0;
  std::vector<int> threads; ///< indices into TraceIndex::threads
  std::vector<TraceGraphInfo> graphs;
  std::vector<TraceHeatmapInfo> heatmaps;
};

/// An event (instant == false) or an instant event (instant == true) of one thread.
struct TraceEventRef {
  int thread = -1;
  std::uint32_t index = kNoTraceEvent;
  bool instant = false;

  bool valid() const { return thread >= 0 && index != kNoTraceEvent; }
  bool operator==(const TraceEventRef& o) const {
    return thread == o.thread && index == o.index && instant == o.instant;
  }
  bool operator!=(const TraceEventRef& o) const { return !(*this == o); }
};

/// One .pvti of an index.
struct TraceFileInfo {
  QString path, fileName, formatVersion;
  QString group;             ///< its lane group's name when there are several ("instance 1")
  std::uint64_t startUs = 0; ///< wall-clock start, µs since the Unix epoch
  std::int64_t offsetNs = 0; ///< where it starts on the index's axis
};

struct TraceIndex {
  std::vector<pva::Trace> traces;        ///< keeps the pointers above valid
  QString path, fileName, formatVersion; ///< the first trace's
  std::vector<TraceFileInfo> files;      ///< every trace, in lane-group order
  /// How several traces were put on one axis (pva::TraceAlignment::description); empty for one.
  QString alignment;
  std::uint64_t startTimestampUs = 0;    ///< the axis' 0, µs since the Unix epoch
  std::vector<QString> labels, channels; ///< interned
  std::vector<TraceProcessIndex> processes;
  std::vector<TraceThreadIndex> threads;
  std::int64_t beginNs = 0; ///< the earliest time of anything in the trace (tracing starts before)
  std::int64_t endNs = 0;   ///< the latest time of anything in the trace
  std::size_t eventCount = 0, instantCount = 0;

  const TraceEventRecord& event(const TraceEventRef& ref) const {
    return threads[std::size_t(ref.thread)].events[ref.index];
  }
  const TraceInstant& instant(const TraceEventRef& ref) const {
    return threads[std::size_t(ref.thread)].instants[ref.index];
  }
  const QString& label(const TraceEventRef& ref) const;
  /// The event's children, in begin order. O(children).
  std::vector<std::uint32_t> children(int thread, std::uint32_t event) const;
  /// The row-th child of an event, O(1).
  std::uint32_t child(int thread, std::uint32_t event, std::uint32_t row) const;
  /// Duration events overlapping [t0, t1) on every thread. O(threads x depth x log n).
  std::size_t eventsOverlapping(std::int64_t t0, std::int64_t t1) const;
  /// Events whose label contains `text` (case-insensitive), in begin order (ties: thread, then
  /// nesting order). O(labels + events).
  std::vector<TraceEventRef> search(const QString& text) const;
  /// "name (tid)" for tooltips and details.
  QString threadTitle(int thread) const;
};

/// Reads the document's trace and builds the index. Throws pva::Exception (a bad file) and
/// Cancelled.
TraceIndex loadTraceIndex(const QString& path, Progress& progress);
/// Builds the index of an already loaded trace.
TraceIndex buildTraceIndex(pva::Trace trace, Progress& progress);

} // namespace tessera::viewer
