// The storage layer of libpva: the only code that knows profile.pop is SQLite. It checks a file
// is a report it can read, then answers each question with one query built from the schema's
// constants, returning plain rows. Every SQLite or blob error becomes a pva::InvalidReportError
// naming the file. Thread-safe: one connection, used under a mutex.
#pragma once

#include "OpenFile.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tessera/internal/Sqlite.hpp>
#include <unordered_map>
#include <vector>

namespace pva::storage {

using U64s = std::vector<std::uint64_t>;

struct TargetRow {
  std::string type, architecture;
  unsigned numIpus = 0, tilesPerIpu = 0, numReplicas = 1, contexts = 0, exchangeBytesPerCycle = 0;
  unsigned minSync = 0, maxSync = 0, globalSync = 0;
  std::uint64_t bytesPerTile = 0, interleavedStart = 0;
  double clock = 0, ipuLink = 0, hostLink = 0;
  U64s elementOffsets;
};

struct GraphRow {
  std::uint64_t vertices = 0, computeSets = 0, variables = 0, edges = 0;
};

/// The per-tile figures of tile_memory, read one column at a time.
enum class TileColumn {
  IncludingGaps,
  ExcludingGaps,
  AlwaysLive,
  NotAlwaysLive,
  OverflowedIncluding,
  OverflowedExcluding
};
constexpr std::size_t kTileColumns = 6;

struct CategoryRow {
  unsigned tile = 0, category = 0; ///< category: index in schema::kMemoryCategoryNames
  std::uint64_t bytes[3][2] = {};  ///< [region][overlapped]
};

struct VertexTypeRow {
  std::uint64_t id = 0, codeBytes = 0, stateBytes = 0;
  std::string name;
  bool supervisor = false;
};

struct ProgramRow {
  std::uint64_t id = 0, dataBytes = 0;
  unsigned type = 0; ///< index in schema::kProgramTypeNames
  std::string name, syncType;
  std::int64_t debug = -1, computeSet = -1, repeatCount = -1;
  /// index in schema::kStreamDestinationNames; -1: not stored (not a stream copy, or before 1.3.0)
  int streamDestination = -1;
};

struct ProgramVariableRow {
  std::uint64_t variable = 0;
  std::string access;
};

struct ComputeSetRow {
  std::uint64_t id = 0, numVertices = 0;
  std::string name;
  std::int64_t debug = -1;
  /// Only in reports with FLOP estimates (ReportStore::hasFlopEstimates); nullopt otherwise.
  std::optional<std::uint64_t> estimatedFlops, verticesWithoutFlopEstimate;
};

struct ComputeSetVerticesRow {
  std::uint64_t vertexType = 0, count = 0;
};

/// Since format 1.3 (vertex_cycle_rules): the rule's stored name and the instances it costs.
struct VertexCycleRuleRow {
  std::string rule;
  std::uint64_t count = 0;
};

/// Since format 1.6 (run_vertex_cycle_rules): a rule and the vertex cycles it costed.
struct RuleCyclesRow {
  std::string rule;
  std::uint64_t cycles = 0;
};

/// Since format 1.7 (run_stream_copy_cycles): a run's stream-copy cycles by destination, in
/// schema::kStreamDestinationNames order (host, remoteBuffer, mixed).
struct RunStreamCopyRow {
  unsigned run = 0;
  std::uint64_t cycles[3] = {};
};

struct VariableRow {
  std::uint64_t id = 0, numElements = 0, bytes = 0, from = 0, to = 0;
  std::int64_t debug = -1;
  bool alwaysLive = false;
  std::string name, category, elementType, shape;
};

struct LoweredRow {
  std::uint64_t id = 0, bytes = 0, offset = 0, alignment = 0;
  unsigned tile = 0;
  std::int64_t variable = -1;
  std::string name, category;
  bool alwaysLive = false;
};

struct LivenessRow {
  std::uint64_t id = 0, program = 0, bytes = 0;
};

struct RunRow {
  unsigned id = 0, programIndex = 0;
  std::string name;
  std::int64_t usStart = 0, usEnd = 0;
  std::uint64_t firstStep = 0, numSteps = 0, cycles = 0;
};

/// A step whose blobs are in its chunk's byte buffer.
struct StepRow {
  std::uint64_t id = 0, program = 0;
  unsigned run = 0;
  std::uint32_t ipusOffset = 0, ipusSize = 0;
  std::uint32_t cyclesOffset = 0, cyclesSize = 0; ///< size 0: the program's estimate
};

struct StepChunk {
  std::vector<StepRow> rows;
  std::string bytes; ///< every row's encoded StepIpus and TileValues, back to back
};

struct BlockRow {
  std::uint64_t program = 0, from = 0, to = 0;
  unsigned tile = 0, run = 0, kind = 0;
};

class ReportStore {
public:
  /// Opens the file (or image) read-only and checks it is a profile report of a supported
  /// format version.
  explicit ReportStore(const Source& source);
  ~ReportStore();
  const std::string& path() const { return path_; }
  /// The path as messages print it (escaped).
  const std::string& shownPath() const { return shown_; }
  /// Size of the file in bytes: declared counts are checked against it (docs/formats.md).
  std::uint64_t fileSize() const { return fileSize_; }

