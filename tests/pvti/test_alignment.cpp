// pva::alignTraces: two traces written by two processes of this host, one after the other, line
// up by their steady clocks (exactly); traces whose steady clocks disagree with their wall
// clocks (another host, another boot) or that lack one are placed by their wall clocks.
#include "DriverUtil.hpp"
#include "common/RawDb.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <pva/Trace.hpp>
#include <pva/TraceAlignment.hpp>
#include <thread>

namespace fs = std::filesystem;

namespace {

/// Two traces of the "basic" driver, the second started at least 30 ms after the first.
std::vector<fs::path> twoTraces(const test::ScratchDir& dir) {
  std::vector<fs::path> out;
  for (const char* name : {"a", "b"}) {
    const fs::path cwd = dir / name;
    fs::create_directories(cwd);
    const auto r = test::runDriver({"basic"}, std::string("{\"enable\":\"true\"}"), cwd);
    REQUIRE(r.exitCode == 0);
    out.push_back(test::traceFiles(cwd).at(0));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  return out;
}

std::vector<pva::Trace> open(const std::vector<fs::path>& paths) {
  std::vector<pva::Trace> traces;
  for (const auto& p : paths)
    traces.push_back(pva::openTrace(p.string()));
  return traces;
}

} // namespace

TEST_CASE("Traces of one host align by their steady clocks", "[pvti][alignment]") {
  test::ScratchDir dir;
  const auto traces = open(twoTraces(dir));
  REQUIRE(traces[0].startSteadyNs() > 0);
  const pva::TraceAlignment a = pva::alignTraces(traces);
  CHECK(a.clock == pva::TraceAlignment::Clock::Steady);
  REQUIRE(a.offsetNs.size() == 2);
  CHECK(a.offsetNs[0] == 0);
  // Exactly the steady clocks' difference, at least the pause between the two processes.
  CHECK(a.offsetNs[1] == std::int64_t(traces[1].startSteadyNs() - traces[0].startSteadyNs()));
  CHECK(a.offsetNs[1] >= 30'000'000);
  CHECK(a.originUnixUs == traces[0].startTimestamp());
  CHECK_THAT(a.description, Catch::Matchers::Contains("steady clocks"));
  // Given the other way round, the earlier trace is still the axis' 0.
  const pva::TraceAlignment b = pva::alignTraces({traces[1], traces[0]});
  CHECK(b.offsetNs == std::vector<std::int64_t>{a.offsetNs[1], 0});
}

TEST_CASE("Traces of different hosts align by their wall clocks", "[pvti][alignment]") {
  test::ScratchDir dir;
  const auto paths = twoTraces(dir);
  const auto wallOffset = [](const std::vector<pva::Trace>& t) {
    return std::int64_t(t[1].startTimestamp() - t[0].startTimestamp()) * 1000;
  };
  SECTION("a steady clock of another boot") {
    // The second trace's host booted an hour later: its steady clock reads an hour less.
    test::execSql(paths[1], "UPDATE meta SET value = CAST(CAST(value AS INTEGER) - 3600000000000 "
                            "AS TEXT) WHERE key = 'start_steady_ns';");
  }
  SECTION("no steady clock recorded") {
    test::execSql(paths[1], "DELETE FROM meta WHERE key = 'clock_source';");
  }
  const auto traces = open(paths);
  const pva::TraceAlignment a = pva::alignTraces(traces);
  CHECK(a.clock == pva::TraceAlignment::Clock::WallClock);
  CHECK(a.offsetNs == std::vector<std::int64_t>{0, wallOffset(traces)});
  CHECK_THAT(a.description, Catch::Matchers::Contains("wall clocks"));
}

TEST_CASE("alignTraces needs a trace", "[pvti][alignment]") {
  CHECK_THROWS_AS(pva::alignTraces({}), pva::InvalidArgumentError);
}
