#include "common/RawDb.hpp"

#include <ostream>
#include <sqlite3.h>
#include <stdexcept>

namespace test {

std::ostream& operator<<(std::ostream& os, const Value& v) {
  switch (v.type) {
  case Value::Null:
    return os << "NULL";
  case Value::Integer:
    return os << "INTEGER " << v.i;
  case Value::Real:
    return os << "REAL " << v.r;
  case Value::Text:
    return os << "TEXT '" << v.bytes << "'";
  case Value::Blob:
    return os << "BLOB of " << v.bytes.size() << " bytes";
  }
  return os;
}

RawDb::RawDb(const std::filesystem::path& path) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw std::runtime_error("test: cannot open " + path.string() + ": " + msg);
  }
}

RawDb::~RawDb() {
  sqlite3_close(db_);
}

std::vector<std::vector<Value>> RawDb::query(const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
    throw std::runtime_error("test: cannot prepare " + sql + ": " + sqlite3_errmsg(db_));
  std::vector<std::vector<Value>> rows;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    std::vector<Value>& row = rows.emplace_back();
    for (int c = 0; c < sqlite3_column_count(st); ++c) {
      Value v;
      switch (sqlite3_column_type(st, c)) {
      case SQLITE_INTEGER:
        v.type = Value::Integer;
        v.i = sqlite3_column_int64(st, c);
        break;
      case SQLITE_FLOAT:
        v.type = Value::Real;
        v.r = sqlite3_column_double(st, c);
        break;
      case SQLITE_TEXT:
        v.type = Value::Text;
        v.bytes.assign(reinterpret_cast<const char*>(sqlite3_column_text(st, c)),
                       static_cast<std::size_t>(sqlite3_column_bytes(st, c)));
        break;
      case SQLITE_BLOB: {
        v.type = Value::Blob;
        const void* p = sqlite3_column_blob(st, c);
        if (p)
          v.bytes.assign(static_cast<const char*>(p),
                         static_cast<std::size_t>(sqlite3_column_bytes(st, c)));
        break;
      }
      default:
        break;
      }
      row.push_back(std::move(v));
    }
  }
  std::string err = rc == SQLITE_DONE ? "" : sqlite3_errmsg(db_);
  sqlite3_finalize(st);
  if (!err.empty()) throw std::runtime_error("test: " + sql + ": " + err);
  return rows;
}

void execSql(const std::filesystem::path& path, const std::string& statements) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    sqlite3_close(db);
    throw std::runtime_error("cannot open " + path.string());
  }
  char* err = nullptr;
  const int rc = sqlite3_exec(db, statements.c_str(), nullptr, nullptr, &err);
  const std::string message = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  if (rc != SQLITE_OK) throw std::runtime_error(statements + ": " + message);
}

} // namespace test