  const std::map<std::string, std::string>& meta() const { return meta_; }
  /// meta.flop_estimates is "true": compute_sets has its FLOP columns filled (format 1.1 on).
  /// Reports of 1.0 have neither the key nor the columns, and are never asked for them.
  bool hasFlopEstimates() const;
  /// meta's instance_index, num_instances, replica_offset, total_replicas (format 1.5 on);
  /// total 0 when absent. Malformed or inconsistent values are a corrupted report.
  struct JobPlacementRow {
    unsigned instanceIndex = 0, numInstances = 1, replicaOffset = 0, totalReplicas = 0;
  };
  JobPlacementRow jobPlacement() const;
  TargetRow target();
  GraphRow graph();
  std::map<std::string, std::string> engineOptions();
  /// One figure for every tile, in tile order (`expected`: the number of tiles, to size the
  /// result).
  U64s tileColumn(TileColumn column, std::size_t expected);
  std::vector<CategoryRow> categories();
  /// (vertex type, count) present on one tile.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> tileVertexTypes(unsigned tile);
  /// (vertex type, number of tiles holding its code) for every type on some tile.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> vertexTypeTileCounts();
  std::vector<VertexTypeRow> vertexTypes();
  std::vector<ProgramRow> programs();
  /// Whether `table` has `column` (columns added by a later minor format version).
  bool hasColumn(std::string_view table, std::string_view column);
  /// (parent, child) in child order.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> programChildren();
  std::vector<std::uint64_t> entryPoints();
  std::vector<ProgramVariableRow> programVariables(std::uint64_t program);
  /// A TileValues column of one program: control code, exchange code or estimated cycles.
  enum class ProgramBlob { ControlCode, ExchangeCode, EstimatedCycles };
  U64s programBlob(std::uint64_t program, ProgramBlob which);
  std::vector<ComputeSetRow> computeSets();
  U64s computeSetEstimate(std::uint64_t computeSet);
  /// hasFlopEstimates() and compute_sets has estimated_flops_by_tile (format 1.4 on).
  bool hasFlopEstimatesByTile();
  /// compute_sets.estimated_flops_by_tile, decoded (lengths and sums not yet checked); nullopt
  /// when !hasFlopEstimatesByTile(). NULL in a report with them is a damaged report.
  std::optional<U64s> computeSetFlopsByTile(std::uint64_t computeSet);
  std::vector<ComputeSetVerticesRow> computeSetVertices(std::uint64_t computeSet);
  /// Empty for reports older than format 1.3.
  std::vector<VertexCycleRuleRow> vertexCycleRules(std::uint64_t computeSet,
                                                   std::uint64_t vertexType);
  /// The same over the whole graph: each rule and the vertex instances it costs, by rule name.
  /// Empty for reports older than format 1.3.
  std::vector<VertexCycleRuleRow> vertexCycleRuleTotals();
  bool hasCycleRules() const { return hasCycleRules_; }
  /// Each rule's vertex cycles over all runs (saturating), by rule name; empty for reports
  /// older than format 1.6 (hasRunCycleRules() false) and reports without runs.
  std::vector<RuleCyclesRow> runVertexCycleRuleTotals();
  bool hasRunCycleRules() const { return hasRunCycleRules_; }
  /// Each run's stored stream-copy cycles by destination, in run order; empty for reports older
  /// than format 1.7 (hasRunStreamCopies() false). Negative cycles are damage.
  std::vector<RunStreamCopyRow> runStreamCopyCycles();
  bool hasRunStreamCopies() const { return hasRunStreamCopies_; }
  U64s computeSetVertexCounts(std::uint64_t computeSet, std::uint64_t vertexType);
  std::vector<VariableRow> variables();
  /// Every lowered variable, or those of one tile.
  std::vector<LoweredRow> loweredVariables(std::optional<unsigned> tile = std::nullopt);
  std::vector<LivenessRow> livenessSteps();
  enum class LivenessBlob { ByTile, ByIpu };
  U64s livenessBlob(std::uint64_t step, LivenessBlob which);
  std::vector<RunRow> runs();
  /// Runs hold disjoint spans of steps in run order, whose first and last steps name them;
  /// otherwise the report is corrupted (InvalidReportError).
  void checkRunSpans(const std::vector<RunRow>& runs);
  /// Per-tile cycles of one run, by cycle kind index (schema::kCycleKindNames); missing: empty.
  std::vector<U64s> runTileCycles(unsigned run);
  /// The run's compute cycles excluding idle worker contexts per tile (format 1.2); nullopt in
  /// an older report.
  std::optional<U64s> runComputeExcludingIdle(unsigned run);
  /// Steps [first, first + count), replacing `out`'s contents.
  void steps(std::uint64_t first, std::uint64_t count, StepChunk& out);
  std::vector<BlockRow> blocks(unsigned tile);
  /// The tiles holding at least one block record, ascending (the blocks_by_tile index).
  std::vector<unsigned> blockTiles();

