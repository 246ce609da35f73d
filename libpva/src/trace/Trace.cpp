// The public handles of <pva/Trace.hpp>: thin views over TraceData.
#include "../storage/OpenFile.hpp"
#include "TraceData.hpp"

namespace pva {

using detail::EventRecord;
using detail::InstantRecord;

// --- Event ------------------------------------------------------------------------------------

namespace {
const EventRecord& rec(const std::shared_ptr<const detail::ThreadData>& t, std::uint32_t i) {
  return t->events[i];
}
const InstantRecord& irec(const std::shared_ptr<const detail::ThreadData>& t, std::uint32_t i) {
  return t->instants[i];
}
} // namespace

const std::string& Event::label() const {
  return thread_->strings->labels[rec(thread_, index_).label];
}
const std::string& Event::channel() const {
  return thread_->strings->channels[rec(thread_, index_).channel];
}
std::uint64_t Event::timestamp() const {
  return detail::unixMicros(thread_->strings->startUnixUs, beginNs());
}
std::uint64_t Event::duration() const {
  const EventRecord& r = rec(thread_, index_);
  return static_cast<std::uint64_t>((r.endNs - r.beginNs) / 1000);
}
bool Event::finished() const {
  return rec(thread_, index_).finished;
}
std::int64_t Event::beginNs() const {
  return rec(thread_, index_).beginNs;
}
std::int64_t Event::endNs() const {
  return rec(thread_, index_).endNs;
}
unsigned Event::depth() const {
  return rec(thread_, index_).depth;
}
const std::string& Event::metadata() const {
  return thread_->strings->metadata[rec(thread_, index_).metadata];
}

std::vector<Event> Event::children() const {
  std::vector<Event> out;
  const std::uint32_t end = rec(thread_, index_).next;
  for (std::uint32_t c = index_ + 1; c < end; c = thread_->events[c].next)
    out.push_back(Event(thread_, c));
  return out;
}

// --- InstantEvent -----------------------------------------------------------------------------

const std::string& InstantEvent::label() const {
  return thread_->strings->labels[irec(thread_, index_).label];
}
const std::string& InstantEvent::channel() const {
  return thread_->strings->channels[irec(thread_, index_).channel];
}
std::uint64_t InstantEvent::timestamp() const {
  return detail::unixMicros(thread_->strings->startUnixUs, timestampNs());
}
std::int64_t InstantEvent::timestampNs() const {
  return irec(thread_, index_).tsNs;
}
InstantEvent::Kind InstantEvent::kind() const {
  return irec(thread_, index_).kind;
}
const std::string& InstantEvent::metadata() const {
  return thread_->strings->metadata[irec(thread_, index_).metadata];
}

// --- Thread -----------------------------------------------------------------------------------

std::uint64_t Thread::tid() const {
  return d_->tid;
}
const std::string& Thread::name() const {
  return d_->name;
}
std::size_t Thread::numEvents() const {
  return d_->events.size();
}

std::vector<Event> Thread::events() const {
  std::vector<Event> out;
  const auto n = static_cast<std::uint32_t>(d_->events.size());
  for (std::uint32_t i = 0; i < n; i = d_->events[i].next)
    out.push_back(Event(d_, i));
  return out;
}

std::vector<InstantEvent> Thread::instantEvents() const {
  std::vector<InstantEvent> out;
  out.reserve(d_->instants.size());
  for (std::uint32_t i = 0; i < d_->instants.size(); ++i)
    out.push_back(InstantEvent(d_, i));
  return out;
}

// --- Process and Trace ------------------------------------------------------------------------

std::uint64_t Process::pid() const {
  return d_->pid;
}
const std::string& Process::name() const {
  return d_->processName;
}
const std::vector<Thread>& Process::threads() const {
  return d_->threads;
}
const std::vector<TraceGraph>& Process::graphs() const {
  return d_->graphs;
}
const std::vector<TraceHeatmap>& Process::heatmaps() const {
  return d_->heatmaps;
}

Thread Process::thread(std::uint64_t tid) const {
  for (const Thread& t : d_->threads)
    if (t.tid() == tid) return t;
  throw InvalidArgumentError(storage::Source{d_->path}.shown() + ": process " +
                             std::to_string(d_->pid) + " has no thread " + std::to_string(tid));
}

Trace::Trace(std::shared_ptr<const detail::TraceData> d) : d_(std::move(d)) {
  processes_.push_back(Process(d_));
}

Process Trace::process(std::uint64_t pid) const {
  for (const Process& p : processes_)
    if (p.pid() == pid) return p;
  throw InvalidArgumentError(storage::Source{d_->path}.shown() + ": the trace has no process " +
                             std::to_string(pid) + " (it holds process " + std::to_string(d_->pid) +
                             ")");
}

const std::string& Trace::path() const {
  return d_->path;
}
std::uint64_t Trace::startTimestamp() const {
  return d_->startUnixUs;
}
std::uint64_t Trace::startSteadyNs() const {
  return d_->startSteadyNs;
}
const std::string& Trace::formatVersion() const {
  return d_->formatVersion;
}

Trace openTrace(const std::string& path) {
  return Trace(detail::TraceData::load(path, nullptr));
}

Trace openTrace(const std::string& path, const LoadProgress& progress) {
  return Trace(detail::TraceData::load(path, progress));
}

} // namespace pva
