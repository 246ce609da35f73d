// What was known at the end of compilation: target, graph, per-tile memory, programs, compute
// sets, variables and liveness (report.compilation()).
#pragma once

#include <pva/Fwd.hpp>
#include <pva/Program.hpp>

#include <map>
#include <string>
#include <utility>

namespace pva {

class Target {
public:
  enum class Type { Ipu, IpuModel, Cpu, Unknown };
  enum class Architecture { Ipu1, Ipu2, Ipu21, Unknown };
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

/// Bytes with and without gaps (alignment padding and holes).
/// Bytes with and without gaps (alignment padding and holes). Each figure is read for every
/// tile at once, on first use, so summing one over all tiles reads just that column.
class MemoryTotal {
public:
  std::uint64_t includingGaps() const;
  std::uint64_t excludingGaps() const;

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
  unsigned tile_ = 0;
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
  std::uint64_t total() const { return regions_[0].total() + regions_[1].total() + regions_[2].total(); }

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
/// on first use).
class TileMemory {
public:
  MemoryTotal total() const&;
  MemoryTotal overflowed() const&;
  /// On a temporary (`tile.memory().total()`) the report reference moves along, saving a
  /// reference-count round trip per tile in loops over tens of thousands of tiles.
  MemoryTotal total() &&;
  MemoryTotal overflowed() &&;
  std::uint64_t alwaysLiveBytes() const;
  /// Peak over the program's steps of the not-always-live bytes.
  std::uint64_t notAlwaysLiveBytes() const;
  /// By category (read on first use for all tiles at once).
  const MemoryCategories& category() const;
  /// Vertex types whose code is on the tile.
  std::vector<TileVertexType> vertices() const;

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
  unsigned tile_ = 0; ///< tile of one replica
};

class Tile {
public:
  /// Tile number over the whole device (all replicas).
  unsigned number() const { return number_; }
  unsigned ipu() const { return ipu_; }
  TileMemory memory() const;

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
  unsigned number_ = 0, ipu_ = 0, replicaTile_ = 0;
};

class Ipu {
public:
  unsigned id() const { return id_; }
  std::vector<Tile> tiles() const { return tiles_; }

private:
  friend struct detail::Access;
  unsigned id_ = 0;
  std::vector<Tile> tiles_;
};

/// Instances of one vertex type in one compute set.
class ComputeSetVertices {
public:
  const VertexType& type() const { return type_; }
  std::uint64_t count() const { return count_; }
  /// Instances on each tile of one replica.
  std::vector<std::uint64_t> countByTile() const;

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
  /// Compile-time estimate of the compute cycles on each tile of one replica.
  std::vector<std::uint64_t> estimatedCyclesByTile() const;
  /// Needs debug information; null otherwise.
  std::shared_ptr<const DebugContext> debugContext() const;

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
  unsigned id_ = 0;
  std::string name_;
  std::uint64_t numVertices_ = 0;
  std::int64_t debug_ = -1;
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
  std::vector<Tile> tiles() const;
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
