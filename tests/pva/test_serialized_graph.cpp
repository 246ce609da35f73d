// pva::openSerializedGraph: everything in the file the engine writes (checked against Cap'n
// Proto's own reading of it and against the hand-computed RemoteSum example), the report's
// path to it, and broken files that must give a clear error naming the file.
#include "PvaTestUtil.hpp"
#include "SerializedGraphOracle.hpp"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <fstream>
#include <iterator>
#include <profiler/schema/profile.capnp.h>

namespace {

using Catch::Contains;

/// RemoteSum written with every report file and the serialized graph.
struct GraphFiles {
  test::ScratchDir dir;
  std::string graph = (dir / "serialized_graph.capnp").string();
  GraphFiles() {
    test::RemoteSum s;
    auto options = test::reportOptions(dir.path());
    options.set("autoReport.outputSerializedGraph", "true");
    poplar::Engine engine(s.graph, s.program, options);
  }
};

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// A message built by hand: a 1-IPU, 4-tile graph with one variable and a vertex whose field
/// names variable `regionVariable`.
std::string handBuilt(unsigned regionVariable) {
  capnp::MallocMessageBuilder message;
  auto g = message.initRoot<tessera::profiler::capnp::SerializedGraph>();
  g.setNumIpus(1);
  g.setTilesPerIpu(4);
  auto v = g.initVariables(1)[0];
  v.setName("w");
  v.setElementType("float");
  auto cs = g.initComputeSets(1)[0];
  cs.setName("cs");
  auto field = cs.initVertices(1)[0].initFields(1)[0];
  field.setName("in");
  auto region = field.initEdges(1)[0].initRegions(1)[0];
  region.setVariable(regionVariable);
  region.setEnd(4);
  auto words = capnp::messageToFlatArray(message);
  auto bytes = words.asBytes();
  return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
}

} // namespace

TEST_CASE("The serialized graph reads as the engine wrote it", "[serialized]") {
  GraphFiles f;
  const pva::SerializedGraph g = pva::openSerializedGraph(f.graph);
  test::checkAgainstRawCapnp(g, f.graph);
  // RemoteSum by hand (tests/common/RemoteSum.hpp): a = float[8] on tiles 0 and 1, one
  // SumVertex on tile 0 reading a and writing out.
  CHECK(g.path == f.graph);
  CHECK(g.numIpus == 1);
  CHECK(g.tilesPerIpu == 4);
  REQUIRE(g.variables.size() == 2);
  CHECK(g.variables[0].name == "a");
  CHECK(g.variables[0].elementType == "float");
  REQUIRE(g.variables[0].shape == std::vector<std::uint64_t>{8});
  REQUIRE(g.variables[0].mapping.size() == 2);
  CHECK(g.variables[0].mapping[1].begin == 4);
  CHECK(g.variables[0].mapping[1].tile == 1);
  REQUIRE(g.computeSets.size() == 1);
  CHECK(g.computeSets[0].name == "sum");
  REQUIRE(g.computeSets[0].vertices.size() == 1);
  const auto& vertex = g.computeSets[0].vertices[0];
  CHECK(vertex.type == "SumVertex");
  CHECK(vertex.tile == 0);
  REQUIRE(vertex.fields.size() == 2);
  REQUIRE(vertex.fields[0].edges.size() == 1);
  REQUIRE(vertex.fields[0].edges[0].size() == 1);
  CHECK(vertex.fields[0].edges[0][0].variable == 0);
  CHECK(vertex.fields[0].edges[0][0].end == 8);
}

TEST_CASE("An outline keeps each compute set's counts, tiles and variables without vertices",
          "[serialized]") {
  GraphFiles f;
  const pva::SerializedGraph g =
      pva::openSerializedGraph(f.graph, pva::SerializedGraphDetail::Outline);
  test::checkAgainstRawCapnp(g, f.graph, false);
  REQUIRE(g.computeSets.size() == 1);
  CHECK(g.computeSets[0].vertices.empty());
  CHECK(g.computeSets[0].vertexCount == 1);
  CHECK(g.computeSets[0].tiles == std::vector<unsigned>{0});
  CHECK(g.computeSets[0].variables == std::vector<unsigned>{0, 1}); // in = a, out = out
  REQUIRE(g.variables.size() == 2);
  CHECK(g.variables[1].name == "out");
}

