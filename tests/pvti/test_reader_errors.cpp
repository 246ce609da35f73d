// Bad input to pva::openTrace gives a pva::Exception that names the file and the problem, never
// a crash: missing, a directory, empty, random bytes, text, other SQLite files, other versions,
// truncated and corrupted traces, damaged event blocks.
#include "DriverUtil.hpp"
#include "common/Exceptions.hpp"
#include "common/RawDb.hpp"
#include "common/ScratchDir.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <pva/Trace.hpp>
#include <random>
#include <sqlite3.h>

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

void writeBytes(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

void sql(const fs::path& p, const std::string& statements) {
  test::execSql(p, statements);
}

/// Replaces the records blob of event block `id` by what `edit` makes of it. (SQL's || turns
/// blobs into text, so byte-exact damage is done here.)
void editBlock(const fs::path& p, std::int64_t id, const std::function<void(std::string&)>& edit) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(p.c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT records FROM event_blocks WHERE id = ?", -1, &st,
                             nullptr) == SQLITE_OK);
  sqlite3_bind_int64(st, 1, id);
  REQUIRE(sqlite3_step(st) == SQLITE_ROW);
  std::string bytes(static_cast<const char*>(sqlite3_column_blob(st, 0)),
                    static_cast<std::size_t>(sqlite3_column_bytes(st, 0)));
  sqlite3_finalize(st);
  edit(bytes);
  REQUIRE(sqlite3_prepare_v2(db, "UPDATE event_blocks SET records = ? WHERE id = ?", -1, &st,
                             nullptr) == SQLITE_OK);
  sqlite3_bind_blob(st, 1, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
  sqlite3_bind_int64(st, 2, id);
  CHECK(sqlite3_step(st) == SQLITE_DONE);
  sqlite3_finalize(st);
  sqlite3_close(db);
}

std::int64_t blockCount(const fs::path& p) {
  test::RawDb db(p);
  return db.query("SELECT count(*) FROM event_blocks")[0][0].i;
}

template <class E> std::string errorOf(const fs::path& p) {
  return test::messageOf<E>([&] { pva::openTrace(p.string()); });
}

} // namespace

TEST_CASE("openTrace: a missing file or a directory is FileNotFoundError",
          "[pvti][reader][errors]") {
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
  CHECK_THAT(errorOf<pva::InvalidReportError>(dir / "text.pvti"),
             Catch::Contains("text.pvti: not a Tessera trace"));
  std::mt19937 rng(42);
  for (int size : {1, 100, 4096, 100000}) {
    std::string bytes(static_cast<std::size_t>(size), '\0');
    for (char& c : bytes)
      c = static_cast<char>(rng());
    writeBytes(dir / "random.pvti", bytes);
    CHECK_THAT(errorOf<pva::InvalidReportError>(dir / "random.pvti"),
               Catch::Contains("not a Tessera trace"));
  }
  // An SQLite database of something else, and a Tessera profile.
  sql(dir / "other.db", "CREATE TABLE t (x); INSERT INTO t VALUES (1);");
  CHECK_THAT(errorOf<pva::InvalidReportError>(dir / "other.db"),
             Catch::Contains("other.db: not a Tessera trace"));
  sql(dir / "profile.pop", "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); "
                           "INSERT INTO meta VALUES ('format', 'tessera-profile');");
  CHECK_THAT(errorOf<pva::InvalidReportError>(dir / "profile.pop"), Catch::Contains("openReport"));
}

