#include "RuleCycles.hpp"

#include "models/CycleModel.hpp"

namespace poplar::detail::report {
using compiler::CompiledGraph;
using compiler::CompiledVertex;

using models::CycleModel;

RuleCycles::RuleCycles(const CompiledGraph& g)
    : g_(g), contexts_(g.replicaTarget.getNumWorkerContexts()), estimated_(g.computeSets.size()),
      estimatedReady_(g.computeSets.size(), 0), present_(g.computeSets.size()) {}

void RuleCycles::prepare(unsigned cs) {
  if (estimatedReady_[cs]) return;
  ByRule sums{};
  std::array<bool, kNumRules> present{};
  for (const CompiledVertex& v : g_.computeSets[cs].vertices) {
    const auto rule = static_cast<std::size_t>(v.cycleRule);
    sums[rule] += CycleModel::vertexBusyCycles(v, v.estimatedCycles, contexts_);
    present[rule] = true;
  }
  estimated_[cs] = sums;
  present_[cs] = present;
  estimatedReady_[cs] = 1;
}

void RuleCycles::addEstimated(unsigned cs) {
  if (cs >= estimated_.size()) return;
  prepare(cs);
  for (std::size_t r = 0; r < kNumRules; ++r) {
    cycles_[r] += estimated_[cs][r];
    ran_[r] = ran_[r] || present_[cs][r];
  }
}

void RuleCycles::addMeasured(unsigned cs, const std::vector<std::uint64_t>& vertexCycles) {
  if (cs >= estimated_.size()) return;
  const auto& vertices = g_.computeSets[cs].vertices;
  for (std::size_t i = 0; i < vertices.size() && i < vertexCycles.size(); ++i) {
    const auto rule = static_cast<std::size_t>(vertices[i].cycleRule);
    cycles_[rule] += CycleModel::vertexBusyCycles(vertices[i], vertexCycles[i], contexts_);
    ran_[rule] = true;
  }
}

void RuleCycles::reset() {
  cycles_.fill(0);
  ran_.fill(false);
}

} // namespace poplar::detail::report
