#include "ReportStore.hpp"

#include "FormatVersionCheck.hpp"
#include "SqliteHeader.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <profiler/Blob.hpp>
#include <profiler/Schema.hpp>
#include <pva/Exception.hpp>
#include <sqlite3.h>
#include <stdexcept>

namespace pva::storage {

namespace S = tessera::profiler::schema;
using tessera::sqlite::Statement;

namespace {

/// "SELECT a, b FROM t <rest>": every name from the schema's constants.
std::string select(std::initializer_list<const S::Column*> columns, std::string_view table,
                   std::string_view rest = {}) {
  std::string sql = "SELECT ";
  bool first = true;
  for (const S::Column* c : columns) {
    if (!first) sql += ", ";
    sql += c->name;
    first = false;
  }
  sql += " FROM ";
  sql += table;
  if (!rest.empty()) {
    sql += ' ';
    sql += rest;
  }
  return sql;
}

std::string eq(const S::Column& c) {
  return std::string(c.name) + " = ?";
}

/// The result columns of one SELECT, read by their schema constant rather than by position, so
/// that reordering the select list cannot shift a value into another field. The position of a
/// column is found by address among at most a few dozen (the constants are inline variables:
/// one address each), once per read; used where rows are few (target, programs, variables,
/// runs), while the per-tile and per-step scans keep plain positions.
class Selected {
public:
  Selected(std::initializer_list<const S::Column*> columns) : columns_(columns) {}
  std::string sql(std::string_view table, std::string_view rest = {}) const {
    std::string list;
    for (const S::Column* c : columns_)
      list += (list.empty() ? "" : ", ") + std::string(c->name);
    return "SELECT " + list + " FROM " + std::string(table) +
           (rest.empty() ? "" : " " + std::string(rest));
  }
  /// Position of `c` in the select list; a column not selected is a bug here, not in the file.
  int operator[](const S::Column& c) const {
    for (std::size_t i = 0; i < columns_.size(); ++i)
      if (columns_[i] == &c) return static_cast<int>(i);
    throw std::logic_error("column '" + std::string(c.name) + "' is not in the select list");
  }

private:
  std::vector<const S::Column*> columns_;
};

std::string text(const Statement& s, int col) {
  return std::string(s.columnText(col));
}
std::uint64_t u64(const Statement& s, int col) {
  return static_cast<std::uint64_t>(s.columnInt(col));
}
std::int64_t optionalInt(const Statement& s, int col) {
  return s.isNull(col) ? -1 : s.columnInt(col);
}
std::string blob(const Statement& s, int col) {
  auto [p, n] = s.columnBlob(col);
  return n ? std::string(static_cast<const char*>(p), n) : std::string();
}

/// The position of a stored enum name (schema::parse), or enumSize<E>() for a name this build
/// does not know.
template <class E> unsigned indexOfName(std::string_view name) {
  const auto v = S::parse<E>(name);
  return static_cast<unsigned>(v ? static_cast<std::size_t>(*v) : S::enumSize<E>());
}

} // namespace

ReportStore::ReportStore(const Source& source) : path_(source.path), shown_(source.shown()) {
  fileSize_ = checkRegularFile(source, "report");
  checkHeader(source);
  try {
    file_ = openReadOnly(source);
  } catch (const tessera::sqlite::Error& e) {
    throw InvalidReportError(std::string(e.what()) + " (the report is corrupted or truncated)");
  }
  db_ = file_.db.get();
  readMeta();
}

ReportStore::~ReportStore() {
  statements_.clear(); // before the connection
}

void ReportStore::corrupt(const std::string& what) const {
  throw InvalidReportError(shown_ + ": " + what);
}

/// Cheap checks that need no query: the SQLite signature, and a file at least as long as its
/// header says (a truncated copy would otherwise only fail when a missing page is read).
void ReportStore::checkHeader(const Source& source) {
  using P = SqliteHeader::Problem;
  const SqliteHeader h = checkSqliteHeader(source, fileSize_);
  switch (h.problem) {
  case P::None:
    return;
  case P::Empty:
    corrupt("empty file, not a Tessera report");
  case P::NotSqlite:
    corrupt("not a Tessera report (not an SQLite database)");
  case P::BadPageSize:
    corrupt("corrupted report (bad page size in the header)");
  case P::Truncated:
    corrupt("truncated report: " + std::to_string(fileSize_) + " bytes, the header says " +
            std::to_string(h.headerBytes));
  }
}

void ReportStore::readMeta() {
  guarded("reading the report's identity", [&] {
    Statement has(*db_, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
    const std::string metaTable(S::Meta::table.name);
    has.bindText(1, metaTable);
    has.step();
    if (has.columnInt(0) == 0) corrupt("not a Tessera report (no " + metaTable + " table)");
    Statement q(*db_, select({&S::Meta::key, &S::Meta::value}, S::Meta::table.name));
    while (q.step())
      meta_[text(q, 0)] = text(q, 1);
  });
  auto it = meta_.find(std::string(S::meta::format));
  if (it == meta_.end() || it->second != S::kProfileFormatName)
    corrupt("not a Tessera profile report (format '" +
            (it == meta_.end() ? std::string() : it->second) + "')");
  checkFormatVersion(shown_, "report", meta_[std::string(S::meta::formatVersion)],
                     S::kProfileFormatVersion);
  // Every table must be there: a report missing one was not written by a Tessera writer.
  std::vector<std::string> missing;
  guarded("listing the report's tables", [&] {
    Statement q(*db_, "SELECT name FROM sqlite_master WHERE type = 'table'");
    std::vector<std::string> present;
    while (q.step())
      present.push_back(text(q, 0));
    S::forEachTable([&](const auto& t) {
      if (std::find(present.begin(), present.end(), t.name) == present.end())
        missing.emplace_back(t.name);
    });
  });
  // Tables added by a later minor version are missing from older reports, and that is all right.
  const auto added =
      std::find(missing.begin(), missing.end(), std::string(S::VertexCycleRules::table.name));
  if (added != missing.end() && formatOlderThan(1, 3)) {
    missing.erase(added);
    hasCycleRules_ = false;
  }
  const auto addedRuns =
      std::find(missing.begin(), missing.end(), std::string(S::RunVertexCycleRules::table.name));
  if (addedRuns != missing.end() && formatOlderThan(1, 6)) {
    missing.erase(addedRuns);
    hasRunCycleRules_ = false;
  }
  const auto addedCopies =
      std::find(missing.begin(), missing.end(), std::string(S::RunStreamCopyCycles::table.name));
  if (addedCopies != missing.end() && formatOlderThan(1, 7)) missing.erase(addedCopies);
  // A writer older than 1.7 never stored them: such a file holding the table was not written by
  // it as it is, and its programs may name no destination; its steps tell the truth.
  if (formatOlderThan(1, 7)) hasRunStreamCopies_ = false;
  if (!missing.empty()) corrupt("corrupted report (missing table '" + missing.front() + "')");
}

bool ReportStore::formatOlderThan(unsigned major, unsigned minor) const {
  unsigned fileMajor = 0, fileMinor = 0;
  const auto it = meta_.find(std::string(S::meta::formatVersion));
  if (it == meta_.end() || std::sscanf(it->second.c_str(), "%u.%u", &fileMajor, &fileMinor) != 2)
    return false;
  return fileMajor < major || (fileMajor == major && fileMinor < minor);
}

template <class F> auto ReportStore::guarded(const char* what, F&& f) -> decltype(f()) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  try {
    return f();
  } catch (const tessera::sqlite::Error& e) {
    // The message already names the file; say what we were doing.
    throw InvalidReportError(std::string(e.what()) + " (while " + what +
                             "; the report is corrupted or truncated)");
  } catch (const tessera::profiler::BlobError& e) {
    throw InvalidReportError(shown_ + ": corrupted report: " + e.what() + " (while " + what + ")");
  }
}

Statement& ReportStore::statement(const std::string& sql) {
  auto& s = statements_[sql];
  if (!s) s = std::make_unique<Statement>(*db_, sql);
  s->reset();
  s->clearBindings();
  return *s;
}

U64s ReportStore::decodeTileValues(const std::string& bytes, const char* what) const {
  return decodeTileValues(bytes.data(), bytes.size(), what);
}

U64s ReportStore::decodeTileValues(const void* data, std::size_t size, const char* what) const {
  try {
    return tessera::profiler::decodeTileValues(data, size);
  } catch (const tessera::profiler::BlobError& e) {
    throw InvalidReportError(shown_ + ": corrupted " + what + ": " + e.what());
  }
}

TargetRow ReportStore::target() {
  using T = S::TargetTable;
  return guarded("reading the target", [&] {
    const Selected c{&T::type,
                     &T::architecture,
                     &T::numIpus,
                     &T::tilesPerIpu,
                     &T::bytesPerTile,
                     &T::clockFrequency,
                     &T::numReplicas,
                     &T::numWorkerContexts,
                     &T::exchangeBytesPerCycle,
                     &T::ipuLinkBytesPerCycle,
                     &T::hostLinkBytesPerCycle,
                     &T::minSyncDelay,
                     &T::maxSyncDelay,
                     &T::globalSyncCycles,
                     &T::interleavedMemoryStart,
                     &T::memoryElementOffsets};
    Statement& q = statement(c.sql(T::table.name));
    if (!q.step()) corrupt("corrupted report (no target)");
    TargetRow t;
    t.type = text(q, c[T::type]);
    t.architecture = text(q, c[T::architecture]);
    t.numIpus = unsigned(q.columnInt(c[T::numIpus]));
    t.tilesPerIpu = unsigned(q.columnInt(c[T::tilesPerIpu]));
    t.bytesPerTile = u64(q, c[T::bytesPerTile]);
    t.clock = q.columnReal(c[T::clockFrequency]);
    t.numReplicas = unsigned(q.columnInt(c[T::numReplicas]));
    t.contexts = unsigned(q.columnInt(c[T::numWorkerContexts]));
    t.exchangeBytesPerCycle = unsigned(q.columnInt(c[T::exchangeBytesPerCycle]));
    t.ipuLink = q.columnReal(c[T::ipuLinkBytesPerCycle]);
    t.hostLink = q.columnReal(c[T::hostLinkBytesPerCycle]);
    t.minSync = unsigned(q.columnInt(c[T::minSyncDelay]));
    t.maxSync = unsigned(q.columnInt(c[T::maxSyncDelay]));
    t.globalSync = unsigned(q.columnInt(c[T::globalSyncCycles]));
    t.interleavedStart = u64(q, c[T::interleavedMemoryStart]);
    const std::string offsets = blob(q, c[T::memoryElementOffsets]);
    t.elementOffsets = tessera::profiler::decodeTileValues(offsets.data(), offsets.size());
    if (t.numIpus == 0 || t.tilesPerIpu == 0 || t.numReplicas == 0 ||
        t.numIpus % t.numReplicas != 0 || std::uint64_t(t.numIpus) * t.tilesPerIpu > (1u << 24))
      corrupt("corrupted report (impossible target: " + std::to_string(t.numIpus) + " IPUs of " +
              std::to_string(t.tilesPerIpu) + " tiles, " + std::to_string(t.numReplicas) +
              " replicas)");
    // Declared counts against the file's size (docs/formats.md, "Hostile files"): every tile of
    // a replica has a tile_memory row, which no SQLite file stores in fewer than
    // kMinTileRowBytes; replicas are bounded by the largest system. So the tiles a report makes
    // a reader build are at most kMaxReplicas * size / kMinTileRowBytes.
    const std::uint64_t perReplica = std::uint64_t(t.numIpus / t.numReplicas) * t.tilesPerIpu;
    if (t.numReplicas > S::kMaxReplicas)
      corrupt("corrupted report (" + std::to_string(t.numReplicas) + " replicas; at most " +
              std::to_string(S::kMaxReplicas) + " are possible)");
    if (perReplica * S::kMinTileRowBytes > fileSize_)
      corrupt("corrupted report (a replica of " + std::to_string(perReplica) +
              " tiles needs at least " + std::to_string(perReplica * S::kMinTileRowBytes) +
              " bytes of tile rows, the file has " + std::to_string(fileSize_) + ")");
    const std::uint64_t deviceTiles = perReplica * t.numReplicas;
    const std::uint64_t maxDeviceTiles =
        std::max(S::kLargestPodTiles, S::kMaxDeviceTilesPerByte * fileSize_);
    if (deviceTiles > maxDeviceTiles)
      corrupt("corrupted report (" + std::to_string(t.numReplicas) + " replicas of " +
              std::to_string(perReplica) + " tiles: " + std::to_string(deviceTiles) +
              " tiles, more than the largest system (" + std::to_string(S::kLargestPodTiles) +
              ") or " + std::to_string(S::kMaxDeviceTilesPerByte) + " per byte of the file (" +
              std::to_string(maxDeviceTiles) + ") allow)");
    return t;
  });
}

GraphRow ReportStore::graph() {
  using G = S::GraphTable;
  return guarded("reading the graph counts", [&] {
    Statement& q = statement(select(
        {&G::numVertices, &G::numComputeSets, &G::numVariables, &G::numEdges}, G::table.name));
    GraphRow g;
    if (q.step()) g = {u64(q, 0), u64(q, 1), u64(q, 2), u64(q, 3)};
    return g;
  });
}

std::map<std::string, std::string> ReportStore::engineOptions() {
  using E = S::EngineOptions;
  return guarded("reading the engine options", [&] {
    std::map<std::string, std::string> out;
    Statement& q = statement(select({&E::name, &E::value}, E::table.name));
    while (q.step())
      out[text(q, 0)] = text(q, 1);
    return out;
  });
}

U64s ReportStore::tileColumn(TileColumn column, std::size_t expected) {
  using T = S::TileMemory;
  static const S::Column* const columns[kTileColumns] = {
      &T::includingGaps,      &T::excludingGaps,           &T::alwaysLiveBytes,
      &T::notAlwaysLiveBytes, &T::overflowedIncludingGaps, &T::overflowedExcludingGaps};
  return guarded("reading tile memory", [&] {
    U64s out;
    out.reserve(std::min<std::size_t>(expected, 1 << 24));
    const std::string tile(T::tile.name), table(T::table.name);
    Statement& q = statement(
        select({columns[static_cast<std::size_t>(column)]}, T::table.name, "ORDER BY " + tile));
    while (q.step())
      out.push_back(u64(q, 0));
    // Tiles are the primary key, so the rows are distinct: n rows from 0 to n-1 are exactly the
    // tiles 0..n-1. Asked after the scan, min and max are look-ups in pages it has just read
    // (selecting the tile on every row would cost the scan a sixth more).
    Statement& range = statement("SELECT (SELECT min(" + tile + ") FROM " + table +
                                 "), (SELECT max(" + tile + ") FROM " + table + ")");
    if (!out.empty() && (!range.step() || range.isNull(0) || range.columnInt(0) != 0 ||
                         range.columnInt(1) != std::int64_t(out.size()) - 1))
      corrupt("corrupted report (tile_memory rows are not tiles 0..n-1)");
    return out;
  });
}

std::vector<CategoryRow> ReportStore::categories() {
  using C = S::TileMemoryCategories;
  return guarded("reading tile memory by category", [&] {
    std::vector<CategoryRow> out;
    Statement& q = statement(
        select({&C::tile, &C::category, &C::nonInterleavedNonOverlapped,
                &C::nonInterleavedOverlapped, &C::interleavedNonOverlapped,
                &C::interleavedOverlapped, &C::overflowedNonOverlapped, &C::overflowedOverlapped},
               C::table.name));
    while (q.step()) {
      CategoryRow r;
      r.tile = unsigned(q.columnInt(0));
      r.category = indexOfName<S::MemoryCategory>(q.columnText(1));
      if (r.category >= S::kMemoryCategoryNames.size())
        continue; // a category this libpva does not know
      for (int i = 0; i < 6; ++i)
        r.bytes[i / 2][i % 2] = u64(q, 2 + i);
      out.push_back(r);
    }
    return out;
  });
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> ReportStore::tileVertexTypes(unsigned tile) {
  using T = S::TileVertexTypes;
  return guarded("reading a tile's vertex types", [&] {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    Statement& q =
        statement(select({&T::vertexType, &T::count}, T::table.name, "WHERE " + eq(T::tile)));
    q.bindInt(1, tile);
    while (q.step())
      out.emplace_back(u64(q, 0), u64(q, 1));
    return out;
  });
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> ReportStore::vertexTypeTileCounts() {
  using T = S::TileVertexTypes;
  return guarded("counting the tiles of each vertex type", [&] {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    const std::string type(T::vertexType.name);
    Statement& q = statement("SELECT " + type + ", count(*) FROM " + std::string(T::table.name) +
                             " GROUP BY " + type);
    while (q.step())
      out.emplace_back(u64(q, 0), u64(q, 1));
    return out;
  });
}

std::vector<VertexTypeRow> ReportStore::vertexTypes() {
  using V = S::VertexTypes;
  return guarded("reading vertex types", [&] {
    std::vector<VertexTypeRow> out;
    Statement& q =
        statement(select({&V::id, &V::name, &V::codeBytes, &V::stateBytes, &V::isSupervisor},
                         V::table.name, "ORDER BY id"));
    while (q.step())
      out.push_back({u64(q, 0), u64(q, 2), u64(q, 3), text(q, 1), q.columnInt(4) != 0});
    return out;
  });
}

std::vector<ProgramRow> ReportStore::programs() {
  using P = S::Programs;
  return guarded("reading programs", [&] {
    std::vector<ProgramRow> out;
    // stream_destination came with format 1.3.0: an older report lacks the column.
    const bool destinations = hasColumn(P::table.name, P::streamDestination.name);
    const Selected c =
        destinations ? Selected{&P::id,           &P::type,       &P::name,
                                &P::debugContext, &P::computeSet, &P::syncType,
                                &P::repeatCount,  &P::dataBytes,  &P::streamDestination}
                     : Selected{&P::id,         &P::type,     &P::name,        &P::debugContext,
                                &P::computeSet, &P::syncType, &P::repeatCount, &P::dataBytes};
    Statement& q = statement(c.sql(P::table.name, "ORDER BY " + std::string(P::id.name)));
    const int id = c[P::id], type = c[P::type], name = c[P::name], debug = c[P::debugContext],
              computeSet = c[P::computeSet], syncType = c[P::syncType],
              repeatCount = c[P::repeatCount], dataBytes = c[P::dataBytes];
    while (q.step()) {
      ProgramRow r;
      r.id = u64(q, id);
      if (r.id != out.size()) corrupt("corrupted report (program ids are not 0..n-1)");
      r.type = indexOfName<S::ProgramType>(q.columnText(type));
      if (r.type >= S::enumSize<S::ProgramType>())
        corrupt("corrupted report (unknown program type '" + text(q, type) + "')");
      r.name = text(q, name);
      r.debug = optionalInt(q, debug);
      r.computeSet = optionalInt(q, computeSet);
      r.syncType = q.isNull(syncType) ? std::string() : text(q, syncType);
      r.repeatCount = optionalInt(q, repeatCount);
      r.dataBytes = u64(q, dataBytes);
      if (destinations && !q.isNull(c[P::streamDestination])) {
        const int d = c[P::streamDestination];
        r.streamDestination = int(indexOfName<S::StreamDestination>(q.columnText(d)));
        if (r.streamDestination >= int(S::enumSize<S::StreamDestination>()))
          corrupt("corrupted report (unknown stream destination '" + text(q, d) + "')");
      }
      out.push_back(std::move(r));
    }
    return out;
  });
}

bool ReportStore::hasColumn(std::string_view table, std::string_view column) {
  Statement& q =
      statement("SELECT 1 FROM pragma_table_info('" + std::string(table) + "') WHERE name = ?");
  q.bindText(1, column);
  return q.step();
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> ReportStore::programChildren() {
  using C = S::ProgramChildren;
  return guarded("reading the program tree", [&] {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    Statement& q =
        statement(select({&C::parent, &C::child}, C::table.name, "ORDER BY parent, position"));
    while (q.step())
      out.emplace_back(u64(q, 0), u64(q, 1));
    return out;
  });
}

std::vector<std::uint64_t> ReportStore::entryPoints() {
  using E = S::EntryPoints;
  return guarded("reading entry points", [&] {
    std::vector<std::uint64_t> out;
    Statement& q = statement(select({&E::program}, E::table.name, "ORDER BY program_index"));
    while (q.step())
      out.push_back(u64(q, 0));
    return out;
  });
}

std::vector<ProgramVariableRow> ReportStore::programVariables(std::uint64_t program) {
  using V = S::ProgramVariables;
  return guarded("reading a program's variables", [&] {
    std::vector<ProgramVariableRow> out;
    Statement& q = statement(select({&V::variable, &V::access}, V::table.name,
                                    "WHERE " + eq(V::program) + " ORDER BY variable"));
    q.bindInt(1, std::int64_t(program));
    while (q.step())
      out.push_back({u64(q, 0), text(q, 1)});
    return out;
  });
}

U64s ReportStore::programBlob(std::uint64_t program, ProgramBlob which) {
  using P = S::Programs;
  const S::Column& c = which == ProgramBlob::ControlCode    ? P::controlCodeByTile
                       : which == ProgramBlob::ExchangeCode ? P::codeBytesByTile
                                                            : P::estimatedCyclesByTile;
  return guarded("reading a program's per-tile values", [&] {
    Statement& q = statement(select({&c}, P::table.name, "WHERE " + eq(P::id)));
    q.bindInt(1, std::int64_t(program));
    if (!q.step() || q.isNull(0)) return U64s();
    auto [p, n] = q.columnBlob(0);
    return tessera::profiler::decodeTileValues(p, n);
  });
}

ReportStore::JobPlacementRow ReportStore::jobPlacement() const {
  JobPlacementRow row;
  auto number = [&](std::string_view key, unsigned fallback) -> unsigned {
    const auto it = meta_.find(std::string(key));
    if (it == meta_.end()) return fallback;
    const std::string& text = it->second;
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos)
      corrupt("corrupted report (meta " + std::string(key) + " '" + text.substr(0, 20) +
              "' is not a number)");
    return static_cast<unsigned>(std::stoul(text));
  };
  row.instanceIndex = number(S::meta::instanceIndex, 0);
  row.numInstances = number(S::meta::numInstances, 1);
  row.replicaOffset = number(S::meta::replicaOffset, 0);
  row.totalReplicas = number(S::meta::totalReplicas, 0);
  if (row.numInstances == 0 || row.instanceIndex >= row.numInstances ||
      (row.totalReplicas != 0 && row.replicaOffset >= row.totalReplicas) ||
      row.totalReplicas > S::kMaxReplicas)
    corrupt("corrupted report (instance " + std::to_string(row.instanceIndex) + " of " +
            std::to_string(row.numInstances) + ", replica offset " +
            std::to_string(row.replicaOffset) + " of " + std::to_string(row.totalReplicas) +
            " replicas, is not a place in a job)");
  return row;
}

bool ReportStore::hasFlopEstimates() const {
  const auto it = meta_.find(std::string(S::meta::flopEstimates));
  return it != meta_.end() && it->second == "true";
}

std::vector<ComputeSetRow> ReportStore::computeSets() {
  using C = S::ComputeSets;
  const bool flops = hasFlopEstimates();
  return guarded("reading compute sets", [&] {
    std::vector<ComputeSetRow> out;
    // The FLOP columns are selected only when the report says it has them: a 1.0 report lacks them.
    Statement& q = flops ? statement(select({&C::id, &C::name, &C::debugContext, &C::numVertices,
                                             &C::estimatedFlops, &C::verticesWithoutFlopEstimate},
                                            C::table.name, "ORDER BY id"))
                         : statement(select({&C::id, &C::name, &C::debugContext, &C::numVertices},
                                            C::table.name, "ORDER BY id"));
    while (q.step()) {
      if (u64(q, 0) != out.size()) corrupt("corrupted report (compute set ids are not 0..n-1)");
      ComputeSetRow r{u64(q, 0),         u64(q, 3),    text(q, 1),
                      optionalInt(q, 2), std::nullopt, std::nullopt};
      if (flops) {
        if (q.isNull(4) || q.isNull(5))
          corrupt("corrupted report (a compute set has no FLOP estimate although flop_estimates is "
                  "true)");
        r.estimatedFlops = u64(q, 4);
        r.verticesWithoutFlopEstimate = u64(q, 5);
      }
      out.push_back(std::move(r));
    }
    return out;
  });
}

U64s ReportStore::computeSetEstimate(std::uint64_t computeSet) {
  using C = S::ComputeSets;
  return guarded("reading a compute set's estimate", [&] {
    Statement& q =
        statement(select({&C::estimatedCyclesByTile}, C::table.name, "WHERE " + eq(C::id)));
    q.bindInt(1, std::int64_t(computeSet));
    if (!q.step()) return U64s();
    auto [p, n] = q.columnBlob(0);
    return tessera::profiler::decodeTileValues(p, n);
  });
}

bool ReportStore::hasFlopEstimatesByTile() {
  using C = S::ComputeSets;
  if (!hasFlopEstimates()) return false;
  // estimated_flops_by_tile came with format 1.4.0: an older report lacks the column.
  return guarded("reading compute sets",
                 [&] { return hasColumn(C::table.name, C::estimatedFlopsByTile.name); });
}

std::optional<U64s> ReportStore::computeSetFlopsByTile(std::uint64_t computeSet) {
  using C = S::ComputeSets;
  if (!hasFlopEstimatesByTile()) return std::nullopt;
  return guarded("reading a compute set's FLOPs per tile", [&]() -> std::optional<U64s> {
    Statement& q =
        statement(select({&C::estimatedFlopsByTile}, C::table.name, "WHERE " + eq(C::id)));
    q.bindInt(1, std::int64_t(computeSet));
    if (!q.step()) return std::nullopt;
    if (q.isNull(0))
      corrupt(
          "corrupted report (a compute set has no FLOPs per tile although flop_estimates is true)");
    auto [p, n] = q.columnBlob(0);
    return tessera::profiler::decodeTileValues(p, n);
  });
}

std::vector<ComputeSetVerticesRow> ReportStore::computeSetVertices(std::uint64_t computeSet) {
  using V = S::ComputeSetVertices;
  return guarded("reading a compute set's vertices", [&] {
    std::vector<ComputeSetVerticesRow> out;
    Statement& q = statement(select({&V::vertexType, &V::count}, V::table.name,
                                    "WHERE " + eq(V::computeSet) + " ORDER BY vertex_type"));
    q.bindInt(1, std::int64_t(computeSet));
    while (q.step())
      out.push_back({u64(q, 0), u64(q, 1)});
    return out;
  });
}

std::vector<VertexCycleRuleRow> ReportStore::vertexCycleRules(std::uint64_t computeSet,
                                                              std::uint64_t vertexType) {
  using V = S::VertexCycleRules;
  if (!hasCycleRules_) return {};
  return guarded("reading where vertex cycles come from", [&] {
    std::vector<VertexCycleRuleRow> out;
    Statement& q = statement(
        select({&V::rule, &V::count}, V::table.name,
               "WHERE " + eq(V::computeSet) + " AND " + eq(V::vertexType) + " ORDER BY rule"));
    q.bindInt(1, std::int64_t(computeSet));
    q.bindInt(2, std::int64_t(vertexType));
    while (q.step()) {
      const std::string rule = text(q, 0);
      if (!S::parse<S::CycleRule>(rule))
        corrupt("corrupted report (unknown vertex cycle rule '" + rule + "')");
      const std::int64_t count = q.columnInt(1);
      if (count < 0)
        corrupt("corrupted report (a negative count of vertices with cycle rule '" + rule + "')");
      out.push_back({rule, std::uint64_t(count)});
    }
    return out;
  });
}

std::vector<VertexCycleRuleRow> ReportStore::vertexCycleRuleTotals() {
  using V = S::VertexCycleRules;
  if (!hasCycleRules_) return {};
  return guarded("reading where vertex cycles come from", [&] {
    std::vector<VertexCycleRuleRow> out;
    const std::string rule(V::rule.name);
    Statement& q =
        statement("SELECT " + rule + ", sum(" + std::string(V::count.name) + ") FROM " +
                  std::string(V::table.name) + " GROUP BY " + rule + " ORDER BY " + rule);
    while (q.step()) {
      const std::string name = text(q, 0);
      if (!S::parse<S::CycleRule>(name))
        corrupt("corrupted report (unknown vertex cycle rule '" + name + "')");
      out.push_back({name, u64(q, 1)});
    }
    return out;
  });
}

std::vector<RuleCyclesRow> ReportStore::runVertexCycleRuleTotals() {
  using V = S::RunVertexCycleRules;
  if (!hasRunCycleRules_) return {};
  return guarded("reading the vertex cycles of each cycle rule", [&] {
    std::map<std::string, std::uint64_t> sums;
    Statement& q = statement(select({&V::rule, &V::cycles}, V::table.name));
    while (q.step()) {
      const std::string rule = text(q, 0);
      if (!S::parse<S::CycleRule>(rule))
        corrupt("corrupted report (unknown vertex cycle rule '" + rule + "')");
      const std::int64_t cycles = q.columnInt(1);
      if (cycles < 0)
        corrupt("corrupted report (negative vertex cycles of cycle rule '" + rule + "')");
      std::uint64_t& sum = sums[rule];
      const std::uint64_t c = std::uint64_t(cycles);
      sum = sum + c < sum ? ~std::uint64_t(0) : sum + c; // saturates, as the analysis' sums
    }
    std::vector<RuleCyclesRow> out;
    for (auto& [rule, cycles] : sums)
      out.push_back({rule, cycles});
    return out;
  });
}

std::vector<RunStreamCopyRow> ReportStore::runStreamCopyCycles() {
  using C = S::RunStreamCopyCycles;
  if (!hasRunStreamCopies_) return {};
  return guarded("reading the runs' stream-copy cycles", [&] {
    std::vector<RunStreamCopyRow> out;
    const Selected c{&C::run, &C::host, &C::remoteBuffer, &C::mixed};
    Statement& q = statement(c.sql(C::table.name, "ORDER BY " + std::string(C::run.name)));
    while (q.step()) {
      RunStreamCopyRow row;
      row.run = unsigned(q.columnInt(c[C::run]));
      int i = 0;
      for (const S::Column* column : {&C::host, &C::remoteBuffer, &C::mixed}) {
        const std::int64_t cycles = q.columnInt(c[*column]);
        if (cycles < 0)
          corrupt("corrupted report (negative " + std::string(column->name) +
                  " stream-copy cycles of run " + std::to_string(row.run) + ")");
        row.cycles[i++] = std::uint64_t(cycles);
      }
      out.push_back(row);
    }
    return out;
  });
}

U64s ReportStore::computeSetVertexCounts(std::uint64_t computeSet, std::uint64_t vertexType) {
  using V = S::ComputeSetVertices;
  return guarded("reading vertex counts", [&] {
    Statement& q = statement(select({&V::countByTile}, V::table.name,
                                    "WHERE " + eq(V::computeSet) + " AND " + eq(V::vertexType)));
    q.bindInt(1, std::int64_t(computeSet));
    q.bindInt(2, std::int64_t(vertexType));
    if (!q.step()) return U64s();
    auto [p, n] = q.columnBlob(0);
    return tessera::profiler::decodeTileValues(p, n);
  });
}

std::vector<VariableRow> ReportStore::variables() {
  using V = S::Variables;
  return guarded("reading variables", [&] {
    std::vector<VariableRow> out;
    const Selected c{&V::id,          &V::name,     &V::debugContext, &V::category,
                     &V::elementType, &V::shape,    &V::numElements,  &V::bytes,
                     &V::alwaysLive,  &V::liveFrom, &V::liveTo};
    Statement& q = statement(c.sql(V::table.name, "ORDER BY " + std::string(V::id.name)));
    const int id = c[V::id], name = c[V::name], debug = c[V::debugContext],
              category = c[V::category], elementType = c[V::elementType], shape = c[V::shape],
              numElements = c[V::numElements], bytes = c[V::bytes], alwaysLive = c[V::alwaysLive],
              liveFrom = c[V::liveFrom], liveTo = c[V::liveTo];
    while (q.step()) {
      VariableRow r;
      r.id = u64(q, id);
      if (r.id != out.size()) corrupt("corrupted report (variable ids are not 0..n-1)");
      r.name = text(q, name);
      r.debug = optionalInt(q, debug);
      r.category = text(q, category);
      r.elementType = text(q, elementType);
      r.shape = text(q, shape);
      r.numElements = u64(q, numElements);
      r.bytes = u64(q, bytes);
      r.alwaysLive = q.columnInt(alwaysLive) != 0;
      r.from = q.isNull(liveFrom) ? 0 : u64(q, liveFrom);
      r.to = q.isNull(liveTo) ? 0 : u64(q, liveTo);
      out.push_back(std::move(r));
    }
    return out;
  });
}

std::vector<LoweredRow> ReportStore::loweredVariables(std::optional<unsigned> tile) {
  using L = S::LoweredVariables;
  return guarded("reading lowered variables", [&] {
    std::vector<LoweredRow> out;
    Statement& q = statement(select(
        {&L::id, &L::tile, &L::variable, &L::name, &L::category, &L::bytes, &L::offset,
         &L::alignment, &L::alwaysLive},
        L::table.name, tile ? "WHERE " + eq(L::tile) + " ORDER BY offset, id" : "ORDER BY id"));
    if (tile) q.bindInt(1, *tile);
    while (q.step()) {
      LoweredRow r;
      r.id = u64(q, 0);
      r.tile = unsigned(q.columnInt(1));
      r.variable = optionalInt(q, 2);
      r.name = q.isNull(3) ? std::string() : text(q, 3);
      r.category = text(q, 4);
      r.bytes = u64(q, 5);
      r.offset = u64(q, 6);
      r.alignment = u64(q, 7);
      r.alwaysLive = q.columnInt(8) != 0;
      out.push_back(std::move(r));
    }
    return out;
  });
}

std::vector<LivenessRow> ReportStore::livenessSteps() {
  using L = S::LivenessSteps;
  return guarded("reading liveness steps", [&] {
    std::vector<LivenessRow> out;
    Statement& q = statement(
        select({&L::id, &L::program, &L::notAlwaysLiveBytes}, L::table.name, "ORDER BY id"));
    while (q.step())
      out.push_back({u64(q, 0), u64(q, 1), u64(q, 2)});
    return out;
  });
}

U64s ReportStore::livenessBlob(std::uint64_t step, LivenessBlob which) {
  using L = S::LivenessSteps;
  const S::Column& c = which == LivenessBlob::ByTile ? L::bytesByTile : L::bytesByIpu;
  return guarded("reading a liveness step", [&] {
    Statement& q = statement(select({&c}, L::table.name, "WHERE " + eq(L::id)));
    q.bindInt(1, std::int64_t(step));
    if (!q.step()) return U64s();
    auto [p, n] = q.columnBlob(0);
    return tessera::profiler::decodeTileValues(p, n);
  });
}

std::vector<RunRow> ReportStore::runs() {
  using R = S::Runs;
  return guarded("reading runs", [&] {
    std::vector<RunRow> out;
    const Selected c{
        &R::id,        &R::name,     &R::programIndex, &R::microsecondsStart, &R::microsecondsEnd,
        &R::firstStep, &R::numSteps, &R::cycles};
    Statement& q = statement(c.sql(R::table.name, "ORDER BY " + std::string(R::id.name)));
    while (q.step())
      out.push_back({unsigned(q.columnInt(c[R::id])), unsigned(q.columnInt(c[R::programIndex])),
                     text(q, c[R::name]), q.columnInt(c[R::microsecondsStart]),
                     q.columnInt(c[R::microsecondsEnd]), u64(q, c[R::firstStep]),
                     u64(q, c[R::numSteps]), u64(q, c[R::cycles])});
    checkRunSpans(out);
    return out;
  });
}

void ReportStore::checkRunSpans(const std::vector<RunRow>& runs) {
  // Runs hold disjoint spans of steps, in run order, and each step names its run
  // (docs/formats.md): a run overlapping another would have its steps counted once per run by
  // whatever sums runs, and once by whatever reads steps. The first and last step of each run
  // are looked up by key: no step is scanned.
  using St = S::Steps;
  std::uint64_t end = 0;
  for (const auto& r : runs) {
    std::uint64_t last = 0;
    if (__builtin_add_overflow(r.firstStep, r.numSteps, &last) || r.firstStep < end ||
        last > std::uint64_t(INT64_MAX))
      corrupt("corrupted report (run " + std::to_string(r.id) + " holds steps " +
              std::to_string(std::int64_t(r.firstStep)) + " to " +
              std::to_string(std::int64_t(last)) + ", overlapping an earlier run's, which end at " +
              std::to_string(end) + ")");
    end = last;
    if (!r.numSteps) continue;
    for (const std::uint64_t step : {r.firstStep, last - 1}) {
      Statement& q = statement(select({&St::run}, St::table.name, "WHERE " + eq(St::id)));
      q.bindInt(1, std::int64_t(step));
      if (q.step() && q.columnInt(0) != std::int64_t(r.id))
        corrupt("corrupted report (step " + std::to_string(step) + " of run " +
                std::to_string(r.id) + " says it belongs to run " + std::to_string(q.columnInt(0)) +
                ")");
    }
  }
}

std::vector<U64s> ReportStore::runTileCycles(unsigned run) {
  using R = S::RunTileCycles;
  return guarded("reading a run's cycles by kind", [&] {
    std::vector<U64s> out(S::kCycleKindNames.size());
    Statement& q =
        statement(select({&R::kind, &R::cyclesByTile}, R::table.name, "WHERE " + eq(R::run)));
    q.bindInt(1, run);
    while (q.step()) {
      const unsigned k = indexOfName<S::CycleKind>(q.columnText(0));
      if (k >= out.size()) continue;
      auto [p, n] = q.columnBlob(1);
      out[k] = tessera::profiler::decodeTileValues(p, n);
    }
    return out;
  });
}

std::optional<U64s> ReportStore::runComputeExcludingIdle(unsigned run) {
  using R = S::RunTileCycles;
  return guarded("reading a run's compute cycles excluding idle threads",
                 [&]() -> std::optional<U64s> {
                   Statement& q = statement(select({&R::cyclesByTile}, R::table.name,
                                                   "WHERE " + eq(R::run) + " AND " + eq(R::kind)));
                   q.bindInt(1, run);
                   q.bindText(2, R::computeExcludingIdleKind);
                   if (!q.step()) return std::nullopt;
                   auto [p, n] = q.columnBlob(0);
                   return tessera::profiler::decodeTileValues(p, n);
                 });
}

void ReportStore::steps(std::uint64_t first, std::uint64_t count, StepChunk& out) {
  using T = S::Steps;
  guarded("reading execution steps", [&] {
    Statement& q = statement(select({&T::id, &T::run, &T::program, &T::cyclesByTile, &T::ipus},
                                    T::table.name, "WHERE id >= ? AND id < ? ORDER BY id"));
    q.bindInt(1, std::int64_t(first));
    q.bindInt(2, std::int64_t(first + count));
    out.rows.clear();
    out.bytes.clear();
    auto append = [&](int col, std::uint32_t& offset, std::uint32_t& size) {
      auto [p, n] = q.columnBlob(col);
      if (out.bytes.size() + n > 0xffffffffu)
        corrupt("corrupted report (a step's data is too large)");
      offset = static_cast<std::uint32_t>(out.bytes.size());
      size = static_cast<std::uint32_t>(n);
      out.bytes.append(static_cast<const char*>(p), n);
    };
    while (q.step()) {
      StepRow r;
      r.id = u64(q, 0);
      r.run = unsigned(q.columnInt(1));
      r.program = u64(q, 2);
      if (!q.isNull(3)) append(3, r.cyclesOffset, r.cyclesSize);
      append(4, r.ipusOffset, r.ipusSize);
      out.rows.push_back(r);
    }
  });
}

std::vector<BlockRow> ReportStore::blocks(unsigned tile) {
  using B = S::Blocks;
  return guarded("reading blocks", [&] {
    std::vector<BlockRow> out;
    Statement& q =
        statement(select({&B::program, &B::cyclesFrom, &B::cyclesTo, &B::tile, &B::run, &B::kind},
                         B::table.name, "WHERE " + eq(B::tile) + " ORDER BY id"));
    q.bindInt(1, tile);
    while (q.step())
      out.push_back({u64(q, 0), u64(q, 1), u64(q, 2), unsigned(q.columnInt(3)),
                     unsigned(q.columnInt(4)), indexOfName<S::BlockKind>(q.columnText(5))});
    return out;
  });
}

std::vector<unsigned> ReportStore::blockTiles() {
  using B = S::Blocks;
  return guarded("reading blocks", [&] {
    std::vector<unsigned> out;
    Statement& q = statement("SELECT DISTINCT " + std::string(B::tile.name) + " FROM " +
                             std::string(B::table.name) + " ORDER BY 1");
    while (q.step())
      out.push_back(unsigned(q.columnInt(0)));
    return out;
  });
}

} // namespace pva::storage
