#include "Session.hpp"

#include "FileName.hpp"
#include "TraceWriter.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <pthread.h>
#include <pvti/pvti.hpp>
#include <unistd.h>

namespace pvti::detail {

std::atomic<bool> sessionActive{false};

namespace {

// Set on the writer thread: whatever it calls (SQLite, allocators, our own code) never records
// into a trace it is writing (heaptrack's re-entrancy guard).
thread_local bool tlInWriter = false;

std::string processName() {
  std::ifstream in("/proc/self/comm");
  std::string name;
  std::getline(in, name);
  return name.empty() ? "process" : name;
}

std::string threadName() {
  char name[32] = {};
  if (pthread_getname_np(pthread_self(), name, sizeof name) != 0 || !name[0]) return "thread";
  return name;
}

void closeAtExit() {
  Session::instance().close();
}

} // namespace

Session& Session::instance() {
  // Leaked on purpose: channels and threads may call in during static destruction.
  static Session* session = new Session();
  return *session;
}

Session::Session() {
  const auto text = optionsFromEnvironment();
  if (!text) return; // PVTI_OPTIONS unset: no file, no events
  try {
    start(*text);
  } catch (const std::exception& e) {
    // Tracing must never stop the program: say why there is no trace and carry on.
    warn(std::string("tracing is off: ") + e.what());
    writer_.reset();
    fileName_.clear();
  }
}

void Session::warn(const std::string& message) noexcept {
  std::fprintf(stderr, "pvti: warning: %s\n", message.c_str());
}

void Session::start(const std::string& optionsText) {
  options_ = parseOptions(optionsText);
  if (!options_.warning.empty()) warn(options_.warning);
  if (!options_.enable) return;

  namespace fs = std::filesystem;
  const std::string name = traceFileName(std::time(nullptr), static_cast<long>(::getpid()));
  fs::path path = name;
  // Under poprun (docs/distributed.md) each instance traces into a directory named by its index,
  // beside its profile.pop, so a job folder holds every instance's trace.
  const char* instances = std::getenv("POPDIST_NUM_INSTANCES");
  const char* instance = std::getenv("POPDIST_INSTANCE_INDEX");
  if (instances && instance && std::strtoul(instances, nullptr, 10) > 1)
    options_.directory = (options_.directory.empty() ? std::string(".") : options_.directory) +
                         "/instance_" + std::to_string(std::strtoul(instance, nullptr, 10));
  if (!options_.directory.empty()) {
    std::error_code ec;
    fs::create_directories(options_.directory, ec);
    if (ec)
      throw std::runtime_error("cannot create the trace directory '" + options_.directory +
                               "': " + ec.message());
    path = fs::path(options_.directory) / name;
  }

  SessionInfo info;
  info.pid = static_cast<long>(::getpid());
  info.processName = processName();
  // The clock is chosen before anything can record; the first calibration point goes with it.
  tscTicks = invariantTscUsable();
  startAnchor_ = TickCalibration::sample();
  info.startSteadyNs = nowNs();
  info.startUnixUs = std::chrono::duration_cast<std::chrono::microseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
  info.options = optionsText;
  startNs_ = info.startSteadyNs;
  if (options_.durationSeconds > 0)
    deadlineNs_ = startNs_ + static_cast<std::uint64_t>(options_.durationSeconds * 1e9);

  // Testing aid (docs/tracing.md): a writer that pauses before each flush, as one starved of CPU
  // on a busy machine does, so that tests can see rings spill and threads wait.
  if (const char* delay = std::getenv("TESSERA_PVTI_WRITER_DELAY_MS"); delay && *delay)
    writerDelay_ = std::chrono::milliseconds(std::strtoul(delay, nullptr, 10));
  writer_ = std::make_unique<TraceWriter>(path, info);
  fileName_ = path.string();
  sessionActive.store(true, std::memory_order_relaxed);
  thread_ = std::thread([this] { writerLoop(); });
  std::atexit(closeAtExit);
}

// --- channels ---------------------------------------------------------------------------------

void Session::registerChannel(TraceChannel* ch) {
  std::lock_guard<std::mutex> lock(mutex_);
  ch->id_ = nextChannel_++;
  pending_.channels.emplace_back(ch->id_, ch->name ? ch->name : "");
  if (!options_.channels.empty() && ch->name &&
      std::find(options_.channels.begin(), options_.channels.end(), ch->name) ==
          options_.channels.end())
    ch->enabled = false;
  ch->active_.store(ch->enabled && sessionActive.load(std::memory_order_relaxed),
                    std::memory_order_relaxed);
  channels_.push_back(ch);
}

void Session::unregisterChannel(TraceChannel* ch) {
  std::lock_guard<std::mutex> lock(mutex_);
  ch->active_.store(false, std::memory_order_relaxed);
  channels_.erase(std::remove(channels_.begin(), channels_.end(), ch), channels_.end());
}

void Session::setChannelEnabled(TraceChannel* ch, bool enabled) {
  std::lock_guard<std::mutex> lock(mutex_);
  ch->enabled = enabled;
  ch->active_.store(enabled && sessionActive.load(std::memory_order_relaxed),
                    std::memory_order_relaxed);
}

std::vector<TraceChannel*> Session::channels() {
  std::lock_guard<std::mutex> lock(mutex_);
  return channels_;
}

void Session::deactivateAll() {
  sessionActive.store(false, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mutex_);
  for (TraceChannel* ch : channels_)
    ch->active_.store(false, std::memory_order_relaxed);
}

// --- recording slow paths ---------------------------------------------------------------------

ThreadBuffer* Session::registerThread(long tid) {
  if (tlInWriter || !sessionActive.load(std::memory_order_relaxed)) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  auto ring = std::make_shared<ThreadBuffer>(nextThread_++, tid);
  pending_.threads.push_back({ring->index, tid, threadName(), false});
  rings_.push_back(ring);
  return ring.get();
}

std::uint32_t Session::internLabel(const char* text, std::size_t length) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, added] = labels_.try_emplace(std::string(text, length),
                                         static_cast<std::uint32_t>(labels_.size() + 1));
  if (added) pending_.labels.emplace_back(it->second, it->first);
  return it->second;
}

