// Profiling options: names, values, POPLAR_ENGINE_OPTIONS, report directories, extra files.
#include "common/Exceptions.hpp"
#include "common/RemoteSum.hpp"
#include "common/ReportFiles.hpp"
#include "common/ScratchDir.hpp"
#include "session/EngineOptions.hpp" // engine/src: the option table itself

#include <capnp/serialize.h>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <poplar/Engine.hpp>
#include <poplar/exceptions.hpp>
#include <profiler/schema/profile.capnp.h>
#include <sstream>
#include <unistd.h>

using namespace poplar;
using test::Report;

namespace {
std::string engineError(const OptionFlags& options) {
  test::RemoteSum s;
  return test::messageOf<invalid_option>([&] { Engine engine(s.graph, s.program, options); });
}
} // namespace

TEST_CASE("Bad profiling options are rejected with the option named", "[options]") {
  CHECK_THAT(engineError({{"autoReport.bogus", "true"}}),
             Catch::Contains("unknown engine option 'autoReport.bogus'"));
  CHECK_THAT(engineError({{"autoReport.all", "yes"}}),
             Catch::Contains("'autoReport.all' = 'yes': expected true or false"));
  CHECK_THAT(
      engineError({{"profiler.blocks.filter", "(unclosed"}}),
      Catch::Contains("'profiler.blocks.filter' = '(unclosed': not a valid regular expression"));
  CHECK_THAT(engineError({{"profiler.blocks.tile", "4"}}),
             Catch::Contains("the target has 4 tiles per IPU"));
  CHECK_THAT(engineError({{"profiler.blocks.bufferSize", "-1"}}),
             Catch::Contains("'profiler.blocks.bufferSize' = '-1': expected a whole number"));
  CHECK_THAT(engineError({{"autoReport.directory", ""}}), Catch::Contains("autoReport.directory"));
}

TEST_CASE("Block filters std::regex cannot compile safely are rejected before it sees them",
          "[options]") {
  // Found by fuzz_engine_options: a 20-digit back-reference overflowed a long inside libstdc++'s
  // regex compiler (UBSan), and a 1,100-character filter took seconds to compile.
  auto fromFile = [](const char* name) {
    std::ifstream in(std::string(TESSERA_SOURCE_DIR) + "/tests/data/fuzz/" + name);
    REQUIRE(in);
    return parseOptionFlagsJson(std::string(std::istreambuf_iterator<char>(in), {}), name);
  };
  CHECK_THAT(engineError(fromFile("engine-options-ubsan-regex-backref-overflow.json")),
             Catch::Contains("'profiler.blocks.filter'") &&
                 Catch::Contains("the number 18446744073709551616") &&
                 Catch::Contains("too large for a repetition count or back-reference"));
  CHECK_THAT(engineError(fromFile("engine-options-slow-regex-long-filter.json")),
             Catch::Contains("'profiler.blocks.filter'") &&
                 Catch::Contains("longer than 1000 characters"));
  CHECK_THAT(engineError({{"profiler.programs.filter", "a{1,123456}"}}),
             Catch::Contains("the number 123456 at character 5 is too large"));
  CHECK_THAT(engineError({{"profiler.blocks.filter", "x{99999}"}}),
             Catch::Contains("the number 99999"));
  // What filters need is still accepted: counts and back-references up to 9999, escaped braces.
  test::RemoteSum s;
  for (const char* ok : {"^timed", "(a)\\1", "x{2,9999}", "\\{12345", "layer[0-9]+/.*"}) {
    INFO(ok);
    CHECK_NOTHROW(Engine(s.graph, s.program, {{"profiler.blocks.filter", ok}}));
  }
}

TEST_CASE("POPLAR_ENGINE_OPTIONS turns reports on and is recorded with the options", "[options]") {
  test::ScratchDir dir;
  const std::string json =
      R"({"autoReport.all": true, "autoReport.directory": ")" + dir.path().string() + "\"}";
  ::setenv("POPLAR_ENGINE_OPTIONS", json.c_str(), 1);
  test::RemoteSum s;
  try {
    Engine engine(s.graph, s.program);
  } catch (...) {
    ::unsetenv("POPLAR_ENGINE_OPTIONS");
    throw;
  }
  ::unsetenv("POPLAR_ENGINE_OPTIONS");
  Report r(dir / "profile.pop");
  CHECK(r.text("SELECT value FROM engine_options WHERE name = 'autoReport.all'") == "true");
  CHECK(r.text("SELECT value FROM meta WHERE key = 'format'") == "tessera-profile");
  CHECK(r.text("SELECT value FROM meta WHERE key = 'compute_instrumentation'") == "Tile");
}

