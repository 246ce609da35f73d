// Every enumeration that profile.pop stores as text, spelled once: the enum, its stored names in
// enum order, name() to write a value and parse() to read one. The writer (engine) writes with
// name(); libpva parses with parse<E>() and mirrors these enums in its public API (checked value
// by value at compile time in libpva/src/model/EnumMirrors.cpp); docs/formats.md lists the
// names (rendered from the arrays below, see renderSchemaMarkdown()).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tessera::profiler::schema {

/// Program types, as stored in programs.type (and as pva.Program.Type member names).
enum class ProgramType : std::uint8_t {
  Sequence,
  Repeat,
  RepeatWhileTrue,
  RepeatWhileFalse,
  If,
  Switch,
  Call,
  OnEveryTileSwitch,
  OnTileExecute,
  DoExchange,
  GlobalExchange,
  StreamCopyBegin,
  StreamCopyMid,
  StreamCopyEnd,
  Sync,
  WriteUndef,
  Block,
  Abort,
};
inline constexpr std::array<std::string_view, 18> kProgramTypeNames{"Sequence",
                                                                    "Repeat",
                                                                    "RepeatWhileTrue",
                                                                    "RepeatWhileFalse",
                                                                    "If",
                                                                    "Switch",
                                                                    "Call",
                                                                    "OnEveryTileSwitch",
                                                                    "OnTileExecute",
                                                                    "DoExchange",
                                                                    "GlobalExchange",
                                                                    "StreamCopyBegin",
                                                                    "StreamCopyMid",
                                                                    "StreamCopyEnd",
                                                                    "Sync",
                                                                    "WriteUndef",
                                                                    "Block",
                                                                    "Abort"};

/// Memory categories, as stored in lowered_variables.category and tile_memory_categories.category
/// (variables.category holds the first three: variable, constant, message).
enum class MemoryCategory : std::uint8_t {
  variable,
  constant,
  message,
  vertexCode,
  vertexInstanceState,
  vertexFieldData,
  vectorListDescriptor,
  copyDescriptor,
  controlCode,
  controlId,
  internalExchangeCode,
  hostExchangeCode,
  globalExchangeCode,
  stack,
  instrumentationResults,
};
inline constexpr std::array<std::string_view, 15> kMemoryCategoryNames{"variable",
                                                                       "constant",
                                                                       "message",
                                                                       "vertexCode",
                                                                       "vertexInstanceState",
                                                                       "vertexFieldData",
                                                                       "vectorListDescriptor",
                                                                       "copyDescriptor",
                                                                       "controlCode",
                                                                       "controlId",
                                                                       "internalExchangeCode",
                                                                       "hostExchangeCode",
                                                                       "globalExchangeCode",
                                                                       "stack",
                                                                       "instrumentationResults"};

/// What a cycle was spent on, as stored in run_tile_cycles.kind.
enum class CycleKind : std::uint8_t { compute, internalExchange, globalExchange, streamCopy, sync };
inline constexpr std::array<std::string_view, 5> kCycleKindNames{
    "compute", "internalExchange", "globalExchange", "streamCopy", "sync"};

/// Block record kinds, as stored in blocks.kind.
enum class BlockKind : std::uint8_t { Common, StreamCopy, BlockFlush, Overflow };
inline constexpr std::array<std::string_view, 4> kBlockKindNames{"Common", "StreamCopy",
                                                                 "BlockFlush", "Overflow"};

/// Which rule gave a vertex's cycles, as stored in vertex_cycle_rules.rule (docs/profiling.md,
/// "Where a vertex's cycles come from"): the vertex class's getCycleEstimate, the graph's
/// setPerfEstimate or registerPerfEstimator, the instructions its compute() executed (counted by
/// popc's instrumentation, per execution), or the default from its field sizes.
enum class CycleRule : std::uint8_t {
  getCycleEstimate,
  setPerfEstimate,
  registerPerfEstimator,
  executed,
  fieldSizes
};
inline constexpr std::array<std::string_view, 5> kCycleRuleNames{
    "getCycleEstimate", "setPerfEstimate", "registerPerfEstimator", "executed", "fieldSizes"};

/// The kind of device, as stored in target.type (Poplar's TargetType names).
enum class TargetType : std::uint8_t { IPU, IPU_MODEL, CPU };
inline constexpr std::array<std::string_view, 3> kTargetTypeNames{"IPU", "IPU_MODEL", "CPU"};

/// IPU architecture, as stored in target.architecture (a Bow IPU is an ipu2 at a faster clock).
enum class Architecture : std::uint8_t { ipu1, ipu2, ipu21 };
inline constexpr std::array<std::string_view, 3> kArchitectureNames{"ipu1", "ipu2", "ipu21"};

