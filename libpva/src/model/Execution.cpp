// report.execution(): runs, steps streamed in chunks, cycle totals, blocks.
#include "Access.hpp"
#include "Saturating.hpp"

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
  for (auto& k : byKind)
    k = s.perTile(std::move(k), "a run's cycles by kind");
  return byKind;
}

/// A run's compute cycles excluding idle threads per tile (nullopt before format 1.2).
std::optional<std::vector<std::uint64_t>> runExcludingIdle(ReportState& s, unsigned run) {
  auto v = s.store.runComputeExcludingIdle(run);
  if (v) v = s.perTile(std::move(*v), "a run's compute cycles excluding idle threads");
  return v;
}

std::uint64_t totalSteps(ReportState& s) {
  std::uint64_t n = 0;
  for (const auto& r : s.getRuns())
    n = std::max(n, r.firstStep + r.numSteps);
  return n;
}
} // namespace

// --- ExecutionReport
// ------------------------------------------------------------------------------

std::vector<Run> ExecutionReport::runs() const {
  std::vector<Run> out;
  for (const auto& row : s_->getRuns())
    out.push_back(Access::run(s_, row));
  return out;
}

ExecutionSteps ExecutionReport::steps() const {
  return Access::steps(s_, 0, totalSteps(*s_));
}

TotalCycles ExecutionReport::totalCycles() const {
  std::uint64_t total = 0;
  for (const auto& r : s_->getRuns())
    detail::addTo(total, r.cycles);
  return Access::totalCycles(total);
}

TileCycleTotals ExecutionReport::tileCycleTotals() const {
  std::vector<std::vector<std::uint64_t>> sum(TileCycleTotals::numKinds,
                                              std::vector<std::uint64_t>(s_->tilesPerReplica(), 0));
  // Known only when every run has it (a report appended to by an older writer has not).
  std::optional<std::vector<std::uint64_t>> idle(
      std::vector<std::uint64_t>(s_->tilesPerReplica(), 0));
  for (const auto& r : s_->getRuns()) {
    const auto byKind = runTileCycles(*s_, r.id);
    for (std::size_t k = 0; k < sum.size(); ++k)
      for (std::size_t t = 0; t < sum[k].size(); ++t)
        detail::addTo(sum[k][t], byKind[k][t]);
    const auto runIdle = idle ? runExcludingIdle(*s_, r.id) : std::nullopt;
    if (!runIdle)
      idle.reset();
    else
      for (std::size_t t = 0; t < idle->size(); ++t)
        detail::addTo((*idle)[t], (*runIdle)[t]);
  }
  return Access::tileCycleTotals(std::move(sum), std::move(idle));
}

std::vector<Block> ExecutionReport::blocks(unsigned tile) const {
  const Target& t = s_->getTarget();
  if (tile >= t.numTiles())
    s_->badArgument("no tile " + std::to_string(tile) + " (the target has " +
                    std::to_string(t.numTiles()) + ")");
  std::vector<Block> out;
  for (const auto& row : s_->store.blocks(tile))
    out.push_back(Access::block(s_, row));
  return out;
}

