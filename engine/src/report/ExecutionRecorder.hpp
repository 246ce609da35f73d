// The execution part of profile.pop: as replica 0 runs, each step's static cost (or, for a
// compute set that counted its instructions, the cost of the raw counts the runtime hands over,
// models/ExecutedComputeCost.hpp) is laid on per-IPU cycle counters (profile/StepClock.hpp) and
// its rows (steps, blocks, runs, tile cycles, cycle rules) are streamed into profile.pop, one
// transaction per run. With report/ReportBuilder.hpp's compilation rows, every row the engine
// writes comes from this folder. Memory stays bounded: per run it keeps only per-tile totals by
// cycle kind and the lightweight-profiling buffers.
#pragma once

#include "RuleCycles.hpp"
#include "models/ExecutedComputeCost.hpp"
#include "models/ProgramModel.hpp"
#include "profile/ProfilerOptions.hpp"
#include "profile/StepClock.hpp"
#include "runtime/Runtime.hpp"

#include <array>
#include <profiler/Blob.hpp>
#include <profiler/ReportWriter.hpp>
#include <string>
#include <vector>

namespace poplar::detail::report {

using models::ExecutedComputeCost;
using models::ProgramModel;
using models::TileValue;
using profile::ProfilerOptions;
using profile::StepClock;

class ExecutionRecorder final : public runtime::ExecutionObserver {
public:
  ExecutionRecorder(const ProgramModel& model, const compiler::CompiledGraph& graph,
                    const ProfilerOptions& options, tessera::profiler::ReportWriter& writer);

  void beginRun(unsigned programIndex, const std::string& name);
  /// Writes the run and commits it; also after a run that failed part-way (what ran is kept).
  void endRun();

  void onSteps(unsigned node) override;
  void onExecutedSteps(unsigned node, unsigned computeSet,
                       const std::vector<std::uint64_t>& instructions) override;
  void onBlock(unsigned node, bool begin) override;
  bool isImplicitBlock(unsigned node) const override {
    return node < implicitBlocks_.size() && implicitBlocks_[node] >= 0;
  }
  std::uint64_t ipuCycleCounter(unsigned ipu) const override { return clock_.ipu(ipu); }
  void onLoopIteration(unsigned node) override;

private:
  struct OpenBlock {
    std::uint64_t from = 0;
    bool ran = false; ///< a step of the block ran on this IPU's tiles
  };
  struct BlockBuffer {
    unsigned used = 0;
    bool overflowing = false;
    std::uint64_t overflowFrom = 0;
    std::vector<OpenBlock> open; ///< nested Block starts
  };

  /// Measured cycles of one OnTileExecute (execution-based estimates), replacing its static ones.
  struct Measured {
    std::vector<TileValue> cycles, busy;
    std::vector<StepClock::IpuStats> stats;
  };
  void recordStep(unsigned program, Measured* measured = nullptr);
  void recordBlock(unsigned ipu, unsigned program, std::uint64_t from, std::uint64_t to,
                   tessera::profiler::schema::BlockKind kind);
  void flushBlocks(unsigned ipu, unsigned program, std::uint64_t at);
  /// A stream-copy triplet of lightweight profiling's own (ProgramModel::blockFlush or
  /// controlCopy) on an IPU's blocks tile from `at`, its transfer `midCycles` long; returns its
  /// end.
  std::uint64_t recordCopyTriplet(unsigned ipu, const int (&programs)[3], std::uint64_t at,
                                  std::uint64_t midCycles,
                                  tessera::profiler::schema::BlockKind kind);

  const ProgramModel& model_;
  const Target& target_;
  const ProfilerOptions& options_;
  tessera::profiler::ReportWriter& writer_;
  tessera::profiler::ReportWriter::RowInserter<tessera::profiler::schema::Steps> steps_;
  tessera::profiler::ReportWriter::RowInserter<tessera::profiler::schema::Blocks> blocks_;
  StepClock clock_; ///< absolute cycle counter of each IPU
  ExecutedComputeCost executed_;
  Measured measured_;
  std::vector<std::uint64_t> denseCycles_;
  std::string cyclesBlob_;
  std::array<std::vector<std::uint64_t>, 5> runCycles_; ///< [CycleKind][tile]
  std::vector<std::uint64_t> runBusyCycles_;            ///< compute excluding idle threads, [tile]
  RuleCycles runRuleCycles_;                            ///< the run's vertex cycles by cycle rule
  /// The run's stream-copy steps' cycles (each at its slowest IPU) by StreamDestination, what
  /// a pass over the steps would sum (run_stream_copy_cycles, format 1.7).
  std::array<std::uint64_t, 3> runStreamCopyCycles_{};
  std::vector<BlockBuffer> blockBuffers_; ///< per IPU
  /// profiler.programs.filter: for each lowered node wrapped in an implicit Block, the report
  /// program the block names (-1: not wrapped).
  std::vector<int> implicitBlocks_;
  std::vector<tessera::profiler::StepIpu> stepIpus_;
  std::string ipusBlob_;
  bool inRun_ = false;
  unsigned runIndex_ = 0, programIndex_ = 0;
  std::string runName_;
  std::uint64_t stepId_ = 0, runFirstStep_ = 0, runStartCycle_ = 0, blockId_ = 0;
  std::int64_t runStartUs_ = 0;
};

} // namespace poplar::detail::report
