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

TraceWriter::TraceWriter(const std::filesystem::path& path, const SessionInfo& info)
    : db_(createDatabase(path)), startNs_(info.startSteadyNs), pid_(info.pid),
      insertEvent_(db_, ts::insertRowSql(ts::Events::table)), updateEnd_(db_, updateEndSql()),
      insertInstant_(db_, ts::insertRowSql(ts::InstantEvents::table)),
      insertSample_(db_, ts::insertRowSql(ts::SeriesSamples::table)),
      insertLabel_(db_, ts::insertRowSql(ts::Labels::table)), insertChannel_(db_, ts::insertRowSql(ts::Channels::table)),
      insertMetadata_(db_, ts::insertRowSql(ts::Metadata::table)),
      insertThread_(db_, ts::insertRowSql(ts::Threads::table)), renameThread_(db_, renameThreadSql()),
      insertGraph_(db_, ts::insertRowSql(ts::Graphs::table)), insertSeries_(db_, ts::insertRowSql(ts::Series::table)),
      insertHeatmap_(db_, ts::insertRowSql(ts::Heatmaps::table)),
      insertHeatmapSample_(db_, ts::insertRowSql(ts::HeatmapSamples::table)) {
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
  for (const auto& n : b.labels) named(insertLabel_, n);
  for (const auto& n : b.channels) named(insertChannel_, n);
  for (const auto& n : b.metadata) named(insertMetadata_, n);
  for (const auto& t : b.threads) {
    if (t.rename) {
      renameThread_.bindText(1, t.name);
      renameThread_.bindInt(2, t.index);
      run(renameThread_);
    } else {
      insertThread_.bindInt(1, t.index);
      insertThread_.bindInt(2, t.tid);
      insertThread_.bindInt(3, pid_); // one process per file
      insertThread_.bindText(4, t.name);
      run(insertThread_);
    }
  }
  for (const auto& g : b.graphs) {
    insertGraph_.bindInt(1, g.id);
    insertGraph_.bindText(2, g.name);
    insertGraph_.bindText(3, g.unit);
    run(insertGraph_);
  }
  for (const auto& s : b.series) {
    insertSeries_.bindInt(1, s.id);
    insertSeries_.bindInt(2, s.graph);
    insertSeries_.bindText(3, s.name);
    run(insertSeries_);
  }
  for (const auto& h : b.heatmaps) {
    insertHeatmap_.bindInt(1, h.id);
    insertHeatmap_.bindText(2, h.name);
    insertHeatmap_.bindText(3, h.unit);
    insertHeatmap_.bindText(4, h.valueType);
    insertHeatmap_.bindText(5, h.edgesJson);
    run(insertHeatmap_);
  }
  for (const auto& s : b.heatmapSamples) {
    if (s.ts > deadlineNs) continue;
    insertHeatmapSample_.bindInt(1, s.heatmap);
    insertHeatmapSample_.bindInt(2, rel(s.ts));
    insertHeatmapSample_.bindBlob(3, s.bins.data(), s.bins.size());
    run(insertHeatmapSample_);
  }
}

void TraceWriter::instant(const ThreadBuffer& b, const Record& r, std::string_view kind, std::uint32_t label) {
  insertInstant_.bindInt(1, nextInstantId_++);
  insertInstant_.bindInt(2, b.index);
  insertInstant_.bindInt(3, r.channel);
  insertInstant_.bindInt(4, label);
  insertInstant_.bindInt(5, rel(r.ts));
  insertInstant_.bindText(6, kind);
  bindOptional(insertInstant_, 7, r.kind == RecordKind::Instant ? r.payload.event.metadata : 0);
  run(insertInstant_);
}

void TraceWriter::insertSpan(const ThreadBuffer& b, const OpenSpan& s, std::int64_t depth, const std::int64_t* endNs) {
  insertEvent_.bindInt(1, s.id);
  insertEvent_.bindInt(2, b.index);
  insertEvent_.bindInt(3, s.channel);
  insertEvent_.bindInt(4, s.label);
  insertEvent_.bindInt(5, s.beginNs);
  if (endNs) insertEvent_.bindInt(6, *endNs);
  else insertEvent_.bindNull(6);
  insertEvent_.bindInt(7, depth);
  if (s.parent) insertEvent_.bindInt(8, s.parent);
  else insertEvent_.bindNull(8);
  bindOptional(insertEvent_, 9, s.metadata);
  run(insertEvent_);
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
        updateEnd_.bindInt(1, end);
        updateEnd_.bindInt(2, s.id);
        run(updateEnd_);
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
      insertSample_.bindInt(1, r.channel);
      insertSample_.bindInt(2, rel(r.ts));
      insertSample_.bindReal(3, r.payload.value);
      run(insertSample_);
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
  db_.exec("PRAGMA journal_mode=DELETE");
  db_.close();
}

} // namespace pvti::detail
