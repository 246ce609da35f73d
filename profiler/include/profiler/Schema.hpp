// The one definition of Tessera's report formats. The writer (engine) and the reader (libpva)
// both build their SQL from these descriptors, so every table and column name is spelled here
// and nowhere else; docs/formats.md is checked against renderSchemaMarkdown() by a test.
//
// profile.pop is an SQLite database. Small structured things are rows; large per-tile arrays
// are Cap'n Proto packed blobs (profiler/schema/profile.capnp, see Blob.hpp), read lazily.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <profiler/SchemaEnums.hpp>
#include <string>
#include <string_view>

namespace tessera::profiler::schema {

// --- versions and identity --------------------------------------------------------------------

/// Format of profile.pop. A reader accepts the same major version and any minor/point version up
/// to its own; anything else is "unsupported format version" (one check, in one place).
struct FormatVersion {
  unsigned major, minor, point;
};
// 1.1: compute_sets.estimated_flops and vertices_without_flop_estimate.
// 1.2: run_tile_cycles rows of kind computeExcludingIdleThreads.
// 1.3: vertex_cycle_rules, programs.stream_destination.
// 1.4: compute_sets.estimated_flops_by_tile.
// 1.5: meta instance_index, num_instances, replica_offset, total_replicas (poprun jobs).
// 1.6: run_vertex_cycle_rules (each run's vertex cycles by the rule that costed them).
// 1.7: run_stream_copy_cycles (each run's stream-copy steps' cycles by destination).
inline constexpr FormatVersion kProfileFormatVersion{1, 7, 0};
inline constexpr FormatVersion kDebugFormatVersion{1, 0, 0};
/// Value of meta.format in every profile.pop, and of "format" in every debug.cbor.
// Bounds a reader holds a report to before it allocates (docs/formats.md, "Hostile files"):
// a replica's tiles each have a tile_memory row, and SQLite stores no row in fewer bytes than
// this (cell pointer, lengths, rowid and seven one-byte column types), so a file of n bytes
// describes at most n / kMinTileRowBytes tiles per replica; and no system has more replicas
// than the largest IPU-POD the engine simulates has IPUs (TESSERA_POD_IPUS: 1024).
inline constexpr std::uint64_t kMinTileRowBytes = 8;
inline constexpr unsigned kMaxReplicas = 1024;
// Replicas store nothing of their own, so a reader builds the tiles of every replica from one
// replica's rows. The device's tiles (all replicas) are held to the larger of the largest
// IPU-POD's (1024 IPUs of 1472 tiles) and kMaxDeviceTilesPerByte per byte of the file: no
// report of a system the engine simulates exceeds the first, and a report of one replica never
// exceeds the second (it has a row of at least kMinTileRowBytes per tile).
inline constexpr std::uint64_t kLargestPodTiles = 1024ull * 1472;
inline constexpr std::uint64_t kMaxDeviceTilesPerByte = 16;

inline constexpr std::string_view kProfileFormatName = "tessera-profile";
inline constexpr std::string_view kDebugFormatName = "tessera-debug";
/// File names inside a report directory (autoReport.directory).
inline constexpr std::string_view kProfileFileName = "profile.pop";
inline constexpr std::string_view kDebugFileName = "debug.cbor";
inline constexpr std::string_view kSerializedGraphFileName = "serialized_graph.capnp";

// --- table descriptors ------------------------------------------------------------------------

struct Column {
  std::string_view name;
  std::string_view sqlType; ///< SQLite type and constraints, as written in CREATE TABLE
  std::string_view doc;
};

/// A table: its columns in storage order. Writers bind values in this order; readers select
/// columns by the named Column constants below, never by literal strings.
template <std::size_t N> struct Table {
  std::string_view name;
  std::string_view doc;
  std::array<Column, N> columns;
  std::string_view constraints = {}; ///< table constraints (composite primary keys), may be empty
};

// Each table is a struct with one constexpr Column per column and `table` listing them in
// order. Use as: schema::Steps::program.name, schema::Steps::table.

struct Meta {
  static constexpr Column key{"key", "TEXT PRIMARY KEY", "setting name (see the meta keys below)"};
  static constexpr Column value{"value", "TEXT NOT NULL", "setting value, as text"};
  static constexpr Table<2> table{
      "meta", "Report identity: format, versions, creation time, settings.", {key, value}};
};

/// Keys of the meta table.
namespace meta {
inline constexpr std::string_view format = "format";                ///< kProfileFormatName
inline constexpr std::string_view formatVersion = "format_version"; ///< "major.minor.point"
inline constexpr std::string_view tool = "tool";                    ///< "Tessera"
inline constexpr std::string_view toolVersion = "tool_version";     ///< "major.minor.point"
inline constexpr std::string_view packageHash = "package_hash";     ///< build identifier
inline constexpr std::string_view reportId = "report_id";   ///< 32 hex digits, also in debug.cbor
inline constexpr std::string_view createdAt = "created_at"; ///< ISO 8601 UTC
inline constexpr std::string_view createdAtUnixUs = "created_at_unix_us";
inline constexpr std::string_view computeInstrumentation =
    "compute_instrumentation"; ///< Off|Vertex|Tile|Ipu|Device
inline constexpr std::string_view externalExchangeInstrumentation =
    "external_exchange_instrumentation"; ///< Off|Tile
inline constexpr std::string_view outOfMemory =
    "out_of_memory"; ///< "true" when compile ran out of tile memory
inline constexpr std::string_view executionProfile =
    "execution_profile"; ///< "true" when runs are recorded
inline constexpr std::string_view flopEstimates =
    "flop_estimates"; ///< "true": compute_sets carry FLOP estimates (since 1.1)
// The report's place in a poprun job (since 1.5; absent: a job of one instance).
inline constexpr std::string_view instanceIndex = "instance_index"; ///< this instance, from 0
inline constexpr std::string_view numInstances = "num_instances";   ///< instances in the job
inline constexpr std::string_view replicaOffset =
    "replica_offset"; ///< global index of this instance's first replica
inline constexpr std::string_view totalReplicas =
    "total_replicas"; ///< replicas of the whole job (collectives span them all)
} // namespace meta

struct TargetTable {
  static constexpr Column type{"type", "TEXT NOT NULL", "IPU, IPU_MODEL or CPU"};
  static constexpr Column architecture{"architecture", "TEXT NOT NULL", "ipu1, ipu2 (Mk2 and Bow)"};
  static constexpr Column numIpus{"num_ipus", "INTEGER NOT NULL",
                                  "IPUs of the whole device (all replicas)"};
  static constexpr Column tilesPerIpu{"tiles_per_ipu", "INTEGER NOT NULL", "tiles on one IPU"};
  static constexpr Column bytesPerTile{"bytes_per_tile", "INTEGER NOT NULL",
                                       "memory of one tile in bytes"};
  static constexpr Column clockFrequency{"clock_frequency", "REAL NOT NULL", "tile clock in Hz"};
  static constexpr Column numReplicas{"num_replicas", "INTEGER NOT NULL", "replication factor"};
  static constexpr Column numWorkerContexts{"num_worker_contexts", "INTEGER NOT NULL",
                                            "worker contexts per tile"};
  static constexpr Column exchangeBytesPerCycle{"exchange_bytes_per_cycle", "INTEGER NOT NULL",
                                                "on-chip exchange bandwidth of one tile"};
  static constexpr Column memcpyBytesPerCycle{"memcpy_bytes_per_cycle", "INTEGER NOT NULL",
                                              "on-tile copy bandwidth"};
  static constexpr Column ipuLinkBytesPerCycle{"ipu_link_bytes_per_cycle", "REAL NOT NULL",
                                               "IPU-Link bandwidth of one IPU"};
  static constexpr Column hostLinkBytesPerCycle{"host_link_bytes_per_cycle", "REAL NOT NULL",
                                                "host link bandwidth of one IPU"};
  static constexpr Column minSyncDelay{"min_sync_delay", "INTEGER NOT NULL",
                                       "cycles of the nearest tile's sync round trip"};
  static constexpr Column maxSyncDelay{"max_sync_delay", "INTEGER NOT NULL",
                                       "cycles of the farthest tile's sync round trip"};
  static constexpr Column globalSyncCycles{"global_sync_cycles", "INTEGER NOT NULL",
                                           "cycles of a sync across IPUs and the host"};
  static constexpr Column interleavedMemoryStart{"interleaved_memory_start", "INTEGER NOT NULL",
                                                 "first byte of the interleaved region"};
  static constexpr Column memoryElementOffsets{"memory_element_offsets", "BLOB NOT NULL",
                                               "TileValues: start of each memory element"};
  static constexpr Table<17> table{
      "target",
      "The device the graph was compiled for (one row).",
      {type, architecture, numIpus, tilesPerIpu, bytesPerTile, clockFrequency, numReplicas,
       numWorkerContexts, exchangeBytesPerCycle, memcpyBytesPerCycle, ipuLinkBytesPerCycle,
       hostLinkBytesPerCycle, minSyncDelay, maxSyncDelay, globalSyncCycles, interleavedMemoryStart,
       memoryElementOffsets}};
};

struct EngineOptions {
  static constexpr Column name{"name", "TEXT PRIMARY KEY", "option name, e.g. autoReport.all"};
  static constexpr Column value{"value", "TEXT NOT NULL",
                                "value in force (POPLAR_ENGINE_OPTIONS merged)"};
  static constexpr Table<2> table{
      "engine_options", "Engine options in force at compile time.", {name, value}};
};

struct GraphTable {
  static constexpr Column numVertices{"num_vertices", "INTEGER NOT NULL", "vertices in the graph"};
  static constexpr Column numComputeSets{"num_compute_sets", "INTEGER NOT NULL",
                                         "compute sets in the graph"};
  static constexpr Column numVariables{"num_variables", "INTEGER NOT NULL",
                                       "variables and constants, compiler-made ones included"};
  static constexpr Column numEdges{"num_edges", "INTEGER NOT NULL", "vertex field connections"};
  static constexpr Table<4> table{"graph",
                                  "Graph-wide counts (one row).",
                                  {numVertices, numComputeSets, numVariables, numEdges}};
};

struct Programs {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "program id (pva Program._id)"};
  static constexpr Column type{"type", "TEXT NOT NULL", "program type name (ProgramType)"};
  static constexpr Column name{"name", "TEXT NOT NULL", "debug path or generated name"};
  static constexpr Column debugContext{"debug_context", "INTEGER",
                                       "id of its debug context in debug.cbor"};
  static constexpr Column computeSet{"compute_set", "INTEGER", "OnTileExecute: compute_sets.id"};
  static constexpr Column syncType{"sync_type", "TEXT",
                                   "Sync/GlobalExchange/StreamCopy: INTERNAL, EXTERNAL or GLOBAL"};
  static constexpr Column repeatCount{"repeat_count", "INTEGER", "Repeat: iterations"};
  static constexpr Column dataBytes{"data_bytes", "INTEGER NOT NULL DEFAULT 0",
                                    "bytes moved (exchanges, stream copies)"};
  static constexpr Column controlCodeByTile{
      "control_code_by_tile", "BLOB", "TileValues: control code bytes per tile, children included"};
  static constexpr Column codeBytesByTile{
      "code_bytes_by_tile", "BLOB",
      "TileValues: exchange code bytes per tile (exchanges, stream copies)"};
  static constexpr Column estimatedCyclesByTile{
      "estimated_cycles_by_tile", "BLOB",
      "TileValues: compile-time cycle estimate per tile (leaf programs)"};
  static constexpr Column streamDestination{
      "stream_destination", "TEXT",
      "StreamCopy*: host, remoteBuffer or mixed (StreamDestination; from 1.3.0)"};
  static constexpr Table<12> table{
      "programs",
      "Every program of the compiled control program (flat; tree in program_children).",
      {id, type, name, debugContext, computeSet, syncType, repeatCount, dataBytes,
       controlCodeByTile, codeBytesByTile, estimatedCyclesByTile, streamDestination}};
};

