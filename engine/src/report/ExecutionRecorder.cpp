#include "ExecutionRecorder.hpp"

#include <algorithm>
#include <chrono>
#include <profiler/Blob.hpp>

namespace poplar::detail::report {
using compiler::CompiledGraph;

namespace schema = tessera::profiler::schema;
using models::CycleModel;
using models::ProfileProgram;
using models::ProgramType;
using tessera::profiler::blob;
using tessera::profiler::encodeStepIpus;
using tessera::profiler::encodeTileValues;
using tessera::profiler::StepIpu;

namespace {
/// One block record in the on-tile buffer: start and end counters and the block's id, 8 bytes
/// each. The buffer (profiler.blocks.bufferSize) is allocated in 16-byte units, so Poplar's
/// default of 1000 bytes holds 42 records, as the lightweight-profiling tutorial shows (42
/// blocks and an overflow from 100 executions: docs/profiling.md).
constexpr std::uint64_t kBlockRecordBytes = 24;
std::uint64_t blockBufferCapacity(std::uint64_t bufferSize) {
  return (bufferSize + 15) / 16 * 16 / kBlockRecordBytes;
}

std::int64_t nowUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}
} // namespace

ExecutionRecorder::ExecutionRecorder(const ProgramModel& model, const CompiledGraph& graph,
                                     const ProfilerOptions& options,
                                     tessera::profiler::ReportWriter& writer)
    : model_(model), target_(graph.replicaTarget), options_(options), writer_(writer),
      steps_(writer.inserter<schema::Steps>()), blocks_(writer.inserter<schema::Blocks>()),
      clock_(model, graph.replicaTarget), executed_(graph), runRuleCycles_(graph),
      blockBuffers_(graph.replicaTarget.getNumIPUs()) {
  const Target& target = graph.replicaTarget;
  for (auto& v : runCycles_)
    v.assign(target.getNumTiles(), 0);
  runBusyCycles_.assign(target.getNumTiles(), 0);
  // Implicit blocks (profiler.programs.filter): a program whose name matches is measured as if
  // wrapped in a Block of its own, named after its step of that name (or its last step).
  if (options_.programsFilter) {
    implicitBlocks_.assign(model_.stepsOfNode.size(), -1);
    for (std::size_t node = 0; node < model_.stepsOfNode.size(); ++node) {
      const auto& steps = model_.stepsOfNode[node];
      if (steps.empty() || model_.blockOfNode[node] >= 0) continue;
      int named = -1;
      for (unsigned program : steps)
        if (std::regex_search(model_.programs[program].name, *options_.programsFilter))
          named = static_cast<int>(program);
      implicitBlocks_[node] = named;
    }
  }
  // SQLite's inserts run on the writer's thread while this one simulates and encodes the next
  // steps; endRun() waits for them, so a run's rows (and any error) are in by the time run()
  // returns.
  writer.writeInBackground(true);
}

void ExecutionRecorder::beginRun(unsigned programIndex, const std::string& name) {
  writer_.begin();
  inRun_ = true;
  programIndex_ = programIndex;
  runName_ = name.empty() ? "run" + std::to_string(runIndex_) : name;
  runFirstStep_ = stepId_;
  runStartUs_ = nowUs();
  runStartCycle_ = clock_.synchronise();
  // Poplar starts each run with two control stream copies (the host tells the IPUs which
  // program to run), which lightweight profiling records on each IPU's blocks tile when stream
  // copies are instrumented. They come before the run: its cycles do not include them.
  if (options_.anyBlocks() && model_.controlCopy[0] >= 0) {
    std::uint64_t end = runStartCycle_;
    for (unsigned ipu = 0; ipu < blockBuffers_.size(); ++ipu) {
      std::uint64_t at = runStartCycle_;
      for (int copy = 0; copy < 2; ++copy)
        at = recordCopyTriplet(ipu, model_.controlCopy, at,
                               model_.programs[model_.controlCopy[1]].ipuCycles,
                               schema::BlockKind::StreamCopy);
      end = std::max(end, at);
    }
    clock_.advanceTo(end);
    runStartCycle_ = clock_.synchronise();
  }
  for (auto& v : runCycles_)
    std::fill(v.begin(), v.end(), 0);
  std::fill(runBusyCycles_.begin(), runBusyCycles_.end(), 0);
  runRuleCycles_.reset();
  runStreamCopyCycles_.fill(0);
}

