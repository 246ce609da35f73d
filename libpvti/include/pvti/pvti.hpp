// libpvti: host trace instrumentation (Graphcore's PopVision Trace Instrumentation API).
//
// Tracing is off unless the PVTI_OPTIONS environment variable is set (read once per process):
//   PVTI_OPTIONS='{"enable":true, "directory":"reports", "channels":["Poplar"], "duration":10}'
// Each process then writes one <Www>_<Mmm>_<DD>_<HH:MM:SS>_<YYYY>_<TZ>_<pid>.pvti file, read back
// with pva::openTrace (<pva/Trace.hpp>). See docs/tracing.md.
//
// Cost: a tracepoint on a disabled channel is one relaxed atomic load and a branch (the checks
// below are inline). An enabled one writes a fixed-size record (interned label id, channel id,
// steady_clock timestamp) into a buffer owned by the calling thread: no lock, no allocation once
// a thread has seen a label. A background thread writes the records to the file.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace pvti {

class Metadata;
struct TraceChannel;

namespace detail {
// Out-of-line halves of the inline API below; they never throw.
std::uint32_t beginScope(TraceChannel* channel, const char* label, std::size_t length,
                         const Metadata* m) noexcept;
void endScope(TraceChannel* channel, std::uint32_t labelId) noexcept;
void endLabel(TraceChannel* channel, const char* label, std::size_t length) noexcept;
void instant(TraceChannel* channel, const char* label, std::size_t length,
             const Metadata* m) noexcept;
void addSample(std::uint32_t series, double value) noexcept;
/// True while a trace file is being written (not before, not after closeTrace or `duration`).
extern std::atomic<bool> sessionActive;
} // namespace detail

/// A named group of tracepoints that can be switched on and off. Construct it once (a global or
/// static object, e.g. `pvti::TraceChannel myChannel{"myApp"};`): it registers itself with the
/// session and must outlive every tracepoint that uses it. Change `enabled` through
/// enableTraceChannel/disableTraceChannel; the PVTI_OPTIONS `channels` list disables channels
/// not named in it.
struct TraceChannel {
  TraceChannel(const char* name, bool enabled = true);
  ~TraceChannel();
  TraceChannel(const TraceChannel&) = delete;
  TraceChannel& operator=(const TraceChannel&) = delete;

  const char* name;
  bool enabled;

  /// Internal: enabled and a trace is being written. The one flag the hot path loads.
  std::atomic<bool> active_{false};
  /// Internal: interned channel id in the trace file.
  std::uint32_t id_ = 0;
};

extern TraceChannel traceDrivers;   ///< "Drivers"
extern TraceChannel tracePoplar;    ///< "Poplar" (Tessera's engine)
extern TraceChannel traceFramework; ///< "Framework"

/// JSON attached to an event; the viewer and pva::Event::metadata() show it.
class Metadata {
public:
  Metadata() = default;
  const std::string& json() const { return json_; }
  /// Internal: interned id in the trace file, 0 when not traced.
  std::uint32_t id() const { return id_; }

private:
  friend Metadata createJsonMetadata(const std::string& json);
  std::string json_;
  std::uint32_t id_ = 0;
};

/// Metadata from JSON text; throws std::invalid_argument if `json` is not valid JSON.
Metadata createJsonMetadata(const std::string& json);

/// A duration event on the calling thread: begins in the constructor, ends in the destructor.
/// Scopes nest; begin()/end() pairs and Tracepoint scopes nest with each other.
class Tracepoint {
public:
  Tracepoint(TraceChannel* channel, const std::string& label)
      : Tracepoint(channel, label.data(), label.size()) {}
  Tracepoint(TraceChannel* channel, const std::string& label, Metadata* metadata)
      : Tracepoint(channel, label.data(), label.size(), metadata) {}
  Tracepoint(TraceChannel* channel, const char* label) : channel_(channel) {
    if (channel->active_.load(std::memory_order_relaxed))
      labelId_ = detail::beginScope(channel, label, std::strlen(label), nullptr);
  }
  /// `label` need not be NUL-terminated (e.g. a string_view's data and size).
  Tracepoint(TraceChannel* channel, const char* label, std::size_t length,
             Metadata* metadata = nullptr)
      : channel_(channel) {
    if (channel->active_.load(std::memory_order_relaxed))
      labelId_ = detail::beginScope(channel, label, length, metadata);
  }
  ~Tracepoint() {
    // Ends whatever this scope began, even if the channel was disabled since: keeps nesting right.
    if (labelId_) detail::endScope(channel_, labelId_);
  }
  Tracepoint(const Tracepoint&) = delete;
  Tracepoint& operator=(const Tracepoint&) = delete;