struct ProgramChildren {
  static constexpr Column parent{"parent", "INTEGER NOT NULL", "programs.id"};
  static constexpr Column position{"position", "INTEGER NOT NULL",
                                   "0-based index among the children"};
  static constexpr Column child{"child", "INTEGER NOT NULL", "programs.id"};
  static constexpr Table<3> table{"program_children",
                                  "The program tree: children of each program, in order.",
                                  {parent, position, child},
                                  "PRIMARY KEY (parent, position)"};
};

struct EntryPoints {
  static constexpr Column index{"program_index", "INTEGER PRIMARY KEY",
                                "index given to Engine::run"};
  static constexpr Column program{"program", "INTEGER NOT NULL", "programs.id of its root"};
  static constexpr Table<2> table{
      "entry_points", "Root program of each program given to the Engine.", {index, program}};
};

struct ProgramVariables {
  static constexpr Column program{"program", "INTEGER NOT NULL", "programs.id (leaf programs)"};
  static constexpr Column variable{"variable", "INTEGER NOT NULL", "variables.id"};
  static constexpr Column access{"access", "TEXT NOT NULL", "read, write or readWrite"};
  static constexpr Table<3> table{"program_variables",
                                  "Variables each leaf program reads or writes (pva Program.vars).",
                                  {program, variable, access},
                                  "PRIMARY KEY (program, variable)"};
};

