#include "EngineOptions.hpp"
#include "HostTrace.hpp"
#include "LegacyProfile.hpp"
#include "compiler/CompiledGraph.hpp"
#include "executable/ExecutableState.hpp"
#include "graph/GraphState.hpp"
#include "graph/HostFunctionStreams.hpp"
#include "profile/StepClock.hpp"
#include "report/ExecutionRecorder.hpp"
#include "report/ProfileSummary.hpp"
#include "report/ReportBuilder.hpp"
#include "report/SerializedGraph.hpp"
#include "runtime/Runtime.hpp"
#include "runtime/ThreadPool.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <map>
#include <poplar/Engine.hpp>
#include <poplar/exceptions.hpp>
#include <pvti/pvti.hpp>
#include <thread>

namespace poplar {

struct Engine::Impl {
  OptionFlags options;
  detail::compiler::CompiledGraph compiled;
  std::unique_ptr<detail::runtime::Runtime> runtime;
  detail::profile::ProfilerOptions profiling;
  detail::report::CompilationProfile profile;
  detail::report::ReportFiles files;
  std::unique_ptr<tessera::profiler::ReportWriter> writer;
  std::unique_ptr<detail::report::ExecutionRecorder> recorder;
  std::unique_ptr<detail::profile::CounterClock> counterClock; ///< cycle counters without a profile
  /// Older SDKs' enable/disableExecutionProfiling: whether runs are recorded.
  bool recordRuns = true;
  /// resetExecutionProfile: getExecutionProfile lists the runs from this one on.
  unsigned firstProfiledRun = 0;
  unsigned runsRecorded = 0;

  ~Impl();
  /// Everything after compilation: profile models, reports, the memory check, the runtime.
  void start(core::Executable&& exe, ProgressFunc& progress);
  /// The same, with profile.pop written on a thread of its own while this one builds the memory
  /// model (handing it the allocations tile by tile) and sets up the runtime.
  void startWritingAlongside(ProgressFunc& progress, unsigned threads);
  void buildProgramModel(ProgressFunc& progress);
  void buildMemoryModel(ProgressFunc& progress, unsigned threads,
                        detail::report::AllocationFeed* feed);
  /// Chooses the report's files (making a private directory when asked); then writeReport
  /// writes them.
  void prepareReport();
  void writeReport(detail::report::AllocationFeed* feed = nullptr);
  void checkMemory() const;

