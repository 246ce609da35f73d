// poplar::cycleCount and cycleStamp: a compute step whose vertices copy the simulated cycle
// counter of their tile (Runtime's currentCycleCounter: the tile's IPU clock as the step
// began) into a 2 x UNSIGNED_INT tensor, as the IPU's counter registers are read.
#include "runtime/Runtime.hpp"

#include <poplar/CycleCount.hpp>
#include <poplar/Vertex.hpp>
#include <poplar/exceptions.hpp>

namespace poplar {
namespace {

constexpr const char* kSource = "poplar";
constexpr const char* kStampVertex = "poplar::CycleStamp";
constexpr const char* kCountVertex = "poplar::CycleCount";

void store(Output<Vector<unsigned>>& out, std::uint64_t value) {
  out[0] = static_cast<unsigned>(value & 0xffffffffu);
  out[1] = static_cast<unsigned>(value >> 32);
}

/// Reads the counter: two register reads and two stores, as on the IPU.
class CycleStampVertex : public Vertex {
public:
  Output<Vector<unsigned>> out;
  bool compute() {
    store(out, detail::runtime::currentCycleCounter());
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector&, const Target&) { return 6; }
};

/// Reads the counter and subtracts the start stamp (64-bit, from two 32-bit halves).
class CycleCountVertex : public Vertex {
public:
  Input<Vector<unsigned>> start;
  Output<Vector<unsigned>> out;
  bool compute() {
    const std::uint64_t begin = std::uint64_t(start[0]) | (std::uint64_t(start[1]) << 32);
    store(out, detail::runtime::currentCycleCounter() - begin);
    return true;
  }
  static std::uint64_t getCycleEstimate(const VertexIntrospector&, const Target&) { return 10; }
};

TESSERA_VERTEX_IN("poplar", "poplar::CycleStamp", CycleStampVertex, out);
TESSERA_VERTEX_IN("poplar", "poplar::CycleCount", CycleCountVertex, start, out);

void checkTile(const Graph& graph, unsigned tile, const char* function) {
  if (tile >= graph.getTarget().getNumTiles())
    throw index_error(std::string("poplar::") + function + ": tile " + std::to_string(tile) +
                      " is not in the graph, which has " +
                      std::to_string(graph.getTarget().getNumTiles()) + " tiles");
}

Tensor counterTensor(Graph& graph, unsigned tile, const DebugContext& dc, const std::string& name) {
  Tensor t = graph.addVariable(UNSIGNED_INT, {2}, DebugContext(dc, name));
  graph.setTileMapping(t, tile);
  return t;
}

} // namespace

bool detail::runtime::readsCycleCounter(const VertexTypeDescriptor& type) {
  return type.codeletSource == kSource && (type.name == kStampVertex || type.name == kCountVertex);
}

Tensor cycleCount(Graph& graph, program::Sequence& prog, unsigned tile, SyncType syncType,
                  const DebugContext& debugContext) {
  checkTile(graph, tile, "cycleCount");
  graph.addCodelets(kSource);
  const DebugContext dc(debugContext, "cycleCount");
  Tensor start = counterTensor(graph, tile, dc, "start");
  Tensor cycles = counterTensor(graph, tile, dc, "cycles");
  const DebugContext startDc(dc, "start"), endDc(dc, "end");
  ComputeSet startCs = graph.addComputeSet(startDc);
  VertexRef sv = graph.addVertex(startCs, kStampVertex, {{"out", start}});
  graph.setTileMapping(sv, tile);
  ComputeSet endCs = graph.addComputeSet(endDc);
  VertexRef ev = graph.addVertex(endCs, kCountVertex, {{"start", start}, {"out", cycles}});
  graph.setTileMapping(ev, tile);

  const program::Sequence original = prog;
  program::Sequence timed(dc);
  timed.add(program::Sync(syncType, DebugContext(dc, "sync")));
  timed.add(program::Execute(startCs, startDc));
  timed.add(original);
  timed.add(program::Sync(syncType, DebugContext(dc, "sync")));
  timed.add(program::Execute(endCs, endDc));
  prog = timed;
  return cycles;
}

Tensor cycleCount(Graph& graph, program::Sequence& prog, unsigned tile,
                  const DebugContext& debugContext) {
  return cycleCount(graph, prog, tile, SyncType::INTERNAL, debugContext);
}

std::vector<Tensor> cycleStamp(Graph& graph, program::Sequence& prog,
                               const std::vector<unsigned>& tiles, SyncType syncType,
                               const DebugContext& debugContext) {
  if (tiles.empty()) throw index_error("poplar::cycleStamp: the list of tiles is empty");
  for (unsigned t : tiles)
    checkTile(graph, t, "cycleStamp");
  graph.addCodelets(kSource);
  const DebugContext dc(debugContext, "cycleStamp");
  ComputeSet cs = graph.addComputeSet(dc);
  std::vector<Tensor> stamps;
  for (unsigned t : tiles) {
    stamps.push_back(counterTensor(graph, t, dc, "tile" + std::to_string(t)));
    VertexRef v = graph.addVertex(cs, kStampVertex, {{"out", stamps.back()}});
    graph.setTileMapping(v, t);
  }
  prog.add(program::Sync(syncType, DebugContext(dc, "sync")));
  prog.add(program::Execute(cs, dc));
  return stamps;
}

Tensor cycleStamp(Graph& graph, program::Sequence& prog, unsigned tile, SyncType syncType,
                  const DebugContext& debugContext) {
  return cycleStamp(graph, prog, std::vector<unsigned>{tile}, syncType, debugContext)[0];
}

Tensor cycleStamp(Graph& graph, program::Sequence& prog, unsigned tile,
                  const DebugContext& debugContext) {
  return cycleStamp(graph, prog, tile, SyncType::INTERNAL, debugContext);
}

std::vector<Tensor> cycleStamp(Graph& graph, program::Sequence& prog,
                               const std::vector<unsigned>& tiles,
                               const DebugContext& debugContext) {
  return cycleStamp(graph, prog, tiles, SyncType::INTERNAL, debugContext);
}

} // namespace poplar
