// Builds the Host trace page's index of a .pvti (flattened events, per-depth sorted rows,
// interned labels) and answers range counts and label searches over it.
#include "core/TraceIndex.hpp"

#include <algorithm>
#include <limits>
#include <string_view>
#include <unordered_map>

namespace tessera::viewer {

std::pair<std::size_t, std::size_t> TraceDepthRow::overlapping(std::int64_t t0,
                                                               std::int64_t t1) const {
  // Ends are sorted like begins (events of one depth never overlap), so both bounds are binary
  // searches. An event ending exactly at t0 (zero-length ones included) still counts.
  const std::size_t first = std::size_t(std::lower_bound(end.begin(), end.end(), t0) - end.begin());
  const std::size_t last =
      std::size_t(std::lower_bound(begin.begin(), begin.end(), t1) - begin.begin());
  return {first, std::max(first, last)};
}

const QString& TraceIndex::label(const TraceEventRef& ref) const {
  return labels[ref.instant ? instant(ref).label : event(ref).label];
}

std::vector<std::uint32_t> TraceIndex::children(int thread, std::uint32_t e) const {
  const auto& events = threads[std::size_t(thread)].events;
  std::vector<std::uint32_t> out;
  out.reserve(events[e].childCount);
  for (std::uint32_t c = e + 1; c < events[e].next; c = events[c].next)
    out.push_back(c);
  return out;
}

std::uint32_t TraceIndex::child(int thread, std::uint32_t e, std::uint32_t row) const {
  // The children of e are consecutive in the next depth's row, starting with its first child.
  const TraceThreadIndex& t = threads[std::size_t(thread)];
  const TraceEventRecord& r = t.events[e];
  return t.depths[r.depth + 1].event[t.events[e + 1].rowPos + row];
}

std::size_t TraceIndex::eventsOverlapping(std::int64_t t0, std::int64_t t1) const {
  std::size_t n = 0;
  for (const TraceThreadIndex& t : threads)
    for (const TraceDepthRow& row : t.depths) {
      const auto [first, last] = row.overlapping(t0, t1);
      n += last - first;
    }
  return n;
}

std::vector<TraceEventRef> TraceIndex::search(const QString& text) const {
  std::vector<TraceEventRef> out;
  if (text.isEmpty()) return out;
  // Match the few distinct labels once, then the events by label id.
  std::vector<char> matches(labels.size(), 0);
  bool any = false;
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i].contains(text, Qt::CaseInsensitive)) matches[i] = any = 1;
  if (!any) return out;
  for (std::size_t t = 0; t < threads.size(); ++t) {
    const auto& events = threads[t].events;
    for (std::size_t i = 0; i < events.size(); ++i)
      if (matches[events[i].label]) out.push_back({int(t), std::uint32_t(i), false});
  }
  std::stable_sort(out.begin(), out.end(), [this](const TraceEventRef& a, const TraceEventRef& b) {
    const std::int64_t ta = event(a).begin, tb = event(b).begin;
    if (ta != tb) return ta < tb;
    return a.thread < b.thread; // within a thread the order is already preorder
  });
  return out;
}

QString TraceIndex::threadTitle(int thread) const {
  const TraceThreadIndex& t = threads[std::size_t(thread)];
  return QStringLiteral("%1 (%2)")
      .arg(t.name.isEmpty() ? QStringLiteral("thread") : t.name)
      .arg(t.tid);
}

namespace {

class Interner {
public:
  explicit Interner(std::vector<QString>& out) : out_(out) {}
  std::uint32_t operator()(const std::string& s) {
    auto it = ids_.find(s);
    if (it != ids_.end()) return it->second;
    const auto id = std::uint32_t(out_.size());
    out_.push_back(QString::fromStdString(s));
    ids_.emplace(s, id);
    return id;
  }

private:
  std::vector<QString>& out_;
  std::unordered_map<std::string, std::uint32_t> ids_;
};

struct BuildContext {
  Interner labels, channels;
  Progress& progress;
  std::size_t done = 0, total = 1;

  void tick() {
    if ((++done & 4095) != 0) return;
    if (progress.cancelled()) throw Cancelled{};
    progress.report(double(done) / double(total));
  }
};

// Flattens one thread's event tree in preorder with an explicit stack: nesting can be deep.
void flattenEvents(const pva::Thread& thread, TraceThreadIndex& out, BuildContext& ctx) {
  struct Frame {
    std::vector<pva::Event> kids;
    std::size_t pos = 0;
    std::uint32_t parent = kNoTraceEvent;
  };
  auto& events = out.events;
  events.reserve(thread.numEvents());
  std::vector<Frame> stack;
  stack.push_back({thread.events(), 0, kNoTraceEvent});
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.pos == f.kids.size()) {
      if (f.parent != kNoTraceEvent) events[f.parent].next = std::uint32_t(events.size());
      stack.pop_back();
      continue;
    }
    const pva::Event e = f.kids[f.pos++];
    const std::uint32_t parent = f.parent;
    const auto idx = std::uint32_t(events.size());
    TraceEventRecord r;
    r.begin = e.beginNs();
    r.end = std::max(e.endNs(), r.begin);
    r.finished = e.finished();
    r.parent = parent;
    r.depth = std::uint32_t(stack.size() - 1);
    r.label = ctx.labels(e.label());
    r.channel = ctx.channels(e.channel());
    r.metadata = &e.metadata();
    r.next = idx + 1;
    events.push_back(r);
    if (parent != kNoTraceEvent) ++events[parent].childCount;
    ctx.tick();
    std::vector<pva::Event> kids = e.children();
    if (!kids.empty()) stack.push_back({std::move(kids), 0, idx}); // invalidates f: not used after
  }
}