TEST_CASE("openTrace: another major format version is UnsupportedVersionError",
          "[pvti][reader][errors]") {
  test::ScratchDir dir;
  const fs::path p = goodTrace(dir);
  // Newer: another major version.
  sql(p, "UPDATE meta SET value = '3.0.0' WHERE key = 'format_version'");
  CHECK_THAT(errorOf<pva::UnsupportedVersionError>(p),
             Catch::Contains("good.pvti: trace format 3.0.0 is newer than this libpva reads "
                             "(format 2.x; it writes 2.0.0)"));
  // Older: 1.x traces stored a row per event, which this reader no longer reads.
  sql(p, "UPDATE meta SET value = '1.0.0' WHERE key = 'format_version'");
  CHECK_THAT(errorOf<pva::UnsupportedVersionError>(p),
             Catch::Contains("good.pvti: trace format 1.0.0 is older than this libpva reads "
                             "(format 2.x; it writes 2.0.0)"));
  sql(p, "UPDATE meta SET value = 'one' WHERE key = 'format_version'");
  CHECK_THAT(errorOf<pva::InvalidReportError>(p),
             Catch::Contains("format version 'one' is not major.minor.point"));
  sql(p, "UPDATE meta SET value = '2.0' WHERE key = 'format_version'");
  CHECK_THAT(errorOf<pva::InvalidReportError>(p),
             Catch::Contains("format version '2.0' is not major.minor.point"));
}

TEST_CASE("openTrace: a newer minor format version is read", "[pvti][reader][errors]") {
  // The one format-version rule (docs/formats.md): same major, read. 2.7.0 was refused before
  // it (a newer point version was read, a newer minor was not), unlike reports; now all agree.
  test::ScratchDir dir;
  const fs::path p = goodTrace(dir);
  auto countEvents = [](const pva::Trace& t) {
    std::size_t n = 0;
    for (const auto& process : t.processes())
      for (const auto& thread : process.threads())
        n += thread.numEvents();
    return n;
  };
  const std::size_t events = countEvents(pva::openTrace(p.string()));
  REQUIRE(events > 0);
  sql(p, "UPDATE meta SET value = '2.7.0' WHERE key = 'format_version'; CREATE TABLE added_later "
         "(x INTEGER)");
  const pva::Trace t = pva::openTrace(p.string());
  CHECK(t.formatVersion() == "2.7.0");
  CHECK(countEvents(t) == events);
}

TEST_CASE("openTrace: truncated traces are InvalidReportError", "[pvti][reader][errors]") {
  test::ScratchDir dir;
  const fs::path p = goodTrace(dir);
  const auto size = fs::file_size(p);
  for (auto keep : {std::uintmax_t{10}, std::uintmax_t{100}, std::uintmax_t{4096}, size / 3,
                    size / 2, size - 4096}) {
    INFO("kept " << keep << " of " << size << " bytes");
    const fs::path cut = dir / "cut.pvti";
    fs::copy_file(p, cut, fs::copy_options::overwrite_existing);
    fs::resize_file(cut, keep);
    const std::string message =
        test::messageOf<pva::Exception>([&] { pva::openTrace(cut.string()); });
    CHECK_THAT(message, Catch::Contains("cut.pvti"));
    // Says what is wrong with the file, not which query SQLite failed on.
    CHECK_THAT(message, !Catch::Contains("SELECT") && !Catch::Contains("cannot prepare"));
    if (keep >= 100) CHECK_THAT(message, Catch::Contains("truncated trace"));
  }
}

