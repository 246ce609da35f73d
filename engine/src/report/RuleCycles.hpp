// A run's vertex cycles by the rule that costed them (run_vertex_cycle_rules, format 1.6): what
// part of the compute a profile shows is declared estimates, PopLibs' estimators or measured
// execution. Each vertex execution adds CycleModel::vertexBusyCycles, the part it contributes to
// "compute excluding idle threads", so the rules' cycles plus the compute sets' launch cycles
// are that figure.
#pragma once

#include "compiler/CompiledGraph.hpp"

#include <array>
#include <cstdint>
#include <profiler/SchemaEnums.hpp>
#include <vector>

namespace poplar::detail::report {

class RuleCycles {
public:
  static constexpr std::size_t kNumRules =
      tessera::profiler::schema::enumSize<tessera::profiler::schema::CycleRule>();
  using ByRule = std::array<std::uint64_t, kNumRules>;

  explicit RuleCycles(const compiler::CompiledGraph& g);

  /// One execution of compute set `cs` at its compile-time estimates.
  void addEstimated(unsigned cs);
  /// One execution whose vertices' thread cycles were measured (in the compute set's order).
  void addMeasured(unsigned cs, const std::vector<std::uint64_t>& vertexCycles);
  void reset();
  /// Cycles of each rule so far; ran(rule): a vertex of the rule executed.
  const ByRule& cycles() const { return cycles_; }
  bool ran(std::size_t rule) const { return ran_[rule]; }

private:
  const compiler::CompiledGraph& g_;
  unsigned contexts_;
  std::vector<ByRule> estimated_; ///< per compute set, computed on first use
  std::vector<std::uint8_t> estimatedReady_;
  std::vector<std::array<bool, kNumRules>> present_; ///< rules with vertices, per compute set
  ByRule cycles_{};
  std::array<bool, kNumRules> ran_{};
  void prepare(unsigned cs);
};

} // namespace poplar::detail::report
