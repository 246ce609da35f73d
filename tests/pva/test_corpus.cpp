// Broken files: every one gives a pva::Exception naming the file and the problem; none crashes
// or hangs. The corpus in tests/data (make_corpus.py) holds look-alikes; files derived from a
// real report (truncated, overwritten, with garbage blobs or missing rows) are made here.
#include "PvaTestUtil.hpp"
#include "common/RawDb.hpp"

#include <fstream>

namespace {

const std::string kData = TESSERA_TEST_DATA_DIR;

/// Reads everything a client could ask of a report, so that lazily found damage surfaces too.
void exerciseEverything(const pva::Report& r) {
  const auto c = r.compilation();
  c.target();
  c.graph();
  for (const auto& t : c.tiles()) {
    t.memory().total().includingGaps();
    t.memory().total().excludingGaps();
    t.memory().overflowed().includingGaps();
    t.memory().alwaysLiveBytes();
    t.memory().notAlwaysLiveBytes();
    t.memory().category();
    t.memory().vertices();
  }
  for (const auto& p : c.programs()) {
    p->children();
    p->controlCodeByTile();
    p->estimatedCyclesByTile();
    p->codeBytesByTile();
    p->vars();
    p->debugContext();
  }
  for (const auto& cs : c.computeSets()) {
    cs.estimatedCyclesByTile();
    for (const auto& v : cs.vertices())
      v.countByTile();
  }
  for (const auto& s : c.livenessProgramSteps()) {
    s.program();
    s.notAlwaysLiveMemory();
    s.notAlwaysLiveMemoryForTile(0);
    s.notAlwaysLiveMemoryForIpu(0);
  }
  c.alwaysLiveVariables();
  c.loweredVariables().allBriefVars();
  const auto e = r.execution();
  for (const auto& run : e.runs())
    run.tileCycleTotals();
  for (const auto& step : e.steps()) {
    step.program();
    step.ipus();
    step.cyclesByTile();
    step.computeSets();
  }
  e.blocks(0);
  if (r.hasDebugInfo()) pva::OperationAnalysis{r};
}

/// Opens and exercises `profile` (with `debug` when given); returns the error message.
template <class E = pva::Exception>
std::string failure(const std::string& profile, const std::string& debug = {}) {
  return test::messageOf<E>([&] {
    const pva::Report r =
        debug.empty() ? pva::openReport(profile) : pva::openReport(profile, debug);
    exerciseEverything(r);
  });
}

void sql(const std::filesystem::path& file, const std::string& statement) {
  test::execSql(file, statement);
}

/// A copy of a real report to damage.
std::filesystem::path copyOf(const test::RemoteSumReport& r, const test::ScratchDir& dir,
                             const std::string& name) {
  const auto to = dir / name;
  std::filesystem::copy_file(r.dir / "profile.pop", to);
  return to;
}

} // namespace

TEST_CASE("Files that are not reports", "[pva][corpus]") {
  struct Case {
    const char* file;
    const char* says;
  };
  for (const Case& c :
       {Case{"empty.pop", "empty file"}, Case{"text.pop", "not an SQLite database"},
        Case{"random.pop", "not an SQLite database"},
        Case{"sqlite_magic_only.pop", "not an SQLite database"},
        Case{"plain_sqlite.pop", "no meta table"},
        Case{"wrong_format.pop", "not a Tessera profile report"},
        Case{"bad_version.pop", "format version 'one.two'"},
        Case{"missing_tables.pop", "missing table"}, Case{"cut.pop", "truncated"}}) {
    INFO(c.file);
    const std::string path = kData + "/" + c.file;
    const std::string msg = failure<pva::InvalidReportError>(path);
    CHECK_THAT(msg, Catch::Contains(path));
    CHECK_THAT(msg, Catch::Contains(c.says));
  }
}

TEST_CASE("Reports of another major format version are refused, naming both versions",
          "[pva][corpus]") {
  const std::string newer = failure<pva::UnsupportedVersionError>(kData + "/newer_major.pop");
  CHECK_THAT(newer,
             Catch::StartsWith(
                 kData + "/newer_major.pop: report format 2.0.0 is newer than this libpva reads "
                         "(format 1.x; it writes 1.7.0); update Tessera to read it"));
  const std::string older = failure<pva::UnsupportedVersionError>(kData + "/older_major.pop");
  CHECK_THAT(older,
             Catch::StartsWith(
                 kData + "/older_major.pop: report format 0.9.0 is older than this libpva reads "
                         "(format 1.x; it writes 1.7.0)"));
}

TEST_CASE("A report of a newer minor format version is read, ignoring what it adds",
          "[pva][corpus]") {
  // The one format-version rule (docs/formats.md, "Format versions"): the same major version is
  // read. Before it, a newer minor report was refused while a newer minor trace was read.
  // newer_minor.pop is only a meta table saying 1.9.0: it now passes the version check and fails
  // as the stub it is (no tables), not as a version.
  CHECK_THAT(failure<pva::InvalidReportError>(kData + "/newer_minor.pop"),
             Catch::Contains("missing table"));
  // A real report made "1.9.0", with a table and a column this reader does not know, reads as
  // before.
  test::RemoteSumReport r;
  const auto copy = r.dir / "newer.pop";
  std::filesystem::copy_file(r.dir / "profile.pop", copy);
  sql(copy, "UPDATE meta SET value = '1.9.0' WHERE key = 'format_version';"
            "CREATE TABLE added_later (x INTEGER); ALTER TABLE target ADD COLUMN added_later TEXT;"
            "INSERT INTO meta VALUES ('added_later', 'x')");
  const pva::Report newer = pva::openReport(copy.string());
  CHECK(newer.version().string() == "1.9.0");
  CHECK(newer.compilation().target().numTiles() == r.report.compilation().target().numTiles());
  CHECK(newer.compilation().programs().size() == r.report.compilation().programs().size());
}