TEST_CASE("openTrace: corrupted traces are InvalidReportError, never a crash",
          "[pvti][reader][errors]") {
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
      for (int i = 0; i < 2048; ++i)
        f.put(static_cast<char>(rng()));
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

TEST_CASE("openTrace: rows that contradict each other are InvalidReportError",
          "[pvti][reader][errors]") {
  test::ScratchDir dir;
  const fs::path p = goodTrace(dir);
  SECTION("a block on an unknown thread") {
    sql(p, "UPDATE event_blocks SET thread = 77 WHERE id = 1");
    CHECK_THAT(errorOf<pva::InvalidReportError>(p), Catch::Contains("thread 77"));
  }
  SECTION("a record naming an unknown label") {
    // begin, channel 1, label 12345 (varint b9 60): a well-formed block with a bad id.
    sql(p, "UPDATE event_blocks SET records = x'000001b960', count = 1, last_ns = first_ns WHERE "
           "id = 1");
    CHECK_THAT(errorOf<pva::InvalidReportError>(p),
               Catch::Contains("event block 1 (thread") && Catch::Contains("label 12345"));
  }
  SECTION("a block that starts before its thread's previous block ends") {
    // A thread's records may all fit one block (a ring that fills spills; the first flush
    // takes everything since the start), so the trace is one whose thread sleeps between
    // spans, longer than the writer's interval: several blocks on that thread.
    test::ScratchDir clockDir;
    REQUIRE(test::runDriver({"clock"}, "{}", clockDir.path()).exitCode == 0);
    const fs::path multi = dir / "good.pvti";
    fs::copy_file(test::traceFiles(clockDir.path()).at(0), multi,
                  fs::copy_options::overwrite_existing);
    sql(multi, "UPDATE event_blocks SET first_ns = 0, last_ns = last_ns - first_ns "
               "WHERE id = (SELECT max(id) FROM event_blocks WHERE thread IN "
               "(SELECT thread FROM event_blocks GROUP BY thread HAVING count(*) > 1))");
    CHECK_THAT(errorOf<pva::InvalidReportError>(multi),
               Catch::Contains("before the end of the thread's previous block"));
  }
  SECTION("a table missing") {
    sql(p, "DROP TABLE heatmaps");
    CHECK_THAT(errorOf<pva::InvalidReportError>(p),
               Catch::Contains("truncated or corrupted") && Catch::Contains("heatmaps"));
  }
  SECTION("an undecodable heatmap sample") {
    sql(p, "INSERT INTO heatmaps VALUES (1, 'h', '', 'double', '[0,1]');"
           "INSERT INTO heatmap_samples VALUES (1, 0, x'ff');");
    CHECK_THAT(errorOf<pva::InvalidReportError>(p),
               Catch::Contains("heatmap 'h'") && Catch::Contains("truncated varint"));
  }
  SECTION("bad bin edges") {
    sql(p, "INSERT INTO heatmaps VALUES (1, 'h', '', 'double', 'edges');");
    CHECK_THAT(errorOf<pva::InvalidReportError>(p), Catch::Contains("not a JSON array"));
  }
}

TEST_CASE("openTrace: a corrupted event block is InvalidReportError naming the file and the block",
          "[pvti][reader][errors][block]") {
  test::ScratchDir dir;
  const fs::path p = goodTrace(dir);
  const fs::path bad = dir / "block.pvti";
  const std::int64_t last = blockCount(p);
  REQUIRE(last > 1);
  auto fresh = [&] { fs::copy_file(p, bad, fs::copy_options::overwrite_existing); };
  auto expect = [&](const std::string& problem) {
    CHECK_THAT(errorOf<pva::InvalidReportError>(bad),
               Catch::Contains("block.pvti: corrupted trace: event block ") &&
                   Catch::Contains(problem));
  };
  SECTION("truncated blobs") {
    fresh();
    editBlock(bad, last, [](std::string& b) { b.pop_back(); });
    expect("truncated record");
    fresh();
    editBlock(bad, last, [](std::string& b) { b.resize(3); });
    expect("cannot fit in 3 bytes");
    fresh();
    editBlock(bad, 1, [](std::string& b) { b.clear(); });
    expect("cannot fit in 0 bytes");
  }
  SECTION("columns that disagree with the blob") {
    fresh();
    sql(bad, "UPDATE event_blocks SET count = count + 1 WHERE id = 1");
    expect("the blob ends after");
    fresh();
    sql(bad, "UPDATE event_blocks SET count = count - 1 WHERE id = 1");
    expect("more records than its count");
    fresh();
    sql(bad, "UPDATE event_blocks SET count = 0 WHERE id = 1");
    expect("count 0");
    fresh();
    sql(bad, "UPDATE event_blocks SET last_ns = last_ns + 1 WHERE id = 1");
    expect("not at last_ns");
    fresh();
    sql(bad, "UPDATE event_blocks SET first_ns = -5 WHERE id = 1");
    expect("before the trace started");
  }
  SECTION("malformed records") {
    fresh();
    editBlock(bad, 1, [](std::string& b) { b[0] = '\xe0'; });
    expect("reserved bits set");
    fresh();
    editBlock(bad, 1, [](std::string& b) { b[0] = '\x0c'; });
    expect("first record of a block refers to a previous record");
    fresh();
    editBlock(bad, 1, [](std::string& b) { b.assign(b.size(), '\0'); });
    expect("refers to channel 0");
    fresh();
    editBlock(bad, 1, [](std::string& b) { b[0] = '\x03'; });
    expect("unknown record kind 3");
    fresh();
    editBlock(bad, 1,
              [](std::string& b) { b.replace(1, std::string::npos, b.size() - 1, '\xff'); });
    expect("varint longer than 64 bits");
  }
}

TEST_CASE(
    "openTrace: random damage inside event blocks is an error or a valid trace, never a crash",
    "[pvti][reader][errors][block]") {
  test::ScratchDir dir;
  const fs::path good = goodTrace(dir);
  const std::int64_t blocks = blockCount(good);
  std::mt19937 rng(11);
  int failures = 0;
  for (int round = 0; round < 60; ++round) {
    const fs::path p = dir / "fuzz.pvti";
    fs::copy_file(good, p, fs::copy_options::overwrite_existing);
    // A few random bytes of one block set to random values; SQLite's own pages stay sound, so
    // only the block decoder stands between the damage and the reader.
    const std::int64_t id =
        1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(blocks));
    editBlock(p, id, [&](std::string& b) {
      const int n = 1 + static_cast<int>(rng() % 4);
      for (int i = 0; i < n; ++i)
        b[rng() % b.size()] = static_cast<char>(rng());
      if (rng() % 4 == 0) b.resize(rng() % b.size()); // and sometimes cut short
    });
    try {
      const pva::Trace t = pva::openTrace(p.string());
      for (const auto& th : t.processes()[0].threads())
        th.numEvents(); // damage that still decodes: fine
    } catch (const pva::InvalidReportError& e) {
      ++failures;
      CHECK_THAT(e.what(), Catch::Contains("fuzz.pvti: corrupted trace: event block"));
    }
  }
  CHECK(failures > 0);
}

