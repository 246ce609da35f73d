#include "TraceStore.hpp"

#include "FormatVersionCheck.hpp"
#include "SqliteHeader.hpp"

#include <profiler/TraceSchema.hpp>
#include <pva/Exception.hpp>
#include <tessera/internal/Sqlite.hpp>

namespace pva::storage {

namespace ts = tessera::profiler::schema::trace;
using tessera::sqlite::Database;
using tessera::sqlite::quoteIdentifier;
using tessera::sqlite::Statement;

namespace {

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
      throw CorruptTrace("table " + std::string(t.name) + " has id " + std::to_string(id) +
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
  checkFormatVersion(path, "trace", version->second, ts::kTraceFormatVersion);
}

/// SQLite's reason alone ("database disk image is malformed"): its messages read
/// "<file>: <what was done>: <reason>", and what was done is a query, which means nothing to
/// someone opening a trace (the file is named by the caller).
std::string sqliteReason(const tessera::sqlite::Error& e) {
  const std::string m = e.what();
  const auto quote = m.rfind("': ");
  return quote == std::string::npos ? m : m.substr(quote + 3);
}

} // namespace

TraceStore::TraceStore(const Source& source) : shown_(source.shown()) {
  const std::uint64_t size = checkRegularFile(source, "trace");
  if (size == 0) throw InvalidReportError(shown_ + ": not a Tessera trace (empty file)");
  using HeaderProblem = SqliteHeader::Problem;
  const SqliteHeader header = checkSqliteHeader(source, size);
  if (header.problem == HeaderProblem::NotSqlite)
    throw InvalidReportError(shown_ + ": not a Tessera trace (not an SQLite database)");
  if (header.problem == HeaderProblem::BadPageSize)
    throw InvalidReportError(shown_ + ": corrupted trace (bad page size in the header)");
  if (header.problem == HeaderProblem::Truncated)
    throw InvalidReportError(shown_ + ": truncated trace: " + std::to_string(size) +
                             " bytes, the header says " + std::to_string(header.headerBytes));
  try {
    file_ = openReadOnly(source);
    meta_ = readMeta(*file_.db);
  } catch (const tessera::sqlite::Error& e) {
    // Other file types, or damage the header does not show, land here.
    throw InvalidReportError(shown_ + ": not a Tessera trace, or a corrupted one (" +
                             sqliteReason(e) + ")");
  }
  checkIdentity(shown_, meta_);
  formatVersion_ = meta_.at(std::string(ts::meta::formatVersion));
}

std::uint64_t TraceStore::metaUnsigned(std::string_view key) const {
  const auto it = meta_.find(std::string(key));
  if (it == meta_.end()) throw CorruptTrace("meta has no '" + std::string(key) + "'");
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(it->second, &used);
    if (used == it->second.size()) return v;
  } catch (const std::exception&) {
  }
  throw CorruptTrace("meta '" + std::string(key) + "' is not a number: '" + it->second + "'");
}

std::uint64_t TraceStore::metaUnsigned(std::string_view key, std::uint64_t fallback) const {
  return meta_.count(std::string(key)) ? metaUnsigned(key) : fallback;
}

std::string TraceStore::metaText(std::string_view key) const {
  const auto it = meta_.find(std::string(key));
  return it == meta_.end() ? std::string() : it->second;
}

template <class F> auto TraceStore::guarded(F&& f) {
  try {
    return f(*file_.db);
  } catch (const tessera::sqlite::Error& e) {
    throw InvalidReportError(shown_ + ": truncated or corrupted trace (" + e.what() + ")");
  }
}

std::vector<std::string> TraceStore::labels() {
  return guarded([](Database& db) { return readInterned(db, ts::Labels::table); });
}
std::vector<std::string> TraceStore::channels() {
  return guarded([](Database& db) { return readInterned(db, ts::Channels::table); });
}
std::vector<std::string> TraceStore::metadata() {
  return guarded([](Database& db) { return readInterned(db, ts::Metadata::table); });
}

std::string TraceStore::processName() {
  return guarded([](Database& db) {
    Statement s(db, selectAll(ts::Processes::table));
    return s.step() ? std::string(s.columnText(1)) : std::string();
  });
}

void TraceStore::threads(const std::function<void(std::int64_t, std::uint64_t, std::string)>& row) {
  guarded([&](Database& db) {
    Statement s(db, selectAll(ts::Threads::table));
    while (s.step())
      row(s.columnInt(0), static_cast<std::uint64_t>(s.columnInt(1)), std::string(s.columnText(3)));
  });
}

std::int64_t TraceStore::lastEventBlock() {
  return guarded([](Database& db) {
    Statement last(db, "SELECT max(rowid) FROM " + q(ts::EventBlocks::table.name));
    return last.step() ? last.columnInt(0) : std::int64_t(0);
  });
}

void TraceStore::eventBlocks(const std::function<void(const EventBlock&)>& row) {
  guarded([&](Database& db) {
    Statement s(db, selectAll(ts::EventBlocks::table));
    while (s.step()) {
      const auto [data, size] = s.columnBlob(5);
      row(EventBlock{s.columnInt(0), s.columnInt(1), s.columnInt(2), s.columnInt(3), s.columnInt(4),
                     data, size});
    }
  });
}

void TraceStore::graphs(const std::function<void(std::int64_t, std::string, std::string)>& row) {
  guarded([&](Database& db) {
    Statement s(db, selectAll(ts::Graphs::table));
    while (s.step())
      row(s.columnInt(0), std::string(s.columnText(1)), std::string(s.columnText(2)));
  });
}

void TraceStore::series(const std::function<void(std::int64_t, std::int64_t, std::string)>& row) {
  guarded([&](Database& db) {
    Statement s(db, selectAll(ts::Series::table));
    while (s.step())
      row(s.columnInt(0), s.columnInt(1), std::string(s.columnText(2)));
  });
}

void TraceStore::seriesSamples(const std::function<void(std::int64_t, std::int64_t, double)>& row) {
  guarded([&](Database& db) {
    Statement s(db, selectAll(ts::SeriesSamples::table));
    while (s.step())
      row(s.columnInt(0), s.columnInt(1), s.columnReal(2));
  });
}

void TraceStore::heatmaps(const std::function<void(Heatmap)>& row) {
  guarded([&](Database& db) {
    Statement s(db, selectAll(ts::Heatmaps::table));
    while (s.step())
      row(Heatmap{s.columnInt(0), std::string(s.columnText(1)), std::string(s.columnText(2)),
                  std::string(s.columnText(3)), std::string(s.columnText(4))});
  });
}

void TraceStore::heatmapSamples(
    const std::function<void(std::int64_t, std::int64_t, const void*, std::size_t)>& row) {
  guarded([&](Database& db) {
    Statement s(db, selectAll(ts::HeatmapSamples::table));
    while (s.step()) {
      const auto [data, size] = s.columnBlob(2);
      row(s.columnInt(0), s.columnInt(1), data, size);
    }
  });
}

} // namespace pva::storage
