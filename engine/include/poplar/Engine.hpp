// The engine: compiles a graph and its programs for a device, loads them, and runs them.
// Vertex code runs on the host, so results are exact; the runtime steps the program the way
// the IPU would (sync, exchange, compute), which is what the cycle model follows.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <iosfwd>
#include <iostream>
#include <memory>
#include <numeric> // as Poplar's Engine.hpp brings it
#if __cplusplus >= 201703L
#include <optional>
#endif
#include <poplar/Device.hpp>
#include <poplar/Executable.hpp>
#include <poplar/Graph.hpp>
#include <poplar/HostFunctionCallback.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/ProfileValue.hpp>
#include <poplar/Program.hpp>
#include <poplar/StreamCallback.hpp>
#include <poplar/exceptions.hpp>
#include <pva/Report.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace poplar {

/// Called with (step, total) as compilation proceeds.
using ProgressFunc = std::function<void(int, int)>;

/// Compiles a graph and its programs without creating an engine: the result can be saved
/// (Executable::serialize) and run later, in this process or another, by Engine(Executable&&).
/// Graph and program errors are thrown here; out of memory is reported by the Engine.
Executable compileGraph(const Graph& graph, const std::vector<program::Program>& progs,
                        const OptionFlags& opt = {}, ProgressFunc progressCallBack = ProgressFunc(),
                        const DebugContext& debugContext = {});
Executable compileGraph(Graph&& graph, const std::vector<program::Program>& progs,
                        const OptionFlags& opt = {}, ProgressFunc progressCallBack = ProgressFunc(),
                        const DebugContext& debugContext = {});

class Engine {
public:
  /// Options are merged with POPLAR_ENGINE_OPTIONS (JSON, which overrides them); unknown options
  /// throw invalid_option. Compilation happens here: graph errors are thrown from the constructor.
  /// With autoReport.* options the engine writes profile.pop (and debug.cbor) to
  /// autoReport.directory, in a sub-directory named after the engine when debugContext names it.
  /// A graph that does not fit in tile memory throws graph_memory_allocation_error after the
  /// report is written, unless debug.allowOutOfMemory is true.
  Engine(const Graph& graph, const program::Program& program, const OptionFlags& options = {},
         ProgressFunc progress = {}, const DebugContext& debugContext = {});
  Engine(const Graph& graph, const std::vector<program::Program>& programs,
         const OptionFlags& options = {}, ProgressFunc progress = {},
         const DebugContext& debugContext = {});
  /// An engine for a compiled executable (compileGraph, or Executable::deserialize). Options
  /// given here override those it was compiled with; with none, it profiles as it would have.
  Engine(Executable&& exe, const OptionFlags& options = {});
  ~Engine();
  Engine(Engine&&) noexcept;
  Engine& operator=(Engine&&) noexcept;

  void load(const Device& device);
  void loadAndRun(const Device& device, unsigned programIndex = 0);
  /// Runs program `programIndex`; with an execution profile, the run is recorded under
  /// `debugName` (default "run<i>").
  void run(unsigned programIndex = 0, const std::string& debugName = "");
  bool isLoaded() const;

  void writeTensor(const std::string& handle, const void* begin, const void* end);
  void readTensor(const std::string& handle, void* begin, void* end);
  /// Forms without an end pointer: the buffer must hold the whole tensor.
  void writeTensor(const std::string& handle, const void* buffer);
  void readTensor(const std::string& handle, void* buffer);

  /// Connects a stream to host memory used as a circular buffer: each Copy consumes (or fills)
  /// the next stream-sized piece, wrapping at `end`. The size must be a multiple of the stream's.
  void connectStream(const std::string& handle, void* begin, void* end);
  void connectStream(const std::string& handle, void* buffer);
  /// The same for one replica of a replicated graph.
  void connectStream(const std::string& handle, unsigned replicaIndex, void* begin, void* end);
  void connectStreamToCallback(const std::string& handle, std::function<void(void*)> f);
  void connectStreamToCallback(const std::string& handle, std::unique_ptr<StreamCallback> cb);
  void connectStreamToCallback(const std::string& handle, unsigned replicaIndex,
                               std::function<void(void*)> f);
  /// A StreamCallback serves the stream: fetch() then complete() for each copy; for a
  /// host-to-device stream with exchange.enablePrefetch (the default) and
  /// exchange.streamBufferOverlap=none, prefetch() is offered the next buffer after each copy,
  /// and data it prefetched that no copy took is dropped with invalidatePrefetched() when the
  /// run ends (docs/engine.md).
  void connectStreamToCallback(const std::string& handle, unsigned replicaIndex,
                               std::unique_ptr<StreamCallback> cb);

  /// Binds the callback run at each program::Call of the host function `handle`
  /// (Graph::addHostFunction) in replica `index`. An unknown handle or an empty callback is a
  /// stream_connection_error.
  void connectHostFunction(StringRef handle, unsigned index, HostCallbackHandle callback);

  /// The same from a StreamCallbackHandle (whichever of a function or an object it holds).
  void connectStreamToCallback(const std::string& handle, StreamCallbackHandle callback) {
    if (callback.callback_)
      connectStreamToCallback(handle, std::move(callback.callback_));
    else
      connectStreamToCallback(handle, std::move(callback.function_));
  }
  void connectStreamToCallback(const std::string& handle, unsigned replicaIndex,
                               StreamCallbackHandle callback) {
    if (callback.callback_)
      connectStreamToCallback(handle, replicaIndex, std::move(callback.callback_));
    else
      connectStreamToCallback(handle, replicaIndex, std::move(callback.function_));
  }

