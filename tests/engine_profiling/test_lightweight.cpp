// Lightweight profiling as Poplar does it (docs/profiling.md, "Lightweight profiling"): blocks
// alone make a report; a block is recorded only on the IPUs that run it; profiler.programs.filter
// wraps programs in implicit blocks; stream copies are blocks on the tiles doing the I/O when
// external exchange is instrumented; the block buffer overflows, and implicit flushes at the end
// of loop iterations empty it unless profiler.blocks.implicitFlush is false. The shapes follow
// Graphcore's public lightweight-profiling tutorial (its examples 1, 2, 3 and 3a).
#include "common/Devices.hpp"
#include "common/TestCodelets.hpp"

#include <catch2/catch.hpp>
#include <memory>
#include <poplar/Engine.hpp>
#include <pva/pva.hpp>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

/// A compute set named `name` with one IncrementVertex on `tile` (5 cycles).
Execute operation(Graph& graph, const std::string& name, unsigned tile) {
  Tensor counter = graph.addVariable(UNSIGNED_INT, {}, name + "/counter");
  graph.setTileMapping(counter, tile);
  graph.setInitialValue(counter, 0u);
  ComputeSet cs = graph.addComputeSet(name);
  graph.setTileMapping(graph.addVertex(cs, "IncrementVertex", {{"counter", counter}}), tile);
  return Execute(cs, name);
}

struct Counts {
  unsigned common = 0, overflow = 0, flush = 0, streamCopy = 0;
};

Counts count(const std::vector<pva::Block>& blocks) {
  Counts c;
  for (const pva::Block& b : blocks)
    (b.isCommon()       ? c.common
     : b.isOverflow()   ? c.overflow
     : b.isBlockFlush() ? c.flush
                        : c.streamCopy)++;
  return c;
}

} // namespace

TEST_CASE("profiler.blocks.filter alone gives a report with the blocks, each on the IPUs that "
          "run it",
          "[execution][blocks]") {
  // Tutorial example 1: a two-stage pipeline, a stage on each IPU, each op a nested Block.
  Device device = test::smallDevice(4, 2);
  Graph graph = test::makeGraph(device);
  const unsigned tilesPerIpu = device.getTarget().getTilesPerIPU();
  auto op = [&](const std::string& name, unsigned ipu) {
    return Block(operation(graph, name + std::to_string(ipu), ipu * tilesPerIpu), name);
  };
  const Block stage1(Sequence{op("op1", 0), op("op2", 0)}, "stage1");
  const Block stage2(Sequence{op("op1", 1), op("op2", 1)}, "stage2");
  Engine engine(graph, Repeat(5, Sequence{stage1, stage2}),
                {{"profiler.blocks.filter", "stage.|op2"}});
  engine.load(device);
  engine.run();
  const pva::Report report = engine.getReport();
  for (unsigned ipu = 0; ipu < 2; ++ipu) {
    INFO("IPU " << ipu);
    std::vector<std::string> names;
    std::uint64_t stageCycles = 0, opCycles = 0;
    for (const pva::Block& b : report.execution().blocks(ipu * tilesPerIpu)) {
      // The SDK's signature: a non-const Program.
      const std::shared_ptr<pva::Program> program = b.program();
      names.push_back(program->name());
      CHECK(b.tile() == ipu * tilesPerIpu);
      (program->name().rfind("stage", 0) == 0 ? stageCycles : opCycles) =
          b.cyclesTo() - b.cyclesFrom();
    }
    const std::string stage = ipu == 0 ? "stage1" : "stage2";
    // Nested blocks end first: op2, then its stage, five times; never the other IPU's stage.
    std::vector<std::string> expected;
    for (unsigned i = 0; i < 5; ++i)
      expected.insert(expected.end(), {"op2", stage});
    CHECK(names == expected);
    CHECK(opCycles > 0);
    CHECK(stageCycles > opCycles); // a stage holds both ops
  }
}

TEST_CASE("profiler.programs.filter measures each execution of the programs it names",
          "[execution][blocks]") {
  // Tutorial example 2: a compute set run five times, instrumented by name.
  Device device = test::smallDevice(4);
  Graph graph = test::makeGraph(device);
  Engine engine(graph, Repeat(5, operation(graph, "operation", 0)),
                {{"profiler.programs.filter", "operation"}});
  engine.load(device);
  engine.run();
  const pva::Report report = engine.getReport();
  const auto blocks = report.execution().blocks(0);
  REQUIRE(count(blocks).common == 5);
  for (const pva::Block& b : blocks) {
    if (!b.isCommon()) continue;
    CHECK(b.program()->name() == "operation");
    CHECK(b.cyclesTo() - b.cyclesFrom() >= 30 + 5 * 6); // the launch and the vertex at least
  }
}