struct ComputeSets {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "compute set id"};
  static constexpr Column name{"name", "TEXT NOT NULL", "compute set name"};
  static constexpr Column debugContext{"debug_context", "INTEGER",
                                       "id of its debug context in debug.cbor"};
  static constexpr Column numVertices{"num_vertices", "INTEGER NOT NULL",
                                      "vertices in the compute set"};
  static constexpr Column estimatedCyclesByTile{"estimated_cycles_by_tile", "BLOB NOT NULL",
                                                "TileValues: estimated compute cycles per tile"};
  // Since 1.1 (NULL in both when the report has no FLOP estimates; absent before 1.1).
  static constexpr Column estimatedFlops{
      "estimated_flops", "INTEGER",
      "FLOPs of one execution, all tiles of one replica, of the vertices with an estimate; NULL: "
      "no estimates (profiler.includeFlopEstimates false)"};
  static constexpr Column verticesWithoutFlopEstimate{
      "vertices_without_flop_estimate", "INTEGER",
      "vertices whose codelet has no FLOP model (user codelets), not in estimated_flops; NULL as "
      "estimated_flops"};
  // Since 1.4 (NULL as estimated_flops; absent before 1.4): where the FLOPs are, tile by tile.
  static constexpr Column estimatedFlopsByTile{
      "estimated_flops_by_tile", "BLOB",
      "TileValues: estimated_flops on each tile of one replica (they add up to it); NULL as "
      "estimated_flops (since 1.4)"};
  static constexpr Table<8> table{"compute_sets",
                                  "Compute sets of the graph.",
                                  {id, name, debugContext, numVertices, estimatedCyclesByTile,
                                   estimatedFlops, verticesWithoutFlopEstimate,
                                   estimatedFlopsByTile}};
};