void ExecutionRecorder::endRun() {
  if (!inRun_) return;
  inRun_ = false;
  // The run ends when the host has heard from every IPU.
  const std::uint64_t end = clock_.synchronise();
  if (options_.anyBlocks())
    for (unsigned ipu = 0; ipu < blockBuffers_.size(); ++ipu)
      flushBlocks(ipu, model_.root, end);
  writer_.inserter<schema::Runs>().row(runIndex_, runName_, programIndex_, runStartUs_, nowUs(),
                                       runFirstStep_, stepId_ - runFirstStep_,
                                       end - runStartCycle_);
  auto tileCycles = writer_.inserter<schema::RunTileCycles>();
  std::string encoded;
  for (std::size_t k = 0; k < runCycles_.size(); ++k) {
    encodeTileValues(runCycles_[k].data(), runCycles_[k].size(), encoded);
    tileCycles.row(runIndex_, schema::name(static_cast<schema::CycleKind>(k)), blob(encoded));
  }
  // Since format 1.2: compute excluding idle worker contexts, a row beside the kinds.
  encodeTileValues(runBusyCycles_.data(), runBusyCycles_.size(), encoded);
  tileCycles.row(runIndex_, schema::RunTileCycles::computeExcludingIdleKind, blob(encoded));
  // Since format 1.6: the vertex cycles each rule costed, for the rules whose vertices ran.
  auto ruleCycles = writer_.inserter<schema::RunVertexCycleRules>();
  for (std::size_t r = 0; r < RuleCycles::kNumRules; ++r)
    if (runRuleCycles_.ran(r))
      ruleCycles.row(runIndex_, schema::name(static_cast<schema::CycleRule>(r)),
                     runRuleCycles_.cycles()[r]);
  // Since format 1.7: the stream-copy totals a summary shows, so readers skip the steps.
  using SD = schema::StreamDestination;
  writer_.inserter<schema::RunStreamCopyCycles>().row(
      runIndex_, runStreamCopyCycles_[std::size_t(SD::host)],
      runStreamCopyCycles_[std::size_t(SD::remoteBuffer)],
      runStreamCopyCycles_[std::size_t(SD::mixed)]);
  writer_.commit();
  writer_.flush(); // the run is in the file before Engine::run returns; errors are thrown here
  ++runIndex_;
}

void ExecutionRecorder::onSteps(unsigned node) {
  if (!inRun_) return;
  for (unsigned program : model_.stepsOfNode[node])
    recordStep(program);
}

void ExecutionRecorder::onExecutedSteps(unsigned node, unsigned computeSet,
                                        const std::vector<std::uint64_t>& instructions) {
  if (!inRun_) return;
  for (unsigned program : model_.stepsOfNode[node]) {
    const ProfileProgram& p = model_.programs[program];
    if (p.type != ProgramType::OnTileExecute || p.computeSet != int(computeSet)) {
      recordStep(program);
      continue;
    }
    executed_.cost(computeSet, instructions, measured_.cycles, measured_.busy);
    runRuleCycles_.addMeasured(computeSet, executed_.vertexCycles());
    recordStep(program, &measured_);
  }
}

