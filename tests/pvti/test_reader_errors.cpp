// Bad input to pva::openTrace gives a pva::Exception that names the file and the problem, never
// a crash: missing, a directory, empty, random bytes, text, other SQLite files, other versions,
// truncated and corrupted traces.
#include "../profiler/TestUtil.hpp"
#include "DriverUtil.hpp"

#include <pva/Trace.hpp>

#include <sqlite3.h>

#include <fstream>
#include <random>

namespace fs = std::filesystem;

namespace {

/// A real trace to damage, copied into `dir`.
fs::path goodTrace(const test::ScratchDir& dir) {
  static test::ScratchDir source;
  static fs::path made = [] {
    const auto r = test::runDriver({"load", "2", "20000"}, "{}", source.path());
    REQUIRE(r.exitCode == 0);
    return test::traceFiles(source.path()).at(0);
  }();
  const fs::path copy = dir / "good.pvti";
  fs::copy_file(made, copy, fs::copy_options::overwrite_existing);
  return copy;
}

void writeBytes(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

void sql(const fs::path& p, const std::string& statements) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(p.c_str(), &db) == SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, statements.c_str(), nullptr, nullptr, &err);
  INFO((err ? err : ""));
  sqlite3_free(err);
  sqlite3_close(db);
  REQUIRE(rc == SQLITE_OK);
}

template <class E> std::string errorOf(const fs::path& p) {
  return test::messageOf<E>([&] { pva::openTrace(p.string()); });
}

} // namespace

TEST_CASE("openTrace: a missing file or a directory is FileNotFoundError", "[pvti][reader][errors]") {
  test::ScratchDir dir;
  CHECK_THAT(errorOf<pva::FileNotFoundError>(dir / "nope.pvti"),
             Catch::Contains("nope.pvti") && Catch::Contains("no such trace file"));
  CHECK_THAT(errorOf<pva::FileNotFoundError>(dir.path()), Catch::Contains("is a directory"));
}

