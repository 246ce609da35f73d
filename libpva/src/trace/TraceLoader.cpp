// Builds TraceData, the trace's object model, from the rows storage/TraceStore reads out of a
// .pvti: threads and their event trees (replayed from the packed event blocks), graphs and
// heatmaps. The SQL is storage's; here the rows are checked against each other (a block of an
// unknown thread, a sample of an unknown series) and put together.
#include "../FromMemory.hpp"
#include "../storage/TraceStore.hpp"
#include "EventReplay.hpp"
#include "TraceData.hpp"

#include <algorithm>
#include <cstdlib>
#include <profiler/TraceSchema.hpp>
#include <stdexcept>
#include <unordered_map>

namespace pva::detail {

namespace ts = tessera::profiler::schema::trace;

namespace {

/// Problems found in the data itself (not by SQLite).
using Corrupt = storage::CorruptTrace;

/// The caller's progress callback asked to stop.
struct Stopped {};

} // namespace

struct TraceBuilder {
  /// The public handle over loaded data (Trace's constructor is private to its friends).
  static Trace makeTrace(std::shared_ptr<const TraceData> data);
  TraceBuilder(storage::TraceStore& store_, TraceData& out_, const LoadProgress& progress_)
      : store(store_), out(out_), progress(progress_) {}
  storage::TraceStore& store;
  TraceData& out;
  const LoadProgress& progress;
  std::shared_ptr<TraceStrings> strings = std::make_shared<TraceStrings>();
  std::vector<std::shared_ptr<ThreadData>> threads;
  std::unordered_map<std::int64_t, std::size_t> threadIndex; // threads.id -> position

  ThreadData& thread(std::int64_t id) {
    const auto it = threadIndex.find(id);
    if (it == threadIndex.end())
      throw Corrupt("an event block refers to thread " + std::to_string(id) +
                    ", which the trace does not define");
    return *threads[it->second];
  }

  void loadThreads() {
    store.threads([&](std::int64_t id, std::uint64_t tid, std::string name) {
      auto t = std::make_shared<ThreadData>();
      t->strings = strings;
      t->tid = tid;
      t->name = std::move(name);
      threadIndex[id] = threads.size();
      threads.push_back(std::move(t));
    });
  }

  /// Tells the caller how far the load is; throws Stopped when it says stop.
  void report(double fraction) {
    if (progress && !progress(fraction)) throw Stopped{};
  }

  /// Event blocks hold nearly all of a trace, so they make up the progress until the last 5 %.
  static constexpr double kEventsShare = 0.95;

  void loadEvents() {
    // Blocks in id order: each thread's records in the order it made them. A thread's replay
    // keeps its open events from one block to the next.
    std::unordered_map<ThreadData*, EventReplay> replays;
    const std::int64_t blocks = progress ? store.lastEventBlock() : 0;
    std::int64_t done = 0;
    store.eventBlocks([&](const storage::TraceStore::EventBlock& b) {
      if (blocks > 0) report(kEventsShare * double(std::min(done++, blocks)) / double(blocks));
      ThreadData& t = thread(b.thread);
      EventReplay& replay = replays.try_emplace(&t, t, *strings).first->second;
      try {
        replay.addBlock(b.data, b.size, b.firstNs, b.lastNs, b.count);
      } catch (const std::invalid_argument& e) {
        throw Corrupt("event block " + std::to_string(b.id) + " (thread " +
                      std::to_string(b.thread) + "): " + e.what());
      }
    });
    for (auto& [t, replay] : replays)
      replay.finish();
  }

  void loadGraphs() {
    std::unordered_map<std::int64_t, std::size_t> graphIndex;
    store.graphs([&](std::int64_t id, std::string name, std::string unit) {
      graphIndex[id] = out.graphs.size();
      TraceGraph& g = out.graphs.emplace_back();
      g.name_ = std::move(name);
      g.unit_ = std::move(unit);
    });
    std::unordered_map<std::int64_t, std::pair<std::size_t, std::size_t>>
        seriesIndex; // -> graph, series
    store.series([&](std::int64_t id, std::int64_t graph, std::string name) {
      const auto g = graphIndex.find(graph);
      if (g == graphIndex.end())
        throw Corrupt("series " + std::to_string(id) + " belongs to no graph");
      auto& list = out.graphs[g->second].series_;
      seriesIndex[id] = {g->second, list.size()};
      list.emplace_back().name_ = std::move(name);
    });
    store.seriesSamples([&](std::int64_t series, std::int64_t ns, double value) {
      const auto it = seriesIndex.find(series);
      if (it == seriesIndex.end())
        throw Corrupt("a sample belongs to series " + std::to_string(series) +
                      ", which the trace does not define");
      out.graphs[it->second.first].series_[it->second.second].samples_.push_back(
          {unixMicros(out.startUnixUs, ns), ns, value});
    });
  }

