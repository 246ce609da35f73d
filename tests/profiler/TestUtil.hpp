// Helpers shared by the profiler tests: scratch directories, exception messages, and a raw
// SQLite reader that checks files independently of the library's own SQLite layer.
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

struct sqlite3;

namespace test {

/// A fresh, empty directory for one test case (under the build tree), removed afterwards.
class ScratchDir {
public:
  ScratchDir();
  ~ScratchDir();
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
  std::filesystem::path path_;
};

/// Runs f and returns the message of the E it throws; fails the test when it throws nothing.
template <class E, class F> std::string messageOf(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  FAIL("expected an exception, none was thrown");
  return {};
}

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
