// The cost of one execution of a compute set whose vertices' cycles were measured as it ran
// (execution-based estimates, docs/profiling.md): the same per-tile rule as the compile-time
// figures (CycleModel::computeCycles), over the measured thread cycles of each vertex.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "models/CycleModel.hpp"

#include <vector>

namespace poplar::detail::profile {

class ExecutedComputeCost {
public:
  explicit ExecutedComputeCost(const CompiledGraph& g)
      : g_(g), cost_(g.replicaTarget), byTile_(g.computeSets.size()) {}

  /// `vertexCycles`: thread cycles of each vertex of compute set `cs`, in its order. Fills the
  /// cycles (and cycles excluding idle contexts) of each active tile, ascending tiles.
  void cost(unsigned cs, const std::vector<std::uint64_t>& vertexCycles,
            std::vector<TileValue>& cycles, std::vector<TileValue>& busy);

private:
  struct TileGroup {
    unsigned tile;
    std::vector<const CompiledVertex*> vertices;
    std::vector<unsigned> indices; ///< of the vertices in the compute set
  };
  const CompiledGraph& g_;
  CycleModel cost_;
  std::vector<std::vector<TileGroup>> byTile_; ///< per compute set, built on first use
  std::vector<std::uint64_t> scratch_;
};

} // namespace poplar::detail::profile