bool Session::spill(ThreadBuffer& b) noexcept {
  // Held by the writer only while it packs this ring's records, which makes room: at most one
  // ring's packing to wait for (Session::drainRing).
  std::lock_guard<std::mutex> lock(b.spillMutex);
  const std::uint64_t head = b.head.load(std::memory_order_relaxed);
  const std::uint64_t tail = b.tail.load(std::memory_order_relaxed);
  if (head - tail < ThreadBuffer::kCapacity) return true; // the writer made room meanwhile
  ThreadBuffer::Pool::Array fresh;
  try {
    fresh = b.pool.take();
    if (!fresh) return false; // the thread owns all the arrays it may: wait for the writer
    b.spills.push_back({std::move(b.slots), tail, head});
  } catch (...) {
    if (fresh) b.pool.give(std::move(fresh), nowNs());
    return false; // out of memory: wait for the writer instead
  }
  b.slots = std::move(fresh);
  b.tail.store(head, std::memory_order_release);
  b.cachedTail = head;
  return true;
}

void Session::pushWhenRoom(ThreadBuffer& buffer, const Record& r) {
  const std::uint64_t waitBegin = ticks();
  // The writer drains at least every kFlushInterval; wake it now rather than wait for that.
  {
    std::lock_guard<std::mutex> lock(wakeMutex_);
    wake_.notify_one();
  }
  if (!closing_.load(std::memory_order_relaxed) && spill(buffer) && buffer.push(r)) return;
  while (!buffer.push(r)) {
    if (closing_.load(std::memory_order_relaxed)) return; // nobody will drain it any more
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  // The thread had to wait: say so in its own stream, as a span on the "pvti" channel after
  // the record that waited (its time is earlier), so a reader sees where the program lost time
  // to tracing. Room for the two is waited for without a second span.
  const std::uint64_t waitEnd = ticks();
  static TraceChannel waits{"pvti"};
  std::uint32_t label = buffer.labels.find(kWriterWaitLabel, sizeof kWriterWaitLabel - 1);
  try {
    if (!label) {
      label = internLabel(kWriterWaitLabel, sizeof kWriterWaitLabel - 1);
      buffer.labels.insert(kWriterWaitLabel, sizeof kWriterWaitLabel - 1, label);
    }
  } catch (...) {
    return; // out of memory for the label: the wait goes unrecorded, the record did not
  }
  Record mark{};
  mark.payload.event.label = label;
  mark.channel = waits.id_;
  for (const auto& [kind, ts] :
       {std::pair{RecordKind::Begin, waitBegin}, {RecordKind::End, waitEnd}}) {
    mark.kind = kind;
    mark.ts = ts;
    while (!buffer.push(mark)) {
      if (closing_.load(std::memory_order_relaxed)) return;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
}

std::uint32_t Session::internMetadata(const std::string& json) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [it, added] = metadata_.try_emplace(json, static_cast<std::uint32_t>(metadata_.size() + 1));
  if (added) pending_.metadata.emplace_back(it->second, json);
  return it->second;
}

std::uint32_t Session::defineGraph(const std::string& name, const std::string& unit) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.graphs.push_back({nextGraph_, name, unit});
  return nextGraph_++;
}

std::uint32_t Session::defineSeries(std::uint32_t graph, const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.series.push_back({nextSeries_, graph, name});
  return nextSeries_++;
}

std::uint32_t Session::defineHeatmap(const std::string& name, const std::string& unit,
                                     std::string_view valueType, std::string edgesJson) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.heatmaps.push_back(
      {nextHeatmap_, name, unit, std::string(valueType), std::move(edgesJson)});
  return nextHeatmap_++;
}

