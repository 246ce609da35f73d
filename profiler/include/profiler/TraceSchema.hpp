// The one definition of the *.pvti trace format (host trace instrumentation, written by libpvti
// and read by libpva). Same descriptor style as Schema.hpp: every table and column name of a
// trace is spelled here and nowhere else, and docs/formats.md holds renderTraceSchemaMarkdown()
// between its trace markers (checked by a test).
//
// A .pvti file is an SQLite database (WAL while it is being written, so a killed process leaves
// a file that opens with everything committed before the kill). Timestamps are integer
// nanoseconds of the steady clock since the session started (meta start_steady_ns); meta
// start_unix_us anchors them to wall-clock time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <profiler/Schema.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::profiler::schema::trace {

// --- versions and identity --------------------------------------------------------------------

// 2.0.0: events and instant_events rows became event_blocks (packed records per thread).
inline constexpr FormatVersion kTraceFormatVersion{2, 0, 0};
/// Value of meta.format in every .pvti written by Tessera.
inline constexpr std::string_view kTraceFormatName = "tessera-pvti";
inline constexpr std::string_view kTraceFileExtension = ".pvti";

// --- tables -----------------------------------------------------------------------------------

struct Meta {
  static constexpr Column key{"key", "TEXT PRIMARY KEY",
                              "setting name (see the trace meta keys below)"};
  static constexpr Column value{"value", "TEXT NOT NULL", "setting value, as text"};
  static constexpr Table<2> table{
      "meta", "Trace identity: format, version, process, clock.", {key, value}};
};

/// Keys of the trace meta table.
namespace meta {
inline constexpr std::string_view format = "format";                ///< kTraceFormatName
inline constexpr std::string_view formatVersion = "format_version"; ///< "major.minor.point"
inline constexpr std::string_view tool = "tool";                    ///< "Tessera"
inline constexpr std::string_view toolVersion = "tool_version";     ///< "major.minor.point"
inline constexpr std::string_view pid = "pid";                      ///< process id of the writer
inline constexpr std::string_view clockSource = "clock_source";     ///< "steady_clock"
inline constexpr std::string_view startSteadyNs =
    "start_steady_ns";                                           ///< steady clock at session start
inline constexpr std::string_view startUnixUs = "start_unix_us"; ///< wall clock at session start
inline constexpr std::string_view options = "options"; ///< PVTI_OPTIONS as given (may be empty)
} // namespace meta

struct Processes {
  static constexpr Column pid{"pid", "INTEGER PRIMARY KEY", "process id"};
  static constexpr Column name{"name", "TEXT NOT NULL", "executable name (/proc/self/comm)"};
  static constexpr Table<2> table{
      "processes", "The process that wrote the trace (one row per file).", {pid, name}};
};

struct Threads {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY",
                             "thread index in this trace (events.thread)"};
  static constexpr Column tid{"tid", "INTEGER NOT NULL",
                              "operating-system thread id (may be reused by later threads)"};
  static constexpr Column pid{"pid", "INTEGER NOT NULL", "processes.pid"};
  static constexpr Column name{"name", "TEXT NOT NULL",
                               "pvti::ThreadName, else the OS thread name"};
  static constexpr Table<4> table{
      "threads", "Threads that recorded anything.", {id, tid, pid, name}};
};

struct Channels {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "channel id"};
  static constexpr Column name{"name", "TEXT NOT NULL", "TraceChannel name, e.g. Poplar"};
  static constexpr Table<2> table{
      "channels", "Trace channels registered in the session (interned names).", {id, name}};
};

struct Labels {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "label id"};
  static constexpr Column text{"text", "TEXT NOT NULL", "tracepoint label"};
  static constexpr Table<2> table{
      "labels", "Interned event labels: events refer to them by id.", {id, text}};
};

struct Metadata {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "metadata id"};
  static constexpr Column json{"json", "TEXT NOT NULL", "JSON text (pvti::createJsonMetadata)"};
  static constexpr Table<2> table{"metadata", "Metadata attached to events.", {id, json}};
};