  void copyToRemoteBuffer(const void* data, const std::string& handle, std::uint64_t repeatIndex,
                          unsigned replicaIndex = 0);
  void copyFromRemoteBuffer(const std::string& handle, void* data, std::uint64_t repeatIndex,
                            unsigned replicaIndex = 0);

  /// Typed forms, as SDK programs pass a view of their own array (gccs::ArrayRef): `buffer`
  /// must hold exactly one row of the remote buffer, in elements of its type's size, else a
  /// stream_connection_error names both.
  template <typename T>
  void copyToRemoteBuffer(ArrayRef<T> buffer, const std::string& handle, std::uint64_t repeatIndex,
                          unsigned replicaIndex = 0) {
    copyRemoteElements(handle, const_cast<T*>(buffer.data()), buffer.size(), sizeof(T), repeatIndex,
                       replicaIndex, true);
  }
  template <typename T>
  void copyFromRemoteBuffer(const std::string& handle, ArrayRef<T> buffer,
                            std::uint64_t repeatIndex, unsigned replicaIndex = 0) {
    copyRemoteElements(handle, const_cast<T*>(buffer.data()), buffer.size(), sizeof(T), repeatIndex,
                       replicaIndex, false);
  }

  void setPrintTensorStream(std::ostream& os);

  /// A reading of the simulated IPU clock (getTimeStamp), for timing runs from the host as
  /// SDK programs do: `auto t0 = engine.getTimeStamp(); engine.run(1);
  /// auto t1 = engine.getTimeStamp(); std::cout << engine.reportTiming(t0, t1);`.
  class TimerTimePoint {
  public:
    TimerTimePoint() = default;

  private:
    friend class Engine;
    std::uint64_t cycles_ = 0;
    bool valid_ = false;
  };
  /// The simulated clock now: the latest IPU's cycle counter, the cycles an execution profile
  /// shows (the clock starts at the first call when the engine keeps no profile). Needs load().
  TimerTimePoint getTimeStamp();
  /// The simulated time from `start` to `end`: "<cycles> cycles (<microseconds> us at <MHz>
  /// MHz)" (Tessera's wording). A time point not from getTimeStamp, or an end before its start,
  /// is a poplar::runtime_error.
  std::string reportTiming(const TimerTimePoint& start, const TimerTimePoint& end) const;
  /// The options in force after merging POPLAR_ENGINE_OPTIONS.
  const OptionFlags& getEngineOptions() const;

  /// A readable summary of the profile: target, memory (totals, worst tiles, liveness peak)
  /// and, with an execution profile, cycles per run and by kind. Options: "showVarStorage"
  /// ("true": list the largest variables), "showExecutionSteps" ("true": list the costliest steps).
  void printProfileSummary(std::ostream& out, const OptionFlags& options = {}) const;
  /// Directory of this engine's report files (empty when no report is written).
  std::string getReportDirectory() const;
  /// The profile report as libpva reads it, with the runs recorded so far (reportExecution) and
  /// the debug information when it was written. Needs a graph profile (autoReport.all or
  /// autoReport.outputGraphProfile); throws poplar::runtime_error otherwise.
  pva::Report getReport(bool reportExecution = true) const;

  // Older SDKs' profiling API, deprecated there in favour of libpva and kept for the code that
  // still uses it (docs/compatibility.md, "Older SDK habits"): the same report as getReport,
  // as ProfileValue trees. They need a profile (debug.instrument, autoReport.* or
  // debug.retainDebugInformation) and throw profiling_disabled naming the option otherwise.
  /// Runs after this are recorded in the execution profile (the default when it is kept).
  void enableExecutionProfiling();
  /// Runs after this are not recorded (nor counted by the execution profile's cycles).
  void disableExecutionProfiling();
  /// getExecutionProfile forgets the runs recorded so far (the report keeps them).
  void resetExecutionProfile();
  /// {"target": ..., "graph": ..., "memory": {"byTile": {"total", "totalIncludingGaps"}},
  ///  "computeSets": {"names": [...]}, "profilePath": <profile.pop>}.
  ProfileValue getGraphProfile() const;
  /// {"simulation": {"cycles": N, "steps": [{"type", "name", "cycles", "program"}]},
  ///  "runs": [{"name", "program", "cycles"}], "profilePath": <profile.pop>}.
  ProfileValue getExecutionProfile() const;
  /// The entries of both.
  ProfileValue getProfile() const;

private:
  void copyRemoteElements(const std::string& handle, void* data, std::size_t count,
                          std::size_t elementSize, std::uint64_t repeatIndex, unsigned replicaIndex,
                          bool toRemote);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The summary Engine::printProfileSummary prints, from the profiles older SDKs returned
/// (Engine::getGraphProfile, getExecutionProfile): the report they came from is read again. An
/// empty execution profile ({}) prints the memory only; options as Engine::printProfileSummary.
void printProfileSummary(std::ostream& out, const ProfileValue& graphProfile,
                         const ProfileValue& executionProfile = {},
                         const OptionFlags& options = {});
/// The Target, Graph and Memory Usage parts only.
void printGraphSummary(std::ostream& out, const ProfileValue& graphProfile,
                       const OptionFlags& options = {});
/// The same as printProfileSummary.
void printExecutionSummary(std::ostream& out, const ProfileValue& graphProfile,
                           const ProfileValue& executionProfile, const OptionFlags& options = {});

} // namespace poplar