void Session::addHeatmapSample(std::uint32_t heatmap, std::vector<std::uint8_t> bins) {
  const std::uint64_t ts = nowNs();
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.heatmapSamples.push_back({heatmap, ts, std::move(bins)});
}

void Session::nameThread(std::uint32_t index, const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  pending_.threads.push_back({index, 0, name, true});
}

// --- the writer thread ------------------------------------------------------------------------

// Once per trace, before the first record is converted: the TSC's rate against steady_clock over
// at least TickCalibration::kWindow since start. Over 20 ms, with anchors read to within a few
// tens of ns, the rate is good to a few parts per million: microseconds of drift over a long
// trace, never a reordering (one rate for the trace).
void Session::calibrate() {
  if (!tscTicks) return; // ticks are steady ns: the writer's identity calibration is right
  std::this_thread::sleep_until(calibrationReady());
  if (writer_) writer_->setCalibration(TickCalibration(startAnchor_, TickCalibration::sample()));
}

std::chrono::steady_clock::time_point Session::calibrationReady() const {
  return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(startAnchor_.ns)) +
         TickCalibration::kWindow;
}

std::uint64_t Session::holdOnce() {
  std::vector<std::shared_ptr<ThreadBuffer>> rings;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    rings = rings_;
  }
  std::uint64_t backlog = 0;
  for (const auto& ring : rings) {
    std::lock_guard<std::mutex> lock(ring->spillMutex);
    auto& held = ring->stream.held;
    for (auto& spill : ring->spills)
      for (std::uint64_t seq = spill.begin; seq != spill.end; ++seq)
        held.push_back(spill.slots[seq & ThreadBuffer::kMask]);
    for (auto& spill : ring->spills)
      ring->pool.give(std::move(spill.slots), nowNs());
    ring->spills.clear();
    const std::uint64_t head = ring->head.load(std::memory_order_acquire);
    std::uint64_t t = ring->tail.load(std::memory_order_relaxed);
    backlog = std::max(backlog, head - t);
    for (; t != head; ++t)
      held.push_back(ring->slots[t & ThreadBuffer::kMask]);
    ring->tail.store(t, std::memory_order_release);
  }
  return backlog;
}

void Session::writerLoop() {
  tlInWriter = true;
  // Until the clock is calibrated (kWindow after start) records cannot be converted; the writer
  // still empties the rings into memory, so no thread waits for the calibration.
  bool calibrated = !tscTicks;
  std::unique_lock<std::mutex> lock(wakeMutex_);
  while (true) {
    if (writerDelay_.count() && !stop_)
      wake_.wait_for(lock, writerDelay_, [this] { return stop_; });
    const bool stopping = stop_;
    lock.unlock();
    if (!calibrated && (stopping || std::chrono::steady_clock::now() >= calibrationReady())) {
      calibrate();
      calibrated = true;
    }
    std::uint64_t backlog = 0;
    try {
      backlog = calibrated ? flushOnce() : holdOnce();
    } catch (const std::exception& e) { // memory for held records ran out: as a failed write
      warn(std::string("cannot hold the trace's records, tracing stops: ") + e.what());
      deactivateAll();
      closing_.store(true);
    }
    lock.lock();
    if (stopping) break;
    // A ring that was a quarter full is being filled fast: flush again at once. One that had a
    // few hundred records is busy: come back soon, so that it is drained before it fills and
    // its thread has to wait (a full 32k ring takes a fast thread about a millisecond).
    // Otherwise sleep the whole interval, so a quiet program costs almost nothing.
    if (backlog > ThreadBuffer::kCapacity / 4) continue;
    auto pause = backlog > ThreadBuffer::kCapacity / 64 ? kBusyFlushInterval : kFlushInterval;
    if (!calibrated)
      pause = std::min<std::chrono::milliseconds>(
          pause, std::chrono::duration_cast<std::chrono::milliseconds>(
                     calibrationReady() - std::chrono::steady_clock::now()) +
                     std::chrono::milliseconds(1));
    wake_.wait_for(lock, pause);
  }
}

