// Help, version and command-line errors: every subcommand documents itself with examples, and
// anything the parser rejects is bad input (status 2), never confused with "over threshold".
#include "CliTestUtil.hpp"

#include <catch2/catch.hpp>

using cli::contains;

TEST_CASE("version: names the tool and the report format it reads") {
  const auto r = cli::pva({"--version"});
  CHECK(r.status == 0);
  CHECK(contains(r.out, "pva (Tessera)"));
  CHECK(contains(r.out, "report format"));
}

TEST_CASE("help lists the subcommands with examples; each subcommand's --help has examples") {
  const auto r = cli::pva({"--help"});
  CHECK(r.status == 0);
  for (const char* sub : {"summary", "query", "compare", "trace"}) {
    CHECK(contains(r.out, sub));
    const auto s = cli::pva({sub, "--help"});
    INFO(sub << ": " << s.out);
    CHECK(s.status == 0);
    CHECK(contains(s.out, "examples:"));
    CHECK(contains(s.out, std::string("pva ") + sub));
  }
}

TEST_CASE("command-line errors exit 2 with a message on stderr") {
  SECTION("no subcommand") {
    const auto r = cli::pva({});
    CHECK(r.status == 2);
    CHECK_FALSE(r.err.empty());
  }
  SECTION("unknown subcommand") {
    CHECK(cli::pva({"frobnicate"}).status == 2);
  }
  SECTION("unknown option") {
    CHECK(cli::pva({"summary", cli::profile("base").string(), "--bogus"}).status == 2);
  }
  SECTION("missing argument") {
    CHECK(cli::pva({"compare", cli::profile("base").string()}).status == 2);
  }
  SECTION("bad WHAT") {
    const auto r = cli::pva({"query", cli::profile("base").string(), "everything"});
    CHECK(r.status == 2);
    CHECK(contains(r.err, "everything"));
  }
  SECTION("bad format") {
    CHECK(cli::pva({"query", cli::profile("base").string(), "tiles", "--format", "xml"}).status ==
          2);
  }
  SECTION("bad thresholds name the option") {
    for (const char* opt : {"--max-cycles-increase", "--max-memory-increase",
                            "--max-cycles-increase-abs", "--max-memory-increase-abs"}) {
      const auto r = cli::pva(
          {"compare", cli::profile("base").string(), cli::profile("base").string(), opt, "lots"});
      INFO(opt << ": " << r.err);
      CHECK(r.status == 2);
      CHECK(contains(r.err, opt));
      CHECK(contains(r.err, "lots"));
    }
    const auto r =
        cli::pva({"compare", cli::profile("base").string(), cli::profile("base").string(),
                  "--max-cycles-increase-abs", "10KiB"}); // cycles have no units
    CHECK(r.status == 2);
  }
}

TEST_CASE("progress: --progress puts progress on stderr and leaves stdout clean") {
  const auto r = cli::pva(
      {"--progress", "query", cli::profile("base").string(), "compute-sets", "--format", "json"});
  REQUIRE(r.status == 0);
  CHECK(contains(r.err, "reading 3,520 steps"));
  CHECK(contains(r.err, "100%"));
  r.json(); // stdout is still pure JSON
  // Not a terminal and no --progress: nothing on stderr.
  const auto quiet = cli::pva({"query", cli::profile("base").string(), "compute-sets"});
  CHECK(quiet.status == 0);
  CHECK(quiet.err.empty());
  // The global option may also follow the subcommand.
  CHECK(
      contains(cli::pva({"query", cli::profile("base").string(), "compute-sets", "--progress"}).err,
               "100%"));
}