  void loadHeatmaps() {
    std::unordered_map<std::int64_t, std::size_t> index;
    store.heatmaps([&](storage::TraceStore::Heatmap row) {
      index[row.id] = out.heatmaps.size();
      TraceHeatmap& h = out.heatmaps.emplace_back();
      h.name_ = std::move(row.name);
      h.unit_ = std::move(row.unit);
      h.valueType_ = std::move(row.valueType);
      h.edges_ = parseEdges(row.edges, h.name_);
    });
    store.heatmapSamples(
        [&](std::int64_t heatmap, std::int64_t ns, const void* data, std::size_t size) {
          const auto it = index.find(heatmap);
          if (it == index.end())
            throw Corrupt("a heatmap sample belongs to heatmap " + std::to_string(heatmap) +
                          ", which the trace does not define");
          TraceHeatmap& h = out.heatmaps[it->second];
          HeatmapSample sample{unixMicros(out.startUnixUs, ns), ns, {}};
          try {
            sample.bins = ts::decodeHeatmapBins(data, size);
          } catch (const std::invalid_argument& e) {
            throw Corrupt("heatmap '" + h.name_ + "': " + e.what());
          }
          if (sample.bins.size() != h.edges_.size() + 1)
            throw Corrupt("heatmap '" + h.name_ + "' has a sample of " +
                          std::to_string(sample.bins.size()) + " bins for " +
                          std::to_string(h.edges_.size()) + " edges");
          h.samples_.push_back(std::move(sample));
        });
  }

  /// A JSON array of numbers, as libpvti writes it ("[-1.5,0,2]").
  static std::vector<double> parseEdges(std::string_view text, const std::string& name) {
    std::vector<double> edges;
    std::string s(text);
    std::size_t i = 0;
    auto skip = [&] {
      while (i < s.size() && (s[i] == ' ' || s[i] == '\n'))
        ++i;
    };
    skip();
    if (i == s.size() || s[i++] != '[')
      throw Corrupt("heatmap '" + name + "': bin edges are not a JSON array");
    skip();
    if (i < s.size() && s[i] == ']') return edges;
    while (true) {
      skip();
      const char* begin = s.c_str() + i;
      char* end = nullptr;
      const double v = std::strtod(begin, &end);
      if (end == begin)
        throw Corrupt("heatmap '" + name + "': bin edges are not a JSON array of numbers");
      edges.push_back(v);
      i += static_cast<std::size_t>(end - begin);
      skip();
      if (i < s.size() && s[i] == ',') {
        ++i;
        continue;
      }
      if (i < s.size() && s[i] == ']') return edges;
      throw Corrupt("heatmap '" + name + "': bin edges are not a JSON array of numbers");
    }
  }

  void run() {
    strings->labels = store.labels();
    strings->channels = store.channels();
    strings->metadata = store.metadata();
    strings->startUnixUs = out.startUnixUs;
    out.processName = store.processName();
    loadThreads();
    report(0.0);
    loadEvents();
    report(kEventsShare);
    loadGraphs();
    loadHeatmaps();
    for (auto& t : threads)
      out.threads.push_back(Thread(std::move(t)));
    report(1.0);
  }
};

std::shared_ptr<const TraceData> TraceData::load(const std::string& path,
                                                 const LoadProgress& progress) {
  return load(storage::Source{path}, progress);
}

std::shared_ptr<const TraceData> TraceData::load(const storage::Source& source,
                                                 const LoadProgress& progress) {
  const std::string shown = source.shown();
  storage::TraceStore store(source); // what the file is: a trace of a known version, or an error
  auto data = std::make_shared<TraceData>();
  data->path = source.path;
  try {
    data->formatVersion = store.formatVersion();
    data->pid = store.metaUnsigned(ts::meta::pid);
    data->startUnixUs = store.metaUnsigned(ts::meta::startUnixUs);
    // Only a steady_clock reading can be compared with another trace's (pva::alignTraces).
    if (store.metaText(ts::meta::clockSource) == "steady_clock")
      data->startSteadyNs = store.metaUnsigned(ts::meta::startSteadyNs, 0);
    TraceBuilder{store, *data, progress}.run();
  } catch (const Corrupt& e) {
    throw InvalidReportError(shown + ": corrupted trace: " + e.what());
  } catch (const Stopped&) {
    throw CancelledError(shown + ": loading the trace was cancelled");
  } catch (const std::bad_alloc&) {
    throw InvalidReportError(shown + ": corrupted trace (it asks for more memory than there is)");
  }
  return data;
}

Trace TraceBuilder::makeTrace(std::shared_ptr<const TraceData> data) {
  return Trace(std::move(data));
}

Trace openTraceImage(const std::string& name, std::string_view bytes) {
  const storage::FileImage image{bytes};
  return TraceBuilder::makeTrace(TraceData::load(storage::Source{name, &image}, nullptr));
}

} // namespace pva::detail