  /// Begins a duration event on the calling thread; end() with the same label ends it.
  static void begin(TraceChannel* channel, const std::string& label) {
    begin(channel, label.data(), label.size());
  }
  static void begin(TraceChannel* channel, const char* label) {
    if (channel->active_.load(std::memory_order_relaxed))
      detail::beginScope(channel, label, std::strlen(label), nullptr);
  }
  static void begin(TraceChannel* channel, const char* label, std::size_t length,
                    Metadata* metadata = nullptr) {
    if (channel->active_.load(std::memory_order_relaxed))
      detail::beginScope(channel, label, length, metadata);
  }

  /// Ends the innermost open event of the calling thread. An end() with nothing open, or whose
  /// label differs from the innermost event's (which it still ends), is recorded as such.
  static void end(TraceChannel* channel, const std::string& label) {
    end(channel, label.data(), label.size());
  }
  static void end(TraceChannel* channel, const char* label) {
    if (channel->active_.load(std::memory_order_relaxed))
      detail::endLabel(channel, label, std::strlen(label));
  }
  static void end(TraceChannel* channel, const char* label, std::size_t length) {
    if (channel->active_.load(std::memory_order_relaxed)) detail::endLabel(channel, label, length);
  }

  /// An instant event: one point in time, no duration.
  static void event(TraceChannel* channel, const std::string& label, Metadata* metadata = nullptr) {
    event(channel, label.data(), label.size(), metadata);
  }
  static void event(TraceChannel* channel, const char* label, Metadata* metadata = nullptr) {
    if (channel->active_.load(std::memory_order_relaxed))
      detail::instant(channel, label, std::strlen(label), metadata);
  }
  static void event(TraceChannel* channel, const char* label, std::size_t length,
                    Metadata* metadata = nullptr) {
    if (channel->active_.load(std::memory_order_relaxed))
      detail::instant(channel, label, length, metadata);
  }

private:
  TraceChannel* channel_;
  std::uint32_t labelId_ = 0; ///< 0: nothing begun
};

/// One line of a Graph. A cheap handle: copy it freely.
class Series {
public:
  Series() = default;
  /// Adds a value at the current time.
  void add(double value) {
    if (id_ && detail::sessionActive.load(std::memory_order_relaxed)) detail::addSample(id_, value);
  }

private:
  friend class Graph;
  std::uint32_t id_ = 0; ///< 0: not traced
};

/// A line graph of values over time (several series, one unit), e.g. a loss or memory use.
class Graph {
public:
  Graph(const std::string& name, const std::string& unit, bool enable = true);
  Series addSeries(const std::string& name);

private:
  std::uint32_t id_ = 0; ///< 0: not traced
};

/// A histogram over time: each add() counts its values into the bins the edges make (n edges,
/// n+1 bins, the outer two catching values below the first and at or above the last edge).
/// `unit` is a label for the edges (e.g. "2^x"); values are compared to the edges as given.
/// Throws std::invalid_argument unless the edges are strictly ascending.
class HeatmapDouble {
public:
  HeatmapDouble(const std::string& name, const std::vector<double>& binEdges,
                const std::string& unit = "");
  void add(const std::vector<double>& values) { add(values.data(), values.size()); }
  void add(const double* values, std::size_t count);

private:
  std::vector<double> edges_;
  std::uint32_t id_ = 0; ///< 0: not traced
};

/// HeatmapDouble for integer values.
class HeatmapInt64 {
public:
  HeatmapInt64(const std::string& name, const std::vector<std::int64_t>& binEdges,
               const std::string& unit = "");
  void add(const std::vector<std::int64_t>& values) { add(values.data(), values.size()); }
  void add(const std::int64_t* values, std::size_t count);

private:
  std::vector<std::int64_t> edges_;
  std::uint32_t id_ = 0;
};

/// Names the calling thread in the trace (otherwise its OS name is used).
class ThreadName {
public:
  explicit ThreadName(const std::string& name);
};

void enableTraceChannel(TraceChannel* channel);
/// Events sent to a disabled channel are dropped.
void disableTraceChannel(TraceChannel* channel);
/// The channel's `enabled` flag.
bool checkTraceChannel(TraceChannel* channel);
/// Every channel registered in this process.
std::vector<TraceChannel*> listTraceChannel();
/// Path of this process's trace file (relative to the working directory unless `directory` was
/// absolute); empty when tracing is off.
std::string getCurrentTraceFilename();
/// Writes out everything recorded and closes the trace; later events are dropped. Also done at
/// exit. Never throws.
void closeTrace();
/// Data given to libpvti that it cannot decode (an encoded heatmap sample that is truncated or
/// damaged). The message says what is wrong and at which byte. A std::invalid_argument, so
/// code that caught that before keeps working.
class InvalidDataError : public std::invalid_argument {
public:
  explicit InvalidDataError(const std::string& what) : std::invalid_argument(what) {}
};

/// The bin counts of an encoded heatmap sample (heatmap_samples.bin_quantities). Throws
/// pvti::InvalidDataError when `data` is not one (a truncated varint, a varint longer than 5
/// bytes, a count above 2^32 - 1); nothing else.
std::vector<std::uint32_t> decodeHeatmapData(const std::vector<std::uint8_t>& data);

} // namespace pvti
