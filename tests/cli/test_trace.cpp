// pva trace on the host trace the engine recorded while the fixture trained the MLP.
#include "CliTestUtil.hpp"

#include <catch2/catch.hpp>
#include <pva/Trace.hpp>

using cli::contains;

TEST_CASE("trace summary: processes, threads, event counts, top labels") {
  const std::string path = cli::traceFile().string();
  const auto r = cli::pva({"trace", path, "--json", "--top", "0"});
  REQUIRE(r.status == 0);
  const auto j = r.json();
  const pva::Trace trace = pva::openTrace(path);
  REQUIRE(j["processes"].size() == trace.processes().size());
  std::uint64_t events = 0, expected = 0;
  for (const auto& p : j["processes"])
    for (const auto& t : p["threads"])
      events += t["events"].get<std::uint64_t>();
  for (const auto& p : trace.processes())
    for (const auto& t : p.threads())
      expected += t.numEvents();
  CHECK(events == expected);
  CHECK(events > 0);
  // Every label counted once per event.
  std::uint64_t counted = 0;
  double previous = 1e300;
  for (const auto& l : j["topLabels"]) {
    counted += l["count"].get<std::uint64_t>();
    CHECK(l["totalMicroseconds"].get<double>() <= previous);
    previous = l["totalMicroseconds"].get<double>();
  }
  CHECK(counted == events);
  CHECK(j["distinctLabels"] == j["topLabels"].size());
  // The engine traces its runs on the Poplar channel (docs/tracing.md).
  bool poplar = false;
  for (const auto& l : j["topLabels"])
    poplar = poplar || l["channel"] == "Poplar";
  CHECK(poplar);

  const auto text = cli::pva({"trace", path});
  REQUIRE(text.status == 0);
  CHECK(contains(text.out, "Process"));
  CHECK(contains(text.out, "thread"));
  CHECK(contains(text.out, "Labels by total duration"));
}

TEST_CASE("trace --export-chrome writes Trace Event JSON") {
  test::ScratchDir dir;
  const auto out = dir / "trace.json";
  const auto r = cli::pva({"trace", cli::traceFile().string(), "--export-chrome", out.string()});
  REQUIRE(r.status == 0);
  CHECK(contains(r.err, out.string()));
  CHECK(contains(r.out, "Process")); // the summary still goes to stdout
  nlohmann::json j;
  REQUIRE_NOTHROW(j = nlohmann::json::parse(cli::readFile(out)));
  REQUIRE(j["traceEvents"].is_array());
  std::size_t spans = 0;
  for (const auto& e : j["traceEvents"])
    spans += e["ph"] == "X" ? 1 : 0;
  CHECK(spans > 0);

  const auto toStdout = cli::pva({"trace", cli::traceFile().string(), "--export-chrome", "-"});
  REQUIRE(toStdout.status == 0);
  CHECK(toStdout.json()["traceEvents"].size() == j["traceEvents"].size());

  CHECK(cli::pva({"trace", cli::traceFile().string(), "--export-chrome",
                  (dir / "no" / "x.json").string()})
            .status == 2);
}