struct VertexTypes {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "vertex type id"};
  static constexpr Column name{"name", "TEXT NOT NULL UNIQUE",
                               "codelet name, e.g. popops::Add<float>"};
  static constexpr Column codeBytes{"code_bytes", "INTEGER NOT NULL",
                                    "code bytes on each tile that runs it"};
  static constexpr Column stateBytes{"state_bytes", "INTEGER NOT NULL",
                                     "vertex state bytes of one instance (fixed part)"};
  static constexpr Column isSupervisor{"is_supervisor", "INTEGER NOT NULL",
                                       "1: runs on the supervisor context"};
  static constexpr Table<5> table{"vertex_types",
                                  "Vertex types (codelets) used by the graph.",
                                  {id, name, codeBytes, stateBytes, isSupervisor}};
};

struct ComputeSetVertices {
  static constexpr Column computeSet{"compute_set", "INTEGER NOT NULL", "compute_sets.id"};
  static constexpr Column vertexType{"vertex_type", "INTEGER NOT NULL", "vertex_types.id"};
  static constexpr Column count{"count", "INTEGER NOT NULL", "instances in the compute set"};
  static constexpr Column countByTile{"count_by_tile", "BLOB NOT NULL",
                                      "TileValues: instances per tile"};
  static constexpr Table<4> table{"compute_set_vertices",
                                  "Vertex instances of each compute set, by type.",
                                  {computeSet, vertexType, count, countByTile},
                                  "PRIMARY KEY (compute_set, vertex_type)"};
};

