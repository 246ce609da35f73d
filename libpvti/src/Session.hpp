// The process's trace session: PVTI_OPTIONS, the registry of channels and threads, interning,
// and the background writer thread. Created on first use (the predefined channels register
// during static initialisation) and never destroyed; closeTrace() or exit ends the file.
#pragma once

#include "Batch.hpp"
#include "Options.hpp"
#include "Record.hpp"
#include "TickClock.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace pvti {
struct TraceChannel;
}

namespace pvti::detail {

class TraceWriter;

/// The flush interval the format promises (docs/tracing.md): a killed process keeps every event
/// older than this.
inline constexpr std::chrono::milliseconds kFlushInterval{50};
/// The writer's pause while threads are recording fast (see Session::writerLoop).
inline constexpr std::chrono::milliseconds kBusyFlushInterval{1};

/// The label of the span a recording thread writes when it had to wait for room in its ring.
inline constexpr char kWriterWaitLabel[] = "pvti: waiting for the writer";

/// steady_clock ns: the session's start, deadlines and the rare, locked events (heatmap samples).
/// Ring records carry ticks() instead (TickClock.hpp).
inline std::uint64_t nowNs() {
  return steadyNs();
}

class Session {
public:
  static Session& instance();

  void registerChannel(TraceChannel* channel);
  void unregisterChannel(TraceChannel* channel);
  void setChannelEnabled(TraceChannel* channel, bool enabled);
  std::vector<TraceChannel*> channels();

  /// Slow paths of the hot path. registerThread gives null when nothing may be recorded on this
  /// thread (tracing off, or the writer thread itself).
  ThreadBuffer* registerThread(long tid);
  std::uint32_t internLabel(const char* text, std::size_t length);
  /// Pushes into a full ring: spills it (ThreadBuffer) when it may, else once the writer has
  /// made room, recording the wait (drops the record if the trace is closed).
  void pushWhenRoom(ThreadBuffer& buffer, const Record& r);

  std::uint32_t internMetadata(const std::string& json);
  std::uint32_t defineGraph(const std::string& name, const std::string& unit);
  std::uint32_t defineSeries(std::uint32_t graph, const std::string& name);
  std::uint32_t defineHeatmap(const std::string& name, const std::string& unit,
                              std::string_view valueType, std::string edgesJson);
  void addHeatmapSample(std::uint32_t heatmap, std::vector<std::uint8_t> bins);
  void nameThread(std::uint32_t index, const std::string& name);

  const std::string& fileName() const { return fileName_; }
  /// Final flush and close; idempotent, never throws.
  void close() noexcept;

private:
  Session();
  void start(const std::string& optionsText);
  void writerLoop();
  void calibrate();
  std::chrono::steady_clock::time_point calibrationReady() const;
  /// Before calibration: moves every ring's records into its StreamState::held (no conversion,
  /// no file); the largest backlog found, as flushOnce.
  std::uint64_t holdOnce();
  std::uint64_t flushOnce();
  /// One ring's records (held, spilled, in the ring) into its event block; the head drained to.
  std::uint64_t drainRing(
      ThreadBuffer& ring); ///< the most records one ring held when it started (0: nothing to do)
  void deactivateAll();
  /// Sets a full ring's array aside for the writer and gives the thread an empty one from its
  /// pool; false when the thread owns all the arrays it may (ArrayPool::kMaxArrays) and none is
  /// free, or memory ran out.
  static bool spill(ThreadBuffer& buffer) noexcept;
  void warn(const std::string& message) noexcept;

  std::mutex mutex_; // guards everything below that is not atomic
  Options options_;
  std::vector<TraceChannel*> channels_;
  std::uint32_t nextChannel_ = 1, nextThread_ = 1, nextGraph_ = 1, nextSeries_ = 1,
                nextHeatmap_ = 1;
  std::unordered_map<std::string, std::uint32_t> labels_, metadata_;
  std::vector<std::shared_ptr<ThreadBuffer>> rings_;
  Batch pending_;

  std::string fileName_;
  std::uint64_t startNs_ = 0;
  TickCalibration::Anchor startAnchor_;   ///< the first calibration point, taken at start
  std::uint64_t deadlineNs_ = UINT64_MAX; ///< raw steady ns after which nothing is recorded
  std::unique_ptr<TraceWriter> writer_;
  std::thread thread_;
  std::mutex wakeMutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::chrono::milliseconds writerDelay_{0}; ///< TESSERA_PVTI_WRITER_DELAY_MS (tests)
  bool closed_ = false;
  std::atomic<bool> closing_{false};
};

} // namespace pvti::detail
