// The tracer under pressure: read while it writes, and a disk that fills up.
#include "DriverUtil.hpp"
#include "Scenario.hpp"
#include "common/RawDb.hpp"
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

namespace {

/// A burst trace's events: every "b" span in order, whole, and the writer-wait spans (on the
/// "pvti" channel, top level or inside the span whose record waited).
struct BurstEvents {
  std::size_t spans = 0, waits = 0, bad = 0;
  std::int64_t waitedNs = 0;
};

BurstEvents readBurst(const std::filesystem::path& file) {
  const pva::Trace trace = pva::openTrace(file.string());
  BurstEvents r;
  const auto& threads = trace.processes()[0].threads();
  REQUIRE(threads.size() == 1);
  auto wait = [&r](const pva::Event& e) {
    ++r.waits;
    r.waitedNs += e.endNs() - e.beginNs();
    r.bad += e.channel() == "pvti" && e.finished() && e.endNs() >= e.beginNs() ? 0 : 1;
  };
  std::int64_t at = 0;
  for (const auto& e : threads[0].events()) {
    if (e.label() == "pvti: waiting for the writer") {
      wait(e);
      continue;
    }
    ++r.spans;
    r.bad += e.label() == "b" && e.finished() && e.beginNs() >= at ? 0 : 1;
    at = e.endNs();
    for (const auto& c : e.children()) {
      if (c.label() == "pvti: waiting for the writer")
        wait(c);
      else
        ++r.bad;
    }
  }
  r.bad += threads[0].instantEvents().size(); // an end without its begin
  return r;
}

/// Runs `pvti_driver burst <spans>` with a writer that pauses `delayMs` before each flush.
std::filesystem::path runBurst(const test::ScratchDir& dir, long spans, int delayMs) {
  setenv("TESSERA_PVTI_WRITER_DELAY_MS", std::to_string(delayMs).c_str(), 1);
  const auto r = test::runDriver({"burst", std::to_string(spans)}, "{}", dir.path());
  unsetenv("TESSERA_PVTI_WRITER_DELAY_MS");
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const auto files = test::traceFiles(dir.path());
  REQUIRE(files.size() == 1);
  return files[0];
}

} // namespace

// Issue 38: a thread whose writer is away (a busy machine) spills its full ring and goes on.
// 400,000 spans are 800,000 records, 25 rings: within the 128 a thread may spill; the writer
// sleeps 2 s before each flush, longer than the burst takes even on a loaded machine.
TEST_CASE("A starved writer: full rings spill, the thread never waits, nothing is lost",
          "[pvti][spill]") {
  test::ScratchDir dir;
  const auto path = runBurst(dir, 400000, 2000);
  const BurstEvents e = readBurst(path);
  CHECK(e.spans == 400000);
  CHECK(e.bad == 0);
  CHECK(e.waits == 0);
  // The writer packed the 25 rings in blocks of at most one ring's records (its buffer stays
  // that size however far it lags), which read back as one stream above.
  const auto rows =
      test::RawDb(path).query("SELECT count(*), max(count), sum(count) FROM event_blocks");
  CHECK(rows.at(0).at(0).i >= 800000 / 32768);
  CHECK(rows.at(0).at(1).i <= 32768);
  CHECK(rows.at(0).at(2).i == 800000);
}

// Owning 129 arrays (4.2 M records), none free, a thread waits for the writer, and its stream says
// where: 3 M spans (6 M records) with a writer pausing 1 s before each flush must wait (a
// second leaves room for a slow producer, e.g. under ThreadSanitizer, to reach the bound).
TEST_CASE("Past its spill limit a thread waits, and the trace shows each wait as a span",
          "[pvti][spill]") {
  test::ScratchDir dir;
  const BurstEvents e = readBurst(runBurst(dir, 3000000, 1000));
  CHECK(e.spans == 3000000);
  CHECK(e.bad == 0);
  CHECK(e.waits >= 1);
  CHECK(e.waitedNs > 0);
}
