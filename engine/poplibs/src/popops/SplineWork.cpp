#include "SplineWork.hpp"

#include "poplibs_support/TileWork.hpp"

#include <algorithm>
#include <poputil/Util.hpp>

namespace popops {
namespace spline {

std::vector<VertexWork> splitOutput(const poplar::Graph& graph, const poplar::Tensor& out,
                                    const std::string& op) {
  const std::size_t rowLength = out.dim(1);
  const poplar::Target& target = graph.getTarget();
  // As PopLibs: cut at multiples of a vector (or an atomic store), at least two per worker.
  const unsigned grain = std::max<unsigned>(target.getVectorWidth(out.elementType()),
                                            target.getAtomicStoreGranularity());
  const auto mapping = poplibs_support::tileMapping(graph, out, op);
  std::vector<VertexWork> work;
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    if (mapping[tile].empty()) continue;
    std::vector<poplar::Interval> regions = mapping[tile];
    std::sort(
        regions.begin(), regions.end(),
        [](const poplar::Interval& a, const poplar::Interval& b) { return a.begin() < b.begin(); });
    for (auto& list : poputil::splitRegionsBetweenWorkers(target, regions, grain, 2 * grain)) {
      if (list.empty()) continue;
      std::size_t lo = list.front().begin(), hi = list.front().end();
      for (const auto& r : list)
        lo = std::min(lo, r.begin()), hi = std::max(hi, r.end());
      work.push_back({tile, std::move(list), lo / rowLength, (hi + rowLength - 1) / rowLength});
    }
  }
  return work;
}

poplar::Tensor offsetsTensor(poplar::Graph& graph, const VertexWork& work,
                             const poplar::DebugContext& dc) {
  std::vector<unsigned> offsets;
  for (const auto& r : work.regions)
    offsets.push_back(unsigned(r.begin()));
  const poplar::Tensor t =
      graph.addConstant(poplar::UNSIGNED_INT, {offsets.size()}, offsets.data(), {dc, "offsets"});
  graph.setTileMapping(t, work.tile);
  return t;
}

} // namespace spline
} // namespace popops
