#include "SqliteMutator.hpp"

#include <cstring>
#include <random>
#include <sqlite3.h>
#include <string>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

namespace fuzz {

namespace {

/// Values that sit on the edges readers check: zero, one, all ones, sign bits, 2^24 tiles...
const std::int64_t kBoundaries[] = {0,
                                    1,
                                    -1,
                                    2,
                                    255,
                                    256,
                                    65535,
                                    65536,
                                    1 << 24,
                                    (1 << 24) + 1,
                                    0x7fffffff,
                                    std::int64_t(0x80000000),
                                    std::int64_t(0xffffffff),
                                    std::int64_t(1) << 32,
                                    INT64_MAX,
                                    INT64_MIN,
                                    INT64_MIN + 1,
                                    1472,
                                    1473,
                                    638976};
const char* const kTexts[] = {"",
                              "x",
                              "Sequence",
                              "OnTileExecute",
                              "Repeat",
                              "1.0.0",
                              "2.0.0",
                              "1.99.0",
                              "tessera-profile",
                              "tessera-trace",
                              "true",
                              "false",
                              "[",
                              "[1,2",
                              "[1e308,-1e308]",
                              "{}",
                              "vertex_code",
                              "internal",
                              "nan",
                              "-1"};

struct Db {
  sqlite3* db = nullptr;
  ~Db() { sqlite3_close(db); }
};

std::vector<std::string> tables(sqlite3* db) {
  std::vector<std::string> out;
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type='table'", -1, &s,
                         nullptr) != SQLITE_OK)
    return out;
  while (sqlite3_step(s) == SQLITE_ROW)
    out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)));
  sqlite3_finalize(s);
  return out;
}

std::int64_t scalar(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* s = nullptr;
  std::int64_t v = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK &&
      sqlite3_step(s) == SQLITE_ROW)
    v = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  return v;
}

std::string quote(const std::string& name) {
  std::string q = "\"";
  for (char c : name)
    q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

} // namespace

std::size_t mutateThroughSqlite(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                                unsigned seed) {
  if (size < 100 || std::memcmp(data, "SQLite format 3", 16) != 0) return 0;
  std::minstd_rand rng(seed);
  Db d;
  if (sqlite3_open_v2(":memory:", &d.db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) return 0;
  // A private, resizable copy: SQLite frees it with the connection.
  auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(size));
  if (!copy) return 0;
  std::memcpy(copy, data, size);
  if (sqlite3_deserialize(d.db, "main", copy, size, size,
                          SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) !=
      SQLITE_OK)
    return 0;
  const auto names = tables(d.db);
  if (names.empty()) return 0;
  const std::string rawName = names[rng() % names.size()];
  const std::string table = quote(rawName);
  const std::int64_t rows = scalar(d.db, "SELECT count(*) FROM " + table);
  if (rows <= 0) return 0;
  const std::int64_t rowid = scalar(d.db, "SELECT rowid FROM " + table + " LIMIT 1 OFFSET " +
                                              std::to_string(rng() % rows));
  std::string literal = "'";
  for (char c : rawName)
    literal += c == '\'' ? std::string("''") : std::string(1, c);
  literal += "'";
  const std::int64_t columns =
      scalar(d.db, "SELECT count(*) FROM pragma_table_info(" + literal + ")");
  sqlite3_stmt* s = nullptr;
  const unsigned action = rng() % 8;
  std::string blob;
  if (action == 0) {
    sqlite3_prepare_v2(d.db, ("DELETE FROM " + table + " WHERE rowid = ?").c_str(), -1, &s,
                       nullptr);
    if (s) sqlite3_bind_int64(s, 1, rowid);
  } else if (action == 1) {
    // A copy of the row under a new rowid (tables whose key is the rowid get a duplicate row).
    sqlite3_prepare_v2(
        d.db,
        ("INSERT OR IGNORE INTO " + table + " SELECT * FROM " + table + " WHERE rowid = ?").c_str(),
        -1, &s, nullptr);
    if (s) sqlite3_bind_int64(s, 1, rowid);
  } else {
    if (columns <= 0) return 0;
    const std::int64_t column = rng() % columns;
    // The column's name, from the schema, so that every table can be edited the same way.
    sqlite3_stmt* info = nullptr;
    std::string name;
    if (sqlite3_prepare_v2(d.db,
                           ("SELECT name FROM pragma_table_info(" + literal + ") LIMIT 1 OFFSET " +
                            std::to_string(column))
                               .c_str(),
                           -1, &info, nullptr) == SQLITE_OK &&
        sqlite3_step(info) == SQLITE_ROW)
      name = reinterpret_cast<const char*>(sqlite3_column_text(info, 0));
    sqlite3_finalize(info);
    if (name.empty()) return 0;
    sqlite3_prepare_v2(
        d.db,
        ("UPDATE OR IGNORE " + table + " SET " + quote(name) + " = ? WHERE rowid = ?").c_str(), -1,
        &s, nullptr);
    if (!s) return 0;
    sqlite3_bind_int64(s, 2, rowid);
    switch (action) {
    case 2:
      sqlite3_bind_int64(s, 1, kBoundaries[rng() % (sizeof kBoundaries / sizeof *kBoundaries)]);
      break;
    case 3:
      sqlite3_bind_int64(s, 1, static_cast<std::int64_t>((std::uint64_t(rng()) << 32) ^ rng()));
      break;
    case 4:
      sqlite3_bind_null(s, 1);
      break;
    case 5:
      sqlite3_bind_text(s, 1, kTexts[rng() % (sizeof kTexts / sizeof *kTexts)], -1, SQLITE_STATIC);
      break;
    case 6:
      sqlite3_bind_double(s, 1, rng() % 2 ? 1e300 : -0.5);
      break;
    default: {
      // The cell's current bytes (a packed blob, usually) through libFuzzer's byte mutator.
      sqlite3_stmt* get = nullptr;
      if (sqlite3_prepare_v2(
              d.db, ("SELECT " + quote(name) + " FROM " + table + " WHERE rowid = ?").c_str(), -1,
              &get, nullptr) == SQLITE_OK) {
        sqlite3_bind_int64(get, 1, rowid);
        if (sqlite3_step(get) == SQLITE_ROW) {
          const auto* p = static_cast<const char*>(sqlite3_column_blob(get, 0));
          blob.assign(p ? p : "", static_cast<std::size_t>(sqlite3_column_bytes(get, 0)));
        }
      }
      sqlite3_finalize(get);
      const std::size_t used = blob.size(), room = used * 2 + 16;
      blob.resize(room);
      blob.resize(LLVMFuzzerMutate(reinterpret_cast<std::uint8_t*>(blob.data()), used, room));
      sqlite3_bind_blob(s, 1, blob.data(), static_cast<int>(blob.size()), SQLITE_STATIC);
    }
    }
  }
  if (!s) return 0;
  const int rc = sqlite3_step(s);
  sqlite3_finalize(s);
  if (rc != SQLITE_DONE) return 0;
  sqlite3_int64 newSize = 0;
  unsigned char* out = sqlite3_serialize(d.db, "main", &newSize, 0);
  if (!out) return 0;
  std::size_t n = 0;
  if (newSize > 0 && static_cast<std::size_t>(newSize) <= maxSize) {
    std::memcpy(data, out, static_cast<std::size_t>(newSize));
    n = static_cast<std::size_t>(newSize);
  }
  sqlite3_free(out);
  return n;
}

} // namespace fuzz