TEST_CASE("A named engine writes into a sub-directory of its own", "[options]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  Engine engine(s.graph, s.program, test::reportOptions(dir.path()), {}, DebugContext("trainer"));
  CHECK(std::filesystem::exists(dir / "trainer" / "profile.pop"));
  CHECK(std::filesystem::exists(dir / "trainer" / "debug.cbor"));
  CHECK(engine.getReportDirectory() == (dir / "trainer").string());
  CHECK_FALSE(std::filesystem::exists(dir / "trainer" / "profile.pop.partial"));
}

TEST_CASE("The serialized graph holds variables, mappings and vertices", "[options]") {
  test::ScratchDir dir;
  test::RemoteSum s;
  Engine engine(s.graph, s.program,
                {{"autoReport.outputSerializedGraph", "true"},
                 {"autoReport.directory", dir.path().string()}});
  CHECK_FALSE(std::filesystem::exists(dir / "profile.pop")); // not asked for
  const std::string path = (dir / "serialized_graph.capnp").string();
  const int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  {
    capnp::StreamFdMessageReader reader(fd);
    auto g = reader.getRoot<tessera::profiler::capnp::SerializedGraph>();
    CHECK(g.getTilesPerIpu() == 4);
    REQUIRE(g.getVariables().size() == 2);
    CHECK(std::string(g.getVariables()[0].getName().cStr()) == "a");
    REQUIRE(g.getVariables()[0].getMapping().size() == 2);
    CHECK(g.getVariables()[0].getMapping()[1].getTile() == 1);
    REQUIRE(g.getComputeSets().size() == 1);
    CHECK(std::string(g.getComputeSets()[0].getVertices()[0].getType().cStr()) == "SumVertex");
    CHECK(g.getComputeSets()[0]
              .getVertices()[0]
              .getFields()[0]
              .getEdges()[0]
              .getRegions()[0]
              .getEnd() == 8);
  }
  ::close(fd);
}

TEST_CASE("A report directory that cannot be created gives a clear error", "[options]") {
  test::ScratchDir dir;
  std::ofstream(dir / "file") << "not a directory";
  test::RemoteSum s;
  const std::string msg = test::messageOf<profiling_error>(
      [&] { Engine engine(s.graph, s.program, test::reportOptions(dir / "file" / "reports")); });
  CHECK_THAT(msg, Catch::Contains((dir / "file" / "reports").string()));
}

// --- Every option Poplar documents is accepted, checked and recorded -------------------------

namespace {
/// A value of the option's kind that the engine accepts without writing anything.
std::string goodValue(const poplar::detail::session::OptionSpec& spec, const std::string& scratch) {
  using K = poplar::detail::session::OptionSpec::Kind;
  const std::string name = spec.name;
  switch (spec.kind) {
  case K::Bool:
    return "false";
  case K::Unsigned:
    return name == "profiler.blocks.bufferSize" ? "0x400" : "0";
  case K::UnsignedOrAuto:
    return "auto";
  case K::Seconds:
    return "2.5";
  case K::Choice:
    return std::string(spec.choices).substr(0, std::string(spec.choices).find('|'));
  case K::Text:
    return name == "autoReport.directory" ? scratch : "x";
  }
  return "";
}

std::string badValue(const poplar::detail::session::OptionSpec& spec) {
  using K = poplar::detail::session::OptionSpec::Kind;
  switch (spec.kind) {
  case K::Bool:
    return "yes";
  case K::Unsigned:
    return "-3";
  case K::UnsignedOrAuto:
    return "many";
  case K::Seconds:
    return "soon";
  case K::Choice:
    return "no-such-choice";
  case K::Text:
    return "";
  }
  return "";
}
} // namespace

