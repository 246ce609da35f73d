// The tracer under pressure: read while it writes, and a disk that fills up.
#include "DriverUtil.hpp"
#include "Scenario.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <pva/Trace.hpp>
#include <set>

namespace {

/// Checks every event of a trace read while it was being written: complete groups of one
/// "outer" holding kLoadGroup-1 "inner" (a torn event would be a wrong label, an inner outside
/// its outer, or an end before its begin). The last group of a thread may still be open, and
/// its inner events may not all be flushed yet. Returns the number of events; `bad` counts
/// those that break the rules (one assertion per read, not per event: reads hold 10^5 events).
std::size_t checkSnapshot(const pva::Trace& trace, std::size_t& bad) {
  std::size_t events = 0;
  for (const auto& t : trace.processes()[0].threads()) {
    const auto top = t.events();
    for (std::size_t i = 0; i < top.size(); ++i) {
      const pva::Event& e = top[i];
      const bool last = i + 1 == top.size();
      const auto children = e.children();
      bool ok = e.label() == "outer" && (e.finished() || last) &&
                (last || children.size() == scenario::kLoadGroup - 1);
      std::int64_t at = e.beginNs();
      for (const auto& c : children) {
        ok = ok && c.label() == "inner" && c.beginNs() >= at && (c.finished() || last) &&
             (!c.finished() || c.endNs() >= c.beginNs()) &&
             (!e.finished() || c.endNs() <= e.endNs());
        at = c.endNs();
      }
      bad += ok ? 0 : 1;
    }
    bad += t.instantEvents().size(); // an end without its begin
    events += t.numEvents();
  }
  return events;
}

} // namespace

TEST_CASE(
    "Soak: a reader re-opens a trace 8 threads are writing, never failing or seeing a torn event",
    "[pvti][soak]") {
  test::ScratchDir dir;
  test::DriverProcess writer({"soak", "8"}, "{}", dir.path());
  REQUIRE(writer.readLine() == "ready");
  const auto files = test::traceFiles(dir.path());
  REQUIRE(files.size() == 1);
  std::size_t previous = 0, grew = 0;
  constexpr int kReads = 60;
  for (int i = 0; i < kReads; ++i) {
    const pva::Trace trace =
        pva::openTrace(files[0].string()); // throws, failing the test, on any error
    REQUIRE(trace.processes()[0].threads().size() == 8);
    std::size_t bad = 0;
    const std::size_t events = checkSnapshot(trace, bad);
    REQUIRE(bad == 0);
    REQUIRE(events >= previous); // committed events never disappear
    grew += events > previous ? 1 : 0;
    previous = events;
  }
  CHECK(grew > 1); // the reads did overlap the writing
  { std::ofstream(dir / "stop") << "stop"; }
  CHECK(writer.wait() == 0);
  // After a clean finish every event is there and whole.
  std::size_t bad = 0;
  CHECK(checkSnapshot(pva::openTrace(files[0].string()), bad) ==
        std::size_t(8) * scenario::kSoakGroups * scenario::kLoadGroup);
  CHECK(bad == 0);
}

TEST_CASE(
    "Disk full: tracing stops with a message, the program runs on, the file holds what was flushed",
    "[pvti][diskfull]") {
  test::ScratchDir dir;
  // 512 KiB: the first rounds fit, the rest of the ~2 MB of labels do not.
  const auto r = test::runDriver({"diskfull", std::to_string(512 * 1024)}, "{}", dir.path());
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const int total = scenario::kDiskFullRounds * scenario::kDiskFullEventsPerRound;
  CHECK(r.out == "still running after " + std::to_string(total) + " events\n");
  CHECK_THAT(r.err, Catch::Contains("pvti: warning: cannot write the trace, tracing stops:"));
  CHECK_THAT(
      r.err,
      Catch::Contains(
          "the disk is full or the file is over its size limit")); // not only "disk I/O error"
  const auto files = test::traceFiles(dir.path());
  REQUIRE(files.size() == 1);
  const pva::Trace trace = pva::openTrace(files[0].string());
  const auto& threads = trace.processes()[0].threads();
  REQUIRE(threads.size() == 1);
  const auto events = threads[0].events();
  // Everything flushed before the failure, in order and without a gap: e0, e1, ... e(n-1).
  REQUIRE(!events.empty());
  CHECK(events.size() < static_cast<std::size_t>(total));
  for (std::size_t i = 0; i < events.size(); ++i) {
    INFO(i);
    REQUIRE(events[i].label() == "e" + std::to_string(i));
    REQUIRE(events[i].finished());
  }
}