/// Since format 1.3: which rule gave the cycles of each compute set's vertices (a vertex type's
/// instances may mix rules: setPerfEstimate is per vertex).
struct VertexCycleRules {
  static constexpr Column computeSet{"compute_set", "INTEGER NOT NULL", "compute_sets.id"};
  static constexpr Column vertexType{"vertex_type", "INTEGER NOT NULL", "vertex_types.id"};
  static constexpr Column rule{"rule", "TEXT NOT NULL",
                               "CycleRule: where these vertices' cycles come from"};
  static constexpr Column count{"count", "INTEGER NOT NULL",
                                "instances of the type in the compute set costed by the rule"};
  static constexpr Table<4> table{
      "vertex_cycle_rules",
      "Where the cycles of each compute set's vertices come from (since 1.3).",
      {computeSet, vertexType, rule, count},
      "PRIMARY KEY (compute_set, vertex_type, rule)"};
};

struct TileVertexTypes {
  static constexpr Column tile{"tile", "INTEGER NOT NULL", "tile (of one replica)"};
  static constexpr Column vertexType{"vertex_type", "INTEGER NOT NULL", "vertex_types.id"};
  static constexpr Column count{"count", "INTEGER NOT NULL",
                                "instances on the tile over all compute sets"};
  static constexpr Table<3> table{"tile_vertex_types",
                                  "Vertex types present on each tile (their code is on the tile).",
                                  {tile, vertexType, count},
                                  "PRIMARY KEY (tile, vertex_type)"};
};

struct Variables {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "variable id"};
  static constexpr Column name{"name", "TEXT NOT NULL", "debug name"};
  static constexpr Column debugContext{"debug_context", "INTEGER",
                                       "id of its debug context in debug.cbor"};
  static constexpr Column category{"category", "TEXT NOT NULL",
                                   "memory category: variable, constant or message"};
  static constexpr Column elementType{"element_type", "TEXT NOT NULL", "float, half, int, ..."};
  static constexpr Column shape{"shape", "TEXT NOT NULL", "shape as [d0,d1,...]"};
  static constexpr Column numElements{"num_elements", "INTEGER NOT NULL", "elements"};
  static constexpr Column bytes{"bytes", "INTEGER NOT NULL",
                                "bytes over all tiles, without padding"};
  static constexpr Column alwaysLive{"always_live", "INTEGER NOT NULL",
                                     "1: allocated for the whole program"};
  static constexpr Column liveFrom{"live_from", "INTEGER",
                                   "not-always-live: first liveness step where it is live"};
  static constexpr Column liveTo{
      "live_to", "INTEGER", "not-always-live: one past the last liveness step where it is live"};
  static constexpr Table<11> table{"variables",
                                   "Variables, constants and compiler-made buffers of the graph.",
                                   {id, name, debugContext, category, elementType, shape,
                                    numElements, bytes, alwaysLive, liveFrom, liveTo}};
};

struct LoweredVariables {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "lowered variable id"};
  static constexpr Column tile{"tile", "INTEGER NOT NULL", "tile (of one replica)"};
  static constexpr Column variable{"variable", "INTEGER",
                                   "variables.id; NULL for code and state allocations"};
  static constexpr Column name{"name", "TEXT",
                               "name of a code or state allocation (NULL: the variable's name)"};
  static constexpr Column category{"category", "TEXT NOT NULL", "memory category (MemoryCategory)"};
  static constexpr Column bytes{"bytes", "INTEGER NOT NULL", "bytes on this tile"};
  static constexpr Column offset{"offset", "INTEGER NOT NULL", "address on the tile"};
  static constexpr Column alignment{"alignment", "INTEGER NOT NULL", "required alignment in bytes"};
  static constexpr Column alwaysLive{"always_live", "INTEGER NOT NULL",
                                     "1: allocated for the whole program"};
  static constexpr Table<9> table{
      "lowered_variables",
      "Every allocation on every tile: pieces of variables, and code/state.",
      {id, tile, variable, name, category, bytes, offset, alignment, alwaysLive}};
};

