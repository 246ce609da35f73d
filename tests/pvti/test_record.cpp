// What the "basic" scenario records is read back exactly, event for event: nesting across RAII
// and begin/end on several threads, instant and unbalanced events, metadata, series, heatmaps.
#include "DriverUtil.hpp"
#include "Scenario.hpp"
#include "common/RawDb.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <pva/Trace.hpp>
#include <pvti/pvti.hpp>
#include <regex>
#include <set>

namespace {

/// Runs "basic" once per test process; every test case here reads the same trace.
const std::filesystem::path& basicTrace() {
  static test::ScratchDir dir;
  static std::filesystem::path path = [] {
    const auto r = test::runDriver({"basic"}, R"({"enable":"true"})", dir.path());
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    const auto files = test::traceFiles(dir.path());
    REQUIRE(files.size() == 1);
    CHECK(r.out == files[0].filename().string() + "\n"); // getCurrentTraceFilename, cwd-relative
    return files[0];
  }();
  return path;
}

std::vector<std::string> labels(const std::vector<pva::Event>& events) {
  std::vector<std::string> out;
  for (const auto& e : events)
    out.push_back(e.label());
  return out;
}

/// Every child lies within its parent, siblings do not overlap, depths count down the tree.
void checkNesting(const pva::Event& e, unsigned depth) {
  CHECK(e.finished());
  CHECK(e.depth() == depth);
  std::int64_t previousEnd = e.beginNs();
  for (const auto& c : e.children()) {
    CHECK(c.beginNs() >= previousEnd);
    CHECK(c.endNs() <= e.endNs());
    previousEnd = c.endNs();
    checkNesting(c, depth + 1);
  }
}

} // namespace

TEST_CASE("The trace file is named from the date, time zone and pid", "[pvti][file]") {
  const std::string name = basicTrace().filename().string();
  // e.g. Thu_Aug_27_09:46:55_2020_BST_2341.pvti (libpvti.md §3.2), day zero-padded.
  CHECK(std::regex_match(
      name,
      std::regex(
          R"(^[A-Z][a-z]{2}_[A-Z][a-z]{2}_\d{2}_\d{2}:\d{2}:\d{2}_\d{4}_[A-Za-z0-9+-]+_\d+\.pvti$)")));
  const pva::Trace trace = pva::openTrace(basicTrace().string());
  REQUIRE(trace.processes().size() == 1);
  const std::string pid = std::to_string(trace.processes()[0].pid());
  CHECK(name.substr(name.size() - pid.size() - 5) == pid + ".pvti");
  CHECK(trace.processes()[0].name() == "pvti_driver");
  CHECK(trace.formatVersion() == "2.0.0");
  // closeTrace at exit leaves one self-contained file.
  CHECK_FALSE(std::filesystem::exists(basicTrace().string() + "-wal"));
  test::RawDb db(basicTrace());
  CHECK(db.query("PRAGMA journal_mode")[0][0].bytes == "delete");
}

TEST_CASE("Nested events on the main thread read back as recorded", "[pvti][events]") {
  const pva::Process p = pva::openTrace(basicTrace().string()).processes()[0];
  REQUIRE(p.threads().size() == 1 + scenario::kWorkers);
  const pva::Thread main = p.threads()[0];
  CHECK(main.name() == "main thread");
  CHECK(p.thread(main.tid()).name() == "main thread");
  const auto events = main.events();
  REQUIRE(events.size() == scenario::kOuterLoops + 1);
  for (int i = 0; i < scenario::kOuterLoops; ++i) {
    const pva::Event& outer = events[static_cast<std::size_t>(i)];
    CHECK(outer.label() == "outer " + std::to_string(i));
    CHECK(outer.channel() == scenario::kChannel);
    checkNesting(outer, 0);
    const auto inner = outer.children();
    REQUIRE(inner.size() == 1);
    CHECK(inner[0].label() == "inner");
    const auto leaves = inner[0].children();
    REQUIRE(leaves.size() == 2);
    CHECK(labels(leaves) == std::vector<std::string>{"slice", "slice"}); // pointer+length, no NUL
    CHECK(leaves[0].metadata().empty());
    CHECK(leaves[1].metadata() == scenario::kMetadataJson);
    CHECK(leaves[0].children().empty());
    // Microseconds since the Unix epoch, consistent with the nanoseconds.
    CHECK(outer.timestamp() >= pva::openTrace(basicTrace().string()).startTimestamp());
    CHECK(outer.duration() == static_cast<std::uint64_t>((outer.endNs() - outer.beginNs()) / 1000));
  }
  // begin("a") closed by end("b"): still an event, and the mismatch is recorded.
  CHECK(events.back().label() == "a");
  CHECK(events.back().finished());
  CHECK(main.numEvents() == scenario::kOuterLoops * 4 + 1);
}

