// Bad input never crashes: every broken file exits 2 with a message naming the file.
#include "CliTestUtil.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using cli::contains;

namespace {
void expectBadFile(const std::vector<std::string>& args, const std::string& file) {
  const auto r = cli::pva(args);
  INFO("pva " << args.front() << " on " << file << ": status " << r.status << ", stderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(contains(r.err, file));
  CHECK(r.err.rfind("pva: ", 0) == 0);
}
} // namespace

TEST_CASE("a missing report exits 2 naming it, in every subcommand") {
  const std::string missing = (std::filesystem::path(CLI_TMP_DIR) / "no-such-dir" / "profile.pop").string();
  const std::string base = cli::profile("base").string();
  expectBadFile({"summary", missing}, missing);
  expectBadFile({"query", missing, "tiles"}, missing);
  expectBadFile({"compare", missing, base}, missing);
  expectBadFile({"compare", base, missing}, missing);
  expectBadFile({"trace", missing}, missing);
}

TEST_CASE("files that are not reports exit 2 naming them") {
  const std::string base = cli::profile("base").string();
  for (const char* name : {"text.pop", "random.pop", "empty.pop", "cut.pop", "plain_sqlite.pop", "missing_tables.pop",
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
  expectBadFile({"compare", dir.path().string(), cli::profile("base").string()}, dir.path().string());
  const std::string base = cli::profile("base").string();
  expectBadFile({"trace", base}, base);
  const std::string otherDebug = (cli::reportDir("big") / "debug.cbor").string();
  expectBadFile({"summary", base, "--debug", otherDebug}, otherDebug);
}

TEST_CASE("a bad input leaves no output file behind") {
  test::ScratchDir dir;
  const auto out = dir / "gate.xml";
  const auto r = cli::pva({"compare", cli::profile("base").string(), cli::dataFile("text.pop").string(), "--format",
                           "junit", "--output", out.string()});
  CHECK(r.status == 2);
  CHECK_FALSE(std::filesystem::exists(out));
  const auto unwritable = cli::pva({"compare", cli::profile("base").string(), cli::profile("base").string(), "--output",
                                    (dir / "no" / "such" / "dir.xml").string()});
  CHECK(unwritable.status == 2);
  CHECK(contains(unwritable.err, "dir.xml"));
}
