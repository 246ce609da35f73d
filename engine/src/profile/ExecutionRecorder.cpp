#include "ExecutionRecorder.hpp"

#include <algorithm>
#include <chrono>
#include <profiler/Blob.hpp>

namespace poplar::detail::profile {

namespace schema = tessera::profiler::schema;
using tessera::profiler::blob;
using tessera::profiler::encodeStepIpus;
using tessera::profiler::encodeTileValues;
using tessera::profiler::StepIpu;

namespace {
/// One block record in the on-tile buffer: start and end counters.
constexpr std::uint64_t kBlockRecordBytes = 16;

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
      clock_(model, graph.replicaTarget), executed_(graph),
      blockBuffers_(graph.replicaTarget.getNumIPUs()) {
  const Target& target = graph.replicaTarget;
  for (auto& v : runCycles_)
    v.assign(target.getNumTiles(), 0);
  runBusyCycles_.assign(target.getNumTiles(), 0);
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
  for (auto& v : runCycles_)
    std::fill(v.begin(), v.end(), 0);
  std::fill(runBusyCycles_.begin(), runBusyCycles_.end(), 0);
}

void ExecutionRecorder::endRun() {
  if (!inRun_) return;
  inRun_ = false;
  // The run ends when the host has heard from every IPU.
  const std::uint64_t end = clock_.synchronise();
  if (options_.blocksFilter)
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
                                        const std::vector<std::uint64_t>& vertexCycles) {
  if (!inRun_) return;
  for (unsigned program : model_.stepsOfNode[node]) {
    const ProfileProgram& p = model_.programs[program];
    if (p.type != ProgramType::OnTileExecute || p.computeSet != int(computeSet)) {
      recordStep(program);
      continue;
    }
    executed_.cost(computeSet, vertexCycles, measured_.cycles, measured_.busy);
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
  auto& kindCycles = runCycles_[static_cast<std::size_t>(p.kind)];
  for (const auto& tv : measured ? measured->cycles : p.cycles)
    kindCycles[tv.tile] += tv.value;
  for (const auto& tv : measured ? measured->busy : p.busyCycles)
    runBusyCycles_[tv.tile] += tv.value;
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

  if (options_.blocksFilter &&
      (p.type == ProgramType::StreamCopyBegin || p.type == ProgramType::StreamCopyMid ||
       p.type == ProgramType::StreamCopyEnd))
    for (const auto& si : stepIpus_) {
      if (p.type == ProgramType::StreamCopyBegin && options_.blocksImplicitFlush)
        flushBlocks(si.ipu, program, si.allFromMax);
      recordBlock(si.ipu, program, si.allFromMax, si.allToMax, schema::BlockKind::StreamCopy);
    }
}

void ExecutionRecorder::onBlock(unsigned node, bool begin) {
  if (!inRun_ || !options_.blocksFilter) return;
  const int program = model_.blockOfNode[node];
  if (program < 0 || !std::regex_search(model_.programs[program].name, *options_.blocksFilter))
    return;
  for (unsigned ipu = 0; ipu < blockBuffers_.size(); ++ipu) {
    auto& b = blockBuffers_[ipu];
    if (begin) {
      b.openStarts.push_back(clock_.ipu(ipu));
    } else if (!b.openStarts.empty()) {
      const std::uint64_t from = b.openStarts.back();
      b.openStarts.pop_back();
      recordBlock(ipu, static_cast<unsigned>(program), from, clock_.ipu(ipu),
                  schema::BlockKind::Common);
    }
  }
}

void ExecutionRecorder::recordBlock(unsigned ipu, unsigned program, std::uint64_t from,
                                    std::uint64_t to, schema::BlockKind kind) {
  auto& b = blockBuffers_[ipu];
  // The on-tile buffer holds bufferSize bytes; records that do not fit are lost until the next
  // flush, which the report shows as one Overflow block over the lost interval.
  if ((b.used + 1) * kBlockRecordBytes > options_.blocksBufferSize) {
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
  const std::uint64_t flushCycles = static_cast<std::uint64_t>(double(b.used * kBlockRecordBytes) /
                                                               target_.getHostLinkBytesPerCycle()) +
                                    1;
  blocks_.row(blockId_++, runIndex_, program, tile, at, at + flushCycles,
              schema::name(schema::BlockKind::BlockFlush));
  b.used = 0;
  b.overflowing = false;
}

} // namespace poplar::detail::profile
