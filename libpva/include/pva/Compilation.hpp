// What was known at the end of compilation: target, graph, per-tile memory, programs, compute
// sets, variables and liveness (report.compilation()).
#pragma once

#include <map>
#include <pva/Fwd.hpp>
#include <pva/OptionalCount.hpp>
#include <pva/Program.hpp>
#include <stdexcept>
#include <string>
#include <utility>

namespace pva {

/// The device the report was compiled for.
///
/// Per-tile arrays (every `...ByTile` accessor of libpva: Program::controlCodeByTile,
/// codeBytesByTile and estimatedCyclesByTile, ComputeSet::estimatedCyclesByTile,
/// ComputeSetVertices::countByTile, ExecutionStep::cyclesByTile, ComputeSetExecution's two,
/// TileCycleTotals::byTile) always hold exactly tilesPerReplica() entries, entry t for tile t of
/// a replica, zeros included: a program with no exchange code, a control program with no
/// estimate or a step that left a tile idle gives zeros there, never a shorter or empty array.
/// Without replication that is numTiles(). Replicas run the same compiled program, so tile t of
/// replica r (device tile r * tilesPerReplica() + t) has the same figures as tile t; only
/// CompilationReport::tiles() lists every tile of the device. This follows Poplar's libpva, whose
/// clients size these arrays by one replica (PopLiner slices each of them to one replica's tiles
/// and warns that replicated reports are not supported).
class Target {
public:
  enum class Type { Ipu, IpuModel, Cpu, Unknown };
  enum class Architecture { Ipu1, Ipu2, Ipu21, Unknown };
  /// As stored in the report: "IPU", "IPU_MODEL", "CPU" ("unknown" for Unknown).
  static const std::string& typeName(Type t);
  /// As stored in the report: "ipu1", "ipu2", "ipu21" ("unknown" for Unknown).
  static const std::string& architectureName(Architecture a);
  Type type() const { return type_; }
  Architecture architecture() const { return arch_; }
  unsigned numIPUs() const { return numIpus_; }
  unsigned tilesPerIpu() const { return tilesPerIpu_; }
  unsigned numTiles() const { return numIpus_ * tilesPerIpu_; }
  std::uint64_t bytesPerTile() const { return bytesPerTile_; }
  std::uint64_t bytesPerIPU() const { return bytesPerTile_ * tilesPerIpu_; }
  std::uint64_t totalMemory() const { return bytesPerIPU() * numIpus_; }
  double clockFrequency() const { return clock_; }
  unsigned numReplicas() const { return replicas_; }
  unsigned ipusPerReplica() const { return numIpus_ / replicas_; }
  unsigned tilesPerReplica() const { return numTiles() / replicas_; }
  std::uint64_t memoryPerReplica() const { return totalMemory() / replicas_; }
  unsigned numWorkerContexts() const { return contexts_; }
  std::uint64_t interleavedMemoryStart() const { return interleavedStart_; }
  const std::vector<std::uint64_t>& memoryElementOffsets() const { return elementOffsets_; }
  unsigned exchangeBytesPerCycle() const { return exchangeBytesPerCycle_; }
  double ipuLinkBytesPerCycle() const { return ipuLinkBytesPerCycle_; }
  double hostLinkBytesPerCycle() const { return hostLinkBytesPerCycle_; }
  unsigned minSyncDelay() const { return minSync_; }
  unsigned maxSyncDelay() const { return maxSync_; }
  unsigned globalSyncCycles() const { return globalSync_; }

private:
  friend struct detail::Access;
  Type type_ = Type::Unknown;
  Architecture arch_ = Architecture::Unknown;
  unsigned numIpus_ = 0, tilesPerIpu_ = 0, replicas_ = 1, contexts_ = 0, exchangeBytesPerCycle_ = 0;
  unsigned minSync_ = 0, maxSync_ = 0, globalSync_ = 0;
  std::uint64_t bytesPerTile_ = 0, interleavedStart_ = 0;
  double clock_ = 0, ipuLinkBytesPerCycle_ = 0, hostLinkBytesPerCycle_ = 0;
  std::vector<std::uint64_t> elementOffsets_;
};

/// Graph-wide counts.
class Graph {
public:
  std::uint64_t numVertices() const { return vertices_; }
  std::uint64_t numComputeSets() const { return computeSets_; }
  std::uint64_t numVariables() const { return variables_; }
  std::uint64_t numEdges() const { return edges_; }

private:
  friend struct detail::Access;
  std::uint64_t vertices_ = 0, computeSets_ = 0, variables_ = 0, edges_ = 0;
};

namespace detail {
/// A handle's reference to its open report. A copy keeps the report open, so a Tile, TileMemory
/// or MemoryTotal kept by value stays valid after the Tiles list it came from is gone. (How the
/// report's own tiles refer to it without keeping it open, since it cannot own itself, is
/// libpva's business: the copy operations are in its source.)
class StateRef {
public:
  StateRef() = default;
  StateRef(const StateRef& o);
  StateRef(StateRef&& o);
  StateRef& operator=(const StateRef& o);
  StateRef& operator=(StateRef&& o);
  ~StateRef();
  ReportState* operator->() const noexcept { return p_.get(); }
  ReportState& operator*() const noexcept { return *p_; }

private:
  friend struct Access;
  std::shared_ptr<ReportState> p_;
};
} // namespace detail

/// Bytes with and without gaps (alignment padding and holes). Each figure is read for every
/// tile at once, on first use, so summing one over all tiles reads just that column.
class MemoryTotal {
public:
  std::uint64_t includingGaps() const;
  std::uint64_t excludingGaps() const;

private:
  friend struct detail::Access;
  friend class TileMemory;
  detail::StateRef s_;
  unsigned tile_ = 0; ///< tile of one replica
  bool overflowed_ = false;
};

/// Bytes that have addresses of their own, and bytes that share addresses with variables whose
/// lives do not overlap theirs.
class OverlapBytes {
public:
  std::uint64_t nonOverlapped() const { return nonOverlapped_; }
  std::uint64_t overlapped() const { return overlapped_; }
  std::uint64_t total() const { return nonOverlapped_ + overlapped_; }

private:
  friend struct detail::Access;
  std::uint64_t nonOverlapped_ = 0, overlapped_ = 0;
};

/// One memory category on one tile, by region.
class CategoryMemory {
public:
  const OverlapBytes& nonInterleaved() const { return regions_[0]; }
  const OverlapBytes& interleaved() const { return regions_[1]; }
  const OverlapBytes& overflowed() const { return regions_[2]; }
  std::uint64_t total() const {
    return regions_[0].total() + regions_[1].total() + regions_[2].total();
  }

private:
  friend struct detail::Access;
  OverlapBytes regions_[3];
};

/// A tile's memory by category (Poplar's category names).
class MemoryCategories {
public:
  const CategoryMemory& variable() const { return c_[0]; }
  const CategoryMemory& constant() const { return c_[1]; }
  const CategoryMemory& message() const { return c_[2]; }
  const CategoryMemory& vertexCode() const { return c_[3]; }
  const CategoryMemory& vertexInstanceState() const { return c_[4]; }
  const CategoryMemory& vertexFieldData() const { return c_[5]; }
  const CategoryMemory& vectorListDescriptor() const { return c_[6]; }
  const CategoryMemory& copyDescriptor() const { return c_[7]; }
  const CategoryMemory& controlCode() const { return c_[8]; }
  const CategoryMemory& controlId() const { return c_[9]; }
  const CategoryMemory& internalExchangeCode() const { return c_[10]; }
  const CategoryMemory& hostExchangeCode() const { return c_[11]; }
  const CategoryMemory& globalExchangeCode() const { return c_[12]; }
  const CategoryMemory& stack() const { return c_[13]; }
  const CategoryMemory& instrumentationResults() const { return c_[14]; }
  static constexpr std::size_t size() { return 15; }
  /// By position (0..size()-1, in the order above) or by name; names() lists them.
  const CategoryMemory& at(std::size_t i) const;
  const CategoryMemory& operator[](const std::string& name) const;
  static const std::vector<std::string>& names();

private:
  friend struct detail::Access;
  CategoryMemory c_[15];
};

class VertexType {
public:
  const std::string& name() const { return name_; }
  /// Vertex state bytes of one instance (fixed part).
  std::uint64_t size() const { return size_; }
  std::uint64_t codeBytes() const { return codeBytes_; }
  bool isSupervisor() const { return supervisor_; }

private:
  friend struct detail::Access;
  std::string name_;
  std::uint64_t size_ = 0, codeBytes_ = 0;
  bool supervisor_ = false;
};

/// A vertex type present on a tile: its code is there once.
class TileVertexType {
public:
  const VertexType& type() const { return type_; }
  std::uint64_t codeBytes() const { return type_.codeBytes(); }
  std::uint64_t count() const { return count_; }

private:
  friend struct detail::Access;
  VertexType type_;
  std::uint64_t count_ = 0;
};

/// A tile's memory (read from the report's cache on each call; each figure is read for all tiles
/// on first use). Part of its Tile, as total() is part of it, so that
/// `tile.memory().total().excludingGaps()` makes no object; a copy is a handle of its own. On a
/// temporary (`c.tile(0).memory()`) they return the part itself, which then outlives it.
class TileMemory {
public:
  const MemoryTotal& total() const& { return total_; }
  MemoryTotal total() && { return std::move(total_); }
  /// A handle of its own (rarely summed over tiles: kept out of the tile to keep tiles small).
  MemoryTotal overflowed() const;
  std::uint64_t alwaysLiveBytes() const;
  /// Peak over the program's steps of the not-always-live bytes.
  std::uint64_t notAlwaysLiveBytes() const;
  /// By category (read on first use for all tiles at once).
  const MemoryCategories& category() const;
  /// Vertex types whose code is on the tile.
  std::vector<TileVertexType> vertices() const;

private:
  friend struct detail::Access;
  MemoryTotal total_; ///< also gives this tile's report and replica tile
};

class Tile {
public:
  /// Tile number over the whole device (all replicas).
  unsigned number() const { return number_; }
  unsigned ipu() const { return ipu_; }
  const TileMemory& memory() const& { return memory_; }
  TileMemory memory() && { return std::move(memory_); }

private:
  friend struct detail::Access;
  TileMemory memory_;
  unsigned number_ = 0, ipu_ = 0;
};

/// The tiles of a report, or of one IPU (CompilationReport::tiles(), Ipu::tiles()): a list that
/// keeps the report open and holds the report's own tile objects, made once per report, so that
/// asking for the tiles and walking them allocates nothing and counts no references. Elements
/// are reached by reference, as in a std::vector (a reference lasts as long as the list or the
/// report does); a Tile copied out of it is a handle that keeps the report open by itself.
class Tiles {
public:
  using value_type = Tile;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = const Tile&;
  using const_reference = const Tile&;
  using iterator = const Tile*;
  using const_iterator = const Tile*;
  const Tile* begin() const { return first_; }
  const Tile* end() const { return first_ + size_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Tile& operator[](std::size_t i) const { return first_[i]; }
  /// Throws std::out_of_range when i >= size(), like std::vector::at.
  const Tile& at(std::size_t i) const {
    if (i >= size_)
      throw std::out_of_range("pva::Tiles::at: no tile " + std::to_string(i) + " (there are " +
                              std::to_string(size_) + ")");
    return first_[i];
  }
  const Tile& front() const { return at(0); }
  const Tile& back() const { return at(size_ - 1); }
  /// Copies of the tiles, each keeping the report open (for code that keeps a vector).
  operator std::vector<Tile>() const { return {begin(), end()}; }

private:
  friend struct detail::Access;
  std::shared_ptr<const detail::ReportState> report_; ///< keeps the report, and so its tiles, alive
  const Tile* first_ = nullptr;                       ///< the report's own tiles
  std::size_t size_ = 0;
};

class Ipu {
public:
  unsigned id() const { return id_; }
  Tiles tiles() const { return tiles_; }

private:
  friend struct detail::Access;
  unsigned id_ = 0;
  Tiles tiles_;
};

/// How many of a compute set's instances of a vertex type one rule costs.
struct VertexCycleRule {
  /// Where their cycles come from (docs/profiling.md): "getCycleEstimate" (the vertex class's
  /// estimate), "setPerfEstimate", "registerPerfEstimator", "executed" (the instructions each
  /// execution of compute() ran, counted by popc's instrumentation) or "fieldSizes" (the default
  /// from the vertex's field sizes, for codelet files built without counting).
  std::string rule;
  std::uint64_t count = 0;
};

/// Instances of one vertex type in one compute set.
class ComputeSetVertices {
public:
  const VertexType& type() const { return type_; }
  std::uint64_t count() const { return count_; }
  /// Instances on each tile of one replica: tilesPerReplica() entries, 0 where there are none.
  std::vector<std::uint64_t> countByTile() const;
  /// Which rules gave these instances' cycles, by rule name; counts add up to count(). Empty for
  /// reports older than format 1.3, which did not record it.
  std::vector<VertexCycleRule> cycleRules() const;

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
  unsigned computeSet_ = 0;
  std::uint64_t typeId_ = 0;
  VertexType type_;
  std::uint64_t count_ = 0;
};

class ComputeSet {
public:
  unsigned id() const { return id_; }
  const std::string& name() const { return name_; }
  std::uint64_t numVertices() const { return numVertices_; }
  std::vector<ComputeSetVertices> vertices() const;
  /// Compile-time estimate of the compute cycles on each tile of one replica (tilesPerReplica()
  /// entries, 0 on tiles without vertices).
  std::vector<std::uint64_t> estimatedCyclesByTile() const;
  /// Compile-time estimate of the floating-point operations of one execution (all tiles of one
  /// replica) by the vertices whose codelet the engine models. None ("no estimate", never 0)
  /// when the report has none: Report::hasFlopEstimates() is false (the engine option
  /// profiler.includeFlopEstimates was off, or the report is older than format 1.1).
  OptionalCount estimatedFlops() const { return flops_; }
  /// Vertices without a FLOP estimate (user codelets), not counted in estimatedFlops();
  /// none as estimatedFlops().
  OptionalCount verticesWithoutFlopEstimate() const { return withoutFlops_; }
  /// estimatedFlops() tile by tile (tilesPerReplica() entries, adding up to it). Empty ("no
  /// estimate", never zeros) when estimatedFlops() is none or the report is older than format
  /// 1.4, which stored FLOPs per compute set only. Throws InvalidReportError when the stored
  /// values do not add up to estimatedFlops().
  std::vector<std::uint64_t> estimatedFlopsByTile() const;
  /// Needs debug information; null otherwise.
  std::shared_ptr<const DebugContext> debugContext() const;

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
  unsigned id_ = 0;
  std::string name_;
  std::uint64_t numVertices_ = 0;
  std::int64_t debug_ = -1;
  OptionalCount flops_, withoutFlops_;
};

class Variable {
public:
  std::uint64_t id() const { return id_; }
  const std::string& name() const { return name_; }
  /// Bytes over all tiles of one replica.
  std::uint64_t size() const { return bytes_; }
  std::uint64_t bytes() const { return bytes_; }
  bool alwaysLive() const { return alwaysLive_; }
  /// variable, constant or message (exchange buffers the compiler made); for code and state
  /// pseudo-variables, the memory category.
  const std::string& category() const { return category_; }
  const std::string& elementType() const { return elementType_; }
  const std::string& shape() const { return shape_; }
  /// Liveness steps [from, to) where a not-always-live variable is live (empty when always live).
  std::uint64_t liveFrom() const { return from_; }
  std::uint64_t liveTo() const { return to_; }
  std::shared_ptr<const DebugContext> debugContext() const;
  bool operator==(const Variable& o) const { return id_ == o.id_ && name_ == o.name_; }
  bool operator!=(const Variable& o) const { return !(*this == o); }

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
  std::uint64_t id_ = 0, bytes_ = 0, from_ = 0, to_ = 0;
  std::int64_t debug_ = -1;
  bool alwaysLive_ = false;
  std::string name_, category_, elementType_, shape_;
};

/// Not-always-live memory at one step: the bytes and the variables live there.
class NotAlwaysLiveMemory {
public:
  std::uint64_t bytes() const { return bytes_; }
  std::vector<Variable> variables() const { return variables_; }

private:
  friend struct detail::Access;
  std::uint64_t bytes_ = 0;
  std::vector<Variable> variables_;
};

/// One step of the compiled schedule (loop bodies once), for liveness.
class ProgramStep {
public:
  std::uint64_t index() const { return index_; }
  ProgramPtr program() const;
  /// Over the whole replica.
  NotAlwaysLiveMemory notAlwaysLiveMemory() const;
  NotAlwaysLiveMemory notAlwaysLiveMemoryForTile(unsigned tile) const;
  NotAlwaysLiveMemory notAlwaysLiveMemoryForIpu(unsigned ipu) const;
  /// Bytes only, cheap: no variable list.
  std::uint64_t notAlwaysLiveBytes() const { return bytes_; }

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
  std::uint64_t index_ = 0, bytes_ = 0;
  std::uint64_t program_ = 0;
};

/// A lowered variable in brief: one allocation on one tile.
class BriefVar {
public:
  struct Interval {
    std::uint64_t start, end; ///< liveness steps [start, end)
  };
  struct EquivalenceClass {
    std::uint64_t id;
    std::vector<Interval> steps; ///< empty when always live
  };
  std::uint64_t id() const { return id_; }
  std::uint64_t bytes() const { return bytes_; }
  unsigned tileId() const { return tile_; }
  const EquivalenceClass& equivalenceClass() const { return class_; }

private:
  friend struct detail::Access;
  std::uint64_t id_ = 0, bytes_ = 0;
  unsigned tile_ = 0;
  EquivalenceClass class_{};
};

/// A lowered variable in full.
class LoweredVariable {
public:
  std::uint64_t id() const { return id_; }
  const std::string& name() const { return name_; }
  std::uint64_t bytes() const { return bytes_; }
  unsigned tile() const { return tile_; }
  std::uint64_t offset() const { return offset_; }
  std::uint64_t alignment() const { return alignment_; }
  const std::string& category() const { return category_; }
  bool alwaysLive() const { return alwaysLive_; }
  bool hasUnloweredVar() const { return hasVar_; }
  /// The variable it is a piece of; throws InvalidArgumentError for code and state.
  const Variable& unloweredVar() const;

private:
  friend struct detail::Access;
  std::uint64_t id_ = 0, bytes_ = 0, offset_ = 0, alignment_ = 0;
  unsigned tile_ = 0;
  bool alwaysLive_ = false, hasVar_ = false;
  std::string name_, category_;
  Variable var_;
};

class LoweredVariables {
public:
  std::vector<BriefVar> allBriefVars() const;
  std::vector<LoweredVariable> forTile(unsigned tile) const;

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
};

class CompilationReport {
public:
  Target target() const;
  Graph graph() const;
  /// One per tile of the whole device (all replicas; replicas have identical memory).
  Tiles tiles() const;
  Tile tile(unsigned number) const;
  std::vector<Ipu> ipus() const;
  /// Every program, flat; programs()[i]->_id() == i.
  std::vector<ProgramPtr> programs() const;
  ProgramPtr program(std::uint64_t id) const;
  /// The root of each program given to the engine, by index.
  std::vector<ProgramPtr> entryPoints() const;
  std::vector<ComputeSet> computeSets() const;
  /// Variables, constants and compiler-made buffers.
  std::vector<Variable> variables() const;
  std::vector<ProgramStep> livenessProgramSteps() const;
  /// Always-live variables over the replica, with code and state as pseudo-variables named
  /// after their category (sizes summed over tiles).
  std::vector<Variable> alwaysLiveVariables() const;
  std::vector<Variable> alwaysLiveVariablesForTile(unsigned tile) const;
  LoweredVariables loweredVariables() const;

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
};

} // namespace pva
