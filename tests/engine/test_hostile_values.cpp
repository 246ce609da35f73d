// Values and names a user hands the engine that no graph of theirs can make it misbehave on
// (issue 40): constants out of their type's range, names JSON cannot hold, devices larger than
// the host, and executables whose stored options would choose where this process writes.
#include "TestUtil.hpp"
#include "common/ScratchDir.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <poplar/Engine.hpp>
#include <poplar/Executable.hpp>
#include <poplar/exceptions.hpp>
#include <sstream>

using namespace poplar;
using namespace poplar::program;

namespace {

template <typename T> T initialValue(Graph& g, Device& device, const Tensor& t) {
  g.createHostRead("v", t);
  Engine e(g, Sequence{});
  e.load(device);
  T out{};
  e.readTensor("v", &out, &out + 1);
  return out;
}

/// A profile.pop anywhere under `dir` (the engine's name, when it has one, is a subdirectory).
bool hasReport(const std::filesystem::path& dir) {
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
    if (it->path().filename() == "profile.pop") return true;
  return false;
}

} // namespace

TEST_CASE("Integer constants convert as C++ converts integers; floats out of range are refused",
          "[graph][constants]") {
  Device device = test::smallDevice(4);
  Graph g = test::makeGraph(device);
  SECTION("-41 as UNSIGNED_INT is 2^32 - 41") {
    Tensor c = g.addConstant(UNSIGNED_INT, {1}, -41);
    g.setTileMapping(c, 0);
    CHECK(initialValue<std::uint32_t>(g, device, c) == 4294967255u);
  }
  SECTION("-1 as UNSIGNED_SHORT is 65535") {
    Tensor v = g.addVariable(UNSIGNED_SHORT, {1}, "v");
    g.setTileMapping(v, 0);
    g.setInitialValue(v, -1);
    CHECK(initialValue<std::uint16_t>(g, device, v) == 65535);
  }
  SECTION("a float beyond INT's range, or NaN, is an error naming the value") {
    Tensor v = g.addVariable(INT, {2}, "big");
    g.setTileMapping(v, 0);
    CHECK_THROWS_WITH(g.setInitialValue(v, std::vector<float>{1.0f, 3e9f}),
                      Catch::Contains("is not a value of int") && Catch::Contains("'big'"));
    CHECK_THROWS_AS(g.addConstant(UNSIGNED_INT, {1}, std::numeric_limits<float>::quiet_NaN()),
                    poplar_error);
    CHECK_THROWS_AS(g.addConstant(SHORT, {1}, -40000.0f), poplar_error);
  }
  SECTION("a float within range is truncated") {
    Tensor c = g.addConstant(INT, {1}, -2.75f);
    g.setTileMapping(c, 0);
    CHECK(initialValue<std::int32_t>(g, device, c) == -2);
  }
}

TEST_CASE("Graph::serialize(JSON) refuses a name that is not UTF-8 with a poplar_error",
          "[graph][serialize]") {
  Device device = test::smallDevice(4);
  Graph g = test::makeGraph(device);
  Tensor v = g.addVariable(FLOAT, {4},
                           "\xff"
                           "A");
  g.setTileMapping(v, 0);
  std::ostringstream json, binary;
  CHECK_THROWS_WITH(g.serialize(json, SerializationFormat::JSON),
                    Catch::Contains("not UTF-8") && Catch::Contains("\\xffA"));
  CHECK_NOTHROW(g.serialize(binary, SerializationFormat::Binary));
  SECTION("a NUL byte is valid UTF-8 and kept") {
    Graph h = test::makeGraph(device);
    Tensor w = h.addVariable(FLOAT, {4}, std::string("A\0B", 3));
    h.setTileMapping(w, 0);
    std::ostringstream out;
    h.serialize(out, SerializationFormat::JSON);
    CHECK(out.str().find("A\\u0000B") != std::string::npos);
  }
}

TEST_CASE("A device larger than the host can hold is refused at load, naming what is too large",
          "[engine][memory]") {
  Device device = test::smallDevice(4);
  Graph g = test::makeGraph(device);
  Tensor v = g.addVariable(FLOAT, {4}, "row");
  g.setTileMapping(v, 0);
  // 2^40 rows of 16 bytes: 16 TiB of remote memory.
  RemoteBuffer rb = g.addRemoteBuffer("huge", FLOAT, 4, std::size_t(1) << 40);
  Engine e(g, Sequence{Copy(v, rb)});
  CHECK_THROWS_WITH(e.load(device),
                    Catch::Contains("remote buffer 'huge'") && Catch::Contains("host memory"));
}

TEST_CASE("An executable's stored options do not choose where the loading process writes",
          "[executable][options]") {
  test::ScratchDir dir;
  Device device = test::smallDevice(4);
  Graph g = test::makeGraph(device);
  Tensor v = g.addVariable(FLOAT, {4}, "v");
  g.setTileMapping(v, 0);
  g.createHostRead("v", v);
  const auto chosenByFile = dir / "chosen-by-the-file";
  const auto chosenHere = dir / "chosen-here";
  std::stringstream file;
  compileGraph(g, {Sequence{}},
               {{"autoReport.all", "true"}, {"autoReport.directory", chosenByFile.string()}})
      .serialize(file);
  SECTION("without options of its own, the loading program writes no report") {
    Engine e(Executable::deserialize(file));
    e.load(device);
    e.run(0);
    CHECK_FALSE(std::filesystem::exists(chosenByFile));
  }
  SECTION("its own options decide") {
    Engine e(Executable::deserialize(file),
             {{"autoReport.all", "true"}, {"autoReport.directory", chosenHere.string()}});
    e.load(device);
    e.run(0);
    CHECK(hasReport(chosenHere));
    CHECK_FALSE(std::filesystem::exists(chosenByFile));
  }
  SECTION("an executable compiled in this process keeps its options") {
    Engine e(
        compileGraph(g, {Sequence{}},
                     {{"autoReport.all", "true"}, {"autoReport.directory", chosenHere.string()}}));
    e.load(device);
    e.run(0);
    CHECK(hasReport(chosenHere));
  }
}
