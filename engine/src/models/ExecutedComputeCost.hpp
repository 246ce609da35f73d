// The cost of one execution of a compute set whose vertices counted the instructions they ran
// (execution-based estimates, docs/profiling.md): each count becomes thread cycles
// (CycleModel::executedCycles), then the same per-tile rule as the compile-time figures
// (CycleModel::computeCycles) gives each tile's cycles. The runtime hands over raw counts only,
// so every cost rule of an executed vertex is here.
#pragma once

#include "compiler/CompiledGraph.hpp"
#include "models/CycleModel.hpp"

#include <vector>

namespace poplar::detail::models {

class ExecutedComputeCost {
public:
  explicit ExecutedComputeCost(const compiler::CompiledGraph& g)
      : g_(g), cost_(g.replicaTarget), byTile_(g.computeSets.size()) {}

  /// `instructions`: what each vertex of compute set `cs` executed, in its order
  /// (kNoInstructionCount: the vertex's static estimate stands). Fills the cycles (and cycles
  /// excluding idle contexts) of each active tile, ascending tiles, and vertexCycles().
  void cost(unsigned cs, const std::vector<std::uint64_t>& instructions,
            std::vector<TileValue>& cycles, std::vector<TileValue>& busy);
  /// The thread cycles of each vertex of the compute set last costed, in its order.
  const std::vector<std::uint64_t>& vertexCycles() const { return vertexCycles_; }

private:
  struct TileGroup {
    unsigned tile;
    std::vector<const compiler::CompiledVertex*> vertices;
    std::vector<unsigned> indices; ///< of the vertices in the compute set
  };
  const compiler::CompiledGraph& g_;
  CycleModel cost_;
  std::vector<std::vector<TileGroup>> byTile_; ///< per compute set, built on first use
  std::vector<std::uint64_t> vertexCycles_, scratch_;
};

} // namespace poplar::detail::models