TEST_CASE("stream copies are blocks on the tiles doing the I/O when external exchange is "
          "instrumented",
          "[execution][blocks]") {
  // Tutorial example 3: the input arrives on an I/O tile while tile 0 computes.
  const unsigned computeTile = 0, ioTile = 3;
  for (const bool instrumented : {false, true}) {
    INFO("debug.instrumentExternalExchange " << instrumented);
    Device device = test::smallDevice(4);
    Graph graph = test::makeGraph(device);
    Tensor in1 = graph.addVariable(FLOAT, {1}, "in1"), in2 = graph.addVariable(FLOAT, {1}, "in2");
    Tensor out = graph.addVariable(FLOAT, {}, "out");
    graph.setTileMapping(in1, ioTile);
    graph.setTileMapping(in2, computeTile);
    graph.setTileMapping(out, computeTile);
    ComputeSet op = graph.addComputeSet("operation");
    graph.setTileMapping(graph.addVertex(op, "SumVertex", {{"in", in2}, {"out", out}}),
                         computeTile);
    DataStream inStream = graph.addHostToDeviceFIFO("in", FLOAT, 1);
    const Sequence seq{Copy(inStream, in1),
                       Repeat(4, Sequence{Copy(in1, in2), Copy(inStream, in1), Execute(op)}),
                       Copy(in1, in2), Execute(op)};
    Engine engine(graph, seq,
                  {{"profiler.programs.filter", "operation"},
                   {"debug.instrumentExternalExchange", instrumented ? "true" : "false"},
                   {"profiler.blocks.implicitFlush", "false"}});
    engine.load(device);
    float value = 1;
    engine.connectStream("in", &value);
    engine.run();
    const pva::Report report = engine.getReport();
    const Counts compute = count(report.execution().blocks(computeTile));
    const Counts io = count(report.execution().blocks(ioTile));
    CHECK(compute.common == 5);
    // The run's two control stream copies, a triplet each, on the blocks tile (tile 0), as the
    // tutorial shows them; no copy of the program's own there.
    CHECK(compute.streamCopy == (instrumented ? 6u : 0u));
    if (instrumented) {
      const auto blocks = report.execution().blocks(computeTile);
      for (std::size_t i = 0; i < 6; ++i) {
        INFO("control copy block " << i);
        CHECK(blocks.at(i).isStreamCopy());
        CHECK(blocks.at(i).program()->name() == "ControlStreamCopy");
        CHECK(blocks.at(i).program()->type() == (i % 3 == 0   ? pva::Program::Type::StreamCopyBegin
                                                 : i % 3 == 1 ? pva::Program::Type::StreamCopyMid
                                                              : pva::Program::Type::StreamCopyEnd));
        if (i) CHECK(blocks.at(i).cyclesFrom() == blocks.at(i - 1).cyclesTo()); // one after another
      }
      // Before the run's first step: the program's first block starts after them.
      for (std::size_t i = 6; i < blocks.size(); ++i)
        CHECK(blocks[i].cyclesFrom() >= blocks[5].cyclesTo());
    }
    CHECK(io.common == 0);
    // Five copies from the host, each a StreamCopyBegin/Mid/End triplet.
    CHECK(io.streamCopy == (instrumented ? 15u : 0u));
    if (instrumented)
      for (const pva::Block& b : report.execution().blocks(ioTile)) {
        const auto type = b.program()->type();
        CHECK((type == pva::Program::Type::StreamCopyBegin ||
               type == pva::Program::Type::StreamCopyMid ||
               type == pva::Program::Type::StreamCopyEnd));
      }
  }
}

TEST_CASE("the block buffer overflows without flushes; implicit flushes at loop ends keep "
          "every block",
          "[execution][blocks]") {
  // Tutorial example 3a: one operation a hundred times with the default 1000-byte buffer.
  auto run = [](bool implicitFlush) {
    Device device = test::smallDevice(4);
    Graph graph = test::makeGraph(device);
    Engine engine(graph, Repeat(100, operation(graph, "operation", 0)),
                  {{"profiler.programs.filter", "operation"},
                   {"profiler.blocks.implicitFlush", implicitFlush ? "true" : "false"},
                   {"debug.instrumentExternalExchange", implicitFlush ? "true" : "false"}});
    engine.load(device);
    engine.run();
    return count(engine.getReport().execution().blocks(0));
  };
  const Counts kept = run(false);
  CHECK(kept.common == 42); // 42 records of 24 bytes fill the buffer, as the tutorial shows
  CHECK(kept.overflow == 1);
  CHECK(kept.flush == 0);
  const Counts flushed = run(true);
  CHECK(flushed.common == 100);
  CHECK(flushed.overflow == 0);
  // One flush at the end of each iteration, each a StreamCopyBegin/Mid/End triplet; and the
  // run's two control copies: the tutorial's 406 blocks (100 + 300 + 6).
  CHECK(flushed.flush == 300);
  CHECK(flushed.streamCopy == 6);
}

TEST_CASE("a block flush is a stream-copy triplet named BlockFlush after the blocks it carries",
          "[execution][blocks]") {
  Device device = test::smallDevice(4);
  Graph graph = test::makeGraph(device);
  Engine engine(
      graph, Repeat(2, operation(graph, "operation", 0)),
      {{"profiler.programs.filter", "operation"}, {"debug.instrumentExternalExchange", "true"}});
  engine.load(device);
  engine.run();
  std::vector<pva::Block> flushes, common;
  for (const pva::Block& b : engine.getReport().execution().blocks(0))
    if (b.isBlockFlush())
      flushes.push_back(b);
    else if (b.isCommon())
      common.push_back(b);
  REQUIRE(common.size() == 2);
  REQUIRE(flushes.size() == 6);
  const pva::Program::Type types[3] = {pva::Program::Type::StreamCopyBegin,
                                       pva::Program::Type::StreamCopyMid,
                                       pva::Program::Type::StreamCopyEnd};
  for (std::size_t i = 0; i < flushes.size(); ++i) {
    INFO("flush block " << i);
    CHECK(flushes[i].isBlockFlush());
    CHECK(flushes[i].program()->name() == "BlockFlush");
    CHECK(flushes[i].program()->type() == types[i % 3]);
    CHECK(flushes[i].cyclesTo() > flushes[i].cyclesFrom());
  }
  // Each flush starts when its iteration's block has ended, its three parts one after another.
  CHECK(flushes[0].cyclesFrom() >= common[0].cyclesTo());
  CHECK(flushes[1].cyclesFrom() == flushes[0].cyclesTo());
  CHECK(flushes[2].cyclesFrom() == flushes[1].cyclesTo());
  CHECK(flushes[3].cyclesFrom() >= common[1].cyclesTo());
}
