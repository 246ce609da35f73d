// Lightweight profiling written the way Graphcore's public lightweight-profiling tutorial
// writes it: Block programs selected with profiler.blocks.filter (a two-stage pipeline over two
// IPUs, an op of each stage nested in a Block of its own), then an implicit block from
// profiler.programs.filter around a compute set whose cycles depend on its data. The codelets
// are in this file, under __POPC__.
#ifdef __POPC__
#include <poplar/Vertex.hpp>
using namespace poplar;

// About 100 turns of a loop the compiler must keep.
class BusyVertex : public SupervisorVertex {
public:
  __attribute__((target("supervisor"))) bool compute() {
    for (volatile int i{}; i < 100; ++i)
      ;
    return true;
  }
};

// The same loop run `rounds` times, one more at each execution.
class GrowingVertex : public SupervisorVertex {
public:
  InOut<unsigned> rounds;
  __attribute__((target("supervisor"))) bool compute() {
    for (unsigned r{}; r < rounds; ++r)
      for (volatile int i{}; i < 100; ++i)
        ;
    *rounds = *rounds + 1;
    return true;
  }
};

#else
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <stdexcept>

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <pva/pva.hpp>

using namespace poplar;
using namespace poplar::program;

static Device attachedIpus(unsigned count) {
  auto manager = DeviceManager::createDeviceManager();
  auto devices = manager.getDevices(TargetType::IPU, count);
  auto it = std::find_if(devices.begin(), devices.end(), [](Device &d) { return d.attach(); });
  if (it == devices.end())
    throw std::runtime_error("no IPU to attach to");
  return std::move(*it);
}

static void pipeline() {
  const unsigned numIpus = 2;
  Device device = attachedIpus(numIpus);
  Graph graph(device.getTarget());
  graph.addCodelets(__FILE__);
  const unsigned tilesPerIpu = device.getTarget().getTilesPerIPU();
  auto op = [&](const std::string &name, unsigned ipu) {
    ComputeSet cs = graph.addComputeSet(name);
    VertexRef v = graph.addVertex(cs, "BusyVertex");
    graph.setTileMapping(v, ipu * tilesPerIpu);
    return Block(Execute(cs), name);
  };
  const auto stage1 = Block(Sequence{op("op1", 0), op("op2", 0)}, "stage1");
  const auto stage2 = Block(Sequence{op("op1", 1), op("op2", 1)}, "stage2");
  Repeat loop{5, Sequence{stage1, stage2}};

  Engine engine(graph, loop, OptionFlags{{"profiler.blocks.filter", "stage.|op2"}});
  engine.load(device);
  engine.run();

  auto report = engine.getReport();
  for (unsigned ipu{}; ipu < numIpus; ++ipu) {
    const auto tile = ipu * tilesPerIpu;
    for (const auto &block : report.execution().blocks(tile)) {
      std::shared_ptr<pva::Program> program = block.program();
      std::cout << "ipu " << ipu << " " << std::setw(6) << program->name() << ": "
                << (block.cyclesTo() - block.cyclesFrom()) << " (" << block.cyclesFrom()
                << " - " << block.cyclesTo() << ")\n";
    }
  }
}

static void implicitBlocks() {
  Device device = attachedIpus(1);
  Graph graph(device.getTarget());
  graph.addCodelets(__FILE__);
  Tensor rounds = graph.addVariable(UNSIGNED_INT, {});
  graph.setTileMapping(rounds, 0);
  ComputeSet cs = graph.addComputeSet("operation");
  VertexRef v = graph.addVertex(cs, "GrowingVertex");
  graph.setTileMapping(v, 0);
  graph.connect(v["rounds"], rounds);
  graph.setInitialValue(rounds, 1u);

  Engine engine(graph, Repeat{5, Execute(cs)},
                OptionFlags{{"profiler.programs.filter", "operation"}});
  engine.load(device);
  engine.run();

  auto report = engine.getReport();
  for (const auto &block : report.execution().blocks(0))
    std::cout << "implicit " << block.program()->name() << ": "
              << block.cyclesTo() - block.cyclesFrom() << "\n";
}

int main() {
  pipeline();
  implicitBlocks();
  return 0;
}
#endif
