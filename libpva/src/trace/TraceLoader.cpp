// Loads a .pvti into TraceData: the only SQL of the trace reader, built from the descriptors of
// profiler/TraceSchema.hpp. Any SQLite failure after the file is known to be a trace means it
// is truncated or corrupted.
#include "../FromMemory.hpp"
#include "../storage/FormatVersionCheck.hpp"
#include "../storage/OpenFile.hpp"
#include "../storage/SqliteHeader.hpp"
#include "EventReplay.hpp"
#include "TraceData.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <profiler/TraceSchema.hpp>
#include <stdexcept>
#include <tessera/internal/Sqlite.hpp>
#include <unordered_map>

namespace pva::detail {

namespace ts = tessera::profiler::schema::trace;
using tessera::sqlite::Database;
using tessera::sqlite::OpenMode;
using tessera::sqlite::quoteIdentifier;
using tessera::sqlite::Statement;

namespace {

/// Problems found in the data itself (not by SQLite).
struct Corrupt : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The caller's progress callback asked to stop.
struct Stopped {};

std::string q(std::string_view identifier) {
  return quoteIdentifier(identifier);
}

/// SELECT "c1", "c2", ... FROM "table" ORDER BY rowid
template <std::size_t N> std::string selectAll(const tessera::profiler::schema::Table<N>& t) {
  std::string sql = "SELECT ";
  for (std::size_t i = 0; i < N; ++i)
    sql += (i ? ", " : "") + q(t.columns[i].name);
  return sql + " FROM " + q(t.name) + " ORDER BY rowid";
}

/// id -> text tables (labels, channels, metadata): ids are dense from 1.
template <std::size_t N>
std::vector<std::string> readInterned(Database& db, const tessera::profiler::schema::Table<N>& t) {
  std::map<std::int64_t, std::string> rows;
  Statement s(db, selectAll(t));
  while (s.step())
    rows[s.columnInt(0)] = std::string(s.columnText(1));
  std::vector<std::string> out(rows.size() + 1);
  for (auto& [id, text] : rows) {
    if (id < 1 || static_cast<std::size_t>(id) > rows.size())
      throw Corrupt("table " + std::string(t.name) + " has id " + std::to_string(id) +
                    " outside 1.." + std::to_string(rows.size()));
    out[static_cast<std::size_t>(id)] = std::move(text);
  }
  return out;
}

std::map<std::string, std::string> readMeta(Database& db) {
  std::map<std::string, std::string> meta;
  Statement s(db, selectAll(ts::Meta::table));
  while (s.step())
    meta[std::string(s.columnText(0))] = std::string(s.columnText(1));
  return meta;
}

std::uint64_t parseUnsigned(const std::map<std::string, std::string>& meta, std::string_view key) {
  const auto it = meta.find(std::string(key));
  if (it == meta.end()) throw Corrupt("meta has no '" + std::string(key) + "'");
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(it->second, &used);
    if (used == it->second.size()) return v;
  } catch (const std::exception&) {
  }
  throw Corrupt("meta '" + std::string(key) + "' is not a number: '" + it->second + "'");
}

/// Checks format and version; the file is a trace from here on.
void checkIdentity(const std::string& path, const std::map<std::string, std::string>& meta) {
  const auto format = meta.find(std::string(ts::meta::format));
  if (format == meta.end())
    throw InvalidReportError(path + ": not a Tessera trace (its meta table has no format)");
  if (format->second != ts::kTraceFormatName)
    throw InvalidReportError(
        path + ": not a Tessera trace (format '" + format->second + "'; expected '" +
        std::string(ts::kTraceFormatName) + "'" +
        (format->second == "tessera-profile" ? ": open it with pva::openReport" : "") + ")");
  const auto version = meta.find(std::string(ts::meta::formatVersion));
  if (version == meta.end())
    throw InvalidReportError(path + ": corrupted trace (no format version)");
  storage::checkFormatVersion(path, "trace", version->second, ts::kTraceFormatVersion);
}

} // namespace