TEST_CASE("Missing files and directories", "[pva][corpus]") {
  CHECK_THAT(failure<pva::FileNotFoundError>("/nonexistent/profile.pop"),
             Catch::Contains("/nonexistent/profile.pop: no such file"));
  CHECK_THAT(failure<pva::FileNotFoundError>(kData), Catch::Contains("is a directory"));
}

TEST_CASE("Broken debug information", "[pva][corpus]") {
  test::RemoteSumReport r;
  const std::string profile = (r.dir / "profile.pop").string();
  struct Case {
    const char* file;
    const char* says;
  };
  for (const Case& c :
       {Case{"empty.cbor", "empty file"}, Case{"random.cbor", "debug information"},
        Case{"json.cbor", "not Tessera debug information"},
        Case{"wrong_format.cbor", "not Tessera debug information"},
        Case{"truncated.cbor", "truncated"}, Case{"bad_parent.cbor", "parent 5 after it"}}) {
    INFO(c.file);
    const std::string path = kData + "/" + c.file;
    const std::string msg = failure<pva::InvalidReportError>(profile, path);
    CHECK_THAT(msg, Catch::Contains(path));
    CHECK_THAT(msg, Catch::Contains(c.says));
  }
  CHECK_THAT(failure<pva::UnsupportedVersionError>(profile, kData + "/newer.cbor"),
             Catch::Contains("newer.cbor: debug information format 2.0.0 is newer than this libpva "
                             "reads (format 1.x; it writes 1.0.0)"));
  // A newer minor version is read, its unknown keys ignored, up to the last check: its report id
  // is not this report's (before the one format-version rule it was refused as a version).
  CHECK_THAT(test::messageOf<pva::DebugInfoMismatchError>(
                 [&] { pva::openReport(profile, kData + "/newer_minor.cbor"); }),
             Catch::Contains("debug information of another report"));
}

TEST_CASE("Damaged copies of a real report", "[pva][corpus]") {
  test::RemoteSumReport r(2);
  test::ScratchDir dir;
  {
    const auto file = copyOf(r, dir, "truncated.pop");
    std::filesystem::resize_file(file, std::filesystem::file_size(file) / 2);
    CHECK_THAT(failure<pva::InvalidReportError>(file.string()),
               Catch::Contains("truncated report"));
  }
  {
    const auto file = copyOf(r, dir, "garbage_blob.pop");
    sql(file, "UPDATE programs SET estimated_cycles_by_tile = x'0102030405060708090a0b0c' WHERE "
              "estimated_cycles_by_tile IS NOT NULL");
    const std::string msg = failure<pva::InvalidReportError>(file.string());
    CHECK_THAT(msg, Catch::Contains(file.string()));
    CHECK_THAT(msg, Catch::Contains("corrupted"));
  }
  {
    const auto file = copyOf(r, dir, "garbage_step.pop");
    sql(file, "UPDATE steps SET ipus = x'ffffffffffffffffffff' WHERE id = 4");
    CHECK_THAT(failure<pva::InvalidReportError>(file.string()),
               Catch::Contains("corrupted step 4"));
  }
  {
    const auto file = copyOf(r, dir, "missing_steps.pop");
    sql(file, "DELETE FROM steps WHERE id = 3");
    CHECK_THAT(failure<pva::InvalidReportError>(file.string()), Catch::Contains("are missing"));
  }
  {
    const auto file = copyOf(r, dir, "bad_tree.pop");
    sql(file, "UPDATE program_children SET child = 999 WHERE position = 0");
    CHECK_THAT(failure<pva::InvalidReportError>(file.string()),
               Catch::Contains("program tree refers to program 999"));
  }
  {
    const auto file = copyOf(r, dir, "bad_type.pop");
    sql(file, "UPDATE programs SET type = 'Teleport' WHERE id = 0");
    CHECK_THAT(failure<pva::InvalidReportError>(file.string()),
               Catch::Contains("unknown program type 'Teleport'"));
  }
  {
    const auto file = copyOf(r, dir, "missing_tiles.pop");
    sql(file, "DELETE FROM tile_memory WHERE tile = 3");
    CHECK_THAT(failure<pva::InvalidReportError>(file.string()),
               Catch::Contains("3 tiles of memory for a replica of 4"));
  }
  {
    const auto file = copyOf(r, dir, "impossible_target.pop");
    sql(file, "UPDATE target SET num_replicas = 0");
    CHECK_THAT(failure<pva::InvalidReportError>(file.string()),
               Catch::Contains("impossible target"));
  }
}

TEST_CASE("Overwritten pages never crash the reader", "[pva][corpus]") {
  test::RemoteSumReport r(3);
  test::ScratchDir dir;
  const auto size = std::filesystem::file_size(r.dir / "profile.pop");
  // Overwrite 4 KiB with 0xff at several places; whatever the damage hits, the reader either
  // reads the report or says it is corrupted, naming the file.
  for (int k = 1; k < 8; ++k) {
    const auto file = copyOf(r, dir, "overwritten" + std::to_string(k) + ".pop");
    {
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(std::streamoff(size * k / 8));
      const std::string junk(4096, '\xff');
      f.write(junk.data(), std::streamsize(junk.size()));
    }
    INFO("overwritten at " << size * k / 8);
    try {
      exerciseEverything(pva::openReport(file.string()));
    } catch (const pva::Exception& e) {
      CHECK_THAT(std::string(e.what()), Catch::Contains(file.string()));
    }
  }
}
