#include "ExecutedComputeCost.hpp"

#include <map>

namespace poplar::detail::models {
using compiler::kNoInstructionCount;

void ExecutedComputeCost::cost(unsigned cs, const std::vector<std::uint64_t>& instructions,
                               std::vector<TileValue>& cycles, std::vector<TileValue>& busy) {
  const auto& all = g_.computeSets[cs].vertices;
  const unsigned contexts = g_.replicaTarget.getNumWorkerContexts();
  vertexCycles_.resize(all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::uint64_t n = i < instructions.size() ? instructions[i] : kNoInstructionCount;
    vertexCycles_[i] = n == kNoInstructionCount
                           ? all[i].estimatedCycles
                           : CycleModel::executedCycles(n, all[i].type->isMultiVertex,
                                                        all[i].type->isSupervisor, contexts);
  }
  auto& groups = byTile_[cs];
  if (groups.empty()) {
    // Grouped as ProgramModel groups them, so an unchanged count gives the compile-time figure.
    std::map<unsigned, TileGroup> m;
    const auto& vertices = g_.computeSets[cs].vertices;
    for (unsigned i = 0; i < vertices.size(); ++i) {
      TileGroup& tg = m[vertices[i].tile];
      tg.tile = vertices[i].tile;
      tg.vertices.push_back(&vertices[i]);
      tg.indices.push_back(i);
    }
    for (auto& [tile, tg] : m)
      groups.push_back(std::move(tg));
  }
  cycles.clear();
  busy.clear();
  for (const TileGroup& tg : groups) {
    scratch_.clear();
    for (unsigned i : tg.indices)
      scratch_.push_back(vertexCycles_[i]);
    cycles.push_back({tg.tile, cost_.computeCycles(tg.vertices, &scratch_)});
    busy.push_back({tg.tile, cost_.computeCyclesExcludingIdle(tg.vertices, &scratch_)});
  }
}

} // namespace poplar::detail::models
