// pva summary: the totals agree with libpva's own values on a real MLP report.
#include "CliTestUtil.hpp"

#include <catch2/catch.hpp>
#include <pva/pva.hpp>

using cli::contains;

TEST_CASE("summary --json has the report's totals") {
  const auto r = cli::pva({"summary", cli::profile("base").string(), "--json"});
  REQUIRE(r.status == 0);
  const auto j = r.json();

  const pva::Report report = pva::openReport(cli::profile("base").string());
  const auto c = report.compilation();
  std::uint64_t incl = 0, excl = 0, alwaysLive = 0, maxTile = 0;
  unsigned maxTileNumber = 0;
  for (const pva::Tile& t : c.tiles()) {
    incl += t.memory().total().includingGaps();
    excl += t.memory().total().excludingGaps();
    alwaysLive += t.memory().alwaysLiveBytes();
    if (t.memory().total().includingGaps() > maxTile) {
      maxTile = t.memory().total().includingGaps();
      maxTileNumber = t.number();
    }
  }
  std::uint64_t peak = 0, peakStep = 0;
  for (const auto& s : c.livenessProgramSteps())
    if (s.notAlwaysLiveBytes() > peak) {
      peak = s.notAlwaysLiveBytes();
      peakStep = s.index();
    }

  CHECK(j["target"]["numTiles"] == 1472);
  CHECK(j["target"]["numIPUs"] == 1);
  CHECK(j["graph"]["numComputeSets"] == c.graph().numComputeSets());
  CHECK(j["graph"]["numPrograms"] == c.programs().size());
  CHECK(j["memory"]["totalIncludingGaps"] == incl);
  CHECK(j["memory"]["totalExcludingGaps"] == excl);
  CHECK(j["memory"]["alwaysLive"] == alwaysLive);
  CHECK(j["memory"]["maxTile"]["includingGaps"] == maxTile);
  CHECK(j["memory"]["maxTile"]["tile"] == maxTileNumber);
  CHECK(j["memory"]["peakLiveness"]["bytes"] == alwaysLive + peak);
  CHECK(j["memory"]["peakLiveness"]["step"] == peakStep);
  CHECK(j["memory"]["peakLiveness"]["program"].is_string());
  CHECK(j["report"]["outOfMemory"] == false);
  std::uint64_t categories = 0;
  for (const auto& [name, bytes] : j["memory"]["categories"].items())
    categories += bytes.get<std::uint64_t>();
  CHECK(categories > 0);
  CHECK(j["memory"]["categories"].size() == pva::MemoryCategories::size());

  // --steps 32 --steps-per-run 16: two runs of the same program.
  const auto e = report.execution();
  CHECK(j["execution"]["numRuns"] == 2);
  CHECK(j["execution"]["totalCycles"] == e.totalCycles().total());
  CHECK(j["execution"]["numSteps"] == e.steps().size());
  std::uint64_t runCycles = 0;
  for (const auto& run : j["execution"]["runs"])
    runCycles += run["cycles"].get<std::uint64_t>();
  CHECK(runCycles == e.totalCycles().total());
  CHECK(j["execution"]["tileCyclesByKind"]["compute"] ==
        e.tileCycleTotals().total(pva::TileCycleTotals::Kind::Compute));
  // Stream copies by destination: libpva's split; the MLP streams from and to the host only.
  const pva::StreamCopyCycles sc = pva::analyseExecution(report).allRuns.streamCopyCycles;
  const auto& d = j["execution"]["streamCopyCyclesByDestination"];
  CHECK(sc.host > 0);
  CHECK(d["host"] == sc.host);
  CHECK(d["remoteBuffer"] == sc.remoteBuffer);
  CHECK(d["mixed"] == 0);
  CHECK(d["unknown"] == 0);
  CHECK(d["total"] == sc.total());
}

TEST_CASE("summary takes the report's directory and finds debug.cbor beside it") {
  const auto byDir = cli::pva({"summary", cli::reportDir("base").string(), "--json"});
  REQUIRE(byDir.status == 0);
  const auto j = byDir.json();
  CHECK(j["report"]["profile"] == cli::profile("base").string());
  CHECK(j["report"]["debug"] == (cli::reportDir("base") / "debug.cbor").string());
  const auto byFile = cli::pva({"summary", cli::profile("base").string(), "--json"}).json();
  CHECK(byFile["memory"] == j["memory"]);

  // A directory above it with exactly one report in a sub-directory is fine too (an engine
  // given a DebugContext name writes into one).
  test::ScratchDir dir;
  std::filesystem::create_directories(dir / "model");
  std::filesystem::copy_file(cli::profile("base"), dir / "model" / "profile.pop");
  const auto nested = cli::pva({"summary", dir.path().string(), "--json"});
  CHECK(nested.status == 0);
  CHECK(nested.json()["report"]["debug"].is_null());
}

TEST_CASE("summary text names the figures") {
  const auto r = cli::pva({"summary", cli::reportDir("base").string()});
  REQUIRE(r.status == 0);
  for (const char* s :
       {"Target", "1472 tiles", "total including gaps", "largest tile", "always live",
        "peak liveness", "by category", "runs 2", "train0", "tile cycles by kind", "compute",
        "stream-copy steps by destination", "host", "remoteBuffer"})
    CHECK(contains(r.out, s));
}

TEST_CASE("summary skips an unusable debug.cbor found beside the profile, with a warning") {
  test::ScratchDir dir;
  std::filesystem::copy_file(cli::profile("base"), dir / "profile.pop");
  std::filesystem::copy_file(cli::reportDir("big") / "debug.cbor",
                             dir / "debug.cbor"); // another report's
  const auto r = cli::pva({"summary", dir.path().string(), "--json"});
  CHECK(r.status == 0);
  CHECK(contains(r.err, "warning"));
  CHECK(contains(r.err, (dir / "debug.cbor").string()));
  CHECK(r.json()["report"]["debug"].is_null());
  // Named with --debug, the same file is an error (test_bad_input.cpp).
}
