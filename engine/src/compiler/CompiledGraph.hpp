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

struct CompiledVariable {
  std::string name;
  Type type;
  std::vector<std::size_t> shape;
  std::size_t numElements = 0;
  bool isConstant = false;
  std::size_t arenaOffset = 0;
  std::vector<TileInterval> mapping; ///< sorted by begin, covers every element
  /// Empty: zero-initialised. Otherwise the value of every replica, or, replicationFactor times
  /// as long, each replica's own value in replica order (Graph::addReplicationIndexConstant).
  std::vector<unsigned char> initial;
  DebugContext debug;
};

/// One edge of a vertex field: the bytes it covers, in the order the vertex sees them.
struct CompiledEdge {
  std::vector<ByteRun> runs;
  std::size_t numElements = 0;
  std::vector<VarRegion> regions; ///< the same elements as variable regions (for exchange/liveness)
};

struct CompiledField {
  std::vector<CompiledEdge> edges;  ///< one for plain fields, setFieldSize for edge lists
  std::vector<unsigned char> state; ///< State members
};

struct CompiledVertex {
  const VertexTypeDescriptor* type = nullptr;
  unsigned tile = 0;
  std::vector<CompiledField> fields; ///< indexed like type->fields
  /// Thread cycles of one execution. For CycleRule::executed, the field-size figure the compile
  /// time models use; each run replaces it with what compute() executed (Runtime, CycleModel).
  std::uint64_t estimatedCycles = 0;
  tessera::profiler::schema::CycleRule cycleRule =
      tessera::profiler::schema::CycleRule::getCycleEstimate;
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
