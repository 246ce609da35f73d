#include "TraceWriter.hpp"

#include <algorithm>
#include <profiler/TraceSchema.hpp>

namespace pvti::detail {

namespace ts = tessera::profiler::schema::trace;
using tessera::sqlite::Database;
using tessera::sqlite::OpenMode;
using tessera::sqlite::quoteIdentifier;
using tessera::sqlite::Statement;

namespace {

Database createDatabase(const std::filesystem::path& path) {
  Database db(path, OpenMode::Create);
  // WAL: each flush is one small append, and a killed process leaves every committed flush
  // readable (the operating system holds what was written). synchronous=OFF: SQLite never waits
  // for the disk, not even at a checkpoint (NORMAL syncs there, which stalled the writer for
  // seconds on a busy machine while threads filled their rings); a power cut, which NORMAL
  // did not survive whole either, may lose or damage the file.
  // 16 KiB pages: event blocks are tens of KiB, and WAL writes every page with two system
  // calls and copies it again at each checkpoint, so 4 KiB pages made the kernel the writer's
  // largest cost (measured: about 12 ns a record against 9 with 16 KiB pages). Set before WAL,
  // which fixes the page size.
  db.exec("PRAGMA page_size=16384");
  db.exec("PRAGMA journal_mode=WAL");
  db.exec("PRAGMA synchronous=OFF");
  db.exec("BEGIN");
  for (const std::string& sql : ts::createTraceTablesSql())
    db.exec(sql);
  return db;
}

std::string renameThreadSql() {
  return "UPDATE " + quoteIdentifier(ts::Threads::table.name) + " SET " +
         quoteIdentifier(ts::Threads::name.name) + " = ? WHERE " +
         quoteIdentifier(ts::Threads::id.name) + " = ?";
}

void run(Statement& s) {
  s.step();
  s.reset();
}

} // namespace

struct TraceWriter::Statements {
  explicit Statements(Database& db)
      : insertBlock(db, ts::insertRowSql(ts::EventBlocks::table)),
        insertSample(db, ts::insertRowSql(ts::SeriesSamples::table)),
        insertLabel(db, ts::insertRowSql(ts::Labels::table)),
        insertChannel(db, ts::insertRowSql(ts::Channels::table)),
        insertMetadata(db, ts::insertRowSql(ts::Metadata::table)),
        insertThread(db, ts::insertRowSql(ts::Threads::table)), renameThread(db, renameThreadSql()),
        insertGraph(db, ts::insertRowSql(ts::Graphs::table)),
        insertSeries(db, ts::insertRowSql(ts::Series::table)),
        insertHeatmap(db, ts::insertRowSql(ts::Heatmaps::table)),
        insertHeatmapSample(db, ts::insertRowSql(ts::HeatmapSamples::table)) {}
  Statement insertBlock, insertSample, insertLabel, insertChannel, insertMetadata, insertThread,
      renameThread, insertGraph, insertSeries, insertHeatmap, insertHeatmapSample;
};

TraceWriter::~TraceWriter() = default;

TraceWriter::TraceWriter(const std::filesystem::path& path, const SessionInfo& info)
    : db_(createDatabase(path)), startNs_(info.startSteadyNs), pid_(info.pid),
      st_(std::make_unique<Statements>(db_)) {
  // Sized for a busy thread from the start: the first flushes do not grow it.
  block_.reserve(kMaxBlockRecords);
  // createDatabase left a transaction open: the tables and meta appear together.
  Statement meta(db_, ts::insertRowSql(ts::Meta::table));
  auto put = [&](std::string_view key, const std::string& value) {
    meta.bindText(1, key);
    meta.bindText(2, value);
    run(meta);
  };
  put(ts::meta::format, std::string(ts::kTraceFormatName));
  put(ts::meta::formatVersion, tessera::profiler::schema::toString(ts::kTraceFormatVersion));
  put(ts::meta::tool, "Tessera");
  put(ts::meta::toolVersion, TESSERA_VERSION);
  put(ts::meta::pid, std::to_string(info.pid));
  put(ts::meta::clockSource, std::string(ts::kClockSteady));
  put(ts::meta::startSteadyNs, std::to_string(info.startSteadyNs));
  put(ts::meta::startUnixUs, std::to_string(info.startUnixUs));
  put(ts::meta::options, info.options);
  Statement process(db_, ts::insertRowSql(ts::Processes::table));
  process.bindInt(1, info.pid);
  process.bindText(2, info.processName);
  run(process);
  db_.exec("COMMIT");
}

void TraceWriter::beginTransaction() {
  db_.exec("BEGIN");
}
void TraceWriter::commit() {
  db_.exec("COMMIT");
}

void TraceWriter::writeDefinitions(const Batch& b, std::uint64_t deadlineNs) {
  auto named = [](Statement& s, const Batch::Named& n) {
    s.bindInt(1, n.first);
    s.bindText(2, n.second);
    run(s);
  };
  for (const auto& n : b.labels)
    named(st_->insertLabel, n);
  for (const auto& n : b.channels)
    named(st_->insertChannel, n);
  for (const auto& n : b.metadata)
    named(st_->insertMetadata, n);
  for (const auto& t : b.threads) {
    if (t.rename) {
      st_->renameThread.bindText(1, t.name);
      st_->renameThread.bindInt(2, t.index);
      run(st_->renameThread);
    } else {
      st_->insertThread.bindInt(1, t.index);
      st_->insertThread.bindInt(2, t.tid);
      st_->insertThread.bindInt(3, pid_); // one process per file
      st_->insertThread.bindText(4, t.name);
      run(st_->insertThread);
    }
  }
  for (const auto& g : b.graphs) {
    st_->insertGraph.bindInt(1, g.id);
    st_->insertGraph.bindText(2, g.name);
    st_->insertGraph.bindText(3, g.unit);
    run(st_->insertGraph);
  }
  for (const auto& s : b.series) {
    st_->insertSeries.bindInt(1, s.id);
    st_->insertSeries.bindInt(2, s.graph);
    st_->insertSeries.bindText(3, s.name);
    run(st_->insertSeries);
  }
  for (const auto& h : b.heatmaps) {
    st_->insertHeatmap.bindInt(1, h.id);
    st_->insertHeatmap.bindText(2, h.name);
    st_->insertHeatmap.bindText(3, h.unit);
    st_->insertHeatmap.bindText(4, h.valueType);
    st_->insertHeatmap.bindText(5, h.edgesJson);
    run(st_->insertHeatmap);
  }
  for (const auto& s : b.heatmapSamples) {
    if (s.ts > deadlineNs) continue;
    st_->insertHeatmapSample.bindInt(1, s.heatmap);
    st_->insertHeatmapSample.bindInt(2, rel(s.ts));
    st_->insertHeatmapSample.bindBlob(3, s.bins.data(), s.bins.size());
    run(st_->insertHeatmapSample);
  }
}

void TraceWriter::writeBlock(const ThreadBuffer& b) {
  Statement& s = st_->insertBlock;
  s.bindNull(1); // id: SQLite's next rowid, so blocks number in write order
  s.bindInt(2, b.index);
  s.bindInt(3, block_.firstNs());
  s.bindInt(4, block_.lastNs());
  s.bindInt(5, static_cast<std::int64_t>(block_.count()));
  s.bindBlob(6, block_.data(), block_.size());
  run(s);
}

void TraceWriter::writeSample(const Record& r) {
  st_->insertSample.bindInt(1, r.channel);
  st_->insertSample.bindInt(2, relTicks(r.ts));
  st_->insertSample.bindReal(3, r.payload.value);
  run(st_->insertSample);
}

void TraceWriter::startBlock(ThreadBuffer& b) {
  block_.clear();
  // Records held while the clock was calibrated come first.
  addRecords(b, b.stream.held.data(), 0, b.stream.held.size(), false);
  b.stream.held.clear();
  b.stream.held.shrink_to_fit();
}

void TraceWriter::addRecords(ThreadBuffer& b, const Record* slots, std::uint64_t begin,
                             std::uint64_t end, bool ring) {
  // A lagging writer packs many arrays in one flush: bounded blocks keep its buffer (and the
  // record SQLite builds from it, a malloc of the blob's size) at one ring's size, reused
  // rather than grown and faulted in (issue 38). A thread's blocks run on in id order.
  while (begin != end) {
    if (block_.count() >= kMaxBlockRecords) {
      writeBlock(b);
      block_.clear();
    }
    const std::uint64_t room = kMaxBlockRecords - block_.count();
    const std::uint64_t stop = begin + std::min(end - begin, room);
    packRecords(b, slots, begin, stop, ring);
    begin = stop;
  }
}

void TraceWriter::packRecords(ThreadBuffer& b, const Record* slots, std::uint64_t begin,
                              std::uint64_t end, bool ring) {
  using Kind = ts::BlockRecordKind;
  StreamState& state = b.stream;
  block_.reserve(static_cast<std::size_t>(end - begin)); // worst case: at most one ring's
  const std::uint64_t deadlineTicks = clock_.toTicks(deadlineNs_);
  const std::uint64_t mask = ring ? ThreadBuffer::kMask : ~std::uint64_t(0);
  for (std::uint64_t i = begin; i != end; ++i) {
    const Record& r = slots[i & mask];
    const bool late = r.ts > deadlineTicks;
    if (r.kind == RecordKind::Sample) {
      // Series values are rare next to spans: rows, which SQL readers can query directly.
      if (!late) writeSample(r);
      continue;
    }
    Kind kind = Kind::begin;
    std::uint32_t label = r.payload.event.label, metadata = r.payload.event.metadata;
    switch (r.kind) {
    case RecordKind::Begin:
      if (late) {
        ++state.skippedBegins;
        continue;
      }
      state.openLabels.push_back(label);
      break;
    case RecordKind::End:
      kind = Kind::end;
      metadata = 0;
      if (state.skippedBegins) { // closes a begin dropped as late: drop it too
        --state.skippedBegins;
        continue;
      }
      if (state.openLabels.empty()) {
        if (late) continue; // an unmatched end after the deadline is not recorded
      } else {
        // A late end still closes its event; it takes that event's label so that the reader
        // does not report a mismatch that happened after the deadline.
        if (late) label = state.openLabels.back();
        state.openLabels.pop_back();
      }
      break;
    case RecordKind::Instant:
      if (late) continue;
      kind = Kind::instant;
      break;
    case RecordKind::Sample:
      break; // written above
    }
    block_.add(kind, relTicks(r.ts), r.channel, label, metadata);
  }
}

void TraceWriter::finishBlock(const ThreadBuffer& b) {
  if (block_.count()) writeBlock(b);
}

void TraceWriter::finish() {
  st_.reset();
  db_.exec("PRAGMA journal_mode=DELETE");
  db_.close();
}

} // namespace pvti::detail
