// Writes the executables that tests/data/executables and fuzz/corpus/fuzz_executable hold, in
// this build's format: one small valid executable, and for each reproducer that executable with
// the one field altered that the reproducer was made for (issue 40), so that each still reaches
// the check it tests rather than failing earlier for another reason. Run after a format change:
//
//   make_exe_reproducers tests/data/executables fuzz/corpus/fuzz_executable
//
// The graph (1 IPU x 4 tiles): stream "in" -> a (4 floats), popops::Fill<float> of a, a -> remote
// buffer "rb" (2 rows of 4), If(pred) PrintTensor("a", a). Altered fields are written as they
// are: the writer checks nothing, the reader must.
#include "executable/ExecutableState.hpp"

#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/codelets.hpp>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using detail::compiler::CompiledGraph;
using detail::compiler::LoweredProgram;

namespace {

std::string tinyExecutable(const OptionFlags& options) {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph g(device.getTarget());
  popops::addCodelets(g);
  Tensor a = g.addVariable(FLOAT, {4}, "a");
  Tensor pred = g.addVariable(INT, {}, "pred");
  g.setTileMapping(a, 0);
  g.setTileMapping(pred, 0);
  g.setInitialValue(pred, 1);
  ComputeSet fill = g.addComputeSet("fill");
  VertexRef v = g.addVertex(fill, "popops::Fill<float>", {{"out", a}});
  g.setInitialValue(v["value"], 2.5f);
  g.setTileMapping(v, 0);
  DataStream in = g.addHostToDeviceFIFO("in", FLOAT, 4);
  RemoteBuffer rb = g.addRemoteBuffer("rb", FLOAT, 4, 2);
  program::Sequence main(
      {program::Copy(in, a, false, "feed"), program::Execute(fill, "exec"),
       program::Copy(a, rb, "tormt"),
       program::If(pred, program::Sequence{program::PrintTensor("a", a, "print")},
                   program::Sequence{}, "cond")},
      "main");
  Executable exe = compileGraph(g, {main}, options);
  std::ostringstream out;
  exe.serialize(out);
  return out.str();
}

std::unique_ptr<core::Executable> read(const std::string& bytes) {
  std::istringstream in(bytes);
  return detail::executable::readExecutable(in, true);
}

LoweredProgram& programNamed(CompiledGraph& g, const std::string& name) {
  for (auto& p : g.programs)
    if (p.name == name) return p;
  throw std::runtime_error("the tiny executable has no program '" + name + "'");
}

/// The first edge of the first vertex's first field, and that edge's first run (in the compute
/// set's pools).
detail::compiler::CompiledEdge& firstEdge(CompiledGraph& g) {
  auto& cs = g.computeSets[0];
  return cs.edges[cs.fields[cs.vertices[0].firstField].firstEdge];
}
detail::compiler::ByteRun& firstRun(CompiledGraph& g) {
  return g.computeSets[0].runs[firstEdge(g).firstRun];
}

/// The 64 GiB arena: variable a made 2^34 floats, mapped whole, and pred (with the If's
/// condition) moved after it, so the file is consistent but for the memory it asks for.
void arena64GiB(CompiledGraph& g) {
  const std::size_t n = std::size_t(1) << 34;
  g.variables[0].shape = {n};
  g.variables[0].numElements = n;
  g.variables[0].mapping = {{0, n, 0}};
  g.variables[1].arenaOffset = n * 4;
  programNamed(g, "cond").scalar.offset = n * 4;
  g.arenaBytes = n * 4 + 8;
}

struct Case {
  std::string file;
  OptionFlags options;
  std::function<void(CompiledGraph&)> alter;
  bool inTests; ///< tests/data/executables (exe_runner) as well as the fuzz corpus
};

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: make_exe_reproducers TESTS_DIR CORPUS_DIR\n";
    return 2;
  }
  const OptionFlags fileReports{{"autoReport.all", "true"},
                                {"autoReport.directory", "repro4-chosen-by-the-file"}};
  const std::vector<Case> cases{
      {"exe-valid-tiny", {}, [](CompiledGraph&) {}, true},
      // X1: a vertex field bound to no memory.
      {"exe-edge-without-runs", {}, [](CompiledGraph& g) { firstEdge(g).numRuns = 0; }, true},
      // X2: an If without its condition, its scalar far outside the arena.
      {"exe-if-without-scalar",
       {},
       [](CompiledGraph& g) {
         auto& p = programNamed(g, "cond");
         p.hasScalar = false;
         p.scalar.offset = std::size_t(1) << 40;
       },
       true},
      // X3: a PrintTensor of nothing, and one whose shape is larger than its elements.
      {"exe-print-scalar-of-nothing",
       {},
       [](CompiledGraph& g) {
         auto& p = programNamed(g, "print");
         p.printShape.clear();
         p.transfer.numElements = 0;
         p.transfer.runs.clear();
         p.transfer.regions.clear();
       },
       true},
      {"exe-print-shape-1000",
       {},
       [](CompiledGraph& g) { programNamed(g, "print").printShape = {1000}; },
       true},
      // X4: host memory: 2^30 rows of a remote buffer, a stream of 2^33 elements over no runs,
      // a 64 GiB arena (with and without the file's own debug.allowOutOfMemory).
      {"exe-remote-buffer-2e30-rows",
       {},
       [](CompiledGraph& g) { g.remoteBuffers[0].repeats = std::size_t(1) << 30; },
       true},
      {"exe-stream-2e33-elements",
       {},
       [](CompiledGraph& g) {
         auto& p = programNamed(g, "feed");
         p.transfer.numElements = std::size_t(1) << 33;
         p.transfer.runs.clear();
         p.transfer.regions.clear();
         g.streams[0].numElements = std::size_t(1) << 33;
       },
       true},
      {"exe-arena-64GiB", {}, arena64GiB, true},
      {"exe-arena-64GiB-allow-oom", {{"debug.allowOutOfMemory", "true"}}, arena64GiB, true},
      // The options stored in the file must not choose where the loading process reports.
      {"exe-options-report-directory", fileReports, [](CompiledGraph&) {}, true},
      // X9: a float field's run at byte 1.
      {"exe-misaligned-float-run", {}, [](CompiledGraph& g) { firstRun(g).offset = 1; }, true},
      // Findings kept in the fuzz corpus only.
      {"misaligned-float-run", fileReports, [](CompiledGraph& g) { firstRun(g).offset = 1; },
       false},
      {"print-digits-2e31",
       {},
       [](CompiledGraph& g) { programNamed(g, "print").printFormat.digits = 1u << 31; },
       false},
      {"print-precision-3e9", fileReports,
       [](CompiledGraph& g) { programNamed(g, "print").printFormat.digits = 3000000000u; }, false},
      {"remote-buffer-no-rows",
       {},
       [](CompiledGraph& g) { g.remoteBuffers[0].repeats = 0; },
       false},
      {"host-link-rate-tiny", fileReports,
       [](CompiledGraph& g) {
         for (Target* t : {&g.target, &g.replicaTarget}) {
           Target::Params p = t->params();
           p.hostLinkBytesPerCycle = 1e-300;
           *t = Target(p);
         }
       },
       false},
  };
  for (const auto& c : cases) {
    auto exe = read(tinyExecutable(c.options));
    c.alter(exe->compiled);
    std::ostringstream out;
    detail::executable::writeExecutable(*exe, out);
    for (const std::string dir :
         {c.inTests ? std::string(argv[1]) : std::string(), std::string(argv[2])}) {
      if (dir.empty()) continue;
      const std::string path = dir + "/" + c.file + ".exe";
      std::ofstream f(path, std::ios::binary);
      f << out.str();
      if (!f) {
        std::cerr << "make_exe_reproducers: cannot write " << path << "\n";
        return 1;
      }
      std::cout << path << " (" << out.str().size() << " bytes)\n";
    }
  }
  return 0;
}
