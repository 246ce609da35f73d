// Golden outputs: `pva summary`, `pva query` and `pva compare` on the fixture's reports, compared
// byte for byte (after masking what changes from run to run: paths, creation times, host times)
// with tests/cli/golden/. A change to any figure or its layout shows up here as a diff.
//
// Regenerate after an intended change, then review the diff with git:
//   TESSERA_UPDATE_GOLDEN=1 ctest --test-dir build -R 'cli_make_reports|cli_tests:golden'
#include "CliTestUtil.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <regex>

namespace {

namespace fs = std::filesystem;

fs::path goldenFile(const std::string& name) {
  return fs::path(TESSERA_GOLDEN_DIR) / name;
}

/// Output with what differs between runs replaced by placeholders.
std::string masked(std::string s) {
  const std::string reports = fs::path(CLI_REPORTS_DIR).string();
  for (std::size_t at; (at = s.find(reports)) != std::string::npos;)
    s.replace(at, reports.size(), "<REPORTS>");
  static const std::regex timestamp(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?)");
  static const std::regex hostJson(R"("hostMicroseconds": -?\d+)");
  s = std::regex_replace(s, timestamp, "<TIME>");
  s = std::regex_replace(s, hostJson, "\"hostMicroseconds\": <HOST>");
  return s;
}

void checkGolden(const std::string& name, const std::vector<std::string>& args, int status = 0) {
  const cli::Result r = cli::pva(args);
  INFO("pva " <<
       [&] {
         std::string joined;
         for (const auto& a : args)
           joined += a + " ";
         return joined;
       }()
              << "\nstderr: " << r.err);
  REQUIRE(r.status == status);
  const std::string out = masked(r.out);
  const fs::path file = goldenFile(name);
  if (const char* update = std::getenv("TESSERA_UPDATE_GOLDEN");
      update && std::string(update) == "1") {
    std::ofstream(file, std::ios::binary) << out;
    WARN("wrote " << file);
    return;
  }
  REQUIRE(fs::exists(file));
  const std::string expected = cli::readFile(file);
  if (out != expected) {
    // The first differing line, so the failure says where without a diff tool.
    const auto got = cli::lines(out), want = cli::lines(expected);
    std::size_t i = 0;
    while (i < got.size() && i < want.size() && got[i] == want[i])
      ++i;
    FAIL(file.string() << " differs at line " << i + 1
                       << ":\n  expected: " << (i < want.size() ? want[i] : "<end>")
                       << "\n  got:      " << (i < got.size() ? got[i] : "<end>")
                       << "\n(regenerate with TESSERA_UPDATE_GOLDEN=1 if the change is intended)");
  }
}

std::string base() {
  return cli::reportDir("base").string();
}
std::string big() {
  return cli::reportDir("big").string();
}

} // namespace

TEST_CASE("golden: pva summary (text and JSON)", "[golden]") {
  checkGolden("summary-base.txt", {"summary", base()});
  checkGolden("summary-base.json", {"summary", base(), "--json"});
  checkGolden("summary-big.txt", {"summary", big()});
}

TEST_CASE("golden: pva query, every table", "[golden]") {
  checkGolden("query-base-tiles.txt", {"query", base(), "tiles"});
  checkGolden("query-base-compute-sets.txt", {"query", base(), "compute-sets"});
  checkGolden("query-base-compute-sets.csv",
              {"query", base(), "compute-sets", "--top", "0", "--format", "csv"});
  checkGolden("query-base-live-at-peak.txt", {"query", base(), "live-at-peak"});
  checkGolden("query-base-programs.txt", {"query", base(), "programs"});
  checkGolden("query-base-runs.json", {"query", base(), "runs", "--format", "json"});
  checkGolden("query-base-categories.txt", {"query", base(), "categories"});
}

TEST_CASE("golden: pva compare (text and JSON)", "[golden]") {
  // The larger batch is over the default thresholds: exit status 1, as a CI gate sees it.
  checkGolden("compare-base-big.txt", {"compare", base(), big()}, 1);
  checkGolden("compare-base-big.json", {"compare", base(), big(), "--format", "json"}, 1);
  checkGolden("compare-base-base.txt", {"compare", base(), base()}, 0);
}

TEST_CASE("golden: pva insights (text and JSON)", "[golden]") {
  checkGolden("insights-base.txt", {"insights", base()});
  checkGolden("insights-base.json", {"insights", base(), "--json"});
  checkGolden("insights-pipeline.txt",
              {"insights", cli::reportDir("pipeline").string(), "--top", "3"});
}