struct TileMemory {
  static constexpr Column tile{"tile", "INTEGER PRIMARY KEY", "tile (of one replica)"};
  static constexpr Column includingGaps{"including_gaps", "INTEGER NOT NULL",
                                        "highest used address: what the tile needs"};
  static constexpr Column excludingGaps{"excluding_gaps", "INTEGER NOT NULL",
                                        "always-live + peak not-always-live bytes"};
  static constexpr Column alwaysLiveBytes{"always_live_bytes", "INTEGER NOT NULL",
                                          "bytes allocated for the whole program"};
  static constexpr Column notAlwaysLiveBytes{"not_always_live_bytes", "INTEGER NOT NULL",
                                             "peak over steps of not-always-live bytes"};
  static constexpr Column overflowedIncludingGaps{"overflowed_including_gaps", "INTEGER NOT NULL",
                                                  "including_gaps beyond bytes_per_tile"};
  static constexpr Column overflowedExcludingGaps{"overflowed_excluding_gaps", "INTEGER NOT NULL",
                                                  "excluding_gaps beyond bytes_per_tile"};
  static constexpr Table<7> table{"tile_memory",
                                  "Memory totals of each tile.",
                                  {tile, includingGaps, excludingGaps, alwaysLiveBytes,
                                   notAlwaysLiveBytes, overflowedIncludingGaps,
                                   overflowedExcludingGaps}};
};

struct TileMemoryCategories {
  static constexpr Column tile{"tile", "INTEGER NOT NULL", "tile (of one replica)"};
  static constexpr Column category{"category", "TEXT NOT NULL", "memory category (MemoryCategory)"};
  static constexpr Column nonInterleavedNonOverlapped{
      "non_interleaved_non_overlapped", "INTEGER NOT NULL",
      "bytes in the non-interleaved region, own addresses"};
  static constexpr Column nonInterleavedOverlapped{
      "non_interleaved_overlapped", "INTEGER NOT NULL",
      "bytes in the non-interleaved region, sharing addresses with others"};
  static constexpr Column interleavedNonOverlapped{
      "interleaved_non_overlapped", "INTEGER NOT NULL",
      "bytes in the interleaved region, own addresses"};
  static constexpr Column interleavedOverlapped{
      "interleaved_overlapped", "INTEGER NOT NULL",
      "bytes in the interleaved region, sharing addresses"};
  static constexpr Column overflowedNonOverlapped{"overflowed_non_overlapped", "INTEGER NOT NULL",
                                                  "bytes beyond the tile's memory, own addresses"};
  static constexpr Column overflowedOverlapped{"overflowed_overlapped", "INTEGER NOT NULL",
                                               "bytes beyond the tile's memory, sharing addresses"};
  static constexpr Table<8> table{
      "tile_memory_categories",
      "Memory of each tile by category, region and overlap (non-zero rows only).",
      {tile, category, nonInterleavedNonOverlapped, nonInterleavedOverlapped,
       interleavedNonOverlapped, interleavedOverlapped, overflowedNonOverlapped,
       overflowedOverlapped},
      "PRIMARY KEY (tile, category)"};
};

struct LivenessSteps {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "step index in compiled schedule order"};
  static constexpr Column program{"program", "INTEGER NOT NULL",
                                  "programs.id of the scheduled leaf program"};
  static constexpr Column notAlwaysLiveBytes{
      "not_always_live_bytes", "INTEGER NOT NULL",
      "not-always-live bytes live at this step (one replica)"};
  static constexpr Column bytesByIpu{"bytes_by_ipu", "BLOB NOT NULL",
                                     "TileValues: the same per IPU of one replica"};
  static constexpr Column bytesByTile{"bytes_by_tile", "BLOB NOT NULL",
                                      "TileValues: the same per tile of one replica"};
  static constexpr Table<5> table{
      "liveness_steps",
      "Not-always-live memory at each step of the compiled schedule (loops once).",
      {id, program, notAlwaysLiveBytes, bytesByIpu, bytesByTile}};
};

