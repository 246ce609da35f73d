// Figures a summary shows that the engine stores when a run ends (run_stream_copy_cycles, format
// 1.7), so `pva summary` reads no step: they must equal what the pass over the steps sums, and
// an older report without them must still give them, by that pass.
#include "PvaTestUtil.hpp"

#include <filesystem>
#include <pva/Analysis.hpp>
#include <string>

namespace {

void requireEqual(const pva::StreamCopyCycles& stored, const pva::StreamCopyCycles& passed) {
  CHECK(stored.host == passed.host);
  CHECK(stored.remoteBuffer == passed.remoteBuffer);
  CHECK(stored.mixed == passed.mixed);
  CHECK(stored.unknown == passed.unknown);
}

} // namespace

namespace test {
std::uint64_t checkStoredEqualsPass(const pva::Report& report, const pva::Report& again) {
  const std::uint64_t before = pva::detail::executionPasses();
  const pva::ReportSummary summary = pva::summarize(report);
  const pva::StreamCopySummary stored = pva::summarizeStreamCopies(report);
  REQUIRE(summary.execution.hasStreamCopyCycles);
  REQUIRE(stored.stored);
  REQUIRE(pva::detail::executionPasses() == before); // no step read
  const pva::ExecutionAnalysis passed = pva::analyseExecution(again);
  REQUIRE(pva::detail::executionPasses() == before + 1);
  REQUIRE(stored.runs.size() == passed.runs.size());
  REQUIRE(summary.execution.runs.size() == passed.runs.size());
  for (std::size_t r = 0; r < passed.runs.size(); ++r) {
    INFO("run " << r);
    requireEqual(stored.runs[r], passed.runs[r].streamCopyCycles);
    requireEqual(summary.execution.runs[r].streamCopyCycles, passed.runs[r].streamCopyCycles);
  }
  requireEqual(stored.allRuns, passed.allRuns.streamCopyCycles);
  requireEqual(summary.execution.streamCopyCycles, passed.allRuns.streamCopyCycles);
  return stored.allRuns.total();
}
} // namespace test

namespace {

pva::Report openFile(const std::filesystem::path& file) {
  return pva::openReport(file.string());
}

} // namespace

TEST_CASE("stored stream-copy totals equal the pass over the steps for the samples' reports",
          "[pva][analysis][storedTotals]") {
  std::uint64_t total = 0;
  for (const char* sample : {"mlp", "mlp-big", "pipeline", "oom"}) {
    INFO(sample);
    const auto file = test::sampleReport(sample);
    total += test::checkStoredEqualsPass(openFile(file), openFile(file));
  }
  CHECK(total > 0); // the samples copy to and from the host
}

TEST_CASE("a report without stored stream-copy totals falls back to the pass",
          "[pva][analysis][storedTotals]") {
  test::ScratchDir dir;
  const auto file = dir / "profile.pop";
  std::filesystem::copy_file(test::sampleReport("mlp"), file);
  const pva::StreamCopySummary expected = pva::summarizeStreamCopies(openFile(file));
  REQUIRE(expected.stored);
  REQUIRE(expected.allRuns.host > 0);

  const auto fallsBack = [&](const pva::Report& report) {
    const pva::ReportSummary summary = pva::summarize(report);
    CHECK_FALSE(summary.execution.hasStreamCopyCycles);
    CHECK(summary.execution.streamCopyCycles.total() == 0);
    const std::uint64_t before = pva::detail::executionPasses();
    const pva::StreamCopySummary s = pva::summarizeStreamCopies(report);
    CHECK_FALSE(s.stored);
    CHECK(pva::detail::executionPasses() == before + 1);
    REQUIRE(s.runs.size() == expected.runs.size());
    for (std::size_t r = 0; r < s.runs.size(); ++r)
      requireEqual(s.runs[r], expected.runs[r]);
    requireEqual(s.allRuns, expected.allRuns);
    // The pass is kept with the open report: asking again reads nothing.
    pva::summarizeStreamCopies(report);
    pva::analyseExecution(report);
    CHECK(pva::detail::executionPasses() == before + 1);
  };
  SECTION("a report of format 1.6 (before the table)") {
    test::execSql(file, "DROP TABLE run_stream_copy_cycles;"
                        "UPDATE meta SET value = '1.6.0' WHERE key = 'format_version';");
    fallsBack(openFile(file));
  }
  SECTION("a run without its row") {
    test::execSql(file,
                  "DELETE FROM run_stream_copy_cycles WHERE run = (SELECT max(id) FROM runs)");
    fallsBack(openFile(file));
  }
  SECTION("a 1.7 report without the table is corrupted") {
    test::execSql(file, "DROP TABLE run_stream_copy_cycles;");
    CHECK_THROWS_WITH(openFile(file), Catch::Contains("missing table 'run_stream_copy_cycles'"));
  }
  SECTION("negative cycles are a corrupted report, naming the file") {
    test::execSql(file, "UPDATE run_stream_copy_cycles SET mixed = -5");
    const pva::Report report = openFile(file);
    CHECK_THROWS_WITH(pva::summarize(report),
                      Catch::Contains("profile.pop") &&
                          Catch::Contains("negative mixed stream-copy cycles of run"));
  }
}
