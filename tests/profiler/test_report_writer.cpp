// profile.pop writer, checked by reading the files back with the plain sqlite3 C API.
#include "common/Exceptions.hpp"
#include "common/RawDb.hpp"
#include "common/ScratchDir.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <limits>
#include <optional>
#include <profiler/Blob.hpp>
#include <profiler/ReportWriter.hpp>
#include <thread>

using namespace tessera::profiler;
namespace fs = std::filesystem;
using test::Value;

namespace {

Value integer(long long i) {
  Value v;
  v.type = Value::Integer;
  v.i = i;
  return v;
}
Value real(double r) {
  Value v;
  v.type = Value::Real;
  v.r = r;
  return v;
}
Value text(std::string s) {
  Value v;
  v.type = Value::Text;
  v.bytes = std::move(s);
  return v;
}
Value blobValue(std::string s) {
  Value v;
  v.type = Value::Blob;
  v.bytes = std::move(s);
  return v;
}
Value null() {
  return {};
}

std::vector<std::string> filesIn(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

fs::path partialOf(const fs::path& p) {
  return fs::path(p.string() + ".partial");
}

// One run row: (id, name, program_index, start, end, first_step, num_steps, cycles).
void addRun(ReportWriter& w, int id) {
  w.inserter<schema::Runs>().row(id, "run" + std::to_string(id), 0, 100 * id, 100 * id + 50,
                                 10 * id, 10, 999);
}

} // namespace

TEST_CASE("A new report has every table with exactly the descriptor's columns", "[writer]") {
  test::ScratchDir dir;
  const fs::path path = dir / "profile.pop";
  ReportWriter w(path);
  CHECK(w.path() == path);
  CHECK_FALSE(w.published());
  CHECK(fs::exists(partialOf(path)));
  CHECK_FALSE(fs::exists(path));
  w.publish();

  test::RawDb db(path);
  int tables = 0;
  schema::forEachTable([&](const auto& table) {
    ++tables;
    INFO("table " << table.name);
    // PRAGMA table_info: cid, name, type, notnull, dflt_value, pk
    const auto info = db.query("PRAGMA table_info(\"" + std::string(table.name) + "\")");
    REQUIRE(info.size() == table.columns.size());
    for (std::size_t i = 0; i < info.size(); ++i) {
      CHECK(info[i][1] == text(std::string(table.columns[i].name)));
      // The declared type is the descriptor's type up to its constraints.
      const std::string declared = std::string(table.columns[i].sqlType);
      CHECK(declared.rfind(info[i][2].bytes, 0) == 0);
      CHECK((declared.find("NOT NULL") != std::string::npos ||
             declared.find("PRIMARY KEY") != std::string::npos) ==
            (info[i][3].i == 1 || info[i][5].i > 0));
    }
  });
  CHECK(db.query("SELECT count(*) FROM sqlite_master WHERE type = 'table'")[0][0] ==
        integer(tables));
  for (const schema::Index& index : schema::kIndexes) {
    INFO("index " << index.name);
    const auto cols = db.query("PRAGMA index_info(\"" + std::string(index.name) + "\")");
    REQUIRE(cols.size() == 1);
    CHECK(cols[0][2] == text(std::string(index.column)));
  }
  const auto meta = db.query("SELECT value FROM meta WHERE key = 'format'");
  REQUIRE(meta.size() == 1);
  CHECK(meta[0][0] == text(std::string(schema::kProfileFormatName)));
  CHECK(db.query("SELECT value FROM meta WHERE key = 'format_version'")[0][0] ==
        text(schema::toString(schema::kProfileFormatVersion)));
  CHECK(db.query("PRAGMA page_size")[0][0] == integer(65536));
}

TEST_CASE("Rows are read back exactly as NULL INTEGER REAL TEXT or BLOB", "[writer]") {
  test::ScratchDir dir;
  const fs::path path = dir / "profile.pop";
  const std::string offsets = encodeTileValues({0, 1024, 4096});
  const std::string cycles = encodeTileValues({5, 0, 7});
  {
    ReportWriter w(path);
    w.begin();
    w.inserter<schema::TargetTable>().row("IPU_MODEL", "ipu2", 2u, 1472u, 638976u, 1.33e9, 1, 6, 4,
                                          8, 1.5, 0.25, 15, 150, 1000, std::uint64_t{262144},
                                          blob(offsets));
    auto programs = w.inserter<schema::Programs>();
    programs.row(0, schema::name(schema::ProgramType::Sequence), "main", nullptr, std::nullopt,
                 std::optional<std::string>(), std::optional<int>(3), 0, nullptr, nullptr, nullptr,
                 nullptr);
    programs.row(1, schema::name(schema::ProgramType::OnTileExecute), std::string("cs/add"),
                 std::optional<int>(7), 2, std::optional<std::string>("INTERNAL"), std::nullopt,
                 std::int64_t{-5}, blob(cycles), BlobRef{nullptr, 0}, blob(std::string()), nullptr);
    programs.row(2, "Sync", "", nullptr, nullptr, "GLOBAL", nullptr,
                 std::numeric_limits<std::int64_t>::max(), nullptr, nullptr, nullptr, nullptr);
    w.commit();
    w.publish();
  }
  test::RawDb db(path);
  const auto target = db.query("SELECT * FROM target");
  REQUIRE(target.size() == 1);
  const std::vector<Value> expectedTarget{
      text("IPU_MODEL"), text("ipu2"),      integer(2),  integer(1472), integer(638976),
      real(1.33e9),      integer(1),        integer(6),  integer(4),    integer(8),
      real(1.5),         real(0.25),        integer(15), integer(150),  integer(1000),
      integer(262144),   blobValue(offsets)};
  CHECK(target[0] == expectedTarget);

  const auto programs = db.query("SELECT * FROM programs ORDER BY id");
  REQUIRE(programs.size() == 3);
  CHECK(programs[0] == std::vector<Value>{integer(0), text("Sequence"), text("main"), null(),
                                          null(), null(), integer(3), integer(0), null(), null(),
                                          null(), null()});
  // Empty text and empty blobs stay empty values, not NULL.
  CHECK(programs[1] == std::vector<Value>{integer(1), text("OnTileExecute"), text("cs/add"),
                                          integer(7), integer(2), text("INTERNAL"), null(),
                                          integer(-5), blobValue(cycles), blobValue(""),
                                          blobValue(""), null()});
  CHECK(programs[2][2] == text(""));
  CHECK(programs[2][7] == integer(std::numeric_limits<std::int64_t>::max()));
  const auto stored = db.query("SELECT " + std::string(schema::Programs::controlCodeByTile.name) +
                               " FROM programs WHERE id = 1")[0][0]
                          .bytes;
  CHECK(decodeTileValues(stored.data(), stored.size()) == std::vector<std::uint64_t>{5, 0, 7});
}

// A row that does not fit its table does not compile (RowInserter::row static_asserts
// rowFits); these are the same checks, asked as values so that each rule is shown to bite.
// Before typed rows, a wrong count was a ReportError at run time and a value in the wrong
// column of a compatible type was not noticed at all.
TEST_CASE("Rows are checked against the schema at compile time", "[writer][errors]") {
  using tessera::profiler::rowFits;
  using Blob = tessera::profiler::BlobRef;
  // runs: id, name, program_index, microseconds_start, microseconds_end, first_step, num_steps,
  // cycles
  STATIC_REQUIRE(
      rowFits<schema::Runs, int, std::string, int, long, long, int, int, std::uint64_t>());
  STATIC_REQUIRE_FALSE(rowFits<schema::Runs, int, const char*>()); // too few
  STATIC_REQUIRE_FALSE(
      rowFits<schema::Runs, int, const char*, int, int, int, int, int, int, int>()); // too many
  STATIC_REQUIRE_FALSE(
      rowFits<schema::Runs, int, int, int, int, int, int, int, int>()); // a number as the name
  STATIC_REQUIRE_FALSE(rowFits<schema::Runs, int, std::string, std::string, int, int, int, int,
                               int>()); // text as a number
  STATIC_REQUIRE_FALSE(rowFits<schema::Runs, int, std::nullptr_t, int, int, int, int, int,
                               int>()); // NULL in NOT NULL
  STATIC_REQUIRE_FALSE(rowFits<schema::Runs, std::nullopt_t, std::string, int, int, int, int, int,
                               int>()); // NULL id
  // steps: id, run, program, cycles_by_tile (BLOB, nullable), ipus (BLOB NOT NULL)
  STATIC_REQUIRE(rowFits<schema::Steps, int, int, int, std::nullptr_t, Blob>());
  STATIC_REQUIRE(rowFits<schema::Steps, int, int, int, std::optional<Blob>, Blob>());
  STATIC_REQUIRE_FALSE(
      rowFits<schema::Steps, int, int, int, Blob, std::optional<Blob>>()); // maybe NULL in NOT NULL
  STATIC_REQUIRE_FALSE(
      rowFits<schema::Steps, int, int, int, Blob, std::string>()); // text as a blob
  // target: clock_frequency is REAL (an integer fits), type is TEXT (a double does not).
  STATIC_REQUIRE(
      rowFits<schema::TargetTable, const char*, const char*, unsigned, unsigned, unsigned, int, int,
              int, int, int, double, double, int, int, int, std::uint64_t, Blob>());
  STATIC_REQUIRE_FALSE(
      rowFits<schema::TargetTable, double, const char*, unsigned, unsigned, unsigned, int, int, int,
              int, int, double, double, int, int, int, std::uint64_t, Blob>());
  STATIC_REQUIRE_FALSE(
      rowFits<schema::GraphTable, double, int, int, int>()); // a double in an INTEGER column
}

TEST_CASE("A constraint violation throws naming the file and SQLite's reason", "[writer][errors]") {
  test::ScratchDir dir;
  ReportWriter w(dir / "profile.pop");
  addRun(w, 1);
  const std::string msg = test::messageOf<ReportError>([&] { addRun(w, 1); });
  CHECK_THAT(msg, Catch::Contains("profile.pop") &&
                      Catch::Contains("UNIQUE constraint failed: runs.id"));
  CHECK_THAT(test::messageOf<ReportError>([&] { w.commit(); }),
             Catch::Contains("no transaction is active"));
}

TEST_CASE("publish renames the partial file and replaces an existing report", "[writer]") {
  test::ScratchDir dir;
  const fs::path path = dir / "sub" / "dir" / "profile.pop"; // parent directories are created
  {
    ReportWriter w(path);
    addRun(w, 7);
    w.publish();
  }
  CHECK(test::RawDb(path).query("SELECT count(*) FROM runs")[0][0] == integer(1));
  {
    ReportWriter w(path);
    CHECK(fs::exists(path)); // the old report stays in place until the new one is published
    addRun(w, 1);
    addRun(w, 2);
    w.begin();
    addRun(w, 3);
    w.publish(); // commits the open transaction
    CHECK(w.published());
    CHECK(filesIn(path.parent_path()) == std::vector<std::string>{"profile.pop"});
  }
  CHECK(filesIn(path.parent_path()) == std::vector<std::string>{"profile.pop"});
  CHECK(test::RawDb(path).query("SELECT count(*) FROM runs")[0][0] == integer(3));
}

TEST_CASE("An unpublished writer leaves no file behind", "[writer]") {
  test::ScratchDir dir;
  const fs::path path = dir / "profile.pop";
  {
    ReportWriter w(path);
    w.begin();
    addRun(w, 1); // an open transaction too
  }
  CHECK(filesIn(dir.path()).empty());

  // A stale partial file from a crash is replaced.
  std::ofstream(partialOf(path)) << "garbage left by a crashed run";
  {
    ReportWriter w(path);
    addRun(w, 1);
    w.publish();
  }
  CHECK(filesIn(dir.path()) == std::vector<std::string>{"profile.pop"});
}

TEST_CASE("Runs appended after publish survive reopening but uncommitted ones do not", "[writer]") {
  test::ScratchDir dir;
  const fs::path path = dir / "profile.pop";
  {
    ReportWriter w(path);
    auto runs = w.inserter<schema::Runs>(); // prepared before publish, used after
    w.publish();
    w.begin();
    runs.row(1, "first", 0, 1, 2, 0, 10, 500);
    w.commit();
    w.begin();
    addRun(w, 2);
    w.rollback();
    w.setMeta(schema::meta::executionProfile, "true");
    w.begin();
    addRun(w, 3); // never committed: lost when the writer goes
  }
  CHECK(filesIn(dir.path()) == std::vector<std::string>{"profile.pop"});
  test::RawDb db(path);
  CHECK(db.query("SELECT id, name FROM runs") ==
        std::vector<std::vector<Value>>{{integer(1), text("first")}});
  CHECK(db.query("SELECT value FROM meta WHERE key = 'execution_profile'")[0][0] == text("true"));
}

TEST_CASE("A moved writer keeps writing and a stale inserter fails cleanly", "[writer][errors]") {
  test::ScratchDir dir;
  std::optional<ReportWriter::RowInserter<schema::Runs>> stale;
  {
    ReportWriter a(dir / "profile.pop");
    stale = a.inserter<schema::Runs>();
    ReportWriter b(std::move(a));
    addRun(b, 1);
    b.publish();
  }
  CHECK_THAT(test::messageOf<ReportError>([&] { stale->row(2, "late", 0, 0, 0, 0, 0, 0); }),
             Catch::Contains("runs") && Catch::Contains("destroyed"));
  CHECK(test::RawDb(dir / "profile.pop").query("SELECT count(*) FROM runs")[0][0] == integer(1));
}

TEST_CASE("An unwritable path gives a ReportError naming it", "[writer][errors]") {
  test::ScratchDir dir;
  std::ofstream(dir / "blocker") << "a regular file, not a directory";
  const fs::path path = dir / "blocker" / "profile.pop";
  CHECK_THAT(test::messageOf<ReportError>([&] { ReportWriter w(path); }),
             Catch::Contains(path.string()));
  const fs::path deeper = dir / "blocker" / "reports" / "profile.pop";
  CHECK_THAT(test::messageOf<ReportError>([&] { ReportWriter w(deeper); }),
             Catch::Contains(deeper.string()));
  // A directory where the partial file should go.
  fs::create_directories(dir / "taken.pop.partial" / "x");
  CHECK_THAT(test::messageOf<ReportError>([&] { ReportWriter w(dir / "taken.pop"); }),
             Catch::Contains((dir / "taken.pop").string()));
  CHECK_THROWS_AS(ReportWriter(""), ReportError);
}

namespace {
std::string fileBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Steps with blobs of varied sizes (more than one queue batch of rows and of bytes), commits every
// `batch` rows, meta, runs and a rollback in between, then publish: everything a writer does.
void writeSteps(const fs::path& path, bool background, std::size_t steps, std::size_t batch) {
  ReportWriter w(path);
  w.writeInBackground(background);
  auto rows = w.inserter<schema::Steps>();
  std::vector<std::uint64_t> cycles(1472);
  std::string cyclesBlob, ipusBlob;
  w.begin();
  for (std::size_t i = 0; i < steps; ++i) {
    for (std::size_t t = 0; t < cycles.size(); ++t)
      cycles[t] = (t * 7 + i * 13) % 11 < 3 ? 100 + (t * i) % 5000 : 0;
    encodeTileValues(cycles.data(), cycles.size(), cyclesBlob);
    StepIpu ipu;
    ipu.cycles = 1000 + i;
    ipu.activeTiles = static_cast<std::uint32_t>(i % 1472);
    encodeStepIpus(&ipu, 1, ipusBlob);
    if (i % 5 == 0)
      rows.row(i, i / 100, 3, nullptr, blob(ipusBlob));
    else
      rows.row(i, i / 100, 3, blob(cyclesBlob), blob(ipusBlob));
    if ((i + 1) % batch == 0) {
      w.commit();
      w.begin();
    }
  }
  w.commit();
  w.begin();
  addRun(w, 1);
  w.rollback();
  addRun(w, 2);
  w.setMeta(schema::meta::executionProfile, "true");
  w.publish();
  w.begin();
  addRun(w, 3); // appended after publish, in background too
  w.commit();
}
} // namespace

TEST_CASE("Writing in background makes the same file byte for byte", "[writer][background]") {
  test::ScratchDir dir;
  const std::size_t steps = 1500,
                    batch = 400; // 6 queue batches of 256 rows, about 0.5 MB of blobs each
  writeSteps(dir / "direct.pop", false, steps, batch);
  writeSteps(dir / "background.pop", true, steps, batch);
  const std::string direct = fileBytes(dir / "direct.pop"),
                    background = fileBytes(dir / "background.pop");
  REQUIRE(direct.size() > 1000000);
  CHECK(direct == background);
  test::RawDb db(dir / "background.pop");
  CHECK(db.query("SELECT count(*), count(cycles_by_tile), sum(id) FROM steps") ==
        std::vector<std::vector<Value>>{{integer(1500), integer(1200), integer(1500 * 1499 / 2)}});
  CHECK(db.query("SELECT id FROM runs ORDER BY id") ==
        std::vector<std::vector<Value>>{{integer(2)}, {integer(3)}});
}

TEST_CASE("A queued row's error is thrown by the next call that waits for the queue",
          "[writer][background][errors]") {
  test::ScratchDir dir;
  const fs::path path = dir / "profile.pop";
  ReportWriter w(path);
  w.writeInBackground(true);
  auto runs = w.inserter<schema::Runs>();
  w.begin();
  runs.row(1, "one", 0, 0, 0, 0, 0, 0);
  runs.row(1, "again", 0, 0, 0, 0, 0,
           0); // queued: its UNIQUE violation is found on the writer thread
  runs.row(2, "two", 0, 0, 0, 0, 0, 0); // dropped: it may depend on the failed row
  CHECK_THAT(test::messageOf<ReportError>([&] { w.flush(); }),
             Catch::Contains("profile.pop") &&
                 Catch::Contains("UNIQUE constraint failed: runs.id"));
  w.flush();  // the error was reported once
  w.commit(); // the transaction is still open and holds run 1
  addRun(w, 5);
  w.writeInBackground(false); // waits for run 5
  addRun(w, 6);
  w.publish();
  CHECK(test::RawDb(path).query("SELECT id FROM runs ORDER BY id") ==
        std::vector<std::vector<Value>>{{integer(1)}, {integer(5)}, {integer(6)}});
}

TEST_CASE("Once the writer thread has met an error, begin() and commit() throw it without waiting",
          "[writer][background][errors]") {
  test::ScratchDir dir;
  const fs::path path = dir / "profile.pop";
  ReportWriter w(path);
  w.writeInBackground(true);
  auto runs = w.inserter<schema::Runs>();
  w.begin();
  runs.row(1, "one", 0, 0, 0, 0, 0, 0);
  runs.row(1, "again", 0, 0, 0, 0, 0, 0);
  for (int i = 2; i < 300; ++i)
    runs.row(i, "dropped", 0, 0, 0, 0, 0, 0); // fill a queue batch: the writer thread gets it
  // commit() is queued (and dropped after the failed row) until the writer thread has got there;
  // from then on it throws. Bounded: the writer thread needs a millisecond for these rows.
  std::string message;
  for (int attempt = 0; attempt < 5000 && message.empty(); ++attempt) {
    try {
      w.commit();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    } catch (const ReportError& e) {
      message = e.what();
    }
  }
  CHECK_THAT(message, Catch::Contains("UNIQUE constraint failed: runs.id"));
  CHECK_THROWS_AS(w.begin(), ReportError); // still failed: nothing has waited for the queue yet
  CHECK_THROWS_AS(w.rollback(),
                  ReportError); // waits, reports the error a last time, rolls nothing back
  w.rollback();                 // the transaction held run 1: gone
  addRun(w, 7);
  w.publish();
  CHECK(test::RawDb(path).query("SELECT id FROM runs ORDER BY id") ==
        std::vector<std::vector<Value>>{{integer(7)}});
}

TEST_CASE("flush() makes what was committed in background visible to readers",
          "[writer][background]") {
  test::ScratchDir dir;
  const fs::path path = dir / "profile.pop";
  ReportWriter w(path);
  w.writeInBackground(true);
  w.publish();
  w.begin();
  for (int i = 1; i <= 300; ++i)
    addRun(w, i); // more than one queue batch
  w.commit();
  w.flush();
  CHECK(test::RawDb(path).query("SELECT count(*), sum(id) FROM runs") ==
        std::vector<std::vector<Value>>{{integer(300), integer(300 * 301 / 2)}});
}

TEST_CASE("Rows queued and never committed are lost like direct ones", "[writer][background]") {
  test::ScratchDir dir;
  const fs::path path = dir / "profile.pop";
  {
    ReportWriter w(path);
    w.writeInBackground(true);
    addRun(w, 1); // autocommit
    w.publish();
    w.begin();
    for (int i = 2; i < 600; ++i)
      addRun(w, i); // destroyed with rows queued: they are waited for, then rolled back
  }
  CHECK(test::RawDb(path).query("SELECT id FROM runs") ==
        std::vector<std::vector<Value>>{{integer(1)}});
}