/// One thread's duration and instant events, packed: the writer appends a block per thread at
/// each flush (a row per span cost ~1 us of SQLite work; a packed record costs a few ns). The
/// records are begin/end/instant, as the thread made them; a reader rebuilds the nesting by
/// replaying a thread's blocks in id order (see "Event blocks" in the reference).
struct EventBlocks {
  static constexpr Column id{
      "id", "INTEGER PRIMARY KEY",
      "block id; a thread's records run on from one of its blocks to the next in id order"};
  static constexpr Column thread{"thread", "INTEGER NOT NULL", "threads.id"};
  static constexpr Column firstNs{"first_ns", "INTEGER NOT NULL",
                                  "time of the block's first record, ns since start_steady_ns"};
  static constexpr Column lastNs{"last_ns", "INTEGER NOT NULL",
                                 "time of its last record, ns since start_steady_ns"};
  static constexpr Column count{"count", "INTEGER NOT NULL",
                                "number of records in the block (at least 1)"};
  static constexpr Column records{"records", "BLOB NOT NULL",
                                  "the packed records, see Event blocks below"};
  static constexpr Table<6> table{"event_blocks",
                                  "Duration and instant events: packed begin/end/instant records, "
                                  "one or more blocks per thread per flush (libpvti writes "
                                  "at most 32,768 records in one).",
                                  {id, thread, firstNs, lastNs, count, records}};
};

struct Graphs {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "graph id"};
  static constexpr Column name{"name", "TEXT NOT NULL", "pvti::Graph name"};
  static constexpr Column unit{"unit", "TEXT NOT NULL", "unit of its values (may be empty)"};
  static constexpr Table<3> table{"graphs", "Line graphs (pvti::Graph).", {id, name, unit}};
};

struct Series {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "series id"};
  static constexpr Column graph{"graph", "INTEGER NOT NULL", "graphs.id"};
  static constexpr Column name{"name", "TEXT NOT NULL", "series name (Graph::addSeries)"};
  static constexpr Table<3> table{"series", "Series of each graph.", {id, graph, name}};
};

struct SeriesSamples {
  static constexpr Column series{"series", "INTEGER NOT NULL", "series.id"};
  static constexpr Column tsNs{"ts_ns", "INTEGER NOT NULL", "ns since start_steady_ns"};
  static constexpr Column value{"value", "REAL NOT NULL", "value given to Series::add"};
  static constexpr Table<3> table{"series_samples",
                                  "Values of every series, in the order they were added.",
                                  {series, tsNs, value}};
};

struct Heatmaps {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "heatmap id"};
  static constexpr Column name{"name", "TEXT NOT NULL", "heatmap name"};
  static constexpr Column unit{"unit", "TEXT NOT NULL",
                               "unit label of the bin edges (e.g. 2^x); only a label"};
  static constexpr Column valueType{"value_type", "TEXT NOT NULL",
                                    "double (HeatmapDouble) or int64 (HeatmapInt64)"};
  static constexpr Column binEdges{"bin_edges", "TEXT NOT NULL",
                                   "JSON array of the n ascending bin edges"};
  static constexpr Table<5> table{
      "heatmaps",
      "Heatmaps (histograms over time): n edges make n+1 bins, see below.",
      {id, name, unit, valueType, binEdges}};
};

struct HeatmapSamples {
  static constexpr Column heatmap{"heatmap", "INTEGER NOT NULL", "heatmaps.id"};
  static constexpr Column tsNs{"ts_ns", "INTEGER NOT NULL", "ns since start_steady_ns"};
  static constexpr Column binQuantities{"bin_quantities", "BLOB NOT NULL",
                                        "n+1 counts, each an unsigned LEB128 varint"};
  static constexpr Table<3> table{
      "heatmap_samples", "One histogram per Heatmap::add call.", {heatmap, tsNs, binQuantities}};
};