void ExecutionRecorder::recordStep(unsigned program, Measured* measured) {
  const ProfileProgram& p = model_.programs[program];
  const auto& stats = measured ? measured->stats : clock_.stats(program);
  const auto& laid = measured ? clock_.advance(program, measured->cycles, measured->stats)
                              : clock_.advance(program);
  const unsigned perIpu = target_.getTilesPerIPU();
  stepIpus_.clear();
  for (std::size_t i = 0; i < stats.size(); ++i) {
    const StepClock::IpuStats& s = stats[i];
    const std::uint64_t start = laid[i].start, busy = laid[i].busy;
    StepIpu si;
    si.ipu = s.ipu;
    si.cycles = start - laid[i].previous + busy; // waiting for the other IPUs counts
    si.activeTiles = s.activeTiles;
    si.activeFromMin = si.activeFromMax = start;
    si.activeToMin = start + s.minActiveCycles;
    si.activeToMax = start + s.maxCycles;
    si.allFromMin = si.allFromMax = start;
    si.allToMin = s.activeTiles == perIpu ? start + s.minActiveCycles : start;
    si.allToMax = start + busy;
    for (const auto& tr : p.traffic)
      if (tr.ipu == s.ipu) {
        si.dataIn = tr.in;
        si.dataOut = tr.out;
      }
    if (s.maxCycles) {
      si.tileBalance = float(double(s.sumCycles) / (double(perIpu) * double(s.maxCycles)));
      si.activeTileBalance =
          float(double(s.sumCycles) / (double(s.activeTiles) * double(s.maxCycles)));
    }
    stepIpus_.push_back(si);
  }
  // The blocks open on an IPU whose tiles this step occupies have run there (syncs excepted:
  // every tile takes part in those); a block no step of which ran on an IPU is not recorded on
  // it, as Poplar does not run it there.
  if (p.kind != schema::CycleKind::sync)
    for (std::size_t i = 0; i < stats.size(); ++i)
      if (stats[i].activeTiles)
        for (OpenBlock& b : blockBuffers_[stats[i].ipu].open)
          b.ran = true;
  auto& kindCycles = runCycles_[static_cast<std::size_t>(p.kind)];
  auto addTo = [](std::vector<std::uint64_t>& sums, const auto& values) {
    for (const auto& tv : values)
      sums[tv.tile] += tv.value;
  };
  if (measured) {
    addTo(kindCycles, measured->cycles);
    addTo(runBusyCycles_, measured->busy);
  } else {
    addTo(kindCycles, p.cycles);
    addTo(runBusyCycles_, p.busyCycles);
  }
  if (!measured && p.type == ProgramType::OnTileExecute && p.computeSet >= 0)
    runRuleCycles_.addEstimated(static_cast<unsigned>(p.computeSet));
  const bool streamCopy = p.type == ProgramType::StreamCopyBegin ||
                          p.type == ProgramType::StreamCopyMid ||
                          p.type == ProgramType::StreamCopyEnd;
  if (streamCopy) {
    // As libpva's pass counts a step: its slowest IPU's cycles (saturating, as its sums).
    std::uint64_t slowest = 0;
    for (const StepIpu& si : stepIpus_)
      slowest = std::max(slowest, si.cycles);
    std::uint64_t& sum = runStreamCopyCycles_[static_cast<std::size_t>(p.streamDestination)];
    sum = sum + slowest < sum ? ~std::uint64_t(0) : sum + slowest;
  }
  encodeStepIpus(stepIpus_.data(), stepIpus_.size(), ipusBlob_);
  // A static step's cycles are its program's estimate: stored once in
  // programs.estimated_cycles_by_tile, NULL here (see docs/formats.md). A step with
  // execution-based estimates stores what this execution measured.
  if (measured) {
    denseCycles_.assign(target_.getNumTiles(), 0);
    for (const auto& tv : measured->cycles)
      denseCycles_[tv.tile] = tv.value;
    encodeTileValues(denseCycles_.data(), denseCycles_.size(), cyclesBlob_);
    steps_.row(stepId_++, runIndex_, program, blob(cyclesBlob_), blob(ipusBlob_));
  } else {
    steps_.row(stepId_++, runIndex_, program, nullptr, blob(ipusBlob_));
  }

  // Stream copies are blocks when external exchange is instrumented, as in Poplar
  // (debug.instrumentExternalExchange), on the tiles doing the I/O: those holding the data, or
  // the blocks tile for a copy that moves none.
  if (options_.anyBlocks() && options_.externalExchangeInstrumentation && streamCopy)
    for (const auto& si : stepIpus_) {
      if (p.type == ProgramType::StreamCopyBegin && options_.blocksImplicitFlush)
        flushBlocks(si.ipu, program, si.allFromMax);
      const unsigned blocksTile = si.ipu * perIpu + options_.blocksTile;
      bool any = false;
      for (unsigned tile : p.ioTiles)
        if (tile / perIpu == si.ipu) {
          any = true;
          if (tile == blocksTile)
            recordBlock(si.ipu, program, si.allFromMax, si.allToMax, schema::BlockKind::StreamCopy);
          else // an I/O tile's own buffer, flushed with the copy (not modelled)
            blocks_.row(blockId_++, runIndex_, program, tile, si.allFromMax, si.allToMax,
                        schema::name(schema::BlockKind::StreamCopy));
        }
      if (!any)
        recordBlock(si.ipu, program, si.allFromMax, si.allToMax, schema::BlockKind::StreamCopy);
    }
}

