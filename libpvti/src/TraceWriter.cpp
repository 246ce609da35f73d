#include "TraceWriter.hpp"

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
  // readable. synchronous=NORMAL survives a process crash (not a power cut) without an fsync
  // per flush.
  db.exec("PRAGMA journal_mode=WAL");
  db.exec("PRAGMA synchronous=NORMAL");
  db.exec("BEGIN");
  for (const std::string& sql : ts::createTraceTablesSql()) db.exec(sql);
  return db;
}

std::string updateEndSql() {
  return "UPDATE " + quoteIdentifier(ts::Events::table.name) + " SET " + quoteIdentifier(ts::Events::endNs.name) +
         " = ? WHERE " + quoteIdentifier(ts::Events::id.name) + " = ?";
}

std::string renameThreadSql() {
  return "UPDATE " + quoteIdentifier(ts::Threads::table.name) + " SET " + quoteIdentifier(ts::Threads::name.name) +
         " = ? WHERE " + quoteIdentifier(ts::Threads::id.name) + " = ?";
}

void run(Statement& s) {
  s.step();
  s.reset();
}

void bindOptional(Statement& s, int i, std::uint32_t id) {
  if (id) s.bindInt(i, id);
  else s.bindNull(i);
}

} // namespace

struct TraceWriter::Statements {
  explicit Statements(Database& db)
      : insertEvent(db, ts::insertRowSql(ts::Events::table)), updateEnd(db, updateEndSql()),
        insertInstant(db, ts::insertRowSql(ts::InstantEvents::table)),
        insertSample(db, ts::insertRowSql(ts::SeriesSamples::table)),
        insertLabel(db, ts::insertRowSql(ts::Labels::table)), insertChannel(db, ts::insertRowSql(ts::Channels::table)),
        insertMetadata(db, ts::insertRowSql(ts::Metadata::table)),
        insertThread(db, ts::insertRowSql(ts::Threads::table)), renameThread(db, renameThreadSql()),
        insertGraph(db, ts::insertRowSql(ts::Graphs::table)), insertSeries(db, ts::insertRowSql(ts::Series::table)),
        insertHeatmap(db, ts::insertRowSql(ts::Heatmaps::table)),
        insertHeatmapSample(db, ts::insertRowSql(ts::HeatmapSamples::table)) {}
  Statement insertEvent, updateEnd, insertInstant, insertSample, insertLabel, insertChannel, insertMetadata,
      insertThread, renameThread, insertGraph, insertSeries, insertHeatmap, insertHeatmapSample;
};

TraceWriter::~TraceWriter() = default;

TraceWriter::TraceWriter(const std::filesystem::path& path, const SessionInfo& info)
    : db_(createDatabase(path)), startNs_(info.startSteadyNs), pid_(info.pid),
      st_(std::make_unique<Statements>(db_)) {
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

void TraceWriter::beginTransaction() { db_.exec("BEGIN"); }
void TraceWriter::commit() { db_.exec("COMMIT"); }

void TraceWriter::writeDefinitions(const Batch& b, std::uint64_t deadlineNs) {
  auto named = [](Statement& s, const Batch::Named& n) {
    s.bindInt(1, n.first);
    s.bindText(2, n.second);
    run(s);
  };
  for (const auto& n : b.labels) named(st_->insertLabel, n);
  for (const auto& n : b.channels) named(st_->insertChannel, n);
  for (const auto& n : b.metadata) named(st_->insertMetadata, n);
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

void TraceWriter::instant(const ThreadBuffer& b, const Record& r, std::string_view kind, std::uint32_t label) {
  st_->insertInstant.bindInt(1, nextInstantId_++);
  st_->insertInstant.bindInt(2, b.index);
  st_->insertInstant.bindInt(3, r.channel);
  st_->insertInstant.bindInt(4, label);
  st_->insertInstant.bindInt(5, rel(r.ts));
  st_->insertInstant.bindText(6, kind);
  bindOptional(st_->insertInstant, 7, r.kind == RecordKind::Instant ? r.payload.event.metadata : 0);
  run(st_->insertInstant);
}

void TraceWriter::insertSpan(const ThreadBuffer& b, const OpenSpan& s, std::int64_t depth, const std::int64_t* endNs) {
  st_->insertEvent.bindInt(1, s.id);
  st_->insertEvent.bindInt(2, b.index);
  st_->insertEvent.bindInt(3, s.channel);
  st_->insertEvent.bindInt(4, s.label);
  st_->insertEvent.bindInt(5, s.beginNs);
  if (endNs) st_->insertEvent.bindInt(6, *endNs);
  else st_->insertEvent.bindNull(6);
  st_->insertEvent.bindInt(7, depth);
  if (s.parent) st_->insertEvent.bindInt(8, s.parent);
  else st_->insertEvent.bindNull(8);
  bindOptional(st_->insertEvent, 9, s.metadata);
  run(st_->insertEvent);
}

void TraceWriter::drain(ThreadBuffer& b, std::uint64_t head, std::uint64_t deadlineNs) {
  std::uint64_t t = b.tail.load(std::memory_order_relaxed);
  for (; t != head; ++t) {
    const Record& r = b.slots[t & ThreadBuffer::kMask];
    const bool late = r.ts > deadlineNs;
    switch (r.kind) {
    case RecordKind::Begin: {
      if (late) break;
      const std::int64_t parent = b.open.empty() ? 0 : b.open.back().id;
      b.open.push_back(OpenSpan{nextEventId_++, rel(r.ts), r.payload.event.label, r.channel, r.payload.event.metadata,
                                parent, false});
      break;
    }
    case RecordKind::End: {
      if (b.open.empty()) {
        if (!late) instant(b, r, ts::name(ts::InstantKind::unmatchedEnd), r.payload.event.label);
        break;
      }
      const OpenSpan s = b.open.back();
      b.open.pop_back();
      const std::int64_t end = rel(r.ts);
      if (s.written) {
        st_->updateEnd.bindInt(1, end);
        st_->updateEnd.bindInt(2, s.id);
        run(st_->updateEnd);
      } else {
        insertSpan(b, s, static_cast<std::int64_t>(b.open.size()), &end);
      }
      if (s.label != r.payload.event.label && !late)
        instant(b, r, ts::name(ts::InstantKind::mismatchedEnd), r.payload.event.label);
      break;
    }
    case RecordKind::Instant:
      if (!late) instant(b, r, ts::name(ts::InstantKind::instant), r.payload.event.label);
      break;
    case RecordKind::Sample:
      if (late) break;
      st_->insertSample.bindInt(1, r.channel);
      st_->insertSample.bindInt(2, rel(r.ts));
      st_->insertSample.bindReal(3, r.payload.value);
      run(st_->insertSample);
      break;
    }
  }
  b.tail.store(t, std::memory_order_release); // the producer may reuse the slots
}

void TraceWriter::writeOpenSpans(ThreadBuffer& b) {
  for (std::size_t depth = 0; depth < b.open.size(); ++depth) {
    OpenSpan& s = b.open[depth];
    if (s.written) continue;
    insertSpan(b, s, static_cast<std::int64_t>(depth), nullptr);
    s.written = true;
  }
}

void TraceWriter::finish() {
  st_.reset();
  db_.exec("PRAGMA journal_mode=DELETE");
  db_.close();
}

} // namespace pvti::detail