  void requireLoaded(const char* what) const {
    if (!runtime->loaded())
      throw runtime_error(std::string("Engine::") + what + " called before Engine::load");
  }
};

void Engine::Impl::buildProgramModel(ProgressFunc& progress) {
  namespace prof = detail::profile;
  auto& p = profile;
  if (progress) progress(5, 8);
  {
    pvti::Tracepoint t(&pvti::tracePoplar, "program model");
    p.model = detail::models::buildProgramModel(compiled);
    // Lightweight profiling's own stream copies are blocks only where stream copies are.
    if (profiling.anyBlocks() && profiling.externalExchangeInstrumentation)
      detail::models::addLightweightCopies(p.model, compiled.replicaTarget);
  }
  detail::session::sampleHostMemory();
  if (progress) progress(6, 8);
  {
    pvti::Tracepoint t(&pvti::tracePoplar, "liveness");
    p.liveness = detail::models::computeLiveness(compiled, p.model);
  }
  detail::session::sampleHostMemory();
}

void Engine::Impl::buildMemoryModel(ProgressFunc& progress, unsigned threads,
                                    detail::report::AllocationFeed* feed) {
  namespace prof = detail::profile;
  auto& p = profile;
  detail::models::MemoryOptions mo;
  mo.computeInstrumentation = profiling.computeInstrumentation;
  mo.threads = threads;
  if (feed)
    mo.onTile = [feed](unsigned, const detail::models::Allocation* tile, std::size_t count) {
      feed->push(tile, count);
    };
  if (profiling.blocksFilter) {
    mo.blockBufferBytes = profiling.blocksBufferSize;
    for (unsigned ipu = 0; ipu < compiled.replicaTarget.getNumIPUs(); ++ipu)
      mo.blockTiles.push_back(ipu * compiled.replicaTarget.getTilesPerIPU() + profiling.blocksTile);
  }
  {
    pvti::Tracepoint t(&pvti::tracePoplar, "memory model");
    p.memory = detail::models::buildMemoryModel(compiled, p.model, p.liveness, mo);
  }
  detail::session::sampleHostMemory();
  if (progress) progress(7, 8);
}

Engine::Impl::~Impl() {
  if (!profiling.privateReport || files.directory.empty()) return;
  recorder.reset(); // close the report before its directory goes
  writer.reset();
  std::error_code ignored;
  std::filesystem::remove_all(files.directory, ignored);
}

void Engine::Impl::prepareReport() {
  if (!profiling.anyReport()) return;
  if (profiling.privateReport) {
    profiling.directory = detail::report::makePrivateReportDirectory();
    profiling.engineName.clear();
  }
  files = detail::report::reportFiles(profiling);
}

void Engine::Impl::writeReport(detail::report::AllocationFeed* feed) {
  if (!profiling.anyReport()) return;
  pvti::Tracepoint t(&pvti::tracePoplar, "write reports");
  try {
    if (profiling.serializedGraph) {
      std::filesystem::create_directories(files.directory);
      detail::report::writeSerializedGraph(
          files.directory + "/" + std::string(tessera::profiler::schema::kSerializedGraphFileName),
          compiled);
    }
    if (profiling.graphProfile)
      writer = detail::report::writeCompilationReport(files, compiled, profile, options, profiling,
                                                      feed);
  } catch (const poplar_error&) {
    throw;
  } catch (const std::exception& e) {
    throw profiling_error(std::string("cannot write the profile report: ") + e.what());
  }
}

void Engine::Impl::checkMemory() const {
  const auto& mem = profile.memory;
  if (!mem.outOfMemory()) return;
  std::string worst;
  for (std::size_t i = 0; i < mem.overflowingTiles.size() && i < 5; ++i) {
    const unsigned t = mem.overflowingTiles[i];
    worst += (i ? ", " : "") + std::string("tile ") + std::to_string(t) + " needs " +
             std::to_string(mem.tiles[t].includingGaps) + " bytes (" +
             std::to_string(mem.tiles[t].includingGaps - mem.bytesPerTile) + " over)";
  }
  std::string msg = "out of memory: " + std::to_string(mem.overflowingTiles.size()) + " of " +
                    std::to_string(mem.tiles.size()) + " tiles need more than their " +
                    std::to_string(mem.bytesPerTile) + " bytes; worst: " + worst;
  msg += writer ? ". The memory report was written to " + files.profile
                : ". Set autoReport.outputGraphProfile (or autoReport.all) to get a memory report";
  if (profiling.allowOutOfMemory) {
    std::fprintf(stderr, "tessera: warning: %s; running anyway (debug.allowOutOfMemory)\n",
                 msg.c_str());
    return;
  }
  throw graph_memory_allocation_error(
      msg + "; debug.allowOutOfMemory=true lets the IPU Model run anyway",
      writer && !profiling.privateReport ? files.profile : std::string());
}

namespace {
/// Checks the options and compiles; compilation reports progress steps 0-4 of `total`.
std::unique_ptr<core::Executable> compileExecutable(const Graph& graph,
                                                    const std::vector<program::Program>& programs,
                                                    const OptionFlags& options,
                                                    const ProgressFunc& progress, int total,
                                                    const DebugContext& debugContext) {
  auto exe = std::make_unique<core::Executable>();
  exe->options = detail::session::mergedEngineOptions(options);
  detail::profile::parseProfilerOptions(exe->options); // rejects bad values before the long part
  exe->name = debugContext.getPathName();
  std::function<void(int, int)> compileProgress;
  if (progress) compileProgress = [&](int i, int) { progress(i, total); };
  pvti::Tracepoint t(&pvti::tracePoplar, "compile graph");
  detail::session::sampleHostMemory();
  exe->compiled = detail::compiler::compile(*graph.state(), programs, compileProgress);
  detail::session::sampleHostMemory();
  return exe;
}
} // namespace

Executable compileGraph(const Graph& graph, const std::vector<program::Program>& programs,
                        const OptionFlags& options, ProgressFunc progress,
                        const DebugContext& debugContext) {
  pvti::Tracepoint compileTrace(&pvti::tracePoplar, "compileGraph");
  auto exe = compileExecutable(graph, programs, options, progress, 4, debugContext);
  if (progress) progress(4, 4);
  return Executable(std::move(exe));
}

Executable compileGraph(Graph&& graph, const std::vector<program::Program>& programs,
                        const OptionFlags& options, ProgressFunc progress,
                        const DebugContext& debugContext) {
  const Graph owned(std::move(graph));
  return compileGraph(owned, programs, options, std::move(progress), debugContext);
}

namespace {
bool readsCycleCounters(const detail::compiler::CompiledGraph& g) {
  for (const auto& cs : g.computeSets)
    for (const auto& v : cs.vertices)
      if (detail::runtime::readsCycleCounter(*v.type)) return true;
  return false;
}
} // namespace

void Engine::Impl::start(core::Executable&& exe, ProgressFunc& progress) {
  options = std::move(exe.options);
  compiled = std::move(exe.compiled);
  profiling = detail::profile::parseProfilerOptions(options);
  profiling.engineName = exe.name;
  if (profiling.blocksTile >= compiled.replicaTarget.getTilesPerIPU())
    throw invalid_option("engine option 'profiler.blocks.tile' = '" +
                         std::to_string(profiling.blocksTile) + "': the target has " +
                         std::to_string(compiled.replicaTarget.getTilesPerIPU()) +
                         " tiles per IPU");
  const unsigned threads = detail::session::runtimeOptions(options).threads;
  buildProgramModel(progress);
  if (profiling.graphProfile && threads > 1) {
    startWritingAlongside(progress, threads);
  } else {
    buildMemoryModel(progress, threads, nullptr);
    prepareReport();
    writeReport();
    if (progress) progress(8, 8);
    checkMemory();
    runtime = std::make_unique<detail::runtime::Runtime>(compiled,
                                                         detail::session::runtimeOptions(options));
  }
  if (profiling.executionProfile) {
    recorder = std::make_unique<detail::report::ExecutionRecorder>(profile.model, compiled,
                                                                   profiling, *writer);
    runtime->setObserver(recorder.get());
  } else if (readsCycleCounters(compiled)) {
    counterClock = std::make_unique<detail::profile::CounterClock>(profile.model, compiled);
    runtime->setObserver(counterClock.get());
  }
}

// At a million vertices, inserting the two million lowered_variables rows takes longer than the
// memory model and the runtime set-up together; done one after the other, half of a two-core
// host idles. Here the report thread starts as soon as the program model and liveness exist
// (its first tables need nothing more), takes each tile's allocations as the model finishes it,
// and the rest of the memory model once it is complete, while this thread goes on to the runtime.
// The report is published before the constructor returns, the rows are those of the sequential
// path, and errors come out in the same order: the report's, then out of memory, then the
// runtime's.
void Engine::Impl::startWritingAlongside(ProgressFunc& progress, unsigned threads) {
  prepareReport();
  detail::report::AllocationFeed feed;
  std::exception_ptr reportError, runtimeError;
  std::thread reporter([&] {
    try {
      writeReport(&feed);
    } catch (...) {
      reportError = std::current_exception();
      feed.abandon();
    }
  });
  struct Joiner { // on every way out: the reporter never waits for tiles that will not come
    detail::report::AllocationFeed& feed;
    std::thread& thread;
    void join() {
      if (!thread.joinable()) return;
      feed.abort();
      thread.join();
    }
    ~Joiner() { join(); }
  } joiner{feed, reporter};
  buildMemoryModel(progress, std::max(1u, threads - 1), &feed); // one core is the reporter's
  feed.finish();
  if (!profile.memory.outOfMemory() || profiling.allowOutOfMemory) {
    try {
      runtime = std::make_unique<detail::runtime::Runtime>(
          compiled, detail::session::runtimeOptions(options));
    } catch (...) {
      runtimeError = std::current_exception();
    }
  }
  joiner.join();
  if (reportError) std::rethrow_exception(reportError);
  if (progress) progress(8, 8);
  checkMemory();
  if (runtimeError) std::rethrow_exception(runtimeError);
}

Engine::Engine(const Graph& graph, const program::Program& program, const OptionFlags& options,
               ProgressFunc progress, const DebugContext& debugContext)
    : Engine(graph, std::vector<program::Program>{program}, options, std::move(progress),
             debugContext) {}

Engine::Engine(const Graph& graph, const std::vector<program::Program>& programs,
               const OptionFlags& options, ProgressFunc progress, const DebugContext& debugContext)
    : impl_(std::make_unique<Impl>()) {
  // Compilation proper reports phases 0-4 of 8; the profiling models and the report 5-8.
  pvti::Tracepoint compileTrace(&pvti::tracePoplar, "Engine::compile");
  auto exe = compileExecutable(graph, programs, options, progress, 8, debugContext);
  impl_->start(std::move(*exe), progress);
}

Engine::Engine(Executable&& exe, const OptionFlags& options) : impl_(std::make_unique<Impl>()) {
  if (!exe.impl)
    throw runtime_error(
        "Engine(Executable&&): the executable is empty (moved from, or default-made)");
  std::unique_ptr<core::Executable> state = std::move(exe.impl);
  // The options given here override those the executable was compiled with. Those stored in a
  // file are another program's: where this process writes reports, whether it runs out of
  // memory and how many threads it uses are for this program's options and environment alone.
  OptionFlags merged = state->fromFile ? OptionFlags() : state->options;
  for (const auto& [k, v] : options)
    merged.set(k, v);
  state->options = detail::session::mergedEngineOptions(merged);
  pvti::Tracepoint loadTrace(&pvti::tracePoplar, "Engine::compile");
  ProgressFunc none;
  impl_->start(std::move(*state), none);
}

Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

void Engine::load(const Device& device) {
  if (!device) throw runtime_error("Engine::load: invalid device");
  if (!device.isAttached())
    throw runtime_error("Engine::load: device " + std::to_string(device.getId()) +
                        " is not attached (call Device::attach first)");
  const Target& dt = device.getTarget();
  const Target& gt = impl_->compiled.target;
  if (dt.getNumTiles() != gt.getNumTiles() || dt.getTargetType() != gt.getTargetType() ||
      dt.getBytesPerTile() != gt.getBytesPerTile())
    throw runtime_error(
        "Engine::load: the graph was compiled for " + std::to_string(gt.getNumIPUs()) +
        " IPU(s) of " + std::to_string(gt.getTilesPerIPU()) + " tiles, the device has " +
        std::to_string(dt.getNumIPUs()) + " of " + std::to_string(dt.getTilesPerIPU()));
  impl_->runtime->load();
}

void Engine::loadAndRun(const Device& device, unsigned programIndex) {
  load(device);
  run(programIndex);
}

bool Engine::isLoaded() const {
  return impl_->runtime->loaded();
}

void Engine::run(unsigned programIndex, const std::string& debugName) {
  impl_->requireLoaded("run");
  if (programIndex >= impl_->compiled.entryPoints.size())
    throw runtime_error("Engine::run(" + std::to_string(programIndex) + "): the engine has " +
                        std::to_string(impl_->compiled.entryPoints.size()) + " program(s)");
  pvti::Tracepoint runTrace(&pvti::tracePoplar, "Engine::run");
  auto* recorder = impl_->recorder.get();
  if (auto* clock = impl_->counterClock.get()) {
    clock->synchronise();
    impl_->runtime->run(programIndex);
    clock->synchronise();
    return;
  }
  if (!recorder || !impl_->recordRuns) return impl_->runtime->run(programIndex);
  try {
    ++impl_->runsRecorded;
    recorder->beginRun(programIndex, debugName);
    impl_->runtime->run(programIndex);
  } catch (const tessera::profiler::ReportError& e) {
    throw profiling_error(std::string("cannot record the run in the profile report: ") + e.what());
  } catch (...) {
    recorder->endRun(); // what ran before the failure stays in the report
    throw;
  }
  try {
    recorder->endRun();
  } catch (const tessera::profiler::ReportError& e) {
    throw profiling_error(std::string("cannot record the run in the profile report: ") + e.what());
  }
}

Engine::TimerTimePoint Engine::getTimeStamp() {
  impl_->requireLoaded("getTimeStamp");
  detail::runtime::ExecutionObserver* clock = impl_->recorder.get();
  if (!clock) {
    // An engine that keeps no profile runs without a clock; timing starts one, which run()
    // then synchronises at each run's ends as a profiled run does.
    if (!impl_->counterClock) {
      impl_->counterClock =
          std::make_unique<detail::profile::CounterClock>(impl_->profile.model, impl_->compiled);
      impl_->runtime->setObserver(impl_->counterClock.get());
    }
    clock = impl_->counterClock.get();
  }
  TimerTimePoint t;
  // The host syncs with every IPU, so the time stamp is the latest IPU's clock.
  for (unsigned ipu = 0; ipu < impl_->compiled.replicaTarget.getNumIPUs(); ++ipu)
    t.cycles_ = std::max(t.cycles_, clock->ipuCycleCounter(ipu));
  t.valid_ = true;
  return t;
}

std::string Engine::reportTiming(const TimerTimePoint& start, const TimerTimePoint& end) const {
  if (!start.valid_ || !end.valid_)
    throw runtime_error("Engine::reportTiming: a time point that did not come from "
                        "Engine::getTimeStamp");
  if (end.cycles_ < start.cycles_)
    throw runtime_error("Engine::reportTiming: the end (cycle " + std::to_string(end.cycles_) +
                        ") is before the start (cycle " + std::to_string(start.cycles_) + ")");
  const std::uint64_t cycles = end.cycles_ - start.cycles_;
  const double hz = impl_->compiled.replicaTarget.getTileClockFrequency();
  char text[128];
  std::snprintf(text, sizeof text, "%llu cycles (%.3f us at %.0f MHz)",
                static_cast<unsigned long long>(cycles), hz > 0 ? cycles * 1e6 / hz : 0.0,
                hz / 1e6);
  return text;
}

void Engine::writeTensor(const std::string& handle, const void* begin, const void* end) {
  impl_->requireLoaded("writeTensor");
  impl_->runtime->writeHost(
      handle, begin,
      static_cast<std::size_t>(static_cast<const char*>(end) - static_cast<const char*>(begin)));
}

void Engine::readTensor(const std::string& handle, void* begin, void* end) {
  impl_->requireLoaded("readTensor");
  impl_->runtime->readHost(
      handle, begin, static_cast<std::size_t>(static_cast<char*>(end) - static_cast<char*>(begin)));
}

namespace {
std::size_t handleBytes(const detail::compiler::CompiledGraph& g, const std::string& handle) {
  for (const auto& h : g.hostHandles)
    if (h.handle == handle) return h.transfer.numElements * h.transfer.type.size();
  return 0; // the runtime reports the unknown handle
}
} // namespace

void Engine::writeTensor(const std::string& handle, const void* buffer) {
  const auto* b = static_cast<const char*>(buffer);
  writeTensor(handle, b, b + handleBytes(impl_->compiled, handle));
}

void Engine::readTensor(const std::string& handle, void* buffer) {
  auto* b = static_cast<char*>(buffer);
  readTensor(handle, b, b + handleBytes(impl_->compiled, handle));
}

void Engine::connectStream(const std::string& handle, void* begin, void* end) {
  detail::runtime::StreamConnection c;
  c.kind = detail::runtime::StreamConnection::Kind::Buffer;
  c.begin = static_cast<unsigned char*>(begin);
  c.end = static_cast<unsigned char*>(end);
  impl_->runtime->connect(handle, -1, std::move(c));
}

void Engine::connectStream(const std::string& handle, unsigned replicaIndex, void* begin,
                           void* end) {
  detail::runtime::StreamConnection c;
  c.kind = detail::runtime::StreamConnection::Kind::Buffer;
  c.begin = static_cast<unsigned char*>(begin);
  c.end = static_cast<unsigned char*>(end);
  impl_->runtime->connect(handle, static_cast<int>(replicaIndex), std::move(c));
}

void Engine::connectStream(const std::string& handle, void* buffer) {
  for (const auto& s : impl_->compiled.streams)
    if (s.handle == handle) {
      auto* b = static_cast<char*>(buffer);
      return connectStream(handle, b, b + s.numElements * s.type.size());
    }
  throw stream_connection_error("no stream with handle '" + handle + "' in this graph");
}

void Engine::connectStreamToCallback(const std::string& handle, std::function<void(void*)> f) {
  if (!f)
    throw stream_connection_error("connectStreamToCallback(\"" + handle + "\"): empty function");
  detail::runtime::StreamConnection c;
  c.kind = detail::runtime::StreamConnection::Kind::Function;
  c.function = detail::session::traced(handle, std::move(f));
  impl_->runtime->connect(handle, -1, std::move(c));
}

void Engine::connectStreamToCallback(const std::string& handle, unsigned replicaIndex,
                                     std::function<void(void*)> f) {
  if (!f)
    throw stream_connection_error("connectStreamToCallback(\"" + handle + "\"): empty function");
  detail::runtime::StreamConnection c;
  c.kind = detail::runtime::StreamConnection::Kind::Function;
  c.function = detail::session::traced(handle, std::move(f));
  impl_->runtime->connect(handle, static_cast<int>(replicaIndex), std::move(c));
}

void Engine::connectStreamToCallback(const std::string& handle,
                                     std::unique_ptr<StreamCallback> cb) {
  if (!cb)
    throw stream_connection_error("connectStreamToCallback(\"" + handle + "\"): null callback");
  detail::runtime::StreamConnection c;
  c.kind = detail::runtime::StreamConnection::Kind::Callback;
  c.callback = detail::session::traced(handle, std::move(cb));
  impl_->runtime->connect(handle, -1, std::move(c));
}

void Engine::connectStreamToCallback(const std::string& handle, unsigned replicaIndex,
                                     std::unique_ptr<StreamCallback> cb) {
  if (!cb)
    throw stream_connection_error("connectStreamToCallback(\"" + handle + "\"): null callback");
  detail::runtime::StreamConnection c;
  c.kind = detail::runtime::StreamConnection::Kind::Callback;
  c.callback = detail::session::traced(handle, std::move(cb));
  impl_->runtime->connect(handle, static_cast<int>(replicaIndex), std::move(c));
}

void Engine::connectHostFunction(StringRef handle, unsigned index, HostCallbackHandle callback) {
  const std::string name(handle.begin(), handle.end());
  auto cb = callback.get();
  if (!cb) throw stream_connection_error("connectHostFunction(\"" + name + "\"): empty callback");
  // One call's arguments as the host sees them, and the callback.
  struct HostCall {
    std::vector<std::vector<unsigned char>> ins, outs;
    std::shared_ptr<HostCallback> callback;
    void run() {
      std::vector<const void*> in;
      std::vector<void*> out;
      for (const auto& b : ins)
        in.push_back(b.data());
      for (auto& b : outs)
        out.push_back(b.data());
      (*callback)(ArrayRef<const void*>(in), ArrayRef<void*>(out));
    }
  };
  auto call = std::make_shared<HostCall>();
  call->callback = std::move(cb);
  // The arguments, in order, for as long as the graph has their streams
  // (graph/HostFunctionStreams.hpp: the names Graph::addHostFunction gave them).
  std::map<std::string, std::size_t> streamBytes;
  for (const auto& s : impl_->compiled.streams)
    streamBytes[s.handle] = s.numElements * s.type.size();
  const auto collect = [&](bool input, std::vector<std::vector<unsigned char>>& buffers) {
    for (;;) {
      const auto it =
          streamBytes.find(detail::graph::hostFunctionStream(name, input, buffers.size()));
      if (it == streamBytes.end()) return;
      buffers.emplace_back(it->second);
    }
  };
  collect(true, call->ins);
  collect(false, call->outs);
  if (call->ins.empty() && call->outs.empty())
    throw stream_connection_error("connectHostFunction(\"" + name +
                                  "\"): no host function with that handle in this graph "
                                  "(Graph::addHostFunction), or it has no arguments");
  const std::size_t numIns = call->ins.size(), numOuts = call->outs.size();
  for (std::size_t i = 0; i < numIns; ++i)
    connectStreamToCallback(detail::graph::hostFunctionStream(name, true, i), index,
                            [call, i, numIns, numOuts](void* p) {
                              std::memcpy(call->ins[i].data(), p, call->ins[i].size());
                              if (i + 1 == numIns && numOuts == 0) call->run();
                            });
  for (std::size_t j = 0; j < numOuts; ++j)
    connectStreamToCallback(detail::graph::hostFunctionStream(name, false, j), index,
                            [call, j](void* p) {
                              if (j == 0)
                                call->run(); // the inputs have all arrived: Call copies them first
                              std::memcpy(p, call->outs[j].data(), call->outs[j].size());
                            });
}

void Engine::copyToRemoteBuffer(const void* data, const std::string& handle, std::uint64_t row,
                                unsigned replica) {
  impl_->requireLoaded("copyToRemoteBuffer");
  impl_->runtime->copyRemote(handle, row, replica, const_cast<void*>(data), true);
}

void Engine::copyFromRemoteBuffer(const std::string& handle, void* data, std::uint64_t row,
                                  unsigned replica) {
  impl_->requireLoaded("copyFromRemoteBuffer");
  impl_->runtime->copyRemote(handle, row, replica, data, false);
}

void Engine::copyRemoteElements(const std::string& handle, void* data, std::size_t count,
                                std::size_t elementSize, std::uint64_t row, unsigned replica,
                                bool toRemote) {
  const char* what = toRemote ? "copyToRemoteBuffer" : "copyFromRemoteBuffer";
  impl_->requireLoaded(what);
  for (const auto& rb : impl_->compiled.remoteBuffers) {
    if (rb.handle != handle) continue;
    if (elementSize != rb.type.size() || count != rb.numElements)
      throw stream_connection_error(
          std::string(what) + "(\"" + handle + "\"): the host array has " + std::to_string(count) +
          " elements of " + std::to_string(elementSize) + " bytes; a row of the remote buffer is " +
          std::to_string(rb.numElements) + " " + rb.type.toString() + " (" +
          std::to_string(rb.type.size()) + " bytes each)");
    break;
  }
  impl_->runtime->copyRemote(handle, row, replica, data, toRemote);
}

void Engine::setPrintTensorStream(std::ostream& os) {
  impl_->runtime->setPrintStream(os);
}
const OptionFlags& Engine::getEngineOptions() const {
  return impl_->options;
}

pva::Report Engine::getReport(bool reportExecution) const {
  if (!impl_->writer)
    throw runtime_error("Engine::getReport: this engine writes no profile; set the engine option "
                        "autoReport.outputGraphProfile (or autoReport.all) to \"true\"");
  if (reportExecution && !impl_->profiling.executionProfile)
    throw runtime_error(
        "Engine::getReport(true): execution is not profiled; set autoReport.outputExecutionProfile "
        "(or autoReport.all), or call getReport(false) for the compilation report");
  if (impl_->profiling.debugInfo && std::filesystem::exists(impl_->files.debug))
    return pva::openReport(impl_->files.profile, impl_->files.debug);
  return pva::openReport(impl_->files.profile);
}

std::string Engine::getReportDirectory() const {
  return impl_->writer && !impl_->profiling.privateReport ? impl_->files.directory : std::string();
}

void Engine::printProfileSummary(std::ostream& out, const OptionFlags& options) const {
  const auto o = detail::session::summaryOptions(options, "printProfileSummary");
  if (!impl_->writer)
    throw runtime_error(
        "Engine::printProfileSummary: this engine keeps no profile; set the engine option "
        "debug.instrument, debug.retainDebugInformation or autoReport.all to \"true\"");
  detail::report::printProfileSummary(out, getReport(impl_->profiling.executionProfile),
                                      impl_->profiling.executionProfile, o);
}

namespace {
const char* const kNoProfile =
    ": this engine keeps no profile; set the engine option debug.instrument (or autoReport.all) "
    "to \"true\"";
}

void Engine::enableExecutionProfiling() {
  if (!impl_->writer)
    throw profiling_disabled(std::string("Engine::enableExecutionProfiling") + kNoProfile);
  if (!impl_->recorder)
    throw profiling_disabled("Engine::enableExecutionProfiling: this engine profiles compilation "
                             "only; set autoReport.outputExecutionProfile to \"true\"");
  impl_->recordRuns = true;
  impl_->runtime->setObserver(impl_->recorder.get());
}

void Engine::disableExecutionProfiling() {
  impl_->recordRuns = false;
  if (impl_->recorder) impl_->runtime->setObserver(nullptr);
}

void Engine::resetExecutionProfile() {
  impl_->firstProfiledRun = impl_->runsRecorded;
}

ProfileValue Engine::getGraphProfile() const {
  if (!impl_->writer) throw profiling_disabled(std::string("Engine::getGraphProfile") + kNoProfile);
  return detail::session::graphProfile(getReport(false));
}

ProfileValue Engine::getExecutionProfile() const {
  if (!impl_->writer)
    throw profiling_disabled(std::string("Engine::getExecutionProfile") + kNoProfile);
  if (!impl_->profiling.executionProfile)
    throw profiling_disabled("Engine::getExecutionProfile: execution is not profiled; set "
                             "autoReport.outputExecutionProfile (or debug.instrument) to \"true\"");
  return detail::session::executionProfile(getReport(true), impl_->firstProfiledRun);
}

ProfileValue Engine::getProfile() const {
  auto all = getGraphProfile().asMap();
  if (impl_->profiling.executionProfile)
    for (const auto& [key, value] : getExecutionProfile().asMap())
      all[key] = value;
  return all;
}

} // namespace poplar