std::uint64_t Session::drainRing(ThreadBuffer& ring) {
  writer_->startBlock(ring);
  // Spilled arrays are the thread's no longer: packed without the lock, so that the thread can
  // spill again meanwhile. The ring's own records are read under it (a spill would move the
  // array away), so a thread that fills its ring just then waits for at most one ring's packing.
  std::unique_lock<std::mutex> lock(ring.spillMutex);
  while (!ring.spills.empty()) {
    ring.packing.swap(ring.spills);
    lock.unlock();
    for (const auto& spill : ring.packing)
      writer_->addRecords(ring, spill.slots.get(), spill.begin, spill.end, true);
    lock.lock();
    // Kept for the thread's next spills: a new array costs it more than filling one.
    const std::uint64_t now = nowNs();
    for (auto& spill : ring.packing)
      ring.pool.give(std::move(spill.slots), now);
    ring.packing.clear();
  }
  const std::uint64_t head = ring.head.load(std::memory_order_acquire);
  writer_->addRecords(ring, ring.slots.get(), ring.tail.load(std::memory_order_relaxed), head,
                      true);
  ring.tail.store(head, std::memory_order_release); // the producer may reuse the slots
  // A thread that has stopped spilling gives back what it kept beyond a couple of arrays.
  std::vector<ThreadBuffer::Pool::Array> unused;
  try {
    unused = ring.pool.trim(nowNs());
  } catch (const std::bad_alloc&) {
    // No memory for the list: keep the arrays until a later flush.
  }
  lock.unlock();
  unused.clear(); // munmap outside the lock
  writer_->finishBlock(ring);
  return head;
}

std::uint64_t Session::flushOnce() {
  std::vector<std::shared_ptr<ThreadBuffer>> rings;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    rings = rings_;
  }
  // Retired flags before the records: a thread's last records came before its flag.
  std::vector<bool> retired(rings.size());
  std::vector<std::uint64_t> heads(rings.size());
  std::uint64_t backlog = 0;
  for (std::size_t i = 0; i < rings.size(); ++i) {
    retired[i] = rings[i]->retired.load(std::memory_order_acquire);
    backlog = std::max(backlog, rings[i]->head.load(std::memory_order_acquire) -
                                    rings[i]->tail.load(std::memory_order_relaxed));
  }
  if (nowNs() > deadlineNs_ && sessionActive.load(std::memory_order_relaxed))
    deactivateAll(); // `duration` is over
  if (!writer_) return 0;
  try {
    writer_->beginTransaction();
    // A begin whose end is not here yet is in the file already: a reader sees it as an
    // unfinished event, which is what a crash before the end should leave.
    writer_->setDeadline(deadlineNs_);
    for (std::size_t i = 0; i < rings.size(); ++i)
      heads[i] = drainRing(*rings[i]);
    // Names after records: a record's label, channel and thread were registered before the
    // record was published, so every id in the blocks above is in this batch or an earlier one
    // (one transaction: a reader sees both or neither).
    Batch batch;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      std::swap(batch, pending_);
    }
    writer_->writeDefinitions(batch, deadlineNs_);
    writer_->commit();
  } catch (const std::exception& e) {
    // A full disk or a removed file: stop tracing, keep the program running.
    warn(std::string("cannot write the trace, tracing stops: ") + e.what());
    deactivateAll();
    closing_.store(true);
    writer_.reset();
    return 0;
  }
  // Threads that have exited and whose records are all written need their rings no more.
  std::lock_guard<std::mutex> lock(mutex_);
  for (std::size_t i = 0; i < rings.size(); ++i)
    if (retired[i] && rings[i]->tail.load(std::memory_order_relaxed) == heads[i])
      rings_.erase(std::remove(rings_.begin(), rings_.end(), rings[i]), rings_.end());
  return backlog;
}

void Session::close() noexcept {
  {
    std::lock_guard<std::mutex> lock(wakeMutex_);
    if (closed_) return;
    closed_ = true;
    stop_ = true;
    wake_.notify_one();
  }
  deactivateAll();
  if (thread_.joinable()) thread_.join(); // its last flush writes everything recorded so far
  closing_.store(true);
  try {
    if (writer_) writer_->finish();
  } catch (const std::exception& e) {
    warn(std::string("cannot close the trace: ") + e.what());
  }
  writer_.reset();
}

} // namespace pvti::detail
