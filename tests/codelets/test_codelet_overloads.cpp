// The other addCodelets overloads: a source read from a stream with the compiler's messages
// in compileOutput, compile flags, and a .gp made by popc ahead of time.
#include "CodeletFiles.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <sstream>

using namespace poplar;

namespace {

Graph smallGraph() {
  IPUModel model;
  model.tilesPerIPU = 4;
  return Graph(model.createDevice().getTarget());
}

} // namespace

TEST_CASE("a codelet read from a stream compiles with its warnings in compileOutput",
          "[codelets][overloads]") {
  test::CodeletScratch scratch;
  std::istringstream source(std::string("#warning \"a note from the codelet\"\n") +
                            test::kSumCodelet);
  std::ostringstream output;
  Graph graph = smallGraph();
  graph.addCodelets(source, CodeletFileType::CppSource, "", output);
  CHECK_THAT(output.str(), Catch::Contains("a note from the codelet"));
  CHECK_NOTHROW(graph.addVertex(graph.addComputeSet(), "Sum"));
}

TEST_CASE("compile flags reach the codelet and a .gp from popc loads", "[codelets][overloads]") {
  test::CodeletScratch scratch;
  const auto file =
      scratch.write("flag_codelets.cpp", "#include <poplar/Vertex.hpp>\n"
                                         "class FLAGGED : public poplar::Vertex {\npublic:\n"
                                         "  poplar::Output<float> out;\n"
                                         "  void compute() { *out = 1; }\n};\n");
  Graph graph = smallGraph();
  graph.addCodelets(file.string(), CodeletFileType::Auto, "-DFLAGGED=Flagged");
  CHECK_NOTHROW(graph.addVertex(graph.addComputeSet(), "Flagged"));

  const auto gp = scratch / "ahead.gp";
  REQUIRE(std::system((std::string(POPC) + " -DFLAGGED=Ahead -o '" + gp.string() + "' '" +
                       file.string() + "'")
                          .c_str()) == 0);
  Graph other = smallGraph();
  other.addCodelets(gp.string());
  CHECK_NOTHROW(other.addVertex(other.addComputeSet(), "Ahead"));
}