  /// Decodes a TileValues blob read from this report (errors name the file).
  U64s decodeTileValues(const std::string& bytes, const char* what) const;
  U64s decodeTileValues(const void* data, std::size_t size, const char* what) const;

  /// Throws InvalidReportError("<file>: <what>").
  [[noreturn]] void corrupt(const std::string& what) const;

private:
  template <class F> auto guarded(const char* what, F&& f) -> decltype(f());
  tessera::sqlite::Statement& statement(const std::string& sql);
  void checkHeader(const Source& source);
  void readMeta();
  /// The file's format version is older than major.minor.
  bool formatOlderThan(unsigned major, unsigned minor) const;

  std::string path_, shown_;
  std::uint64_t fileSize_ = 0;
  ReadOnlyDatabase file_; ///< keeps the bytes of an image alive
  tessera::sqlite::Database* db_ = nullptr;
  std::unordered_map<std::string, std::unique_ptr<tessera::sqlite::Statement>> statements_;
  std::map<std::string, std::string> meta_;
  bool hasCycleRules_ = true;      ///< vertex_cycle_rules is there (format 1.3 and later)
  bool hasRunCycleRules_ = true;   ///< run_vertex_cycle_rules is there (format 1.6 and later)
  bool hasRunStreamCopies_ = true; ///< run_stream_copy_cycles is there (format 1.7 and later)
  std::recursive_mutex mutex_;
};

} // namespace pva::storage
