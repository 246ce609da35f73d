// Lightweight profiling of I/O, written the way Graphcore's public lightweight-profiling
// tutorial writes it: an input streamed to an I/O tile while another tile computes, the stream
// copies instrumented with debug.instrumentExternalExchange; then an operation run a hundred
// times with the block buffer's implicit flushes off and on.
#ifdef __POPC__
#include <poplar/Vertex.hpp>
using namespace poplar;

class DummyVertex : public SupervisorVertex {
public:
  Input<int> input;
  __attribute__((target("supervisor"))) bool compute() {
    for (volatile int i{}; i < 100 + input; ++i)
      ;
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

static Device attachedIpu() {
  auto manager = DeviceManager::createDeviceManager();
  auto devices = manager.getDevices(TargetType::IPU, 1);
  auto it = std::find_if(devices.begin(), devices.end(), [](Device &d) { return d.attach(); });
  if (it == devices.end())
    throw std::runtime_error("no IPU to attach to");
  return std::move(*it);
}

static std::string typeName(const std::shared_ptr<pva::Program> &program) {
  switch (program->type()) {
  case pva::Program::Type::StreamCopyBegin:
    return "StreamCopyBegin";
  case pva::Program::Type::StreamCopyMid:
    return "StreamCopyMid";
  case pva::Program::Type::StreamCopyEnd:
    return "StreamCopyEnd";
  default:
    return "other";
  }
}

static void overlappedIo() {
  Device device = attachedIpu();
  Graph graph(device.getTarget());
  graph.addCodelets(__FILE__);
  const unsigned computeTile{0};
  const unsigned ioTile{100};

  ComputeSet op = graph.addComputeSet("operation");
  VertexRef v = graph.addVertex(op, "DummyVertex");
  graph.setTileMapping(v, computeTile);
  Tensor in1 = graph.addVariable(INT, {});
  Tensor in2 = graph.addVariable(INT, {});
  graph.setTileMapping(in1, ioTile);
  graph.setTileMapping(in2, computeTile);
  graph.connect(v["input"], in2);
  auto inStream = graph.addHostToDeviceFIFO("in", INT, 1);

  Sequence seq{Copy(inStream, in1),
               Repeat{4, Sequence{Copy(in1, in2), Copy(inStream, in1), Execute(op)}},
               Copy(in1, in2), Execute(op)};
  OptionFlags engineOpts{{"profiler.programs.filter", "operation"},
                         {"debug.instrumentExternalExchange", "true"},
                         {"profiler.blocks.implicitFlush", "false"}};
  Engine engine(graph, seq, engineOpts);
  int value{0}; // the host sends zeroes
  engine.connectStream("in", &value);
  engine.load(device);
  engine.run();

  auto report = engine.getReport();
  for (const unsigned tile : {computeTile, ioTile}) {
    for (const auto &block : report.execution().blocks(tile)) {
      const auto from = block.cyclesFrom();
      const auto to = block.cyclesTo();
      std::cout << std::setw(20)
                << (block.isStreamCopy() ? typeName(block.program()) : block.program()->name())
                << " in tile " << std::setw(4) << block.tile() << ": " << (to - from) << "\n";
    }
  }
}

static void flushes(bool implicitFlush) {
  Device device = attachedIpu();
  Graph graph(device.getTarget());
  graph.addCodelets(__FILE__);
  ComputeSet op = graph.addComputeSet("operation");
  VertexRef v = graph.addVertex(op, "DummyVertex");
  graph.setTileMapping(v, 0);
  Tensor input = graph.addConstant(INT, {}, 0);
  graph.setTileMapping(input, 0);
  graph.connect(v["input"], input);
  Sequence seq{Repeat{100, Sequence{Execute(op)}}};

  OptionFlags engineOpts{{"profiler.programs.filter", "operation"},
                         {"profiler.blocks.implicitFlush", implicitFlush ? "true" : "false"}};
  if (implicitFlush)
    engineOpts.set("debug.instrumentExternalExchange", "true");
  auto report = [&]() {
    Engine engine(graph, seq, engineOpts);
    engine.load(device);
    engine.run();
    return engine.getReport();
  }();

  unsigned numCommonBlocks{}, numStreamCopies{}, numOverflows{}, numFlushes{}, numBlocks{};
  for (const auto &block : report.execution().blocks(0)) {
    if (block.isCommon())
      ++numCommonBlocks;
    else if (block.isOverflow())
      ++numOverflows;
    else if (block.isBlockFlush())
      ++numFlushes;
    else if (block.isStreamCopy())
      ++numStreamCopies;
    ++numBlocks;
  }
  std::cout << "implicitFlush " << implicitFlush << ": numBlocks " << numBlocks
            << ", numCommonBlocks " << numCommonBlocks << ", numOverflows " << numOverflows
            << ", numFlushes " << numFlushes << ", numStreamCopies " << numStreamCopies << "\n";
}

int main() {
  overlappedIo();
  flushes(false);
  flushes(true);
  return 0;
}
#endif
