// The compiled control program as the profiler sees it: the lowered program tree rewritten into
// the program types of a Poplar report (OnTileExecute, DoExchange, GlobalExchange, StreamCopy
// Begin/Mid/End, Sync, ...), with exchanges planned before and after each compute set, a static
// cost per tile for every step, and the compiled schedule (each step once, loop bodies once)
// that liveness is computed over. Everything here is plain data computed from the CompiledGraph.
#pragma once

#include "TileValues.hpp"
#include "compiler/CompiledGraph.hpp"

#include <cstdint>
#include <profiler/Schema.hpp>
#include <string>
#include <vector>

namespace poplar::detail::models {

using tessera::profiler::schema::CycleKind;
using tessera::profiler::schema::ProgramType;
using tessera::profiler::schema::StreamDestination;

enum class Access : std::uint8_t { Read = 1, Write = 2, ReadWrite = 3 };

/// A variable a program reads or writes. Ids at or past CompiledGraph::variables.size() are
/// the model's message buffers (ProgramModel::messages).
struct VariableAccess {
  unsigned var;
  Access access;
};

/// Bytes crossing one IPU's boundary in one step.
struct IpuTraffic {
  unsigned ipu;
  std::uint64_t in = 0, out = 0;
};

struct ProfileProgram {
  ProgramType type = ProgramType::Sequence;
  std::string name;
  DebugContext debug;
  std::vector<unsigned> children;
  int computeSet = -1; ///< OnTileExecute
  SyncType syncType = SyncType::INTERNAL;
  std::uint64_t repeatCount = 0; ///< Repeat
  /// StreamCopyBegin/Mid/End: what the copy moves data to or from (host stream or remote buffer)
  StreamDestination streamDestination = StreamDestination::host;

  // Steps: the static cost of one execution.
  CycleKind kind = CycleKind::compute;
  bool aligned = false;       ///< starts when every taking-part IPU is ready (external sync)
  std::vector<unsigned> ipus; ///< IPUs taking part, ascending
  TileValues cycles;          ///< cycles per active tile, ascending tiles
  /// OnTileExecute: cycles per tile excluding idle worker contexts
  /// (CycleModel::computeCyclesExcludingIdle)
  TileValues busyCycles;
  std::uint64_t ipuCycles = 0;      ///< least cycles on each taking-part IPU (links, host sync)
  std::vector<IpuTraffic> traffic;  ///< stream copies and global exchanges
  std::uint64_t dataBytes = 0;      ///< bytes moved
  std::vector<VariableAccess> vars; ///< variables read or written, ascending ids
  /// StreamCopyBegin/Mid/End: the tiles sending or receiving the data, ascending (where
  /// lightweight profiling records the copy's blocks, debug.instrumentExternalExchange)
  std::vector<unsigned> ioTiles;

  // What the program itself needs in tile memory (children not included).
  TileValues controlCode;
  TileValues exchangeCode; ///< category follows the type (internal/global/host)
  TileValues copyDescriptors;

  bool isStep() const { return isStepType(type); }
  static bool isStepType(ProgramType t);
};

/// A compiler-made buffer on the receiving tiles that holds exchanged data around a compute set.
struct MessageBuffer {
  std::string name;
  DebugContext debug;
  TileValues bytes; ///< per tile, ascending tiles
};

struct ProgramModel {
  std::vector<ProfileProgram> programs;
  unsigned root = 0;                ///< OnEveryTileSwitch over the entry points
  std::vector<unsigned> entryRoots; ///< root program of each engine program
  /// For each lowered node: the steps one execution of it records, in order.
  std::vector<std::vector<unsigned>> stepsOfNode;
  /// For each lowered Block node: its Block program (others: -1).
  std::vector<int> blockOfNode;
  /// Compiled schedule: steps in program order (loop bodies once, function bodies per call).
  std::vector<unsigned> schedule;
  struct Range {
    unsigned begin, end; ///< schedule indices [begin, end)
  };
  std::vector<Range> loops;       ///< loop bodies
  std::vector<Range> entryRanges; ///< each engine program
  std::vector<MessageBuffer> messages;
  /// Estimated compute cycles of one execution of each compute set of the graph, per active tile
  /// (ascending tiles), executed or not: computed once, here, for the OnTileExecute programs and
  /// the report's compute_sets table alike.
  std::vector<TileValues> computeSetCycles;
  /// The same excluding idle worker contexts (Poplar's "excluding idle threads").
  std::vector<TileValues> computeSetBusyCycles;
  /// Lightweight profiling's own stream copies, when they are instrumented
  /// (addLightweightCopies): the StreamCopyBegin, Mid and End programs of the block buffer's
  /// flush ("BlockFlush") and of the control copies that start each run ("ControlStreamCopy").
  /// They are report programs outside the program tree (no step runs them; their blocks name
  /// them); -1 when absent.
  int blockFlush[3] = {-1, -1, -1};
  int controlCopy[3] = {-1, -1, -1};
};

/// Builds the model from a compiled graph. Costs follow the replica target's clock, worker
/// contexts and bandwidths; docs/engine.md describes the cycle model.
ProgramModel buildProgramModel(const compiler::CompiledGraph& g);

/// Adds the block flush's and the run control's stream-copy programs (ProgramModel::blockFlush,
/// controlCopy), for lightweight profiling with debug.instrumentExternalExchange.
void addLightweightCopies(ProgramModel& m, const Target& t);

} // namespace poplar::detail::models