/// Every trace table, in creation order.
template <class F> void forEachTraceTable(F&& f) {
  f(Meta::table);
  f(Processes::table);
  f(Threads::table);
  f(Channels::table);
  f(Labels::table);
  f(Metadata::table);
  f(EventBlocks::table);
  f(Graphs::table);
  f(Series::table);
  f(SeriesSamples::table);
  f(Heatmaps::table);
  f(HeatmapSamples::table);
}

// --- event block records ----------------------------------------------------------------------
// event_blocks.records is `count` records back to back, each a header byte then unsigned LEB128
// varints (7 bits per byte, low group first, high bit set on all but the last byte):
//   header    bits 0-1: BlockRecordKind; bit 2: same channel as the block's previous record (no
//             channel varint); bit 3: same label (no label varint); bit 4: a metadata varint
//             follows (begin and instant only); bits 5-7: zero
//   delta     ns since the block's previous record (the first record: since first_ns, so 0)
//   channel   channels.id, unless bit 2
//   label     labels.id, unless bit 3
//   metadata  metadata.id, if bit 4
// Blocks decode on their own (the "previous record" never crosses a block); nesting does cross
// them. The encoder and the checked decoder are in <profiler/TraceBlock.hpp>.

/// Kind of a packed record (the low two bits of its header byte). An end closes the thread's
/// innermost open begin; one with nothing open, or with another label, is what pva reports as
/// an unmatched or mismatched end.
enum class BlockRecordKind : std::uint8_t { begin, end, instant };
inline constexpr std::array<std::string_view, 3> kBlockRecordKindNames{"begin", "end", "instant"};
constexpr std::string_view name(BlockRecordKind k) {
  return nameOf(k, kBlockRecordKindNames);
}

namespace block {
inline constexpr std::uint8_t kKindMask = 0x03;
inline constexpr std::uint8_t kSameChannel = 0x04;
inline constexpr std::uint8_t kSameLabel = 0x08;
inline constexpr std::uint8_t kHasMetadata = 0x10;
inline constexpr std::uint8_t kReservedBits = 0xe0;
/// Header, a 64-bit delta and three 32-bit ids.
inline constexpr std::size_t kMaxRecordBytes = 1 + 10 + 3 * 5;
} // namespace block

// --- enumerations stored as text --------------------------------------------------------------

/// heatmaps.value_type
inline constexpr std::string_view kHeatmapDouble = "double";
inline constexpr std::string_view kHeatmapInt64 = "int64";
inline constexpr std::string_view kClockSteady = "steady_clock";

// --- heatmap bins -----------------------------------------------------------------------------
// Edges e[0] < ... < e[n-1] make n+1 bins: bin 0 counts values below e[0], bin i (1..n-1) values
// in [e[i-1], e[i]), bin n values at or above e[n-1]. NaN is not counted.

/// Counts as stored in heatmap_samples.bin_quantities: unsigned LEB128 varints, one per bin.
std::vector<std::uint8_t> encodeHeatmapBins(const std::vector<std::uint32_t>& counts);
/// The inverse; throws std::invalid_argument on a truncated or overlong varint.
std::vector<std::uint32_t> decodeHeatmapBins(const void* data, std::size_t size);

// --- SQL and docs -----------------------------------------------------------------------------

/// CREATE TABLE statements of every trace table, in creation order.
std::vector<std::string> createTraceTablesSql();
/// INSERT INTO "<table>" VALUES (?, ...) with one parameter per column.
std::string insertRowSql(std::string_view table, std::size_t columns);
template <std::size_t N> std::string insertRowSql(const Table<N>& t) {
  return insertRowSql(t.name, N);
}

/// The trace format as markdown; docs/formats.md holds exactly this text between
/// <!-- trace-schema:begin --> and <!-- trace-schema:end -->.
std::string renderTraceSchemaMarkdown();

} // namespace tessera::profiler::schema::trace