TEST_CASE("Every documented engine option is accepted and recorded in the report", "[options]") {
  test::ScratchDir dir;
  OptionFlags options;
  for (const auto& spec : poplar::detail::session::engineOptionSpecs())
    options.set(spec.name, goodValue(spec, dir.path().string()));
  options.set("autoReport.outputGraphProfile", "true");
  test::RemoteSum s;
  Engine engine(s.graph, s.program, options);
  Report r(dir / "profile.pop");
  for (const auto& spec : poplar::detail::session::engineOptionSpecs()) {
    INFO(spec.name);
    CHECK(r.text("SELECT value FROM engine_options WHERE name = '" + std::string(spec.name) +
                 "'") == options.at(spec.name));
  }
}

TEST_CASE("A documented option with a bad value is rejected naming the option and the value",
          "[options]") {
  for (const auto& spec : poplar::detail::session::engineOptionSpecs()) {
    if (spec.kind == poplar::detail::session::OptionSpec::Kind::Text)
      continue; // any text is a value
    INFO(spec.name);
    const std::string bad = badValue(spec);
    CHECK_THAT(engineError({{spec.name, bad}}),
               Catch::Contains("engine option '" + std::string(spec.name) + "' = '" + bad + "'"));
  }
  CHECK_THAT(engineError({{"target.syncMethod", "sometimes"}}),
             Catch::Contains("expected one of polling,hybrid,default"));
  CHECK_THAT(engineError({{"opt.maxCompilationThreads", "0x"}}),
             Catch::Contains("expected a whole number"));
  CHECK_THAT(engineError({{"target.hostSyncTimeout", "-1"}}), Catch::Contains("number of seconds"));
}

TEST_CASE("An unknown engine option names the known options of its group", "[options]") {
  const std::string message = engineError({{"target.syncMetod", "polling"}});
  CHECK_THAT(message, Catch::Contains("unknown engine option 'target.syncMetod'"));
  CHECK_THAT(message, Catch::Contains("target.syncMethod"));
  CHECK_THAT(message, !Catch::Contains("autoReport.all"));
}

TEST_CASE("docs/profiling.md lists every engine option the simulation does not honour",
          "[options][docs]") {
  std::ifstream in(TESSERA_SOURCE_DIR "/docs/profiling.md");
  REQUIRE(in);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto section = text.find("accepted, no effect here");
  REQUIRE(section != std::string::npos);
  for (const auto& spec : poplar::detail::session::engineOptionSpecs()) {
    INFO(spec.name);
    const auto at = text.find("`" + std::string(spec.name) + "`");
    CHECK(at != std::string::npos);
    if (!spec.honoured)
      CHECK(text.find("`" + std::string(spec.name) + "`", section) != std::string::npos);
  }
}

TEST_CASE("debug.retainDebugInformation keeps a private profile for printProfileSummary",
          "[options]") {
  test::RemoteSum s;
  std::string reportDirectory;
  {
    Engine engine(s.graph, s.program, {{"debug.retainDebugInformation", "true"}});
    engine.load(s.device);
    engine.run(0);
    CHECK(engine.getReportDirectory().empty()); // nothing the user has to clean up
    std::ostringstream summary;
    engine.printProfileSummary(summary);
    CHECK_THAT(summary.str(), Catch::Contains("Memory Usage:"));
    CHECK_THAT(summary.str(), Catch::Contains("Total cycles:"));
    reportDirectory = engine.getReport().profilePath();
    CHECK(std::filesystem::exists(reportDirectory));
  }
  CHECK_FALSE(std::filesystem::exists(reportDirectory)); // removed with the engine
}

TEST_CASE("printProfileSummary needs a profile and checks its options", "[options]") {
  test::RemoteSum s;
  Engine plain(s.graph, s.program);
  std::ostringstream out;
  CHECK_THROWS_MATCHES(plain.printProfileSummary(out), poplar::runtime_error,
                       test::What(Catch::Contains("debug.retainDebugInformation")));
  Engine engine(s.graph, s.program, {{"debug.retainDebugInformation", "true"}});
  CHECK_THROWS_MATCHES(
      engine.printProfileSummary(out, {{"showEverything", "true"}}), invalid_option,
      test::What(Catch::Contains("unknown printProfileSummary option 'showEverything'")));
  CHECK_THROWS_MATCHES(engine.printProfileSummary(out, {{"showVarStorage", "maybe"}}),
                       invalid_option, test::What(Catch::Contains("'showVarStorage' = 'maybe'")));
  for (const auto& spec : poplar::detail::session::summaryOptionSpecs())
    CHECK_NOTHROW(engine.printProfileSummary(out, {{spec.name, "true"}}));
}