TEST_CASE("A report knows where its serialized graph is", "[serialized]") {
  GraphFiles f;
  const pva::Report with = pva::openReport((f.dir / "profile.pop").string());
  CHECK(pva::serializedGraphPath(with) == f.graph);
  CHECK(pva::hasSerializedGraph(with));
  test::ScratchDir other;
  {
    test::RemoteSum s;
    poplar::Engine engine(s.graph, s.program,
                          test::reportOptions(other.path())); // no graph asked for
  }
  const pva::Report without = pva::openReport((other / "profile.pop").string());
  CHECK_FALSE(pva::hasSerializedGraph(without));
  CHECK_THROWS_MATCHES(pva::openSerializedGraph(pva::serializedGraphPath(without)),
                       pva::FileNotFoundError,
                       test::What(Contains("serialized_graph.capnp") && Contains("no such file")));
}

TEST_CASE("A broken serialized graph gives a clear error naming the file",
          "[serialized][hostile]") {
  GraphFiles f;
  const std::string bytes = readBytes(f.graph);
  REQUIRE(bytes.size() > 64);
  const std::string broken = (f.dir / "broken.capnp").string();
  auto errorOf = [&](const std::string& content) {
    writeBytes(broken, content);
    return test::messageOf<pva::InvalidReportError>([&] { pva::openSerializedGraph(broken); });
  };

  SECTION("empty") {
    CHECK_THAT(errorOf(""), Contains(broken) && Contains("empty file"));
  }
  SECTION("truncated to half, on a word boundary") {
    CHECK_THAT(errorOf(bytes.substr(0, bytes.size() / 16 * 8)),
               Contains(broken) && Contains("truncated"));
  }
  SECTION("truncated mid-word") {
    CHECK_THAT(errorOf(bytes.substr(0, bytes.size() - 3)),
               Contains(broken) && Contains("truncated"));
  }
  SECTION("bytes after the message") {
    CHECK_THAT(errorOf(bytes + std::string(16, 'x')),
               Contains(broken) && Contains("16 bytes after the message"));
  }
  SECTION("a segment table claiming more than the file holds") {
    std::string b = bytes;
    b[4] = b[5] = b[6] = '\x7f'; // first segment's size, in words
    CHECK_THAT(errorOf(b), Contains(broken) && Contains("serialized graph"));
  }
  SECTION("not a serialized graph at all") {
    CHECK_THAT(errorOf(readBytes((f.dir / "profile.pop").string())),
               Contains(broken) && Contains("serialized graph"));
  }
  SECTION("a field naming a variable that does not exist") {
    CHECK_THAT(errorOf(handBuilt(7)), Contains(broken) && Contains("names variable 7 of 1"));
    // An outline checks the whole file too.
    CHECK_THROWS_MATCHES(pva::openSerializedGraph(broken, pva::SerializedGraphDetail::Outline),
                         pva::InvalidReportError, test::What(Contains("names variable 7 of 1")));
  }
  SECTION("the same message with the variable in range reads") {
    writeBytes(broken, handBuilt(0));
    const auto g = pva::openSerializedGraph(broken);
    CHECK(g.computeSets.at(0).vertices.at(0).fields.at(0).edges.at(0).at(0).end == 4);
  }
}

TEST_CASE("Missing and unreadable serialized graphs are FileNotFoundErrors",
          "[serialized][hostile]") {
  test::ScratchDir dir;
  const std::string missing = (dir / "nothing.capnp").string();
  CHECK_THROWS_MATCHES(pva::openSerializedGraph(missing), pva::FileNotFoundError,
                       test::What(Contains(missing) && Contains("no such file")));
  CHECK_THROWS_MATCHES(pva::openSerializedGraph(dir.path().string()), pva::FileNotFoundError,
                       test::What(Contains(dir.path().string()) && Contains("is a directory")));
}

#ifdef TESSERA_MLP_SAMPLE
TEST_CASE("The samples' serialized graphs read as Cap'n Proto reads them",
          "[serialized][samples]") {
  for (const char* sample : {"mlp", "pipeline"}) {
    INFO(sample);
    const pva::Report report = pva::openReport(test::sampleReport(sample).string());
    REQUIRE(pva::hasSerializedGraph(report));
    const auto g = pva::openSerializedGraph(pva::serializedGraphPath(report));
    test::checkAgainstRawCapnp(g, g.path);
    test::checkAgainstRawCapnp(
        pva::openSerializedGraph(g.path, pva::SerializedGraphDetail::Outline), g.path, false);
    // Every compute set of the report is in the graph, by name.
    CHECK(g.computeSets.size() == report.compilation().computeSets().size());
  }
}
#endif
