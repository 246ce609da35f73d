// PVTI_OPTIONS, each configuration in its own driver process: unset, unparseable, enable as bool
// and as string, directory, channels, duration; and channel switching at run time.
#include "DriverUtil.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <pva/Trace.hpp>
#include <set>

namespace {

/// Labels of every event and instant event of the only thread that has any.
std::set<std::string> allLabels(const std::filesystem::path& file) {
  std::set<std::string> out;
  const pva::Trace trace = pva::openTrace(file.string());
  for (const auto& t : trace.processes()[0].threads()) {
    for (const auto& e : t.events()) {
      out.insert(e.label());
      for (const auto& c : e.children())
        out.insert(c.label());
    }
    for (const auto& i : t.instantEvents())
      out.insert(i.label());
  }
  return out;
}

std::size_t countWarnings(const std::string& err) {
  std::size_t n = 0;
  for (std::size_t at = err.find("pvti: warning"); at != std::string::npos;
       at = err.find("pvti: warning", at + 1))
    ++n;
  return n;
}

} // namespace

TEST_CASE("PVTI_OPTIONS unset: no file, no events, the API still works", "[pvti][options]") {
  test::ScratchDir dir;
  const auto r = test::runDriver({"off"}, std::nullopt, dir.path());
  INFO(r.err);
  CHECK(r.exitCode == 0);
  CHECK(r.out == "no trace\n");
  CHECK(r.err.empty());
  CHECK(test::traceFiles(dir.path()).empty());
}