TEST_CASE("openTrace: files that are not traces are InvalidReportError", "[pvti][reader][errors]") {
  test::ScratchDir dir;
  writeBytes(dir / "empty.pvti", "");
  CHECK_THAT(errorOf<pva::InvalidReportError>(dir / "empty.pvti"),
             Catch::Contains("empty.pvti") && Catch::Contains("not a Tessera trace (empty file)"));
  writeBytes(dir / "text.pvti", "hello, this is not a database\n");
  CHECK_THAT(errorOf<pva::InvalidReportError>(dir / "text.pvti"), Catch::Contains("text.pvti: not a Tessera trace"));
  std::mt19937 rng(42);
  for (int size : {1, 100, 4096, 100000}) {
    std::string bytes(static_cast<std::size_t>(size), '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    writeBytes(dir / "random.pvti", bytes);
    CHECK_THAT(errorOf<pva::InvalidReportError>(dir / "random.pvti"), Catch::Contains("not a Tessera trace"));
  }
  // An SQLite database of something else, and a Tessera profile.
  sql(dir / "other.db", "CREATE TABLE t (x); INSERT INTO t VALUES (1);");
  CHECK_THAT(errorOf<pva::InvalidReportError>(dir / "other.db"), Catch::Contains("other.db: not a Tessera trace"));
  sql(dir / "profile.pop", "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); "
                           "INSERT INTO meta VALUES ('format', 'tessera-profile');");
  CHECK_THAT(errorOf<pva::InvalidReportError>(dir / "profile.pop"), Catch::Contains("openReport"));
}

TEST_CASE("openTrace: another format version is UnsupportedVersionError", "[pvti][reader][errors]") {
  test::ScratchDir dir;
  const fs::path p = goodTrace(dir);
  sql(p, "UPDATE meta SET value = '2.0.0' WHERE key = 'format_version'");
  CHECK_THAT(errorOf<pva::UnsupportedVersionError>(p), Catch::Contains("good.pvti") && Catch::Contains("unsupported trace format version 2.0.0"));
  sql(p, "UPDATE meta SET value = '1.7.0' WHERE key = 'format_version'");
  CHECK_THAT(errorOf<pva::UnsupportedVersionError>(p), Catch::Contains("1.7.0"));
  sql(p, "UPDATE meta SET value = 'one' WHERE key = 'format_version'");
  CHECK_THAT(errorOf<pva::InvalidReportError>(p), Catch::Contains("format version missing or malformed"));
}

TEST_CASE("openTrace: truncated traces are InvalidReportError", "[pvti][reader][errors]") {
  test::ScratchDir dir;
  const fs::path p = goodTrace(dir);
  const auto size = fs::file_size(p);
  for (auto keep : {std::uintmax_t{10}, std::uintmax_t{100}, std::uintmax_t{4096}, size / 3, size / 2, size - 4096}) {
    INFO("kept " << keep << " of " << size << " bytes");
    const fs::path cut = dir / "cut.pvti";
    fs::copy_file(p, cut, fs::copy_options::overwrite_existing);
    fs::resize_file(cut, keep);
    CHECK_THAT(test::messageOf<pva::Exception>([&] { pva::openTrace(cut.string()); }), Catch::Contains("cut.pvti"));
  }
}

TEST_CASE("openTrace: corrupted traces are InvalidReportError, never a crash", "[pvti][reader][errors]") {
  test::ScratchDir dir;
  const fs::path good = goodTrace(dir);
  const auto size = fs::file_size(good);
  std::mt19937 rng(7);
  int failures = 0;
  for (int round = 0; round < 20; ++round) {
    const fs::path p = dir / "bad.pvti";
    fs::copy_file(good, p, fs::copy_options::overwrite_existing);
    {
      std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
      // Garbage over a stretch of pages past the header: b-tree pages, cells, overflow.
      const auto at = 4096 + rng() % (size - 8192);
      f.seekp(static_cast<std::streamoff>(at));
      for (int i = 0; i < 2048; ++i) f.put(static_cast<char>(rng()));
    }
    try {
      pva::openTrace(p.string()); // garbage inside text or a free page may go unnoticed: fine
    } catch (const pva::Exception& e) {
      ++failures;
      CHECK_THAT(e.what(), Catch::Contains("bad.pvti"));
    }
  }
  CHECK(failures > 0);
}

TEST_CASE("openTrace: rows that contradict each other are InvalidReportError", "[pvti][reader][errors]") {
  test::ScratchDir dir;
  const fs::path p = goodTrace(dir);
  SECTION("an event naming a parent that is not open") {
    sql(p, "UPDATE events SET parent = 999999999 WHERE id = (SELECT max(id) FROM events)");
    CHECK_THAT(errorOf<pva::InvalidReportError>(p), Catch::Contains("not an open event"));
  }
  SECTION("an event naming an unknown label") {
    sql(p, "UPDATE events SET label = 12345 WHERE id = 5");
    CHECK_THAT(errorOf<pva::InvalidReportError>(p), Catch::Contains("label 12345"));
  }
  SECTION("an event on an unknown thread") {
    sql(p, "UPDATE events SET thread = 77 WHERE id = 5");
    CHECK_THAT(errorOf<pva::InvalidReportError>(p), Catch::Contains("thread 77"));
  }
  SECTION("a table missing") {
    sql(p, "DROP TABLE heatmaps");
    CHECK_THAT(errorOf<pva::InvalidReportError>(p), Catch::Contains("truncated or corrupted") && Catch::Contains("heatmaps"));
  }
  SECTION("an undecodable heatmap sample") {
    sql(p, "INSERT INTO heatmaps VALUES (1, 'h', '', 'double', '[0,1]');"
           "INSERT INTO heatmap_samples VALUES (1, 0, x'ff');");
    CHECK_THAT(errorOf<pva::InvalidReportError>(p), Catch::Contains("heatmap 'h'") && Catch::Contains("truncated varint"));
  }
  SECTION("bad bin edges") {
    sql(p, "INSERT INTO heatmaps VALUES (1, 'h', '', 'double', 'edges');");
    CHECK_THAT(errorOf<pva::InvalidReportError>(p), Catch::Contains("not a JSON array"));
  }
}
