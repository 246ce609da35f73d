// report.compilation(): target, graph, tiles and their memory, compute sets, variables,
// liveness steps and lowered variables.
#include "Access.hpp"
#include "Saturating.hpp"

#include <map>
#include <profiler/Schema.hpp>

namespace pva {

namespace S = tessera::profiler::schema;
using detail::Access;
using detail::ReportState;
using LivenessBlob = storage::ReportStore::LivenessBlob;

// --- CompilationReport ---------------------------------------------------------------------------

Target CompilationReport::target() const {
  return s_->getTarget();
}

Graph CompilationReport::graph() const {
  s_->graph.get([&] { s_->graph.value = Access::graph(s_->store.graph()); });
  return s_->graph.value;
}

Tiles CompilationReport::tiles() const {
  const std::vector<Tile>& all = s_->getTiles();
  return Access::tiles(s_, all.data(), all.size());
}

Tile CompilationReport::tile(unsigned number) const {
  const std::vector<Tile>& all = s_->getTiles();
  if (number >= all.size())
    s_->badArgument("no tile " + std::to_string(number) + " (the target has " +
                    std::to_string(all.size()) + ")");
  return all[number]; // the copy owns the report
}

std::vector<Ipu> CompilationReport::ipus() const {
  const Target& t = s_->getTarget();
  const std::vector<Tile>& all = s_->getTiles();
  std::vector<Ipu> out;
  for (unsigned i = 0; i < t.numIPUs(); ++i)
    out.push_back(Access::ipu(
        i, Access::tiles(s_, all.data() + std::size_t(i) * t.tilesPerIpu(), t.tilesPerIpu())));
  return out;
}

std::vector<ProgramPtr> CompilationReport::programs() const {
  const auto& objects = s_->getPrograms().objects;
  std::vector<ProgramPtr> out;
  out.reserve(objects.size());
  for (const auto& p : objects)
    out.push_back(ProgramPtr(s_, p.get()));
  return out;
}

ProgramPtr CompilationReport::program(std::uint64_t id) const {
  return s_->program(id);
}

std::vector<ProgramPtr> CompilationReport::entryPoints() const {
  std::vector<ProgramPtr> out;
  for (auto id : s_->getPrograms().entryPoints)
    out.push_back(s_->program(id));
  return out;
}

std::vector<ComputeSet> CompilationReport::computeSets() const {
  std::vector<ComputeSet> out;
  for (const auto& row : s_->getComputeSets())
    out.push_back(Access::computeSet(s_, row));
  return out;
}

std::vector<Variable> CompilationReport::variables() const {
  std::vector<Variable> out;
  for (const auto& row : s_->getVariables())
    out.push_back(Access::variable(s_, row));
  return out;
}

std::vector<ProgramStep> CompilationReport::livenessProgramSteps() const {
  std::vector<ProgramStep> out;
  for (const auto& row : s_->getLiveness())
    out.push_back(Access::programStep(s_, row));
  return out;
}

std::vector<Variable> CompilationReport::alwaysLiveVariables() const {
  std::vector<Variable> out;
  for (const auto& row : s_->getVariables())
    if (row.alwaysLive) out.push_back(Access::variable(s_, row));
  std::map<std::string, std::uint64_t> pseudo;
  for (const auto& row : s_->store.loweredVariables())
    if (row.variable < 0) pseudo[row.category] += row.bytes;
  for (const auto& [category, bytes] : pseudo)
    out.push_back(Access::pseudoVariable(category, bytes));
  return out;
}

std::vector<Variable> CompilationReport::alwaysLiveVariablesForTile(unsigned tile) const {
  const unsigned perReplica = s_->tilesPerReplica();
  if (tile >= s_->getTarget().numTiles()) s_->badArgument("no tile " + std::to_string(tile));
  std::vector<Variable> out;
  for (const auto& row : s_->store.loweredVariables(tile % perReplica)) {
    if (!row.alwaysLive) continue;
    if (row.variable < 0) {
      out.push_back(Access::pseudoVariable(row.category, row.bytes));
    } else {
      Variable v = s_->variable(std::uint64_t(row.variable));
      out.push_back(Access::withBytes(v, row.bytes));
    }
  }
  return out;
}

LoweredVariables CompilationReport::loweredVariables() const {
  return Access::loweredVariables(s_);
}

// --- tiles
// ----------------------------------------------------------------------------------------

using storage::TileColumn;

std::uint64_t TileMemory::alwaysLiveBytes() const {
  return total_.s_->getTileColumn(TileColumn::AlwaysLive)[total_.tile_];
}
std::uint64_t TileMemory::notAlwaysLiveBytes() const {
  return total_.s_->getTileColumn(TileColumn::NotAlwaysLive)[total_.tile_];
}

MemoryTotal TileMemory::overflowed() const {
  MemoryTotal m = total_; // a copy: it owns the report
  m.overflowed_ = true;
  return m;
}

std::uint64_t MemoryTotal::includingGaps() const {
  return s_->getTileColumn(overflowed_ ? TileColumn::OverflowedIncluding
                                       : TileColumn::IncludingGaps)[tile_];
}
std::uint64_t MemoryTotal::excludingGaps() const {
  return s_->getTileColumn(overflowed_ ? TileColumn::OverflowedExcluding
                                       : TileColumn::ExcludingGaps)[tile_];
}

const MemoryCategories& TileMemory::category() const {
  return total_.s_->getCategories().at(total_.tile_);
}

std::vector<TileVertexType> TileMemory::vertices() const {
  ReportState& s = *total_.s_;
  const auto& types = s.getVertexTypes();
  std::vector<TileVertexType> out;
  for (const auto& [type, count] : s.store.tileVertexTypes(total_.tile_)) {
    if (type >= types.size())
      s.store.corrupt("corrupted report (tile " + std::to_string(total_.tile_) +
                      " has vertex type " + std::to_string(type) + ")");
    out.push_back(Access::tileVertexType(types[type], count));
  }
  return out;
}

const CategoryMemory& MemoryCategories::at(std::size_t i) const {
  if (i >= size())
    throw InvalidArgumentError("no memory category " + std::to_string(i) + " (there are " +
                               std::to_string(size()) + ")");
  return c_[i];
}

const CategoryMemory& MemoryCategories::operator[](const std::string& name) const {
  for (std::size_t i = 0; i < S::kMemoryCategoryNames.size(); ++i)
    if (S::kMemoryCategoryNames[i] == name) return c_[i];
  throw InvalidArgumentError("no memory category '" + name + "'");
}

const std::vector<std::string>& MemoryCategories::names() {
  static const std::vector<std::string> names(S::kMemoryCategoryNames.begin(),
                                              S::kMemoryCategoryNames.end());
  return names;
}

// --- compute sets and variables -----------------------------------------------------------------

std::vector<std::uint64_t> ComputeSetVertices::countByTile() const {
  return s_->perTile(s_->store.computeSetVertexCounts(computeSet_, typeId_),
                     "a compute set's vertex counts");
}

std::vector<VertexCycleRule> ComputeSetVertices::cycleRules() const {
  std::vector<VertexCycleRule> out;
  std::uint64_t sum = 0;
  bool overflow = false;
  for (auto& row : s_->store.vertexCycleRules(computeSet_, typeId_)) {
    overflow = overflow || __builtin_add_overflow(sum, row.count, &sum);
    out.push_back({std::move(row.rule), row.count});
  }
  // Documented: the counts add up to count() (when the report records the rules at all).
  if (!out.empty() && (overflow || sum != count_))
    s_->store.corrupt("corrupted report (the cycle rules of the " + type_.name() +
                      " vertices of compute set " + std::to_string(computeSet_) + " count " +
                      (overflow ? std::string("more than 2^64") : std::to_string(sum)) +
                      " vertices, not " + std::to_string(count_) + ")");
  return out;
}

std::vector<ComputeSetVertices> ComputeSet::vertices() const {
  const auto& types = s_->getVertexTypes();
  std::vector<ComputeSetVertices> out;
  for (const auto& row : s_->store.computeSetVertices(id_)) {
    if (row.vertexType >= types.size())
      s_->store.corrupt("corrupted report (compute set " + name_ + " has vertex type " +
                        std::to_string(row.vertexType) + ")");
    out.push_back(
        Access::computeSetVertices(s_, id_, row.vertexType, types[row.vertexType], row.count));
  }
  return out;
}

std::vector<std::uint64_t> ComputeSet::estimatedCyclesByTile() const {
  return s_->perTile(s_->store.computeSetEstimate(id_), "a compute set's estimated cycles");
}
std::vector<std::uint64_t> ComputeSet::estimatedFlopsByTile() const {
  if (!flops_) return {};
  std::optional<storage::U64s> stored = s_->store.computeSetFlopsByTile(id_);
  if (!stored) return {}; // a report before 1.4: FLOPs per compute set only
  storage::U64s flops = s_->perTile(std::move(*stored), "a compute set's FLOPs per tile");
  // The tiles' FLOPs are the compute set's FLOPs shared out: values that do not add up to them
  // (saturating, so huge hostile values cannot wrap round to the total) are a damaged report.
  std::uint64_t sum = 0;
  for (const std::uint64_t f : flops)
    sum = detail::saturatingAdd(sum, f);
  if (sum != *flops_)
    s_->store.corrupt("corrupted report (compute set " + std::to_string(id_) +
                      "'s FLOPs per tile add up to " + std::to_string(sum) +
                      ", its estimated_flops is " + std::to_string(*flops_) + ")");
  return flops;
}
std::shared_ptr<const DebugContext> ComputeSet::debugContext() const {
  return s_->debugContext(debug_);
}
std::shared_ptr<const DebugContext> Variable::debugContext() const {
  return s_ ? s_->debugContext(debug_) : nullptr;
}

// --- liveness
// -------------------------------------------------------------------------------------

ProgramPtr ProgramStep::program() const {
  return s_->program(program_);
}

NotAlwaysLiveMemory ProgramStep::notAlwaysLiveMemory() const {
  std::vector<Variable> vars;
  for (const auto& row : s_->getVariables())
    if (!row.alwaysLive && row.from <= index_ && index_ < row.to)
      vars.push_back(Access::variable(s_, row));
  return Access::notAlwaysLive(bytes_, std::move(vars));
}

NotAlwaysLiveMemory ProgramStep::notAlwaysLiveMemoryForTile(unsigned tile) const {
  const Target& t = s_->getTarget();
  if (tile >= t.numTiles())
    s_->badArgument("no tile " + std::to_string(tile) + " (the target has " +
                    std::to_string(t.numTiles()) + ")");
  const unsigned replicaTile = tile % t.tilesPerReplica();
  const auto bytes = s_->store.livenessBlob(index_, LivenessBlob::ByTile);
  if (replicaTile >= bytes.size())
    s_->store.corrupt("corrupted report (liveness step " + std::to_string(index_) + " has " +
                      std::to_string(bytes.size()) + " tiles)");
  const auto& rows = s_->getVariables();
  std::vector<Variable> vars;
  for (const auto& row : s_->store.loweredVariables(replicaTile)) {
    if (row.alwaysLive || row.variable < 0 || std::uint64_t(row.variable) >= rows.size()) continue;
    const auto& v = rows[std::size_t(row.variable)];
    if (v.from <= index_ && index_ < v.to)
      vars.push_back(Access::withBytes(Access::variable(s_, v), row.bytes));
  }
  return Access::notAlwaysLive(bytes[replicaTile], std::move(vars));
}

NotAlwaysLiveMemory ProgramStep::notAlwaysLiveMemoryForIpu(unsigned ipu) const {
  const Target& t = s_->getTarget();
  if (ipu >= t.numIPUs())
    s_->badArgument("no IPU " + std::to_string(ipu) + " (the target has " +
                    std::to_string(t.numIPUs()) + ")");
  const unsigned ipusPerReplica = t.ipusPerReplica(), replicaIpu = ipu % ipusPerReplica;
  const auto bytes = s_->store.livenessBlob(index_, LivenessBlob::ByIpu);
  if (replicaIpu >= bytes.size())
    s_->store.corrupt("corrupted report (liveness step " + std::to_string(index_) + " has " +
                      std::to_string(bytes.size()) + " IPUs)");
  const auto& rows = s_->getVariables();
  std::map<std::uint64_t, std::uint64_t> perVar;
  for (const auto& row : s_->store.loweredVariables()) {
    if (row.alwaysLive || row.variable < 0 || row.tile / t.tilesPerIpu() != replicaIpu) continue;
    if (std::uint64_t(row.variable) >= rows.size()) continue;
    const auto& v = rows[std::size_t(row.variable)];
    if (v.from <= index_ && index_ < v.to) perVar[v.id] += row.bytes;
  }
  std::vector<Variable> vars;
  for (const auto& [id, b] : perVar)
    vars.push_back(Access::withBytes(Access::variable(s_, rows[id]), b));
  return Access::notAlwaysLive(bytes[replicaIpu], std::move(vars));
}

// --- lowered variables
// ----------------------------------------------------------------------------

const Variable& LoweredVariable::unloweredVar() const {
  if (!hasVar_)
    throw InvalidArgumentError("lowered variable " + std::to_string(id_) + " ('" + name_ +
                               "') is " + category_ + ", not part of a variable");
  return var_;
}

std::vector<BriefVar> LoweredVariables::allBriefVars() const {
  const auto& vars = s_->getVariables();
  std::vector<BriefVar> out;
  for (const auto& row : s_->store.loweredVariables()) {
    std::uint64_t from = 0, to = 0;
    if (!row.alwaysLive && row.variable >= 0 && std::uint64_t(row.variable) < vars.size()) {
      from = vars[std::size_t(row.variable)].from;
      to = vars[std::size_t(row.variable)].to;
    }
    out.push_back(Access::briefVar(row, row.id, from, to));
  }
  return out;
}

std::vector<LoweredVariable> LoweredVariables::forTile(unsigned tile) const {
  const Target& t = s_->getTarget();
  if (tile >= t.numTiles())
    s_->badArgument("no tile " + std::to_string(tile) + " (the target has " +
                    std::to_string(t.numTiles()) + ")");
  std::vector<LoweredVariable> out;
  for (const auto& row : s_->store.loweredVariables(tile % t.tilesPerReplica())) {
    if (row.variable >= 0) {
      const Variable v = s_->variable(std::uint64_t(row.variable));
      out.push_back(Access::loweredVariable(row, &v));
    } else {
      out.push_back(Access::loweredVariable(row, nullptr));
    }
  }
  return out;
}

} // namespace pva
