// hasNaN and hasNaNOrInf as PopLibs builds them: on every tile holding part of the input, one
// vertex scanning the tile's elements (a MultiVertex when they form one contiguous region,
// else up to one worker vertex per worker context over the regions), each leaving a float flag
// on its tile; a max-reduction of the flags and a cast to BOOL give the scalar result.
#include "poplibs_support/TileWork.hpp"

#include <limits>
#include <popops/Cast.hpp>
#include <popops/NaN.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;

namespace {

/// `pieces` in at most `groups` runs of consecutive pieces with about equal element counts.
std::vector<std::vector<Interval>> groupPieces(const std::vector<Interval>& pieces,
                                               unsigned groups) {
  std::size_t total = 0;
  for (const auto& p : pieces)
    total += p.size();
  const std::size_t target = (total + groups - 1) / groups;
  std::vector<std::vector<Interval>> out(1);
  std::size_t inGroup = 0;
  for (const auto& p : pieces) {
    if (inGroup >= target && out.size() < groups) {
      out.emplace_back();
      inGroup = 0;
    }
    out.back().push_back(p);
    inGroup += p.size();
  }
  return out;
}

Tensor checkFloats(Graph& graph, const Tensor& src, program::Sequence& prog, bool nanOrInf,
                   const poputil::PoplibsOpDebugInfo& di, const std::string& op) {
  poplibs_support::checkValid(src, op, "src");
  poplibs_support::checkType(src.elementType(), {FLOAT, HALF}, op, "src");
  const Type type = src.elementType();
  if (src.numElements() == 0) {
    // Nothing to scan: no element is NaN.
    Tensor none = graph.addConstant(BOOL, {}, false, {di, "result"});
    graph.setTileMapping(none, 0);
    return none;
  }
  const Tensor flat = src.flatten();
  // One piece per region contiguous in memory (no further cutting: the vertices take whole
  // regions, as PopLibs' do).
  const auto work = poplibs_support::splitTileWork(graph, flat, flat.numElements(), op);
  const ComputeSet clearCs = graph.addComputeSet({di, "hasNaNOrInf-clear"});
  const ComputeSet evalCs = graph.addComputeSet({di, "hasNaNOrInf-eval"});
  // The engine runs a MultiVertex on MultiVertex::numWorkers() contexts, as the IPU runs one on
  // all of its worker contexts; the 1-D vertex's state describes the split between them.
  const unsigned workers = MultiVertex::numWorkers();
  const std::size_t perGrain = 8 / type.size();
  std::vector<Tensor> flags;
  for (unsigned tile = 0; tile < work.size(); ++tile) {
    const auto& pieces = work[tile];
    if (pieces.empty()) continue;
    const std::size_t n = pieces.size() == 1 ? pieces[0].size() : 0;
    const std::size_t grains = n / perGrain;
    if (pieces.size() == 1 && grains / workers <= std::numeric_limits<unsigned short>::max()) {
      Tensor flag = graph.addVariable(FLOAT, {1}, {di, "tileHasNaNOrInf"});
      graph.setTileMapping(flag, tile);
      zero(graph, flag, tile, clearCs);
      auto v =
          graph.addVertex(evalCs, poputil::templateVertex("popops::HasNaNOrInf1D", type, nanOrInf),
                          {{"in", flat.slice(pieces[0])}, {"outSetIfFound", flag[0]}});
      graph.setInitialValue(v["sizeIn8BytesPerWorker"], (unsigned short)(grains / workers));
      graph.setInitialValue(v["remWorkerId"], (unsigned char)(grains % workers));
      graph.setInitialValue(v["remWorkerExtras"], (unsigned char)(n - grains * perGrain));
      graph.setTileMapping(v, tile);
      flags.push_back(flag);
      continue;
    }
    const auto groups = groupPieces(pieces, graph.getTarget().getNumWorkerContexts());
    Tensor tileFlags = graph.addVariable(FLOAT, {groups.size()}, {di, "tileHasNaNOrInf"});
    graph.setTileMapping(tileFlags, tile);
    for (std::size_t g = 0; g < groups.size(); ++g) {
      auto v =
          graph.addVertex(evalCs, poputil::templateVertex("popops::HasNaNOrInf2D", type, nanOrInf),
                          {{"out", tileFlags[g]}});
      std::vector<Tensor> regions;
      for (const auto& piece : groups[g])
        regions.push_back(flat.slice(piece));
      graph.connect(v["in"], regions);
      graph.setTileMapping(v, tile);
    }
    flags.push_back(tileFlags);
  }
  prog.add(program::Execute(clearCs, {di}));
  prog.add(program::Execute(evalCs, {di}));
  const Tensor any = reduce(graph, concat(flags), FLOAT, {0}, Operation::MAX, prog, {di, "reduce"});
  return cast(graph, any, BOOL, prog, {di, "cast"});
}

} // namespace

Tensor hasNaN(Graph& graph, const Tensor& src, program::Sequence& prog,
              const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "hasNaN");
  return checkFloats(graph, src, prog, false, di, "popops::hasNaN");
}

Tensor hasNaNOrInf(Graph& graph, const Tensor& src, program::Sequence& prog,
                   const DebugContext& debugContext) {
  const poputil::PoplibsOpDebugInfo di(debugContext, {}, "hasNaNOrInf");
  return checkFloats(graph, src, prog, true, di, "popops::hasNaNOrInf");
}

} // namespace popops
