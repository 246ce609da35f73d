// The compiled form of a graph and its programs: plain data, produced by compile() and stepped
// by the Runtime. Tile placement, vertex bindings and the lowered program tree live here, so
// the memory model, liveness and the cycle model can all be computed from it.
#pragma once

#include "runtime/CrossReplica.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <poplar/DebugContext.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Vertex.hpp>
#include <profiler/SchemaEnums.hpp>
#include <string>
#include <vector>

namespace poplar::detail::compiler {

/// A run of bytes in the simulated memory (an offset into a replica's storage arena).
struct ByteRun {
  std::size_t offset, bytes;
};

/// Elements [begin, end) of a variable held by one tile.
struct TileInterval {
  std::size_t begin, end;
  unsigned tile;
};

/// Each variable starts on a cache line of a replica's arena (which is itself allocated on one),
/// so that the host kernels' vector loads and stores line up with the lines: with 8-byte
/// alignment (and a heap arena starting 16 bytes into a line) every row of a 512-float matrix
/// began 16 bytes into a line and half of the kernels' 32-byte accesses straddled two (issue 38,
/// docs/benchmarks.md). Host speed only: the simulated tile memory does not depend on it.
constexpr std::size_t kArenaAlignment = 64;

struct CompiledVariable {
  std::string name;
  Type type;
  std::vector<std::size_t> shape;
  std::size_t numElements = 0;
  bool isConstant = false;
  std::size_t arenaOffset = 0;       ///< a multiple of kArenaAlignment
  std::vector<TileInterval> mapping; ///< sorted by begin, covers every element
  /// Empty: zero-initialised. Otherwise the value of every replica, or, replicationFactor times
  /// as long, each replica's own value in replica order (Graph::addReplicationIndexConstant).
  std::vector<unsigned char> initial;
  DebugContext debug;
};

/// Consecutive elements of one of a compute set's pools: a vertex's fields, a field's edges, an
/// edge's runs and regions, a state field's bytes. The compiled graph keeps these in a few
/// arrays per compute set, addressed by offsets, rather than a vector each (issue 38: ten
/// allocations a vertex were a third of the memory at 10 M vertices).
template <class T> class PoolView {
public:
  PoolView() = default;
  PoolView(T* data, std::size_t size) : data_(data), size_(size) {}
  template <class U>
  PoolView(const std::vector<U>& v) : data_(v.data()), size_(v.size()) {} // NOLINT: a view
  T* begin() const { return data_; }
  T* end() const { return data_ + size_; }
  T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) const { return data_[i]; }
  T& front() const { return data_[0]; }
  T& back() const { return data_[size_ - 1]; }

private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

/// One edge of a vertex field: the bytes it covers, in the order the vertex sees them
/// (CompiledComputeSet::runs), and the same elements as variable regions for exchange and
/// liveness (CompiledComputeSet::regions).
struct CompiledEdge {
  std::size_t numElements = 0;
  std::uint32_t firstRun = 0, numRuns = 0;
  std::uint32_t firstRegion = 0, numRegions = 0;
};

/// A vertex field: its edges (CompiledComputeSet::edges; one for plain fields, setFieldSize for
/// edge lists) or, for a State member, its bytes (CompiledComputeSet::state).
struct CompiledField {
  std::uint32_t firstEdge = 0, numEdges = 0;
  std::uint32_t firstState = 0, stateBytes = 0;
};

struct CompiledVertex {
  const VertexTypeDescriptor* type = nullptr;
  unsigned tile = 0;
  /// Its fields, indexed like type->fields: CompiledComputeSet::fields[firstField, +numFields).
  std::uint32_t firstField = 0, numFields = 0;
  tessera::profiler::schema::CycleRule cycleRule =
      tessera::profiler::schema::CycleRule::getCycleEstimate;
  /// Thread cycles of one execution. For CycleRule::executed, the field-size figure the compile
  /// time models use; each run replaces it with what compute() executed (Runtime, CycleModel).
  std::uint64_t estimatedCycles = 0;
  /// CycleRule::executed: the counter of the vertex's .gp (codelets::executedInstructionsCounter).
  /// The runtime reads it after each compute() and hands the raw count on; what it costs is the
  /// models' business (models/ExecutedComputeCost.hpp).
  std::uint64_t* (*executedInstructions)() = nullptr;
  std::optional<std::uint64_t> estimatedFlops; ///< given by Graph::setPerfEstimate
};

/// An instruction count for a vertex that has none: no counter, or not executed yet. Its cost is
/// then its estimatedCycles.
inline constexpr std::uint64_t kNoInstructionCount = ~std::uint64_t(0);

struct CompiledComputeSet {
  std::string name;
  DebugContext debug;
  std::vector<CompiledVertex> vertices;
  /// The pools the vertices' fields, edges, runs, regions and state bytes live in, each in
  /// vertex order. Offsets are 32-bit: the compiler refuses a compute set that would need more.
  std::vector<CompiledField> fields;
  std::vector<CompiledEdge> edges;
  std::vector<ByteRun> runs;
  std::vector<VarRegion> regions;
  std::vector<unsigned char> state;

