// A process killed with SIGKILL leaves a trace that opens and holds everything flushed before
// the kill; many threads recording at once lose nothing and nest correctly.
#include "DriverUtil.hpp"
#include "Scenario.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <pva/Trace.hpp>
#include <sys/wait.h>

namespace {

/// Runs "load" and checks every span: groups of one outer with kLoadGroup-1 inner children.
void checkLoad(int threads, int spans) {
  test::ScratchDir dir;
  const auto r =
      test::runDriver({"load", std::to_string(threads), std::to_string(spans)}, "{}", dir.path());
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const auto files = test::traceFiles(dir.path());
  REQUIRE(files.size() == 1);
  const pva::Trace trace = pva::openTrace(files[0].string());
  const auto& ts = trace.processes()[0].threads();
  REQUIRE(ts.size() == static_cast<std::size_t>(threads));
  std::size_t total = 0;
  for (const auto& t : ts) {
    REQUIRE(t.numEvents() == static_cast<std::size_t>(spans));
    const auto top = t.events();
    REQUIRE(top.size() == static_cast<std::size_t>(spans / scenario::kLoadGroup));
    std::int64_t previousEnd = 0;
    std::size_t bad = 0;
    for (const auto& e : top) {
      const auto children = e.children();
      bool ok = e.label() == "outer" && e.finished() && e.beginNs() >= previousEnd &&
                children.size() == scenario::kLoadGroup - 1;
      std::int64_t at = e.beginNs();
      for (const auto& c : children) {
        ok = ok && c.label() == "inner" && c.finished() && c.beginNs() >= at &&
             c.endNs() <= e.endNs() && c.children().empty();
        at = c.endNs();
      }
      bad += ok ? 0 : 1;
      previousEnd = e.endNs();
      total += 1 + children.size();
    }
    CHECK(bad == 0);
    CHECK(t.instantEvents().empty()); // no unmatched or mismatched ends
  }
  CHECK(total == static_cast<std::size_t>(threads) * static_cast<std::size_t>(spans));
}

} // namespace

TEST_CASE("A process killed with SIGKILL leaves a readable trace with every flushed event",
          "[pvti][crash]") {
  test::ScratchDir dir;
  test::DriverProcess child({"crash"}, R"({"enable":true})", dir.path());
  const std::string ready = child.readLine();
  REQUIRE(ready == "ready " + std::to_string(scenario::kCrashEvents));
  child.kill(SIGKILL);
  const int status = child.wait();
  CHECK(WIFSIGNALED(status));
  const auto files = test::traceFiles(dir.path());
  REQUIRE(files.size() == 1);
  const pva::Trace trace = pva::openTrace(files[0].string());
  const pva::Thread t = trace.processes()[0].threads()[0];
  const auto events = t.events();
  REQUIRE(events.size() >= static_cast<std::size_t>(scenario::kCrashEvents + 1));
  for (int i = 0; i < scenario::kCrashEvents; ++i) {
    CHECK(events[static_cast<std::size_t>(i)].label() == "e" + std::to_string(i));
    CHECK(events[static_cast<std::size_t>(i)].finished());
  }
  // Begun before the kill and never ended: in the file, marked unfinished, holding what came after.
  const pva::Event& open = events[scenario::kCrashEvents];
  CHECK(open.label() == "open at kill");
  CHECK_FALSE(open.finished());
  CHECK(open.duration() == 0);
  for (const auto& c : open.children())
    CHECK(c.label() == "after");
  REQUIRE(t.instantEvents().size() == 1);
  CHECK(t.instantEvents()[0].label() == "inside");
}

TEST_CASE("8 threads x 20k spans: all read back, none mis-nested", "[pvti][load]") {
  checkLoad(8, 20000);
}

// The full load test runs as its own CTest (pvti_load_64x100k) with a long timeout.
TEST_CASE("64 threads x 100k spans: all 6.4M read back, none mis-nested", "[.][load64]") {
  checkLoad(64, 100000);
}