TEST_CASE("openTrace with progress: fractions rise to 1 and the trace equals a plain load",
          "[pvti][reader][progress]") {
  test::ScratchDir dir;
  const fs::path p = goodTrace(dir);
  std::vector<double> seen;
  const pva::Trace withProgress = pva::openTrace(p.string(), [&](double f) {
    seen.push_back(f);
    return true;
  });
  REQUIRE(seen.size() > 2);
  CHECK(seen.front() == 0.0);
  CHECK(seen.back() == 1.0);
  CHECK(std::is_sorted(seen.begin(), seen.end()));
  // One call per event block at least: the progress moves while the events load.
  CHECK(std::int64_t(seen.size()) >= blockCount(p));
  const pva::Trace plain = pva::openTrace(p.string());
  REQUIRE(withProgress.processes().size() == plain.processes().size());
  const auto& a = withProgress.processes()[0].threads();
  const auto& b = plain.processes()[0].threads();
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i)
    CHECK(a[i].numEvents() == b[i].numEvents());
}

TEST_CASE("openTrace with progress: returning false stops the load with CancelledError",
          "[pvti][reader][progress]") {
  test::ScratchDir dir;
  const fs::path p = goodTrace(dir);
  int calls = 0;
  const std::string message = test::messageOf<pva::CancelledError>(
      [&] { pva::openTrace(p.string(), [&](double f) { return ++calls < 3 && f < 1.0; }); });
  CHECK_THAT(message, Catch::Contains("good.pvti") && Catch::Contains("cancelled"));
  CHECK(calls == 3); // it stopped at the first "no"
  // CancelledError is a pva::Exception, so code that catches every libpva error sees it.
  CHECK_THROWS_AS(pva::openTrace(p.string(), [](double) { return false; }), pva::Exception);
}