struct Runs {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "run index, in order"};
  static constexpr Column name{"name", "TEXT NOT NULL",
                               "debug name given to Engine::run (or generated)"};
  static constexpr Column programIndex{"program_index", "INTEGER NOT NULL",
                                       "entry_points.program_index that ran"};
  static constexpr Column microsecondsStart{"microseconds_start", "INTEGER NOT NULL",
                                            "host time at start, µs since the Unix epoch"};
  static constexpr Column microsecondsEnd{"microseconds_end", "INTEGER NOT NULL",
                                          "host time at end, µs since the Unix epoch"};
  static constexpr Column firstStep{"first_step", "INTEGER NOT NULL", "steps.id of its first step"};
  static constexpr Column numSteps{"num_steps", "INTEGER NOT NULL", "steps of the run"};
  static constexpr Column cycles{"cycles", "INTEGER NOT NULL",
                                 "cycles of the run (the slowest IPU)"};
  static constexpr Table<8> table{
      "runs",
      "Profiled Engine::run calls.",
      {id, name, programIndex, microsecondsStart, microsecondsEnd, firstStep, numSteps, cycles}};
};

struct RunTileCycles {
  static constexpr Column run{"run", "INTEGER NOT NULL", "runs.id"};
  static constexpr Column kind{
      "kind", "TEXT NOT NULL",
      "cycle kind (CycleKind), or since 1.2 computeExcludingIdleThreads (compute without idle "
      "worker contexts; not a kind, not in the totals)"};
  /// The kind value of the row holding compute cycles excluding idle worker contexts (since 1.2).
  static constexpr std::string_view computeExcludingIdleKind = "computeExcludingIdleThreads";
  static constexpr Column cyclesByTile{"cycles_by_tile", "BLOB NOT NULL",
                                       "TileValues: cycles of this kind per tile"};
  static constexpr Table<3> table{"run_tile_cycles",
                                  "Cycles of each run by kind per tile (TileCycleTotals).",
                                  {run, kind, cyclesByTile},
                                  "PRIMARY KEY (run, kind)"};
};

/// Since 1.6: how many cycles of each run the vertices of each cycle rule took, so a profile
/// says whose numbers its compute cycles are (declared estimates or measurements).
struct RunVertexCycleRules {
  static constexpr Column run{"run", "INTEGER NOT NULL", "runs.id"};
  static constexpr Column rule{"rule", "TEXT NOT NULL", "CycleRule"};
  static constexpr Column cycles{
      "cycles", "INTEGER NOT NULL",
      "vertex cycles of the run costed by the rule, summed over the tiles of one replica: a "
      "worker's thread cycles, a MultiVertex's on each worker context, a supervisor's tile "
      "cycles (the busy part of compute excluding idle threads)"};
  static constexpr Table<3> table{
      "run_vertex_cycle_rules",
      "Vertex cycles of each run by the rule that costed them (since 1.6); a rule whose "
      "vertices did not run in the run has no row.",
      {run, rule, cycles},
      "PRIMARY KEY (run, rule)"};
};

/// Since 1.7: totals over a run's steps that a summary shows, written when the run ends, so a
/// reader gets them without reading every step (a million steps take seconds).
struct RunStreamCopyCycles {
  static constexpr Column run{"run", "INTEGER PRIMARY KEY", "runs.id"};
  static constexpr Column host{"host", "INTEGER NOT NULL",
                               "cycles of the run's stream-copy steps (StreamCopyBegin, Mid, End) "
                               "to or from the host, each step at its slowest IPU"};
  static constexpr Column remoteBuffer{"remote_buffer", "INTEGER NOT NULL",
                                       "the same for stream copies to or from remote buffers"};
  static constexpr Column mixed{"mixed", "INTEGER NOT NULL",
                                "the same for stream copies that move both"};
  static constexpr Table<4> table{
      "run_stream_copy_cycles",
      "Cycles of each run's stream-copy steps by programs.stream_destination (since 1.7): what "
      "a pass over the steps sums, stored when the run ends; one row per run.",
      {run, host, remoteBuffer, mixed}};
};

struct Steps {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY",
                             "step index over all runs, in execution order"};
  static constexpr Column run{"run", "INTEGER NOT NULL", "runs.id"};
  static constexpr Column program{"program", "INTEGER NOT NULL",
                                  "programs.id of the executed leaf program"};
  static constexpr Column cyclesByTile{"cycles_by_tile", "BLOB",
                                       "TileValues: cycles on each tile (0: idle); NULL: exactly "
                                       "the program's estimated_cycles_by_tile"};
  static constexpr Column ipus{"ipus", "BLOB NOT NULL",
                               "StepIpus: per-IPU cycles, absolute counters, data and balance"};
  static constexpr Table<5> table{"steps",
                                  "Every executed program step, in order (one replica).",
                                  {id, run, program, cyclesByTile, ipus}};
};