TEST_CASE("PVTI_OPTIONS unparseable: tracing with defaults and one warning", "[pvti][options]") {
  for (const std::string options : {"{not json", "[1,2]", "true"}) {
    INFO("PVTI_OPTIONS=" << options);
    test::ScratchDir dir;
    const auto r = test::runDriver({"name"}, options, dir.path());
    CHECK(r.exitCode == 0);
    CHECK(countWarnings(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("not a JSON object"));
    const auto files = test::traceFiles(dir.path());
    REQUIRE(files.size() == 1);
    CHECK(files[0].parent_path() == dir.path()); // default directory: the working directory
    CHECK(r.out == files[0].filename().string() + "\n");
  }
}

TEST_CASE("PVTI_OPTIONS with a bad value: the rest applies, with one warning", "[pvti][options]") {
  test::ScratchDir dir;
  const auto r =
      test::runDriver({"name"}, R"({"enable":"maybe","directory":"out","colour":1})", dir.path());
  CHECK(r.exitCode == 0);
  CHECK(countWarnings(r.err) == 1);
  CHECK_THAT(r.err, Catch::Contains("'enable'") && Catch::Contains("unknown key 'colour'"));
  const auto files = test::traceFiles(dir.path());
  REQUIRE(files.size() == 1);
  CHECK(files[0].parent_path() == dir.path() / "out");
}

TEST_CASE("PVTI_OPTIONS enable accepts booleans and strings", "[pvti][options]") {
  const std::pair<std::string, bool> cases[] = {{R"({"enable":true})", true},
                                                {R"({"enable":"true"})", true},
                                                {"{}", true},
                                                {R"({"enable":false})", false},
                                                {R"({"enable":"false"})", false}};
  for (const auto& [options, on] : cases) {
    INFO("PVTI_OPTIONS=" << options);
    test::ScratchDir dir;
    const auto r = test::runDriver({"name"}, options, dir.path());
    CHECK(r.exitCode == 0);
    CHECK(r.err.empty());
    CHECK(test::traceFiles(dir.path()).size() == (on ? 1u : 0u));
    if (!on) CHECK(r.out == "\n"); // getCurrentTraceFilename is empty
  }
}

TEST_CASE("PVTI_OPTIONS directory is created when missing", "[pvti][options][file]") {
  test::ScratchDir dir;
  const auto r = test::runDriver(
      {"basic"}, R"({"enable":true,"directory":"reports/nested/deeper"})", dir.path());
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  const auto files = test::traceFiles(dir.path());
  REQUIRE(files.size() == 1);
  CHECK(files[0].parent_path() == dir.path() / "reports/nested/deeper");
  CHECK(r.out == "reports/nested/deeper/" + files[0].filename().string() + "\n");
  CHECK(pva::openTrace(files[0].string()).processes()[0].threads().size() == 4);
}

TEST_CASE("PVTI_OPTIONS directory that cannot be created: no trace, a warning, the program runs",
          "[pvti][options]") {
  test::ScratchDir dir;
  { std::ofstream(dir / "file") << "x"; }
  const auto r = test::runDriver({"name"}, R"({"directory":"file/sub"})", dir.path());
  CHECK(r.exitCode == 0);
  CHECK_THAT(r.err, Catch::Contains("cannot create the trace directory 'file/sub'"));
  CHECK(test::traceFiles(dir.path()).empty());
}

TEST_CASE("PVTI_OPTIONS channels, and channels switched at run time", "[pvti][channels]") {
  test::ScratchDir dir;
  const auto r =
      test::runDriver({"channels"}, R"({"enable":true,"channels":["Keep"]})", dir.path());
  INFO(r.err);
  REQUIRE(r.exitCode == 0); // the driver checked checkTraceChannel and listTraceChannel itself
  const auto files = test::traceFiles(dir.path());
  REQUIRE(files.size() == 1);
  CHECK(allLabels(files[0]) == std::set<std::string>{"keep 1", "drop 2", "drop scope", "keep 3"});
  const pva::Thread t = pva::openTrace(files[0].string()).processes()[0].threads()[0];
  REQUIRE(t.events().size() == 1);
  CHECK(t.events()[0].label() == "drop scope");
  CHECK(t.events()[0].finished()); // ended although its channel was disabled inside it
  CHECK(t.events()[0].channel() == "Drop");
}

TEST_CASE("PVTI_OPTIONS duration: nothing is written after it", "[pvti][options]") {
  test::ScratchDir dir;
  const auto r = test::runDriver({"duration"}, R"({"enable":true,"duration":0.3})", dir.path());
  REQUIRE(r.exitCode == 0);
  const auto files = test::traceFiles(dir.path());
  REQUIRE(files.size() == 1);
  CHECK(allLabels(files[0]) == std::set<std::string>{"early", "early span"});
}

TEST_CASE("PVTI_OPTIONS duration out of range: a warning naming it, and tracing without a limit",
          "[pvti][options]") {
  // {"duration":1e11} overflowed the deadline's float-to-integer cast (UBSan; a normal build
  // recorded nothing at all), and "inf" was accepted as a duration.
  const std::string kFuzz = std::string(TESSERA_TEST_DATA_DIR) + "/fuzz";
  std::vector<std::string> options;
  for (const char* file :
       {"pvti-options-ubsan-duration-overflow.json", "pvti-options-ubsan-duration-inf.json"}) {
    std::ifstream in(kFuzz + "/" + file);
    options.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    while (!options.back().empty() && options.back().back() == '\n')
      options.back().pop_back(); // as $(cat FILE)
  }
  REQUIRE(options[0] == R"({"duration":1e11})");
  for (const std::string extra : {R"({"duration":"nan"})", R"({"duration":"1e10"})"})
    options.push_back(extra);
  for (const std::string& o : options) {
    INFO("PVTI_OPTIONS=" << o);
    test::ScratchDir dir;
    const auto r = test::runDriver({"duration"}, o, dir.path());
    REQUIRE(r.exitCode == 0);
    CHECK(countWarnings(r.err) == 1);
    CHECK_THAT(r.err,
               Catch::Contains("'duration' must be a number of seconds from 0 to 1000000000"));
    const auto files = test::traceFiles(dir.path());
    REQUIRE(files.size() == 1);
    CHECK(allLabels(files[0]) == std::set<std::string>{"early", "early span", "late", "late span"});
  }
}
