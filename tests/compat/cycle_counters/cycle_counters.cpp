// Timing a compute set with the tiles' cycle counters (poplar::cycleCount, cycleStamp), then
// checking the counts against the execution profile read back with libpva.
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include <poplar/CycleCount.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/pva.hpp>

using namespace poplar;
using namespace poplar::program;

static std::uint64_t counterValue(const std::vector<unsigned> &halves) {
  return std::uint64_t(halves[0]) | (std::uint64_t(halves[1]) << 32);
}

// Cycles the profile shows on IPU 0 from the step of program `from` up to (not including) the
// next step of program `to`.
static std::uint64_t profiledCycles(const pva::Report &report, const std::string &from, const std::string &to) {
  std::uint64_t total = 0;
  bool counting = false;
  for (const auto &step : report.execution().steps()) {
    const std::string name = step.program()->name();
    if (counting && name == to)
      return total;
    if (!counting && name == from)
      counting = true;
    if (counting)
      for (const auto &ipu : step.ipus())
        if (ipu.ipu() == 0)
          total += ipu.cycles();
  }
  return 0; // not found
}

int main() {
  const unsigned rows = 8, cols = 200;
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("dot_codelets.cpp");

  Tensor a = graph.addVariable(FLOAT, {rows, cols}, "a");
  Tensor b = graph.addVariable(FLOAT, {rows, cols}, "b");
  Tensor dots = graph.addVariable(FLOAT, {rows}, "dots");
  ComputeSet cs = graph.addComputeSet("dots");
  for (unsigned r = 0; r < rows; ++r) {
    graph.setTileMapping(a[r], r);
    graph.setTileMapping(b[r], (r + 1) % rows); // b's rows are one tile along: an exchange
    graph.setTileMapping(dots[r], r);
    VertexRef v = graph.addVertex(cs, "Dot", {{"a", a[r]}, {"b", b[r]}, {"out", dots[r]}});
    graph.setTileMapping(v, r);
  }
  graph.createHostWrite("a", a);
  graph.createHostWrite("b", b);
  graph.createHostRead("dots", dots);

  Sequence timed{Execute(cs)};
  Tensor cycles = cycleCount(graph, timed, 0, SyncType::INTERNAL, "timer");
  Sequence prog;
  Tensor before = cycleStamp(graph, prog, 3, SyncType::INTERNAL, "before");
  prog.add(timed);
  Tensor after = cycleStamp(graph, prog, 3, SyncType::INTERNAL, "after");
  graph.createHostRead("cycles", cycles);
  graph.createHostRead("before", before);
  graph.createHostRead("after", after);

  Engine engine(graph, prog, {{"autoReport.all", "true"}, {"autoReport.directory", "report"}});
  engine.load(device);
  std::vector<float> av(rows * cols), bv(rows * cols), dv(rows);
  for (unsigned i = 0; i < rows * cols; ++i) {
    av[i] = float(i % 3);
    bv[i] = 0.5f;
  }
  engine.writeTensor("a", av.data(), av.data() + av.size());
  engine.writeTensor("b", bv.data(), bv.data() + bv.size());
  engine.run(0);
  std::vector<unsigned> c(2), s0(2), s1(2);
  engine.readTensor("dots", dv.data(), dv.data() + rows);
  engine.readTensor("cycles", c.data(), c.data() + 2);
  engine.readTensor("before", s0.data(), s0.data() + 2);
  engine.readTensor("after", s1.data(), s1.data() + 2);

  unsigned wrong = 0;
  for (unsigned r = 0; r < rows; ++r) {
    float expect = 0;
    for (unsigned j = 0; j < cols; ++j)
      expect += av[r * cols + j] * bv[r * cols + j];
    if (dv[r] != expect) ++wrong;
  }
  std::cout << (wrong ? "the dot products are WRONG\n" : "the dot products match the host\n");

  const pva::Report report = pva::openReport("report/profile.pop");
  const std::uint64_t counted = counterValue(c);
  const std::uint64_t shown = profiledCycles(report, "timer/cycleCount/start", "timer/cycleCount/end");
  const std::uint64_t stamped = counterValue(s1) - counterValue(s0);
  const std::uint64_t shownStamped = profiledCycles(report, "before/cycleStamp", "after/cycleStamp");
  std::cout << "cycleCount: " << counted << " cycles, profile: " << shown << " cycles\n";
  std::cout << "cycleStamp difference: " << stamped << " cycles, profile: " << shownStamped << " cycles\n";
  const bool ok = !wrong && counted == shown && stamped == shownStamped && counted > 2 * cols &&
                  stamped > counted;
  std::cout << (ok ? "the counters agree with the profile\n" : "the counters DISAGREE with the profile\n");
  return ok ? 0 : 1;
}
