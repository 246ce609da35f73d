// What a user sees when a codelet file cannot be used: each a poplar_error subclass whose
// message names the file and the problem.
#include "CodeletFiles.hpp"
#include "common/Exceptions.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

using namespace poplar;
namespace fs = std::filesystem;

namespace {

Graph smallGraph() {
  IPUModel model;
  model.tilesPerIPU = 4;
  return Graph(model.createDevice().getTarget());
}

} // namespace

TEST_CASE("a codelet with a syntax error gives the compiler's diagnostic with file and line",
          "[codelets][errors]") {
  test::CodeletScratch scratch;
  const auto file = scratch.write("broken_codelets.cpp", "#include <poplar/Vertex.hpp>\n"
                                                         "class Broken : public poplar::Vertex {\n"
                                                         "public:\n"
                                                         "  bool compute() { return 1 + ; }\n"
                                                         "};\n");
  Graph graph = smallGraph();
  const std::string what =
      test::messageOf<codelet_compilation_error>([&] { graph.addCodelets(file.string()); });
  CHECK_THAT(what, Catch::Contains(file.string() + ":4:"));
  CHECK_THAT(what, Catch::Contains("error"));
  CHECK_THAT(what, Catch::Contains("does not compile"));
  // A failed compile leaves nothing in the cache that a later run could trust.
  CHECK(scratch.entries().empty());
}

TEST_CASE("a vertex field of a type Tessera cannot connect names the class and the field",
          "[codelets][errors]") {
  test::CodeletScratch scratch;
  const auto file =
      scratch.write("double_codelets.cpp", "#include <poplar/Vertex.hpp>\n"
                                           "class Averages : public poplar::Vertex {\n"
                                           "public:\n"
                                           "  poplar::Input<poplar::Vector<double>> samples;\n"
                                           "  bool compute() { return true; }\n"
                                           "};\n");
  Graph graph = smallGraph();
  const std::string what =
      test::messageOf<unsupported_vertex_field>([&] { graph.addCodelets(file.string()); });
  CHECK_THAT(what, Catch::Contains("'Averages'"));
  CHECK_THAT(what, Catch::Contains("'samples'"));
  CHECK_THAT(what, Catch::Contains(file.string() + ":4:"));
}

TEST_CASE("a missing codelet file names every path tried", "[codelets][errors]") {
  test::CodeletScratch scratch;
  Graph graph = smallGraph();
  const std::string what =
      test::messageOf<codelet_file_error>([&] { graph.addCodelets("no_such_codelets.cpp"); });
  const fs::path exeDir = fs::read_symlink("/proc/self/exe").parent_path();
  CHECK_THAT(what, Catch::Contains((fs::current_path() / "no_such_codelets.cpp").string()));
  CHECK_THAT(what, Catch::Contains((exeDir / "no_such_codelets.cpp").string()));
  CHECK_THAT(what, Catch::Contains("not found"));
  // An absolute path has nowhere else to be looked for.
  const fs::path absent = scratch / "absent.cpp";
  const std::string absolute =
      test::messageOf<codelet_file_error>([&] { graph.addCodelets(absent.string()); });
  CHECK_THAT(absolute, Catch::Contains(absent.string()));
  CHECK_THAT(absolute, !Catch::Contains(exeDir.string() + "/"));
}

TEST_CASE("without a host compiler the error names the Debian package to install",
          "[codelets][errors]") {
  test::CodeletScratch scratch;
  const auto file = scratch.write("sum_codelets.cpp", test::kSumCodelet);
  const test::ScopedEnv noCompiler("TESSERA_CODELET_CXX",
                                   (scratch / "no-such-dir/clang++-14").string());
  Graph graph = smallGraph();
  const std::string what =
      test::messageOf<missing_host_compiler>([&] { graph.addCodelets(file.string()); });
  CHECK_THAT(what, Catch::Contains("clang-14"));
  CHECK_THAT(what, Catch::Contains("sum_codelets.cpp"));
  CHECK(scratch.entries().empty());
}

TEST_CASE("a .gp that popc did not make is refused with the reason", "[codelets][errors]") {
  test::CodeletScratch scratch;
  const auto file = scratch.write("fake.gp", "\x7f"
                                             "ELF and then nothing a loader wants");
  Graph graph = smallGraph();
  const std::string what =
      test::messageOf<codelet_file_error>([&] { graph.addCodelets(file.string()); });
  CHECK_THAT(what, Catch::Contains(file.string()));
  CHECK_THAT(what, Catch::Contains("popc"));
}

TEST_CASE("a .gp whose trailer does not cover the whole shared object is refused before dlopen",
          "[codelets][errors]") {
  // Found by independent fuzzing (docs/reliability.md, fourth campaign): the trailer said the
  // object had 0 bytes, so its checksum covered nothing, and its "metadata" swallowed the whole
  // ELF file, which was then dlopen'ed and its vertex used.
  const std::string file = std::string(TESSERA_TEST_DATA_DIR) + "/fuzz/gp-uncovered-object.gp";
  Graph graph = smallGraph();
  const std::string what = test::messageOf<codelet_file_error>([&] { graph.addCodelets(file); });
  CHECK_THAT(what, Catch::Contains(file));
  CHECK_THAT(what, Catch::Contains("does not cover a shared object"));
}