TEST_CASE("Instant events and unbalanced ends are recorded, not fatal", "[pvti][instant]") {
  const pva::Thread main = pva::openTrace(basicTrace().string()).processes()[0].threads()[0];
  const auto instants = main.instantEvents();
  REQUIRE(instants.size() == scenario::kOuterLoops + 3);
  for (int i = 0; i < scenario::kOuterLoops; ++i) {
    CHECK(instants[static_cast<std::size_t>(i)].label() == "tick");
    CHECK(instants[static_cast<std::size_t>(i)].kind() == pva::InstantEvent::Kind::Instant);
    // The tick happened inside "inner" of loop i.
    const auto inner = main.events()[static_cast<std::size_t>(i)].children()[0];
    CHECK(instants[static_cast<std::size_t>(i)].timestampNs() >= inner.beginNs());
    CHECK(instants[static_cast<std::size_t>(i)].timestampNs() <= inner.endNs());
  }
  const auto& withMeta = instants[scenario::kOuterLoops];
  CHECK(withMeta.label() == "instant with metadata");
  CHECK(withMeta.metadata() == scenario::kMetadataJson);
  CHECK(instants[scenario::kOuterLoops + 1].label() == "nothing open");
  CHECK(instants[scenario::kOuterLoops + 1].kind() == pva::InstantEvent::Kind::UnmatchedEnd);
  CHECK(instants[scenario::kOuterLoops + 2].label() == "b");
  CHECK(instants[scenario::kOuterLoops + 2].kind() == pva::InstantEvent::Kind::MismatchedEnd);
}

TEST_CASE("Every worker thread's spans read back nested, none lost", "[pvti][threads]") {
  const pva::Process p = pva::openTrace(basicTrace().string()).processes()[0];
  std::set<std::string> names;
  std::set<std::uint64_t> tids;
  for (std::size_t t = 1; t < p.threads().size(); ++t) {
    const pva::Thread& w = p.threads()[t];
    names.insert(w.name());
    tids.insert(w.tid());
    const auto events = w.events();
    REQUIRE(events.size() == scenario::kWorkerSpans);
    for (const auto& e : events) {
      CHECK(e.label() == "work");
      REQUIRE(e.children().size() == 1);
      CHECK(e.children()[0].label() == "step");
      checkNesting(e, 0);
    }
    CHECK(w.instantEvents().empty());
  }
  CHECK(names == std::set<std::string>{"worker 0", "worker 1", "worker 2"});
  CHECK(tids.size() == scenario::kWorkers);
  CHECK_FALSE(tids.count(p.threads()[0].tid()));
  CHECK_THROWS_AS(p.thread(0), pva::InvalidArgumentError);
}

TEST_CASE("Graph series read back in order; a disabled graph is not written", "[pvti][graph]") {
  const pva::Process p = pva::openTrace(basicTrace().string()).processes()[0];
  REQUIRE(p.graphs().size() == 1);
  const auto& g = p.graphs()[0];
  CHECK(g.name() == "Loss");
  CHECK(g.unit().empty());
  REQUIRE(g.series().size() == 2);
  CHECK(g.series()[0].name() == "Training Loss");
  CHECK(g.series()[1].name() == "Validation Loss");
  REQUIRE(g.series()[0].samples().size() == 2);
  CHECK(g.series()[0].samples()[0].value == 1.5);
  CHECK(g.series()[0].samples()[1].value == 0.75);
  CHECK(g.series()[0].samples()[0].timestampNs <= g.series()[0].samples()[1].timestampNs);
  REQUIRE(g.series()[1].samples().size() == 1);
  CHECK(g.series()[1].samples()[0].value == 2.5);
}

TEST_CASE("Heatmaps read back with their edges and decoded bins", "[pvti][heatmap]") {
  const pva::Process p = pva::openTrace(basicTrace().string()).processes()[0];
  REQUIRE(p.heatmaps().size() == 2);
  const auto& w = p.heatmaps()[0];
  CHECK(w.name() == "weights");
  CHECK(w.unit() == "2^x");
  CHECK(w.valueType() == "double");
  CHECK(w.binEdges() == std::vector<double>{0.0, 1.0, 2.0});
  REQUIRE(w.samples().size() == 2);
  CHECK(w.samples()[0].bins == std::vector<std::uint32_t>{1, 1, 2, 1}); // NaN not counted
  CHECK(w.samples()[1].bins == std::vector<std::uint32_t>{0, 0, 0, 0});
  const auto& s = p.heatmaps()[1];
  CHECK(s.name() == "sizes");
  CHECK(s.valueType() == "int64");
  CHECK(s.binEdges() == std::vector<double>{0, 10});
  REQUIRE(s.samples().size() == 1);
  CHECK(s.samples()[0].bins == std::vector<std::uint32_t>{1, 2, 2});
}