struct Blocks {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "block record index"};
  static constexpr Column run{"run", "INTEGER NOT NULL", "runs.id"};
  static constexpr Column program{"program", "INTEGER NOT NULL",
                                  "programs.id (Block or StreamCopy* program)"};
  static constexpr Column tile{"tile", "INTEGER NOT NULL", "tile that recorded it"};
  static constexpr Column cyclesFrom{"cycles_from", "INTEGER NOT NULL",
                                     "absolute cycle counter at its start"};
  static constexpr Column cyclesTo{"cycles_to", "INTEGER NOT NULL",
                                   "absolute cycle counter at its end"};
  static constexpr Column kind{"kind", "TEXT NOT NULL",
                               "Common, StreamCopy, BlockFlush or Overflow"};
  static constexpr Table<7> table{"blocks",
                                  "Lightweight-profiling block records (profiler.blocks.*).",
                                  {id, run, program, tile, cyclesFrom, cyclesTo, kind}};
};

/// Every table, in creation order.
template <class F> void forEachTable(F&& f) {
  f(Meta::table);
  f(TargetTable::table);
  f(EngineOptions::table);
  f(GraphTable::table);
  f(Programs::table);
  f(ProgramChildren::table);
  f(EntryPoints::table);
  f(ProgramVariables::table);
  f(ComputeSets::table);
  f(VertexTypes::table);
  f(ComputeSetVertices::table);
  f(VertexCycleRules::table);
  f(TileVertexTypes::table);
  f(Variables::table);
  f(LoweredVariables::table);
  f(TileMemory::table);
  f(TileMemoryCategories::table);
  f(LivenessSteps::table);
  f(Runs::table);
  f(RunTileCycles::table);
  f(RunVertexCycleRules::table);
  f(RunStreamCopyCycles::table);
  f(Steps::table);
  f(Blocks::table);
}

/// Secondary indexes: the look-ups the reader makes by something other than a primary key.
struct Index {
  std::string_view name, table, column;
};
inline constexpr std::array<Index, 4> kIndexes{{
    {"lowered_variables_by_tile", LoweredVariables::table.name, LoweredVariables::tile.name},
    {"program_variables_by_variable", ProgramVariables::table.name,
     ProgramVariables::variable.name},
    {"steps_by_run", Steps::table.name, Steps::run.name},
    {"blocks_by_tile", Blocks::table.name, Blocks::tile.name},
}};

// --- enumerations stored as text: SchemaEnums.hpp (included above) ----------------------------

// --- debug.cbor -------------------------------------------------------------------------------
// A CBOR map: {format, version, reportId, contexts: [context...]}; each context is a map with
// the keys below. Context ids are their index in `contexts`; a parent comes before its children.
namespace cbor {
inline constexpr std::string_view format = "format";   ///< kDebugFormatName
inline constexpr std::string_view version = "version"; ///< "major.minor.point"
inline constexpr std::string_view reportId =
    "reportId"; ///< equals meta.report_id of its profile.pop
inline constexpr std::string_view contexts = "contexts"; ///< array of context maps
inline constexpr std::string_view id = "id";             ///< unsigned
inline constexpr std::string_view name = "name";         ///< text: this context's own name
inline constexpr std::string_view path = "path";     ///< text: names from the root, joined by '/'
inline constexpr std::string_view layer = "layer";   ///< text: user, poplar or poplibs
inline constexpr std::string_view opType = "opType"; ///< text: the op that made it (empty: none)
inline constexpr std::string_view parent = "parent"; ///< unsigned id, or null for a root
inline constexpr std::string_view location = "location"; ///< map {file, function, line}
inline constexpr std::string_view file = "file";
inline constexpr std::string_view function = "function";
inline constexpr std::string_view line = "line";
} // namespace cbor

/// The schema as markdown: one section per table (name, doc, columns with type and doc), the
/// enumerations and the CBOR keys. docs/formats.md holds exactly this text between markers.
std::string renderSchemaMarkdown();

/// "major.minor.point"
std::string toString(FormatVersion v);

} // namespace tessera::profiler::schema