void finishThread(TraceThreadIndex& t) {
  auto& events = t.events;
  std::int64_t last = 0;
  for (const TraceEventRecord& r : events)
    last = std::max(last, r.end);
  for (const TraceInstant& i : t.instants)
    last = std::max(last, i.time);
  // Backwards, so children are final before their parent looks at them.
  for (std::size_t i = events.size(); i-- > 0;) {
    TraceEventRecord& r = events[i];
    std::int64_t childEnd = r.begin, childTotal = 0;
    for (std::uint32_t c = std::uint32_t(i) + 1; c < r.next; c = events[c].next) {
      childEnd = std::max(childEnd, events[c].end);
      childTotal += events[c].duration();
    }
    if (!r.finished)
      r.end = std::max({r.begin, childEnd, r.next < events.size() ? events[r.next].begin : last});
    r.end = std::max(r.end, childEnd);
    r.self = std::max<std::int64_t>(0, r.duration() - childTotal);
  }
  for (std::size_t i = 0; i < events.size(); ++i) {
    TraceEventRecord& r = events[i];
    if (t.depths.size() <= r.depth) t.depths.resize(r.depth + 1);
    TraceDepthRow& row = t.depths[r.depth];
    r.rowPos = std::uint32_t(row.size());
    row.begin.push_back(r.begin);
    row.end.push_back(r.end);
    row.event.push_back(std::uint32_t(i));
  }
}

} // namespace

TraceIndex buildTraceIndex(pva::Trace trace, Progress& progress) {
  TraceIndex index;
  index.path = QString::fromStdString(trace.path());
  index.fileName = index.path.section(QLatin1Char('/'), -1);
  index.formatVersion = QString::fromStdString(trace.formatVersion());
  index.startTimestampUs = trace.startTimestamp();
  BuildContext ctx{Interner(index.labels), Interner(index.channels), progress};
  ctx.total = 0;
  for (const pva::Process& p : trace.processes())
    for (const pva::Thread& t : p.threads())
      ctx.total += t.numEvents();
  ctx.total = std::max<std::size_t>(ctx.total, 1);
  std::int64_t first = std::numeric_limits<std::int64_t>::max();

  for (const pva::Process& p : trace.processes()) {
    TraceProcessIndex proc;
    proc.pid = p.pid();
    proc.name = QString::fromStdString(p.name());
    const int processIndex = int(index.processes.size());
    for (const pva::Thread& t : p.threads()) {
      TraceThreadIndex thread;
      thread.tid = t.tid();
      thread.name = QString::fromStdString(t.name());
      thread.process = processIndex;
      flattenEvents(t, thread, ctx);
      for (const pva::InstantEvent& e : t.instantEvents())
        thread.instants.push_back({e.timestampNs(), ctx.labels(e.label()),
                                   ctx.channels(e.channel()), e.kind(), &e.metadata()});
      std::stable_sort(
          thread.instants.begin(), thread.instants.end(),
          [](const TraceInstant& a, const TraceInstant& b) { return a.time < b.time; });
      finishThread(thread);
      for (const TraceEventRecord& r : thread.events)
        index.endNs = std::max(index.endNs, r.end);
      if (!thread.events.empty()) first = std::min(first, thread.events.front().begin);
      if (!thread.instants.empty()) {
        index.endNs = std::max(index.endNs, thread.instants.back().time);
        first = std::min(first, thread.instants.front().time);
      }
      index.eventCount += thread.events.size();
      index.instantCount += thread.instants.size();
      proc.threads.push_back(int(index.threads.size()));
      index.threads.push_back(std::move(thread));
    }
    for (const pva::TraceGraph& g : p.graphs()) {
      TraceGraphInfo info{&g, 0, 0};
      for (const pva::TraceSeries& s : g.series())
        for (const pva::SeriesSample& v : s.samples()) {
          info.min = std::min(info.min, v.value);
          info.max = std::max(info.max, v.value);
          index.endNs = std::max(index.endNs, v.timestampNs);
          first = std::min(first, v.timestampNs);
        }
      proc.graphs.push_back(info);
    }
    for (const pva::TraceHeatmap& h : p.heatmaps()) {
      TraceHeatmapInfo info;
      info.heatmap = &h;
      info.maxCount = heatmapMaxCount(h);
      info.rows = heatmapRows(h);
      for (const pva::HeatmapSample& s : h.samples()) {
        index.endNs = std::max(index.endNs, s.timestampNs);
        first = std::min(first, s.timestampNs);
      }
      proc.heatmaps.push_back(info);
    }
    index.processes.push_back(std::move(proc));
  }
  index.beginNs =
      first == std::numeric_limits<std::int64_t>::max() ? 0 : std::min(first, index.endNs);
  index.files.push_back(
      {index.path, index.fileName, index.formatVersion, QString(), index.startTimestampUs, 0});
  index.traces.push_back(std::move(trace));
  progress.report(1.0);
  return index;
}

TraceIndex loadTraceIndex(const QString& path, Progress& progress) {
  // Reading the file and indexing it take about as long as each other.
  progress.setStage(0.0, 0.5);
  pva::Trace trace = [&] {
    try {
      return pva::openTrace(path.toStdString(), [&progress](double fraction) {
        progress.report(fraction);
        return !progress.cancelled();
      });
    } catch (const pva::CancelledError&) {
      throw Cancelled{};
    }
  }();
  progress.setStage(0.5, 1.0);
  return buildTraceIndex(std::move(trace), progress);
}

} // namespace tessera::viewer