// --- steps
// ----------------------------------------------------------------------------------------

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
std::vector<ExecutionStep> readChunk(const std::shared_ptr<ReportState>& s, std::uint64_t first,
                                     std::uint64_t count, std::size_t& bytesHint) {
  storage::StepChunk chunk;
  chunk.rows.reserve(count);
  chunk.bytes.reserve(bytesHint);
  s->store.steps(first, count, chunk);
  if (chunk.rows.size() != count || (!chunk.rows.empty() && chunk.rows.front().id != first))
    s->store.corrupt("corrupted report (steps " + std::to_string(first) + "-" +
                     std::to_string(first + count - 1) + " are missing)");
  bytesHint = std::max(bytesHint, chunk.bytes.size());
  auto data = std::make_shared<StepBytes>();
  data->state = s;
  data->bytes = std::move(chunk.bytes);
  data->steps.resize(chunk.rows.size());
  for (std::size_t i = 0; i < chunk.rows.size(); ++i) {
    detail::StepEntry& e = data->steps[i];
    e.row = chunk.rows[i];
    // The head of the step's IPU data, read once here (a few bytes) so that ipus() starts at
    // entry 0 at once. Damage or another layout is left to ipus(), which decodes in full and
    // names the damage when the entries are read.
    e.plain = storage::readStepIpusLayout(data->at(e.row.ipusOffset), e.row.ipusSize, e.layout);
  }
  const std::shared_ptr<const StepBytes> shared = std::move(data);
  std::vector<ExecutionStep> steps;
  steps.reserve(shared->steps.size());
  for (std::uint32_t r = 0; r < shared->steps.size(); ++r)
    steps.push_back(Access::step(shared, r));
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

ExecutionStep ExecutionSteps::operator[](std::size_t i) const {
  return at(i);
}

ExecutionSteps ExecutionSteps::subrange(std::size_t offset, std::size_t count) const {
  if (offset > size() || count > size() - offset)
    throw InvalidArgumentError("steps [" + std::to_string(offset) + ", " +
                               std::to_string(std::uint64_t(offset) + count) +
                               ") are not all in a range of " + std::to_string(size()) + " steps");
  return Access::steps(s_, begin_ + offset, begin_ + offset + count);
}

ExecutionStep ExecutionSteps::at(std::size_t i) const {
  if (i >= size())
    s_->badArgument("no step " + std::to_string(i) + " (there are " + std::to_string(size()) + ")");
  std::size_t bytesHint = 0;
  return readChunk(s_, begin_ + i, 1, bytesHint).at(0);
}

ProgramPtr ExecutionStep::program() const {
  return chunk_->state->program(program_);
}

IpuExecutions ExecutionStep::ipus() const {
  return Access::ipuExecutions(chunk_, row_);
}

namespace {
/// Cycles per tile of step `row` of a chunk: its own, or (none stored) its program's estimate.
std::vector<std::uint64_t> stepCycles(const StepBytes& chunk, std::uint32_t row,
                                      std::uint64_t program) {
  ReportState& s = *chunk.state;
  const storage::StepRow& r = chunk.steps[row].row;
  if (r.cyclesSize)
    return s.perTile(
        s.store.decodeTileValues(chunk.at(r.cyclesOffset), r.cyclesSize, "step cycles"),
        "a step's cycles");
  return s.perTile(s.store.programBlob(program, ProgramBlob::EstimatedCycles), "a step's cycles");
}
} // namespace

std::vector<std::uint64_t> ExecutionStep::cyclesByTile() const {
  return stepCycles(*chunk_, row_, program_);
}

std::vector<ComputeSetExecution> ExecutionStep::computeSets() const {
  const ProgramPtr p = program();
  if (p->type() != Program::Type::OnTileExecute) return {};
  return {
      Access::computeSetExecution(chunk_, row_, program_, std::uint64_t(Access::computeSetOf(*p)))};
}

const std::string& ComputeSetExecution::name() const {
  ReportState& s = *chunk_->state;
  const auto& sets = s.getComputeSets();
  if (computeSet_ >= sets.size())
    s.store.corrupt("corrupted report (step runs compute set " + std::to_string(computeSet_) + ")");
  return sets[computeSet_].name;
}

std::vector<std::uint64_t> ComputeSetExecution::cyclesByTile() const {
  return stepCycles(*chunk_, row_, program_);
}

std::vector<std::uint64_t> ComputeSetExecution::estimatedCyclesByTile() const {
  ReportState& s = *chunk_->state;
  return s.perTile(s.store.computeSetEstimate(computeSet_), "a compute set's estimated cycles");
}

// --- runs, totals, blocks
// -------------------------------------------------------------------------

ExecutionSteps Run::steps() const {
  return Access::steps(s_, firstStep_, firstStep_ + numSteps_);
}

TileCycleTotals Run::tileCycleTotals() const {
  return Access::tileCycleTotals(runTileCycles(*s_, index_), runExcludingIdle(*s_, index_));
}

std::uint64_t TileCycleTotals::totalComputeExcludingIdleThreads() const {
  std::uint64_t s = 0;
  for (auto c : excludingIdle_)
    s += c;
  return s;
}

std::uint64_t TileCycleTotals::total(Kind k) const {
  std::uint64_t s = 0;
  for (auto c : byKind_[static_cast<std::size_t>(k)])
    detail::addTo(s, c);
  return s;
}

std::uint64_t TileCycleTotals::total() const {
  std::uint64_t s = 0;
  for (std::size_t k = 0; k < numKinds; ++k)
    detail::addTo(s, total(static_cast<Kind>(k)));
  return s;
}

std::shared_ptr<Program> Block::program() const {
  return std::const_pointer_cast<Program>(s_->program(program_));
}

namespace detail {

ExecutionSteps Access::steps(std::shared_ptr<ReportState> s, std::uint64_t begin,
                             std::uint64_t end) {
  ExecutionSteps r;
  r.s_ = std::move(s);
  r.begin_ = begin;
  r.end_ = end;
  return r;
}

ExecutionStep Access::step(const std::shared_ptr<const StepBytes>& chunk, std::uint32_t row) {
  const storage::StepRow& r = chunk->steps[row].row;
  ExecutionStep e;
  e.chunk_ = chunk;
  e.index_ = r.id;
  e.program_ = r.program;
  e.run_ = r.run;
  e.row_ = row;
  return e;
}

IpuExecution Access::ipuExecution(const StepIpuView& v) {
  IpuExecution e;
  setIpuExecution(e, v);
  return e;
}

ComputeSetExecution Access::computeSetExecution(const std::shared_ptr<const StepBytes>& chunk,
                                                std::uint32_t row, std::uint64_t program,
                                                std::uint64_t computeSet) {
  ComputeSetExecution c;
  c.chunk_ = chunk;
  c.row_ = row;
  c.program_ = program;
  c.computeSet_ = computeSet;
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
