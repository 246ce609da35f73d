// Reading host traces (*.pvti, written by libpvti): processes, threads, nested events, instant
// events, graphs with series and heatmaps. Names follow Graphcore's pva trace API
// (trace.processes, process.threads, thread.events, event.children()...).
//
//   pva::Trace trace = pva::openTrace("Thu_Aug_27_09:46:55_2020_BST_2341.pvti");
//   for (const pva::Process& p : trace.processes())
//     for (const pva::Thread& t : p.threads())
//       for (const pva::Event& e : t.events()) std::cout << e.label() << " " << e.duration() << "
//       us\n";
//
// A Trace is loaded once by openTrace and then read-only: its objects are cheap handles sharing
// the loaded data, safe to copy and to read from several threads.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <pva/Exception.hpp>
#include <string>
#include <vector>

namespace pva {

namespace detail {
struct TraceData;    ///< everything loaded from one file (private)
struct ThreadData;   ///< one thread's events (private)
struct TraceBuilder; ///< fills the objects below from a file (private)
} // namespace detail

/// A duration event (a pvti::Tracepoint scope or a begin/end pair) and the events nested in it.
class Event {
public:
  const std::string& label() const;
  const std::string& channel() const;
  /// Begin, in microseconds since the Unix epoch.
  std::uint64_t timestamp() const;
  /// Whole microseconds (sub-microsecond events have 0); 0 when the event never ended.
  std::uint64_t duration() const;
  /// False when the trace has no end for it (the process was killed, or end() never came).
  bool finished() const;
  /// Begin and end in nanoseconds since the trace started (end == begin when not finished).
  std::int64_t beginNs() const;
  std::int64_t endNs() const;
  /// Nesting depth on its thread (0: top level).
  unsigned depth() const;
  /// The events directly nested in this one, in begin order.
  std::vector<Event> children() const;
  /// JSON given with pvti::createJsonMetadata, empty when none.
  const std::string& metadata() const;

private:
  friend struct detail::TraceBuilder;
  friend class Thread;
  Event(std::shared_ptr<const detail::ThreadData> thread, std::uint32_t index)
      : thread_(std::move(thread)), index_(index) {}
  std::shared_ptr<const detail::ThreadData> thread_;
  std::uint32_t index_;
};

/// A point in time: pvti::Tracepoint::event, or an end() that did not match (kind says which).
class InstantEvent {
public:
  enum class Kind { Instant, UnmatchedEnd, MismatchedEnd };
  const std::string& label() const;
  const std::string& channel() const;
  std::uint64_t timestamp() const;  ///< microseconds since the Unix epoch
  std::int64_t timestampNs() const; ///< nanoseconds since the trace started
  Kind kind() const;
  const std::string& metadata() const;

private:
  friend class Thread;
  InstantEvent(std::shared_ptr<const detail::ThreadData> thread, std::uint32_t index)
      : thread_(std::move(thread)), index_(index) {}
  std::shared_ptr<const detail::ThreadData> thread_;
  std::uint32_t index_;
};

class Thread {
public:
  /// Operating-system thread id.
  std::uint64_t tid() const;
  const std::string& name() const;
  /// Top-level events, in begin order.
  std::vector<Event> events() const;
  /// Every duration event of the thread, nested ones included.
  std::size_t numEvents() const;
  std::vector<InstantEvent> instantEvents() const;

private:
  friend struct detail::TraceBuilder;
  explicit Thread(std::shared_ptr<const detail::ThreadData> d) : d_(std::move(d)) {}
  std::shared_ptr<const detail::ThreadData> d_;
};

/// One value of a series.
struct SeriesSample {
  std::uint64_t timestamp;  ///< microseconds since the Unix epoch
  std::int64_t timestampNs; ///< nanoseconds since the trace started
  double value;
};

/// One line of a TraceGraph (pvti::Series).
class TraceSeries {
public:
  const std::string& name() const { return name_; }
  const std::vector<SeriesSample>& samples() const { return samples_; }

private:
  friend struct detail::TraceBuilder;
  std::string name_;
  std::vector<SeriesSample> samples_;
};

/// A line graph (pvti::Graph): named series of values over time, in one unit.
class TraceGraph {
public:
  const std::string& name() const { return name_; }
  const std::string& unit() const { return unit_; }
  const std::vector<TraceSeries>& series() const { return series_; }

private:
  friend struct detail::TraceBuilder;
  std::string name_, unit_;
  std::vector<TraceSeries> series_;
};

/// One histogram of a heatmap: binEdges().size() + 1 counts (below the first edge, between
/// consecutive edges, at or above the last).
struct HeatmapSample {
  std::uint64_t timestamp; ///< microseconds since the Unix epoch
  std::int64_t timestampNs;
  std::vector<std::uint32_t> bins;
};

/// A heatmap (pvti::HeatmapDouble / HeatmapInt64) with its samples decoded.
class TraceHeatmap {
public:
  const std::string& name() const { return name_; }
  const std::string& unit() const { return unit_; }
  /// "double" or "int64": the type of the values that were counted.
  const std::string& valueType() const { return valueType_; }
  const std::vector<double>& binEdges() const { return edges_; }
  const std::vector<HeatmapSample>& samples() const { return samples_; }

private:
  friend struct detail::TraceBuilder;
  std::string name_, unit_, valueType_;
  std::vector<double> edges_;
  std::vector<HeatmapSample> samples_;
};

class Process {
public:
  std::uint64_t pid() const;
  const std::string& name() const;
  const std::vector<Thread>& threads() const;
  /// The thread with this OS id (the first, if the id was reused); throws InvalidArgumentError.
  Thread thread(std::uint64_t tid) const;
  const std::vector<TraceGraph>& graphs() const;
  const std::vector<TraceHeatmap>& heatmaps() const;

private:
  friend class Trace;
  explicit Process(std::shared_ptr<const detail::TraceData> d) : d_(std::move(d)) {}
  std::shared_ptr<const detail::TraceData> d_;
};

/// How far a long load has come: called on the loading thread with the fraction done, rising
/// from 0 to 1 (often: about once per block of a few thousand events). Return false to stop.
using LoadProgress = std::function<bool(double fractionDone)>;

class Trace {
public:
  const std::vector<Process>& processes() const { return processes_; }
  /// Throws InvalidArgumentError when no process has this id.
  Process process(std::uint64_t pid) const;
  const std::string& path() const;
  /// Wall-clock time at which tracing started, microseconds since the Unix epoch.
  std::uint64_t startTimestamp() const;
  /// The writer's steady_clock (CLOCK_MONOTONIC: time since the host booted) when tracing
  /// started, in ns; every timestamp counts from it. Traces written on one host since its last
  /// boot share this clock, so their starts compare to the ns (pva::alignTraces). 0 when the file
  /// does not record it.
  std::uint64_t startSteadyNs() const;
  /// "major.minor.point" of the file.
  const std::string& formatVersion() const;

private:
  friend Trace openTrace(const std::string& path);
  friend Trace openTrace(const std::string& path, const LoadProgress& progress);
  friend struct detail::TraceBuilder;
  explicit Trace(std::shared_ptr<const detail::TraceData> d);
  std::shared_ptr<const detail::TraceData> d_;
  std::vector<Process> processes_;
};

/// Opens a .pvti file and loads it. Throws FileNotFoundError (missing or unreadable),
/// InvalidReportError (not a trace, truncated or corrupted) or UnsupportedVersionError; every
/// message names the file.
Trace openTrace(const std::string& path);

/// openTrace that reports its progress (a trace of millions of events takes seconds to load) and
/// can be stopped: when `progress` returns false, throws CancelledError naming the file.
Trace openTrace(const std::string& path, const LoadProgress& progress);

/// Writes the trace in Chrome's Trace Event Format (JSON), which chrome://tracing and Perfetto's
/// UI open: "X" events for spans ("B" for unfinished ones), "i" for instant events, "C" counters
/// for graph series, and process/thread names. Timestamps are microseconds since the trace
/// started.
void exportChromeTrace(const Trace& trace, std::ostream& out);

} // namespace pva
