// exportChromeTrace writes valid Trace Event Format JSON holding every event, instant and sample.
#include "DriverUtil.hpp"
#include "Scenario.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <pva/Trace.hpp>
#include <sstream>

TEST_CASE("exportChromeTrace: spans, instants, counters and names", "[pvti][chrome]") {
  test::ScratchDir dir;
  const auto r = test::runDriver({"basic"}, "{}", dir.path());
  REQUIRE(r.exitCode == 0);
  const pva::Trace trace = pva::openTrace(test::traceFiles(dir.path()).at(0).string());
  std::ostringstream out;
  pva::exportChromeTrace(trace, out);
  const auto json = nlohmann::json::parse(out.str()); // throws, failing the test, if invalid
  std::map<std::string, int> phases;
  std::map<std::string, int> xByLabel;
  for (const auto& e : json.at("traceEvents")) {
    ++phases[e.at("ph").get<std::string>()];
    CHECK(e.at("pid") == trace.processes()[0].pid());
    if (e.at("ph") == "X") {
      ++xByLabel[e.at("name").get<std::string>()];
      CHECK(e.at("cat") == scenario::kChannel);
      CHECK(e.at("dur").get<double>() >= 0);
    }
    if (e.at("ph") == "M" && e.at("name") == "thread_name" &&
        e.at("tid") == trace.processes()[0].threads()[0].tid())
      CHECK(e.at("args").at("name") == "main thread");
  }
  CHECK(phases["X"] ==
        scenario::kOuterLoops * 4 + 1 + scenario::kWorkers * scenario::kWorkerSpans * 2);
  CHECK(phases["i"] == scenario::kOuterLoops + 3);
  CHECK(phases["C"] == 3);
  CHECK(phases["M"] == 1 + 1 + scenario::kWorkers);
  CHECK(xByLabel["work"] == scenario::kWorkers * scenario::kWorkerSpans);
  CHECK(out.str().find(R"("metadata":"{\"batch\":7,\"phase\":\"train\"}")") != std::string::npos);
}