TEST_CASE("The raw file holds what the schema says", "[pvti][sqlite]") {
  test::RawDb db(basicTrace());
  auto count = [&](const std::string& table) {
    return db.query("SELECT count(*) FROM " + table)[0][0].i;
  };
  auto sum = [&](const std::string& sql) {
    return db.query("SELECT sum(count) FROM event_blocks " + sql)[0][0].i;
  };
  // Records as the threads made them: per loop of the main thread, 4 begin/end pairs and a
  // tick; then an instant, an unmatched end and a begin/end pair; each worker span 2 pairs.
  const std::int64_t mainRecords = scenario::kOuterLoops * 9 + 4;
  CHECK(sum("") == mainRecords + scenario::kWorkers * scenario::kWorkerSpans * 4);
  CHECK(sum("WHERE thread = (SELECT id FROM threads WHERE name = 'main thread')") == mainRecords);
  CHECK(count("event_blocks WHERE first_ns > last_ns OR count < 1") == 0);
  CHECK(count("threads") == 1 + scenario::kWorkers);
  CHECK(count("series_samples") == 3);
  CHECK(count("heatmap_samples") == 3);
  CHECK(db.query("SELECT value FROM meta WHERE key = 'format'")[0][0].bytes == "tessera-pvti");
  CHECK(db.query("SELECT value FROM meta WHERE key = 'clock_source'")[0][0].bytes ==
        "steady_clock");
  // Labels are interned: "work" is stored once however many times it was recorded.
  CHECK(db.query("SELECT count(*) FROM labels WHERE text = 'work'")[0][0].i == 1);
  const auto channels = db.query("SELECT name FROM channels ORDER BY id");
  std::set<std::string> names;
  for (const auto& row : channels)
    names.insert(row[0].bytes);
  CHECK(names == std::set<std::string>{"Drivers", "Poplar", "Framework", "Test"});
}

TEST_CASE("pvti::decodeHeatmapData decodes what the file stores", "[pvti][heatmap]") {
  test::RawDb db(basicTrace());
  const auto rows = db.query("SELECT bin_quantities FROM heatmap_samples ORDER BY rowid LIMIT 1");
  REQUIRE(rows.size() == 1);
  const std::vector<std::uint8_t> bytes(rows[0][0].bytes.begin(), rows[0][0].bytes.end());
  CHECK(pvti::decodeHeatmapData(bytes) == std::vector<std::uint32_t>{1, 1, 2, 1});
}

// Timestamps come from the TSC where it is invariant, converted to steady_clock ns by one
// calibration per trace; TESSERA_PVTI_CLOCK=steady forces the steady_clock fall-back. Either way
// a span's times in the file must match steady_clock's reading of the same interval (a TSC
// tick count written unconverted would be off by the clock rate, GHz against ns).
TEST_CASE("Span times match steady_clock with the TSC and with the fall-back clock",
          "[pvti][clock]") {
  for (const bool fallback : {false, true}) {
    INFO("TESSERA_PVTI_CLOCK=steady: " << fallback);
    if (fallback) setenv("TESSERA_PVTI_CLOCK", "steady", 1);
    test::ScratchDir dir;
    const auto r = test::runDriver({"clock"}, R"({"enable":"true"})", dir.path());
    unsetenv("TESSERA_PVTI_CLOCK");
    INFO(r.err);
    REQUIRE(r.exitCode == 0);
    long long steady[4] = {};
    REQUIRE(std::sscanf(r.out.c_str(), "%lld %lld %lld %lld", &steady[0], &steady[1], &steady[2],
                        &steady[3]) == 4);
    const auto files = test::traceFiles(dir.path());
    REQUIRE(files.size() == 1);
    const pva::Trace trace = pva::openTrace(files[0].string());
    std::vector<pva::Event> spans;
    for (const auto& t : trace.processes()[0].threads())
      for (const auto& e : t.events())
        if (e.label() == "timed") spans.push_back(e);
    REQUIRE(spans.size() == 2);
    // Each span brackets its steady reads (a few hundred ns apart unless the machine preempts
    // the thread; hence the slack), for the span's length and for the 60 ms between spans.
    const double slackNs = 2e6;
    for (int i = 0; i < 2; ++i) {
      const double traced = static_cast<double>(spans[i].endNs() - spans[i].beginNs());
      const double measured = static_cast<double>(steady[2 * i + 1] - steady[2 * i]);
      CHECK(traced >= measured - 2e4); // the calibration may be a few ppm off: 40 ms -> < 1 us
      CHECK(traced <= measured + slackNs);
    }
    const double tracedGap = static_cast<double>(spans[1].beginNs() - spans[0].beginNs());
    const double measuredGap = static_cast<double>(steady[2] - steady[0]);
    CHECK(std::abs(tracedGap - measuredGap) <= slackNs);
  }
}
