// What libpva documents about the figures it returns, checked where the data enter (issue 40):
// insights' memory is summarize's; cycle rules add up to the vertex count; runs hold disjoint
// spans of steps; names come back whole, NUL bytes included. A report breaking a promise is an
// InvalidReportError, never a figure that silently disagrees with another.
#include "PvaTestUtil.hpp"

#include <fstream>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/Analysis.hpp>
#include <pva/Insights.hpp>
#include <pva/SerializedGraph.hpp>
#include <sstream>

namespace {

std::filesystem::path copyMlp(const test::ScratchDir& dir) {
  const std::filesystem::path& profile = test::sampleReport("mlp");
  std::filesystem::copy_file(profile, dir / "profile.pop");
  return dir / "profile.pop";
}

} // namespace

TEST_CASE("insights(report).memory is summarize(report).memory", "[pva][insights][promises]") {
  for (const char* sample : {"mlp", "oom"}) {
    INFO(sample);
    const pva::Report report = pva::openReport(test::sampleReport(sample).string());
    const pva::MemorySummary expected = pva::summarize(report).memory;
    const pva::MemorySummary got = pva::insights(report).memory;
    REQUIRE(expected.numTiles > 0);
    CHECK(got.numTiles == expected.numTiles);
    CHECK(got.tilesUsed == expected.tilesUsed);
    CHECK(got.capacityBytes == expected.capacityBytes);
    CHECK(got.includingGapsBytes == expected.includingGapsBytes);
    CHECK(got.excludingGapsBytes == expected.excludingGapsBytes);
    CHECK(got.alwaysLiveBytes == expected.alwaysLiveBytes);
    REQUIRE(got.categories.size() == expected.categories.size());
    for (std::size_t i = 0; i < got.categories.size(); ++i) {
      CHECK(got.categories[i].name == expected.categories[i].name);
      CHECK(got.categories[i].nonOverlapped == expected.categories[i].nonOverlapped);
      CHECK(got.categories[i].overlapped == expected.categories[i].overlapped);
    }
  }
}

TEST_CASE("Cycle rules that do not add up to the vertex count are an InvalidReportError",
          "[pva][promises]") {
  test::ScratchDir dir;
  const auto profile = copyMlp(dir);
  auto allRules = [&] {
    const pva::Report report = pva::openReport(profile.string());
    std::uint64_t n = 0;
    for (const pva::ComputeSet& cs : report.compilation().computeSets())
      for (const pva::ComputeSetVertices& v : cs.vertices()) {
        std::uint64_t sum = 0;
        for (const auto& r : v.cycleRules())
          sum += r.count;
        CHECK(sum == v.count());
        ++n;
      }
    return n;
  };
  REQUIRE(allRules() > 0);
  SECTION("one more") {
    test::execSql(profile, "UPDATE vertex_cycle_rules SET count = count + 1");
  }
  SECTION("negative") {
    test::execSql(profile, "UPDATE vertex_cycle_rules SET count = -count");
  }
  CHECK_THROWS_AS(allRules(), pva::InvalidReportError);
}

TEST_CASE("Runs whose steps overlap, or that disagree with the steps, are an InvalidReportError",
          "[pva][promises]") {
  test::ScratchDir dir;
  const auto profile = copyMlp(dir);
  {
    const pva::Report report = pva::openReport(profile.string());
    REQUIRE(report.execution().runs().size() >= 2);
  }
  SECTION("every run from step 0") {
    test::execSql(profile, "UPDATE runs SET first_step = 0");
    CHECK_THROWS_WITH(pva::openReport(profile.string()).execution().runs(),
                      Catch::Contains("overlapping"));
    CHECK_THROWS_AS(pva::analyseExecution(pva::openReport(profile.string())),
                    pva::InvalidReportError);
  }
  SECTION("a step naming another run") {
    test::execSql(profile, "UPDATE steps SET run = 1 WHERE id = 0");
    CHECK_THROWS_WITH(pva::openReport(profile.string()).execution().runs(),
                      Catch::Contains("belongs to run 1"));
  }
}

TEST_CASE("Names holding NUL bytes come back whole from a serialized graph",
          "[pva][serializedGraph][promises]") {
  test::ScratchDir dir;
  poplar::IPUModel model;
  model.tilesPerIPU = 4;
  poplar::Device device = model.createDevice();
  poplar::Graph g(device.getTarget());
  const std::string name("A\0B", 3);
  poplar::Tensor t = g.addVariable(poplar::FLOAT, {4}, name);
  g.setTileMapping(t, 0);
  const auto path = dir / "graph.capnp";
  {
    std::ofstream out(path, std::ios::binary);
    g.serialize(out, poplar::SerializationFormat::Binary);
  }
  const pva::SerializedGraph read = pva::openSerializedGraph(path.string());
  REQUIRE(read.variables.size() == 1);
  CHECK(read.variables[0].name == name);
  CHECK(read.variables[0].name.size() == 3);
}