/// What a sync waits for, as stored in programs.sync_type (Poplar's SyncType names).
enum class SyncType : std::uint8_t { INTERNAL, EXTERNAL, GLOBAL };
inline constexpr std::array<std::string_view, 3> kSyncTypeNames{"INTERNAL", "EXTERNAL", "GLOBAL"};

/// How a leaf program uses a variable, as stored in program_variables.access.
enum class VariableAccess : std::uint8_t { read, write, readWrite };
inline constexpr std::array<std::string_view, 3> kVariableAccessNames{"read", "write", "readWrite"};

/// profiler.computeInstrumentation in force, as stored in meta.compute_instrumentation.
enum class ComputeInstrumentation : std::uint8_t { Off, Vertex, Tile, Ipu, Device };
inline constexpr std::array<std::string_view, 5> kComputeInstrumentationNames{
    "Off", "Vertex", "Tile", "Ipu", "Device"};

/// profiler.externalExchangeInstrumentation in force, as stored in
/// meta.external_exchange_instrumentation.
enum class ExternalExchangeInstrumentation : std::uint8_t { Off, Tile };
inline constexpr std::array<std::string_view, 2> kExternalExchangeInstrumentationNames{"Off",
                                                                                       "Tile"};

/// What a stream-copy program (StreamCopyBegin/Mid/End) moves data to or from: host streams
/// (and PrintTensor), remote buffers, or both ("mixed"). programs.stream_destination, from 1.3.0.
enum class StreamDestination : std::uint8_t { host, remoteBuffer, mixed };
inline constexpr std::array<std::string_view, 3> kStreamDestinationNames{"host", "remoteBuffer",
                                                                         "mixed"};

/// Maps each stored enum to its names, so that name() and parse() are written once for all.
template <class E> struct EnumNames;
template <> struct EnumNames<ProgramType> {
  static constexpr const auto& names = kProgramTypeNames;
};
template <> struct EnumNames<MemoryCategory> {
  static constexpr const auto& names = kMemoryCategoryNames;
};
template <> struct EnumNames<CycleKind> { static constexpr const auto& names = kCycleKindNames; };
template <> struct EnumNames<BlockKind> { static constexpr const auto& names = kBlockKindNames; };
template <> struct EnumNames<CycleRule> { static constexpr const auto& names = kCycleRuleNames; };
template <> struct EnumNames<TargetType> { static constexpr const auto& names = kTargetTypeNames; };
template <> struct EnumNames<Architecture> {
  static constexpr const auto& names = kArchitectureNames;
};
template <> struct EnumNames<SyncType> { static constexpr const auto& names = kSyncTypeNames; };
template <> struct EnumNames<VariableAccess> {
  static constexpr const auto& names = kVariableAccessNames;
};
template <> struct EnumNames<ComputeInstrumentation> {
  static constexpr const auto& names = kComputeInstrumentationNames;
};
template <> struct EnumNames<StreamDestination> {
  static constexpr const auto& names = kStreamDestinationNames;
};
template <> struct EnumNames<ExternalExchangeInstrumentation> {
  static constexpr const auto& names = kExternalExchangeInstrumentationNames;
};

/// Number of values of a stored enum.
template <class E> constexpr std::size_t enumSize() {
  return EnumNames<E>::names.size();
}

/// Names by position, for enums kept outside EnumNames (the trace schema's).
template <class E, std::size_t N>
constexpr std::string_view nameOf(E e, const std::array<std::string_view, N>& names) {
  return names[static_cast<std::size_t>(e)];
}

/// The stored name of a value.
template <class E> constexpr std::string_view name(E e) {
  return EnumNames<E>::names[static_cast<std::size_t>(e)];
}

/// The value a stored name spells; nullopt for a name this build does not know (a newer writer's
/// value, or a damaged file): the reader decides whether that is an error.
template <class E> constexpr std::optional<E> parse(std::string_view text) {
  const auto& names = EnumNames<E>::names;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == text) return static_cast<E>(i);
  return std::nullopt;
}

// The names are the stored values: parse(name(e)) == e for every e, checked at compile time.
template <class E> constexpr bool roundTrips() {
  for (std::size_t i = 0; i < enumSize<E>(); ++i)
    if (parse<E>(name(static_cast<E>(i))) != static_cast<E>(i)) return false;
  return true;
}
static_assert(roundTrips<ProgramType>() && roundTrips<MemoryCategory>() &&
                  roundTrips<CycleKind>() && roundTrips<BlockKind>() && roundTrips<CycleRule>() &&
                  roundTrips<TargetType>() && roundTrips<Architecture>() &&
                  roundTrips<SyncType>() && roundTrips<VariableAccess>() &&
                  roundTrips<ComputeInstrumentation>() &&
                  roundTrips<ExternalExchangeInstrumentation>(),
              "every stored enum name must be distinct");

} // namespace tessera::profiler::schema
