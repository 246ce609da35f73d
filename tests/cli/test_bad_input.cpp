// Bad input never crashes: every broken file exits 2 with a message naming the file.
#include "CliTestUtil.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using cli::contains;

namespace {
void expectBadFile(const std::vector<std::string>& args, const std::string& file) {
  const auto r = cli::pva(args);
  INFO("pva " << args.front() << " on " << file << ": status " << r.status
              << ", stderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(contains(r.err, file));
  CHECK(r.err.rfind("pva: ", 0) == 0);
}
} // namespace

TEST_CASE("a missing report exits 2 naming it, in every subcommand") {
  const std::string missing =
      (std::filesystem::path(CLI_TMP_DIR) / "no-such-dir" / "profile.pop").string();
  const std::string base = cli::profile("base").string();
  expectBadFile({"summary", missing}, missing);
  expectBadFile({"query", missing, "tiles"}, missing);
  expectBadFile({"compare", missing, base}, missing);
  expectBadFile({"compare", base, missing}, missing);
  expectBadFile({"trace", missing}, missing);
}

TEST_CASE("files that are not reports exit 2 naming them") {
  const std::string base = cli::profile("base").string();
  for (const char* name :
       {"text.pop", "random.pop", "empty.pop", "cut.pop", "plain_sqlite.pop", "missing_tables.pop",
        "newer_major.pop", "wrong_format.pop", "sqlite_magic_only.pop"}) {
    const std::string file = cli::dataFile(name).string();
    expectBadFile({"summary", file}, file);
    expectBadFile({"compare", base, file, "--format", "junit"}, file);
    expectBadFile({"query", file, "compute-sets"}, file);
  }
}

TEST_CASE("a directory without a report, a report as a trace, a bad debug file") {
  test::ScratchDir dir;
  expectBadFile({"summary", dir.path().string()}, dir.path().string());
  expectBadFile({"compare", dir.path().string(), cli::profile("base").string()},
                dir.path().string());
  const std::string base = cli::profile("base").string();
  expectBadFile({"trace", base}, base);
  const std::string otherDebug = (cli::reportDir("big") / "debug.cbor").string();
  expectBadFile({"summary", base, "--debug", otherDebug}, otherDebug);
}

TEST_CASE("a bad input leaves no output file behind") {
  test::ScratchDir dir;
  const auto out = dir / "gate.xml";
  const auto r =
      cli::pva({"compare", cli::profile("base").string(), cli::dataFile("text.pop").string(),
                "--format", "junit", "--output", out.string()});
  CHECK(r.status == 2);
  CHECK_FALSE(std::filesystem::exists(out));
  const auto unwritable =
      cli::pva({"compare", cli::profile("base").string(), cli::profile("base").string(), "--output",
                (dir / "no" / "such" / "dir.xml").string()});
  CHECK(unwritable.status == 2);
  CHECK(contains(unwritable.err, "dir.xml"));
}

TEST_CASE("a FIFO given as a report or a trace exits 2 at once instead of waiting for a writer") {
  const auto fifo =
      std::filesystem::path(CLI_TMP_DIR) / ("fifo-" + std::to_string(::getpid()) + ".pvti");
  std::filesystem::create_directories(fifo.parent_path());
  std::filesystem::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  for (const std::vector<std::string>& args : {std::vector<std::string>{"summary", fifo.string()},
                                               std::vector<std::string>{"trace", fifo.string()}}) {
    const auto r = cli::pva(args); // before the fix: never returned (CTest's timeout)
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(contains(r.err, fifo.string() + ": is a FIFO (named pipe)"));
  }
  std::filesystem::remove(fifo);
}

TEST_CASE(
    "the debug.cbor files fuzzing found exit 2 with a message, not 134 (abort) or an OOM kill") {
  const std::string base = cli::profile("base").string();
  for (const char* name :
       {"fuzz/debug-abort-libcbor-assert-float-parent.cbor", "fuzz/debug-oom-cbor-huge-array.cbor",
        "fuzz/debug-oom-cbor-huge-array-contexts.cbor", "fuzz/debug-oom-cbor-huge-map.cbor"}) {
    const std::string file = cli::dataFile(name).string();
    expectBadFile({"summary", base, "--debug", file}, file);
  }
}

TEST_CASE("escape codes in a file name are printed escaped, never sent to the terminal") {
  const std::string name = std::string(CLI_TMP_DIR) + "/evil\x1b[2J\x07.pop";
  const auto r = cli::pva({"summary", name});
  CHECK(r.status == 2);
  CHECK(r.err.find('\x1b') == std::string::npos);
  CHECK(r.err.find('\x07') == std::string::npos);
  CHECK(contains(r.err, "evil\\x1b[2J\\x07.pop"));
}

TEST_CASE("a path too long for the system says so, not 'no such file'") {
  const std::string longPath = std::string(CLI_TMP_DIR) + "/" + std::string(5000, 'a') + ".pop";
  for (const char* command : {"summary", "trace"}) {
    const auto r = cli::pva({command, longPath});
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(contains(r.err, "File name too long"));
    CHECK(!contains(r.err, "no such"));
  }
}

TEST_CASE("compare on a step naming an IPU the target lacks exits 2 naming the file and the IPU, "
          "in bounded memory") {
  // Before the fix analyseExecution grew a per-IPU vector to IPU 4,294,967,295: the process
  // took the machine's memory, then died with std::bad_alloc.
  const std::string base = cli::dataFile("fuzz/report-base-of-hostile-steps.pop").string();
  const std::string file = cli::dataFile("fuzz/report-oom-step-ipu-number.pop").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"compare", base, file},
        std::vector<std::string>{"compare", file, base},
        std::vector<std::string>{"query", file, "compute-sets"}}) {
    const auto r = cli::pva(args);
    INFO("pva " << args[0] << ": status " << r.status << ", stderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(contains(
        r.err,
        "pva: " + file +
            ": corrupted step 0: it names IPU 4294967295, but the target has 2 IPUs per replica"));
  }
  // Peak memory of the children (each test case runs in a process of its own): the fixed tool
  // reads the 64 KiB file in a few MiB (more under the sanitizers' shadow memory).
  struct rusage usage {};
  REQUIRE(::getrusage(RUSAGE_CHILDREN, &usage) == 0);
  const long maxKiB = TESSERA_SANITIZED ? 400 * 1024 : 100 * 1024;
  INFO("peak RSS of pva: " << usage.ru_maxrss << " KiB");
  CHECK(usage.ru_maxrss < maxKiB);
}

TEST_CASE("trace --export-chrome and trace --json replace invalid UTF-8, so every output parses") {
  test::ScratchDir dir;
  const std::string trace = cli::dataFile("fuzz/trace-chrome-invalid-utf8-label.pvti").string();
  const auto out = dir / "chrome.json";
  const auto r = cli::pva({"trace", trace, "--export-chrome", out.string()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const std::string json = cli::readFile(out);
  CHECK(json.find('\xff') == std::string::npos);
  CHECK_NOTHROW(nlohmann::json::parse(json));
  CHECK(contains(json, "ok-\xef\xbf\xbd-end"));
  const auto summary = cli::pva({"trace", trace, "--json"});
  REQUIRE(summary.status == 0);
  CHECK_NOTHROW(nlohmann::json::parse(summary.out));
}