struct TraceBuilder {
  /// The public handle over loaded data (Trace's constructor is private to its friends).
  static Trace makeTrace(std::shared_ptr<const TraceData> data);
  TraceBuilder(Database& db_, TraceData& out_, const LoadProgress& progress_)
      : db(db_), out(out_), progress(progress_) {}
  Database& db;
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
    Statement s(db, selectAll(ts::Threads::table));
    while (s.step()) {
      auto t = std::make_shared<ThreadData>();
      t->strings = strings;
      t->tid = static_cast<std::uint64_t>(s.columnInt(1));
      t->name = std::string(s.columnText(3));
      threadIndex[s.columnInt(0)] = threads.size();
      threads.push_back(std::move(t));
    }
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
    std::int64_t blocks = 0;
    if (progress) {
      // Block ids are dense from 1, so the largest is the count: one b-tree descent where
      // count(*) would read every page of the table before the load reads them again.
      Statement last(db, "SELECT max(rowid) FROM " + q(ts::EventBlocks::table.name));
      if (last.step()) blocks = last.columnInt(0);
    }
    std::int64_t done = 0;
    Statement s(db, selectAll(ts::EventBlocks::table));
    while (s.step()) {
      if (blocks > 0) report(kEventsShare * double(std::min(done++, blocks)) / double(blocks));
      const std::int64_t id = s.columnInt(0);
      const std::int64_t threadId = s.columnInt(1);
      ThreadData& t = thread(threadId);
      EventReplay& replay = replays.try_emplace(&t, t, *strings).first->second;
      const auto [data, size] = s.columnBlob(5);
      try {
        replay.addBlock(data, size, s.columnInt(2), s.columnInt(3), s.columnInt(4));
      } catch (const std::invalid_argument& e) {
        throw Corrupt("event block " + std::to_string(id) + " (thread " + std::to_string(threadId) +
                      "): " + e.what());
      }
    }
    for (auto& [t, replay] : replays)
      replay.finish();
  }

  void loadGraphs() {
    std::unordered_map<std::int64_t, std::size_t> graphIndex;
    {
      Statement s(db, selectAll(ts::Graphs::table));
      while (s.step()) {
        graphIndex[s.columnInt(0)] = out.graphs.size();
        TraceGraph& g = out.graphs.emplace_back();
        g.name_ = std::string(s.columnText(1));
        g.unit_ = std::string(s.columnText(2));
      }
    }
    std::unordered_map<std::int64_t, std::pair<std::size_t, std::size_t>>
        seriesIndex; // -> graph, series
    {
      Statement s(db, selectAll(ts::Series::table));
      while (s.step()) {
        const auto g = graphIndex.find(s.columnInt(1));
        if (g == graphIndex.end())
          throw Corrupt("series " + std::to_string(s.columnInt(0)) + " belongs to no graph");
        auto& list = out.graphs[g->second].series_;
        seriesIndex[s.columnInt(0)] = {g->second, list.size()};
        list.emplace_back().name_ = std::string(s.columnText(2));
      }
    }
    Statement s(db, selectAll(ts::SeriesSamples::table));
    while (s.step()) {
      const auto it = seriesIndex.find(s.columnInt(0));
      if (it == seriesIndex.end())
        throw Corrupt("a sample belongs to series " + std::to_string(s.columnInt(0)) +
                      ", which the trace does not define");
      const std::int64_t ns = s.columnInt(1);
      out.graphs[it->second.first].series_[it->second.second].samples_.push_back(
          {unixMicros(out.startUnixUs, ns), ns, s.columnReal(2)});
    }
  }

  void loadHeatmaps() {
    std::unordered_map<std::int64_t, std::size_t> index;
    {
      Statement s(db, selectAll(ts::Heatmaps::table));
      while (s.step()) {
        index[s.columnInt(0)] = out.heatmaps.size();
        TraceHeatmap& h = out.heatmaps.emplace_back();
        h.name_ = std::string(s.columnText(1));
        h.unit_ = std::string(s.columnText(2));
        h.valueType_ = std::string(s.columnText(3));
        h.edges_ = parseEdges(s.columnText(4), h.name_);
      }
    }
    Statement s(db, selectAll(ts::HeatmapSamples::table));
    while (s.step()) {
      const auto it = index.find(s.columnInt(0));
      if (it == index.end())
        throw Corrupt("a heatmap sample belongs to heatmap " + std::to_string(s.columnInt(0)) +
                      ", which the trace does not define");
      TraceHeatmap& h = out.heatmaps[it->second];
      const auto [data, size] = s.columnBlob(2);
      HeatmapSample sample{unixMicros(out.startUnixUs, s.columnInt(1)), s.columnInt(1), {}};
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
    }
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
    strings->labels = readInterned(db, ts::Labels::table);
    strings->channels = readInterned(db, ts::Channels::table);
    strings->metadata = readInterned(db, ts::Metadata::table);
    strings->startUnixUs = out.startUnixUs;
    {
      Statement s(db, selectAll(ts::Processes::table));
      if (s.step()) out.processName = std::string(s.columnText(1));
    }
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

/// SQLite's reason alone ("database disk image is malformed"): its messages read
/// "<file>: <what was done>: <reason>", and what was done is a query, which means nothing to
/// someone opening a trace (the file is named by the caller).
static std::string sqliteReason(const tessera::sqlite::Error& e) {
  const std::string m = e.what();
  const auto quote = m.rfind("': ");
  return quote == std::string::npos ? m : m.substr(quote + 3);
}

std::shared_ptr<const TraceData> TraceData::load(const std::string& path,
                                                 const LoadProgress& progress) {
  return load(storage::Source{path}, progress);
}

std::shared_ptr<const TraceData> TraceData::load(const storage::Source& source,
                                                 const LoadProgress& progress) {
  const std::string shown = source.shown();
  const std::uint64_t size = storage::checkRegularFile(source, "trace");
  if (size == 0) throw InvalidReportError(shown + ": not a Tessera trace (empty file)");
  using HeaderProblem = storage::SqliteHeader::Problem;
  const storage::SqliteHeader header = storage::checkSqliteHeader(source, size);
  if (header.problem == HeaderProblem::NotSqlite)
    throw InvalidReportError(shown + ": not a Tessera trace (not an SQLite database)");
  if (header.problem == HeaderProblem::BadPageSize)
    throw InvalidReportError(shown + ": corrupted trace (bad page size in the header)");
  if (header.problem == HeaderProblem::Truncated)
    throw InvalidReportError(shown + ": truncated trace: " + std::to_string(size) +
                             " bytes, the header says " + std::to_string(header.headerBytes));
  storage::ReadOnlyDatabase file;
  try {
    file = storage::openReadOnly(source);
  } catch (const tessera::sqlite::Error& e) {
    // Other file types, or damage the header does not show, land here.
    throw InvalidReportError(shown + ": not a Tessera trace, or a corrupted one (" +
                             sqliteReason(e) + ")");
  }
  Database& db = *file.db;
  auto data = std::make_shared<TraceData>();
  data->path = source.path;
  std::map<std::string, std::string> meta;
  try {
    meta = readMeta(db);
  } catch (const tessera::sqlite::Error& e) {
    throw InvalidReportError(shown + ": not a Tessera trace, or a corrupted one (" +
                             sqliteReason(e) + ")");
  }
  checkIdentity(shown, meta);
  try {
    data->formatVersion = meta.at(std::string(ts::meta::formatVersion));
    data->pid = parseUnsigned(meta, ts::meta::pid);
    data->startUnixUs = parseUnsigned(meta, ts::meta::startUnixUs);
    TraceBuilder{db, *data, progress}.run();
  } catch (const tessera::sqlite::Error& e) {
    throw InvalidReportError(shown + ": truncated or corrupted trace (" + e.what() + ")");
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
