// The simulated cycle counters: each IPU's clock as replica 0 runs, advanced by each step's
// static cost (bulk-synchronous: an aligned step starts when every IPU taking part is ready).
// The execution recorder lays the profile's steps on it, and poplar::cycleCount/cycleStamp read
// it, so the counters a program reads and the cycles its profile shows are the same numbers.
#pragma once

#include "models/ExecutedComputeCost.hpp"
#include "models/ProgramModel.hpp"
#include "runtime/Runtime.hpp"

#include <cstdint>
#include <vector>

namespace poplar::detail::profile {

using models::ExecutedComputeCost;
using models::ProfileProgram;
using models::ProgramModel;
using models::ProgramType;
using models::TileValue;

class StepClock {
public:
  /// One IPU's part in one step.
  struct IpuStats {
    unsigned ipu, activeTiles;
    std::uint64_t maxCycles, minActiveCycles, sumCycles;
  };
  /// Where one execution of a step fell on one IPU's clock.
  struct IpuStep {
    std::uint64_t previous; ///< the IPU's clock before the step
    std::uint64_t start;    ///< when the step started (aligned steps wait for every IPU)
    std::uint64_t busy;     ///< cycles from start to the end of the step
  };

  StepClock(const ProgramModel& model, const Target& target);

  /// Per-IPU figures of step `program`, computed once (a step's costs are static).
  const std::vector<IpuStats>& stats(unsigned program);
  /// Lays one execution of step `program` on the clocks; one entry per stats(program) entry.
  const std::vector<IpuStep>& advance(unsigned program);
  /// The same for an execution whose cycles were measured (an OnTileExecute with execution-based
  /// estimates): `cycles` per active tile replace the program's static ones; `stats` receives
  /// this execution's figures.
  const std::vector<IpuStep>& advance(unsigned program, const std::vector<TileValue>& cycles,
                                      std::vector<IpuStats>& stats);
  /// Brings every IPU's clock to the latest one (the host syncs with every IPU) and returns it.
  std::uint64_t synchronise();
  /// Moves every IPU's clock on to `cycle` (work between runs that no step records, such as the
  /// control stream copies that start a run).
  void advanceTo(std::uint64_t cycle);
  std::uint64_t ipu(unsigned i) const { return clock_[i]; }

private:
  /// `cycles`: the program's TileValues or a measured std::vector<TileValue>.
  template <class Values>
  void computeStats(const ProfileProgram& p, const Values& cycles, std::vector<IpuStats>& out);
  const std::vector<IpuStep>& lay(const ProfileProgram& p, const std::vector<IpuStats>& st);

  const ProgramModel& model_;
  const Target& target_;
  std::vector<std::uint64_t> byTile_; ///< scratch for computeStats
  std::vector<std::uint64_t> clock_;
  std::vector<std::vector<IpuStats>> stats_;
  std::vector<bool> ready_;
  std::vector<IpuStep> last_;
};

/// The clock alone: what an engine that reads cycle counters but records no execution profile
/// observes, so its counters read what a profiled run would show.
class CounterClock final : public runtime::ExecutionObserver {
public:
  CounterClock(const ProgramModel& model, const compiler::CompiledGraph& graph)
      : model_(model), clock_(model, graph.replicaTarget), executed_(graph) {}
  void onSteps(unsigned node) override {
    for (unsigned program : model_.stepsOfNode[node])
      clock_.advance(program);
  }
  void onExecutedSteps(unsigned node, unsigned computeSet,
                       const std::vector<std::uint64_t>& instructions) override {
    for (unsigned program : model_.stepsOfNode[node]) {
      const ProfileProgram& p = model_.programs[program];
      if (p.type != ProgramType::OnTileExecute || p.computeSet != int(computeSet)) {
        clock_.advance(program);
        continue;
      }
      executed_.cost(computeSet, instructions, cycles_, busy_);
      clock_.advance(program, cycles_, stats_);
    }
  }
  void onBlock(unsigned, bool) override {}
  std::uint64_t ipuCycleCounter(unsigned ipu) const override { return clock_.ipu(ipu); }
  /// Runs start and end with the host syncing every IPU, as for a profiled run.
  void synchronise() { clock_.synchronise(); }

private:
  const ProgramModel& model_;
  StepClock clock_;
  ExecutedComputeCost executed_;
  std::vector<TileValue> cycles_, busy_;
  std::vector<StepClock::IpuStats> stats_;
};

} // namespace poplar::detail::profile