  PoolView<const CompiledField> fieldsOf(const CompiledVertex& v) const {
    return {fields.data() + v.firstField, v.numFields};
  }
  PoolView<const CompiledEdge> edgesOf(const CompiledField& f) const {
    return {edges.data() + f.firstEdge, f.numEdges};
  }
  PoolView<const ByteRun> runsOf(const CompiledEdge& e) const {
    return {runs.data() + e.firstRun, e.numRuns};
  }
  PoolView<const VarRegion> regionsOf(const CompiledEdge& e) const {
    return {regions.data() + e.firstRegion, e.numRegions};
  }
  PoolView<const unsigned char> stateOf(const CompiledField& f) const {
    return {state.data() + f.firstState, f.stateBytes};
  }
  /// Field f of v's edges (f indexes type->fields).
  PoolView<const CompiledEdge> edgesOf(const CompiledVertex& v, std::size_t f) const {
    return edgesOf(fields[v.firstField + f]);
  }
};

/// Host-visible transfer described as runs in the arena (host handles, stream/remote copies).
struct CompiledTransfer {
  Type type;
  std::size_t numElements = 0;
  std::vector<ByteRun> runs;
  std::vector<VarRegion> regions;
};

/// A scalar read by control flow (predicate, switch control, row offset).
struct CompiledScalar {
  Type type;
  std::size_t offset = 0; ///< arena offset of the element
  unsigned var = 0;
};

struct LoweredProgram {
  enum class Kind {
    Sequence,
    Execute,
    Copy,
    StreamToDevice,
    StreamFromDevice,
    RemoteToDevice,
    RemoteFromDevice,
    Repeat,
    RepeatWhileTrue,
    RepeatWhileFalse,
    If,
    Switch,
    Call,
    Sync,
    WriteUndef,
    Block,
    PrintTensor,
    Abort,
    CrossReplica,
  };
  Kind kind = Kind::Sequence;
  std::string name; ///< debug path
  DebugContext debug;
  std::vector<unsigned> children; ///< indices into CompiledGraph::programs
  unsigned computeSet = 0;        ///< Execute
  struct CopyRun {
    std::size_t src, dst, bytes;
  };
  std::vector<CopyRun> copies;                   ///< Copy: tensor to tensor
  std::vector<VarRegion> srcRegions, dstRegions; ///< Copy / WriteUndef / PrintTensor (for analysis)
  CompiledTransfer transfer;          ///< stream, remote and print copies; CrossReplica: the source
  CompiledTransfer result;            ///< CrossReplica: the destination
  runtime::CollectiveSpec collective; ///< CrossReplica
  unsigned stream = 0, remoteBuffer = 0;
  CompiledScalar scalar; ///< If / RepeatWhile* / Switch / Abort / remote row offset
  bool hasScalar = false;
  std::uint64_t count = 0; ///< Repeat
  std::vector<std::int32_t> caseValues;
  bool boundsChecked = false;
  SyncType syncType = SyncType::INTERNAL;
  std::string text;
  std::vector<std::size_t> printShape;
  PrintTensorFmt printFormat;
};

struct CompiledStream {
  std::string handle;
  Type type;
  std::size_t numElements;
  bool hostToDevice;
};

struct CompiledRemoteBuffer {
  std::string handle;
  Type type;
  std::size_t numElements, repeats;
};

struct CompiledHostHandle {
  std::string handle;
  bool isWrite;
  CompiledTransfer transfer;
};

struct CompiledGraph {
  Target target;        ///< the whole device
  Target replicaTarget; ///< one replica
  unsigned replicationFactor = 1;
  std::size_t arenaBytes = 0; ///< simulated memory of one replica
  std::vector<CompiledVariable> variables;
  std::vector<CompiledComputeSet> computeSets;
  std::vector<LoweredProgram> programs; ///< the lowered program tree, all nodes
  std::vector<unsigned> entryPoints;    ///< root node of each program given to the Engine
  std::vector<CompiledStream> streams;
  std::vector<CompiledRemoteBuffer> remoteBuffers;
  std::vector<CompiledHostHandle> hostHandles;
};

/// Checks and lowers a graph and its programs. Throws a poplar_error naming the first problem.
CompiledGraph compile(const GraphState& graph, const std::vector<program::Program>& programs,
                      const std::function<void(int, int)>& progress);

} // namespace poplar::detail::compiler
