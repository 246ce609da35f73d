// Profiling options: names, values, POPLAR_ENGINE_OPTIONS, report directories, extra files.
#include "common/Exceptions.hpp"
#include "common/RemoteSum.hpp"
#include "common/ReportFiles.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>

#include <poplar/Engine.hpp>
#include <poplar/exceptions.hpp>

#include <profiler/schema/profile.capnp.h>

#include <capnp/serialize.h>

#include <cstdlib>
#include <fcntl.h>
#include <fstream>
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
  CHECK_THAT(engineError({{"autoReport.bogus", "true"}}), Catch::Contains("unknown engine option 'autoReport.bogus'"));
  CHECK_THAT(engineError({{"autoReport.all", "yes"}}),
             Catch::Contains("'autoReport.all' = 'yes': expected true or false"));
  CHECK_THAT(engineError({{"profiler.blocks.filter", "(unclosed"}}),
             Catch::Contains("'profiler.blocks.filter' = '(unclosed': not a valid regular expression"));
  CHECK_THAT(engineError({{"profiler.blocks.tile", "4"}}), Catch::Contains("the target has 4 tiles per IPU"));
  CHECK_THAT(engineError({{"profiler.blocks.bufferSize", "-1"}}),
             Catch::Contains("'profiler.blocks.bufferSize' = '-1': expected a whole number"));
  CHECK_THAT(engineError({{"autoReport.directory", ""}}), Catch::Contains("autoReport.directory"));
}

TEST_CASE("POPLAR_ENGINE_OPTIONS turns reports on and is recorded with the options", "[options]") {
  test::ScratchDir dir;
  const std::string json = R"({"autoReport.all": true, "autoReport.directory": ")" + dir.path().string() + "\"}";
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
                {{"autoReport.outputSerializedGraph", "true"}, {"autoReport.directory", dir.path().string()}});
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
    CHECK(g.getComputeSets()[0].getVertices()[0].getFields()[0].getEdges()[0].getRegions()[0].getEnd() == 8);
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
