// The recording side of the API: channels, the out-of-line halves of Tracepoint, and the
// session-wide functions. Everything a tracepoint does once its channel is known to be active
// is here; it never locks or allocates unless a thread meets a label for the first time.
#include "Session.hpp"

#include <profiler/TraceSchema.hpp>
#include <pvti/pvti.hpp>
#include <unistd.h>

namespace pvti {

TraceChannel traceDrivers{"Drivers"};
TraceChannel tracePoplar{"Poplar"};
TraceChannel traceFramework{"Framework"};

TraceChannel::TraceChannel(const char* name_, bool enabled_) : name(name_), enabled(enabled_) {
  detail::Session::instance().registerChannel(this);
}

TraceChannel::~TraceChannel() {
  detail::Session::instance().unregisterChannel(this);
}

namespace detail {

namespace {

// The calling thread's ring. initial-exec: one fs-relative load instead of a __tls_get_addr
// call per tracepoint (this library is linked, not dlopen'ed late, so static TLS is there).
__attribute__((tls_model("initial-exec"))) thread_local ThreadBuffer* tlBuffer = nullptr;

// Marks the ring retired when its thread exits, so the writer drains and drops it.
struct RetireAtThreadExit {
  ThreadBuffer* ring = nullptr;
  ~RetireAtThreadExit() {
    if (ring) ring->retired.store(true, std::memory_order_release);
    tlBuffer = nullptr;
  }
};

__attribute__((noinline)) ThreadBuffer* registerThisThread() {
  static thread_local RetireAtThreadExit retire;
  ThreadBuffer* ring = Session::instance().registerThread(static_cast<long>(::gettid()));
  retire.ring = ring;
  tlBuffer = ring;
  return ring;
}

inline ThreadBuffer* ring() {
  ThreadBuffer* r = tlBuffer;
  if (__builtin_expect(r != nullptr, 1)) return r;
  return registerThisThread();
}

inline std::uint32_t labelId(ThreadBuffer& r, const char* label, std::size_t length) {
  std::uint32_t id = r.labels.find(label, length);
  if (__builtin_expect(id == 0, 0)) {
    id = Session::instance().internLabel(label, length);
    r.labels.insert(label, length, id);
  }
  return id;
}

inline void push(ThreadBuffer& r, const Record& rec) {
  if (__builtin_expect(!r.push(rec), 0)) Session::instance().pushWhenRoom(r, rec);
}

inline Record eventRecord(RecordKind kind, std::uint32_t channel, std::uint32_t label,
                          std::uint32_t metadata) {
  Record rec;
  rec.ts = ticks();
  rec.payload.event.label = label;
  rec.payload.event.metadata = metadata;
  rec.channel = channel;
  rec.kind = kind;
  return rec;
}

} // namespace

std::uint32_t beginScope(TraceChannel* channel, const char* label, std::size_t length,
                         const Metadata* m) noexcept {
  ThreadBuffer* r = ring();
  if (!r) return 0;
  try {
    const std::uint32_t id = labelId(*r, label, length);
    push(*r, eventRecord(RecordKind::Begin, channel->id_, id, m ? m->id() : 0));
    return id;
  } catch (...) {
    return 0; // out of memory interning a new label: drop the event, not the program
  }
}

void endScope(TraceChannel* channel, std::uint32_t labelId) noexcept {
  ThreadBuffer* r = tlBuffer; // a scope that began has a ring, unless its thread is exiting
  if (r) push(*r, eventRecord(RecordKind::End, channel->id_, labelId, 0));
}

void endLabel(TraceChannel* channel, const char* label, std::size_t length) noexcept {
  ThreadBuffer* r = ring();
  if (!r) return;
  try {
    push(*r, eventRecord(RecordKind::End, channel->id_, labelId(*r, label, length), 0));
  } catch (...) {
  }
}

void instant(TraceChannel* channel, const char* label, std::size_t length,
             const Metadata* m) noexcept {
  ThreadBuffer* r = ring();
  if (!r) return;
  try {
    push(*r, eventRecord(RecordKind::Instant, channel->id_, labelId(*r, label, length),
                         m ? m->id() : 0));
  } catch (...) {
  }
}

void addSample(std::uint32_t series, double value) noexcept {
  ThreadBuffer* r = ring();
  if (!r) return;
  Record rec;
  rec.ts = ticks();
  rec.payload.value = value;
  rec.channel = series;
  rec.kind = RecordKind::Sample;
  push(*r, rec);
}

/// The calling thread's ring index (registering it), 0 when not tracing. For ThreadName.
std::uint32_t currentThreadIndex() {
  ThreadBuffer* r = ring();
  return r ? r->index : 0;
}

} // namespace detail

void enableTraceChannel(TraceChannel* channel) {
  detail::Session::instance().setChannelEnabled(channel, true);
}
void disableTraceChannel(TraceChannel* channel) {
  detail::Session::instance().setChannelEnabled(channel, false);
}
bool checkTraceChannel(TraceChannel* channel) {
  return channel->enabled;
}
std::vector<TraceChannel*> listTraceChannel() {
  return detail::Session::instance().channels();
}
std::string getCurrentTraceFilename() {
  return detail::Session::instance().fileName();
}
void closeTrace() {
  detail::Session::instance().close();
}

std::vector<std::uint32_t> decodeHeatmapData(const std::vector<std::uint8_t>& data) {
  try {
    return tessera::profiler::schema::trace::decodeHeatmapBins(data.data(), data.size());
  } catch (const std::invalid_argument& e) {
    throw InvalidDataError(std::string("pvti::decodeHeatmapData: ") + e.what());
  }
}

} // namespace pvti
