// report.execution(): runs, steps streamed in chunks, cycle totals, blocks.
#include "Access.hpp"

#include <profiler/Blob.hpp>

namespace pva {

using detail::Access;
using detail::ReportState;
using detail::StepBytes;
using ProgramBlob = storage::ReportStore::ProgramBlob;

namespace {
/// Steps read per query while iterating: enough to amortise the query, few enough that a chunk's
/// buffer (about 1 KiB per step on 16 IPUs) stays small and is reused by the allocator rather
/// than mapped afresh (bench_pva_reader: 512 beat 4096 by about 10%).
constexpr std::uint64_t kChunk = 512;

/// A run's cycles per tile of one replica for every kind (kinds the report lacks: zeros).
std::vector<std::vector<std::uint64_t>> runTileCycles(ReportState& s, unsigned run) {
  auto byKind = s.store.runTileCycles(run);
  byKind.resize(TileCycleTotals::numKinds);
  for (auto& k : byKind) k = s.perTile(std::move(k), "a run's cycles by kind");
  return byKind;
}

std::uint64_t totalSteps(ReportState& s) {
  std::uint64_t n = 0;
  for (const auto& r : s.getRuns()) n = std::max(n, r.firstStep + r.numSteps);
  return n;
}
} // namespace

// --- ExecutionReport ------------------------------------------------------------------------------

std::vector<Run> ExecutionReport::runs() const {
  std::vector<Run> out;
  for (const auto& row : s_->getRuns()) out.push_back(Access::run(s_, row));
  return out;
}

ExecutionSteps ExecutionReport::steps() const { return Access::steps(s_, 0, totalSteps(*s_)); }

TotalCycles ExecutionReport::totalCycles() const {
  std::uint64_t total = 0;
  for (const auto& r : s_->getRuns()) total += r.cycles;
  return Access::totalCycles(total);
}

TileCycleTotals ExecutionReport::tileCycleTotals() const {
  std::vector<std::vector<std::uint64_t>> sum(TileCycleTotals::numKinds,
                                                std::vector<std::uint64_t>(s_->tilesPerReplica(), 0));
  for (const auto& r : s_->getRuns()) {
    const auto byKind = runTileCycles(*s_, r.id);
    for (std::size_t k = 0; k < sum.size(); ++k)
      for (std::size_t t = 0; t < sum[k].size(); ++t) sum[k][t] += byKind[k][t];
  }
  return Access::tileCycleTotals(std::move(sum));
}

std::vector<Block> ExecutionReport::blocks(unsigned tile) const {
  const Target& t = s_->getTarget();
  if (tile >= t.numTiles()) s_->badArgument("no tile " + std::to_string(tile) + " (the target has " + std::to_string(t.numTiles()) + ")");
  std::vector<Block> out;
  for (const auto& row : s_->store.blocks(tile)) out.push_back(Access::block(s_, row));
  return out;
}

// --- steps ----------------------------------------------------------------------------------------

ExecutionSteps::iterator ExecutionSteps::begin() const {
  iterator it;
  it.range_ = this;
  it.index_ = begin_;
  return it;
}

ExecutionSteps::iterator ExecutionSteps::end() const {
  iterator it;
  it.range_ = this;
  it.index_ = end_;
  return it;
}

namespace {
/// Reads steps [first, first + count) of `s` as handles sharing one buffer. `bytesHint` carries
/// the largest chunk's size so far from one chunk to the next, so that the buffer is allocated
/// at its size once instead of growing (and being copied) a dozen times per chunk.
std::vector<ExecutionStep> readChunk(const std::shared_ptr<ReportState>& s, std::uint64_t first, std::uint64_t count,
                                     std::size_t& bytesHint) {
  storage::StepChunk chunk;
  chunk.rows.reserve(count);
  chunk.bytes.reserve(bytesHint);
  s->store.steps(first, count, chunk);
  if (chunk.rows.size() != count || (!chunk.rows.empty() && chunk.rows.front().id != first))
    s->store.corrupt("corrupted report (steps " + std::to_string(first) + "-" + std::to_string(first + count - 1) +
                     " are missing)");
  bytesHint = std::max(bytesHint, chunk.bytes.size());
  auto data = std::make_shared<StepBytes>();
  data->state = s;
  data->bytes = std::move(chunk.bytes);
  const std::shared_ptr<const StepBytes> shared = std::move(data);
  std::vector<ExecutionStep> steps;
  steps.reserve(chunk.rows.size());
  for (const auto& r : chunk.rows) steps.push_back(Access::step(shared, r));
  return steps;
}
} // namespace

const ExecutionStep& ExecutionSteps::iterator::operator*() const {
  auto* self = const_cast<iterator*>(this);
  if (!chunk_ || index_ < chunkBegin_ || index_ >= chunkBegin_ + chunk_->size()) {
    self->chunk_ = std::make_shared<std::vector<ExecutionStep>>(
        readChunk(range_->s_, index_, std::min(kChunk, range_->end_ - index_), self->chunkBytes_));
    self->chunkBegin_ = index_;
  }
  return (*chunk_)[index_ - chunkBegin_];
}

ExecutionSteps::iterator& ExecutionSteps::iterator::operator++() {
  ++index_;
  return *this;
}

ExecutionStep ExecutionSteps::operator[](std::size_t i) const { return at(i); }

ExecutionStep ExecutionSteps::at(std::size_t i) const {
  if (i >= size()) s_->badArgument("no step " + std::to_string(i) + " (there are " + std::to_string(size()) + ")");
  std::size_t bytesHint = 0;
  return readChunk(s_, begin_ + i, 1, bytesHint).at(0);
}

ProgramPtr ExecutionStep::program() const { return chunk_->state->program(program_); }

IpuExecutions ExecutionStep::ipus() const { return Access::ipuExecutions(chunk_, index_, ipusOffset_, ipusSize_); }

std::vector<std::uint64_t> ExecutionStep::cyclesByTile() const {
  ReportState& s = *chunk_->state;
  if (cyclesSize_) return s.perTile(s.store.decodeTileValues(chunk_->at(cyclesOffset_), cyclesSize_, "step cycles"), "a step's cycles");
  return s.perTile(s.store.programBlob(program_, ProgramBlob::EstimatedCycles), "a step's cycles");
}

std::vector<ComputeSetExecution> ExecutionStep::computeSets() const {
  const ProgramPtr p = program();
  if (p->type() != Program::Type::OnTileExecute) return {};
  return {Access::computeSetExecution(chunk_->state, program_, std::uint64_t(Access::computeSetOf(*p)),
                                      cyclesSize_ ? chunk_->bytes.substr(cyclesOffset_, cyclesSize_) : std::string())};
}

const std::string& ComputeSetExecution::name() const {
  const auto& sets = s_->getComputeSets();
  if (computeSet_ >= sets.size()) s_->store.corrupt("corrupted report (step runs compute set " + std::to_string(computeSet_) + ")");
  return sets[computeSet_].name;
}

std::vector<std::uint64_t> ComputeSetExecution::cyclesByTile() const {
  if (!stepCycles_.empty()) return s_->perTile(s_->store.decodeTileValues(stepCycles_, "step cycles"), "a step's cycles");
  return s_->perTile(s_->store.programBlob(program_, ProgramBlob::EstimatedCycles), "a step's cycles");
}

std::vector<std::uint64_t> ComputeSetExecution::estimatedCyclesByTile() const {
  return s_->perTile(s_->store.computeSetEstimate(computeSet_), "a compute set's estimated cycles");
}

// --- runs, totals, blocks -------------------------------------------------------------------------

ExecutionSteps Run::steps() const { return Access::steps(s_, firstStep_, firstStep_ + numSteps_); }

TileCycleTotals Run::tileCycleTotals() const { return Access::tileCycleTotals(runTileCycles(*s_, index_)); }

std::uint64_t TileCycleTotals::total(Kind k) const {
  std::uint64_t s = 0;
  for (auto c : byKind_[static_cast<std::size_t>(k)]) s += c;
  return s;
}

std::uint64_t TileCycleTotals::total() const {
  std::uint64_t s = 0;
  for (std::size_t k = 0; k < numKinds; ++k) s += total(static_cast<Kind>(k));
  return s;
}

ProgramPtr Block::program() const { return s_->program(program_); }

namespace detail {

ExecutionSteps Access::steps(std::shared_ptr<ReportState> s, std::uint64_t begin, std::uint64_t end) {
  ExecutionSteps r;
  r.s_ = std::move(s);
  r.begin_ = begin;
  r.end_ = end;
  return r;
}

ExecutionStep Access::step(const std::shared_ptr<const StepBytes>& chunk, const storage::StepRow& row) {
  ExecutionStep e;
  e.chunk_ = chunk;
  e.index_ = row.id;
  e.program_ = row.program;
  e.run_ = row.run;
  e.ipusOffset_ = row.ipusOffset;
  e.ipusSize_ = row.ipusSize;
  e.cyclesOffset_ = row.cyclesOffset;
  e.cyclesSize_ = row.cyclesSize;
  return e;
}

IpuExecution Access::ipuExecution(const StepIpuView& v) {
  IpuExecution e;
  e.ipu_ = v.ipu;
  e.activeTiles_ = v.activeTiles;
  e.cycles_ = v.cycles;
  e.dataIn_ = v.dataIn;
  e.dataOut_ = v.dataOut;
  e.active_.from_.min_ = v.activeFromMin;
  e.active_.from_.max_ = v.activeFromMax;
  e.active_.to_.min_ = v.activeToMin;
  e.active_.to_.max_ = v.activeToMax;
  e.all_.from_.min_ = v.allFromMin;
  e.all_.from_.max_ = v.allFromMax;
  e.all_.to_.min_ = v.allToMin;
  e.all_.to_.max_ = v.allToMax;
  e.tileBalance_ = v.tileBalance;
  e.activeTileBalance_ = v.activeTileBalance;
  return e;
}

ComputeSetExecution Access::computeSetExecution(const std::shared_ptr<ReportState>& s, std::uint64_t program,
                                                std::uint64_t computeSet, const std::string& stepCycles) {
  ComputeSetExecution c;
  c.s_ = s;
  c.program_ = program;
  c.computeSet_ = computeSet;
  c.stepCycles_ = stepCycles;
  return c;
}

Run Access::run(const std::shared_ptr<ReportState>& s, const storage::RunRow& row) {
  Run r;
  r.s_ = s;
  r.index_ = row.id;
  r.programIndex_ = row.programIndex;
  r.name_ = row.name;
  r.firstStep_ = row.firstStep;
  r.numSteps_ = row.numSteps;
  r.cycles_ = row.cycles;
  r.us_.start_ = row.usStart;
  r.us_.end_ = row.usEnd;
  return r;
}

Block Access::block(const std::shared_ptr<ReportState>& s, const storage::BlockRow& row) {
  Block b;
  b.s_ = s;
  b.program_ = row.program;
  b.from_ = row.from;
  b.to_ = row.to;
  b.tile_ = row.tile;
  b.run_ = row.run;
  b.kind_ = row.kind;
  return b;
}

} // namespace detail
} // namespace pva