void ExecutionRecorder::onLoopIteration(unsigned node) {
  (void)node;
  // Poplar's implicit flush: the buffers are copied to the host at the end of each loop
  // iteration (profiler.blocks.implicitFlush, on by default), unless a block is still open.
  if (!inRun_ || !options_.anyBlocks() || !options_.blocksImplicitFlush) return;
  for (unsigned ipu = 0; ipu < blockBuffers_.size(); ++ipu)
    if (blockBuffers_[ipu].open.empty()) flushBlocks(ipu, model_.root, clock_.ipu(ipu));
}

void ExecutionRecorder::onBlock(unsigned node, bool begin) {
  if (!inRun_ || !options_.anyBlocks()) return;
  int program = model_.blockOfNode[node];
  if (program >= 0) {
    if (!options_.blocksFilter ||
        !std::regex_search(model_.programs[program].name, *options_.blocksFilter))
      return;
  } else if (isImplicitBlock(node)) {
    program = implicitBlocks_[node];
  } else {
    return;
  }
  for (unsigned ipu = 0; ipu < blockBuffers_.size(); ++ipu) {
    auto& b = blockBuffers_[ipu];
    if (begin) {
      b.open.push_back({clock_.ipu(ipu), false});
    } else if (!b.open.empty()) {
      const OpenBlock open = b.open.back();
      b.open.pop_back();
      if (!open.ran) continue;
      // The enclosing block ran here too.
      if (!b.open.empty()) b.open.back().ran = true;
      recordBlock(ipu, static_cast<unsigned>(program), open.from, clock_.ipu(ipu),
                  schema::BlockKind::Common);
    }
  }
}

void ExecutionRecorder::recordBlock(unsigned ipu, unsigned program, std::uint64_t from,
                                    std::uint64_t to, schema::BlockKind kind) {
  auto& b = blockBuffers_[ipu];
  // The on-tile buffer holds bufferSize bytes; records that do not fit are lost until the next
  // flush, which the report shows as one Overflow block over the lost interval.
  if (b.used + 1 > blockBufferCapacity(options_.blocksBufferSize)) {
    if (!b.overflowing) {
      b.overflowing = true;
      b.overflowFrom = from;
    }
    return;
  }
  ++b.used;
  const unsigned tile = ipu * target_.getTilesPerIPU() + options_.blocksTile;
  blocks_.row(blockId_++, runIndex_, program, tile, from, to, schema::name(kind));
}

void ExecutionRecorder::flushBlocks(unsigned ipu, unsigned program, std::uint64_t at) {
  auto& b = blockBuffers_[ipu];
  if (!b.used && !b.overflowing) return;
  const unsigned tile = ipu * target_.getTilesPerIPU() + options_.blocksTile;
  if (b.overflowing)
    blocks_.row(blockId_++, runIndex_, program, tile, b.overflowFrom, at,
                schema::name(schema::BlockKind::Overflow));
  // The flush is a stream copy (StreamCopyBegin, Mid, End of the records' bytes): three
  // BlockFlush blocks where stream copies are instrumented, as Poplar records them. Without
  // implicit flushes Poplar adds no flush program: the host reads what is left when the run
  // ends, which no block shows (the tutorial's example 3 lists none).
  if (options_.externalExchangeInstrumentation && options_.blocksImplicitFlush &&
      model_.blockFlush[0] >= 0)
    recordCopyTriplet(ipu, model_.blockFlush, at,
                      CycleModel(target_).hostTransferCycles(b.used * kBlockRecordBytes),
                      schema::BlockKind::BlockFlush);
  b.used = 0;
  b.overflowing = false;
}

std::uint64_t ExecutionRecorder::recordCopyTriplet(unsigned ipu, const int (&programs)[3],
                                                   std::uint64_t at, std::uint64_t midCycles,
                                                   schema::BlockKind kind) {
  const unsigned tile = ipu * target_.getTilesPerIPU() + options_.blocksTile;
  for (int k = 0; k < 3; ++k) {
    const auto program = static_cast<unsigned>(programs[k]);
    const std::uint64_t cycles = k == 1 ? midCycles : model_.programs[program].ipuCycles;
    blocks_.row(blockId_++, runIndex_, program, tile, at, at + cycles, schema::name(kind));
    at += cycles;
  }
  return at;
}

} // namespace poplar::detail::report
