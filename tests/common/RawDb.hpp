// Raw SQLite reads: files checked with the plain sqlite3 C API, independently of the library's
// own SQLite layer, so a writer is not trusted to check itself.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

struct sqlite3;

namespace test {

/// One value read back by raw SQLite, with its storage class.
struct Value {
  enum Type { Null, Integer, Real, Text, Blob } type = Null;
  long long i = 0;
  double r = 0;
  std::string bytes; ///< text or blob
  bool operator==(const Value& o) const {
    return type == o.type && i == o.i && r == o.r && bytes == o.bytes;
  }
};
std::ostream& operator<<(std::ostream& os, const Value& v);

/// Runs SQL statements on a file with the plain sqlite3 C API (to build or damage test files);
/// throws std::runtime_error naming the statements and SQLite's message when they fail.
void execSql(const std::filesystem::path& path, const std::string& statements);

/// A read-only connection using the plain sqlite3 C API.
class RawDb {
public:
  explicit RawDb(const std::filesystem::path& path);
  ~RawDb();
  RawDb(const RawDb&) = delete;
  RawDb& operator=(const RawDb&) = delete;
  /// Every row of a query, as values.
  std::vector<std::vector<Value>> query(const std::string& sql);

private:
  sqlite3* db_ = nullptr;
};

} // namespace test
