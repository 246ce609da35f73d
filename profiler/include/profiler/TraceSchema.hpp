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

#include <profiler/Schema.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::profiler::schema::trace {

// --- versions and identity --------------------------------------------------------------------

inline constexpr FormatVersion kTraceFormatVersion{1, 0, 0};
/// Value of meta.format in every .pvti written by Tessera.
inline constexpr std::string_view kTraceFormatName = "tessera-pvti";
inline constexpr std::string_view kTraceFileExtension = ".pvti";

// --- tables -----------------------------------------------------------------------------------

struct Meta {
  static constexpr Column key{"key", "TEXT PRIMARY KEY", "setting name (see the trace meta keys below)"};
  static constexpr Column value{"value", "TEXT NOT NULL", "setting value, as text"};
  static constexpr Table<2> table{"meta", "Trace identity: format, version, process, clock.", {key, value}};
};

/// Keys of the trace meta table.
namespace meta {
inline constexpr std::string_view format = "format";               ///< kTraceFormatName
inline constexpr std::string_view formatVersion = "format_version"; ///< "major.minor.point"
inline constexpr std::string_view tool = "tool";                   ///< "Tessera"
inline constexpr std::string_view toolVersion = "tool_version";    ///< "major.minor.point"
inline constexpr std::string_view pid = "pid";                     ///< process id of the writer
inline constexpr std::string_view clockSource = "clock_source";    ///< "steady_clock"
inline constexpr std::string_view startSteadyNs = "start_steady_ns"; ///< steady clock at session start
inline constexpr std::string_view startUnixUs = "start_unix_us";   ///< wall clock at session start
inline constexpr std::string_view options = "options";             ///< PVTI_OPTIONS as given (may be empty)
} // namespace meta

struct Processes {
  static constexpr Column pid{"pid", "INTEGER PRIMARY KEY", "process id"};
  static constexpr Column name{"name", "TEXT NOT NULL", "executable name (/proc/self/comm)"};
  static constexpr Table<2> table{"processes", "The process that wrote the trace (one row per file).", {pid, name}};
};

struct Threads {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "thread index in this trace (events.thread)"};
  static constexpr Column tid{"tid", "INTEGER NOT NULL", "operating-system thread id (may be reused by later threads)"};
  static constexpr Column pid{"pid", "INTEGER NOT NULL", "processes.pid"};
  static constexpr Column name{"name", "TEXT NOT NULL", "pvti::ThreadName, else the OS thread name"};
  static constexpr Table<4> table{"threads", "Threads that recorded anything.", {id, tid, pid, name}};
};

struct Channels {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "channel id"};
  static constexpr Column name{"name", "TEXT NOT NULL", "TraceChannel name, e.g. Poplar"};
  static constexpr Table<2> table{"channels", "Trace channels registered in the session (interned names).", {id, name}};
};

struct Labels {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "label id"};
  static constexpr Column text{"text", "TEXT NOT NULL", "tracepoint label"};
  static constexpr Table<2> table{"labels", "Interned event labels: events refer to them by id.", {id, text}};
};

struct Metadata {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "metadata id"};
  static constexpr Column json{"json", "TEXT NOT NULL", "JSON text (pvti::createJsonMetadata)"};
  static constexpr Table<2> table{"metadata", "Metadata attached to events.", {id, json}};
};

struct Events {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "event id; on one thread, ids increase in begin order"};
  static constexpr Column thread{"thread", "INTEGER NOT NULL", "threads.id"};
  static constexpr Column channel{"channel", "INTEGER NOT NULL", "channels.id"};
  static constexpr Column label{"label", "INTEGER NOT NULL", "labels.id"};
  static constexpr Column beginNs{"begin_ns", "INTEGER NOT NULL", "begin, ns since start_steady_ns"};
  static constexpr Column endNs{"end_ns", "INTEGER", "end, ns since start_steady_ns; NULL: not ended when last written"};
  static constexpr Column depth{"depth", "INTEGER NOT NULL", "nesting depth on its thread (0: top level)"};
  static constexpr Column parent{"parent", "INTEGER", "events.id of the enclosing event; NULL: top level"};
  static constexpr Column metadata{"metadata", "INTEGER", "metadata.id, NULL: none"};
  static constexpr Table<9> table{"events", "Duration events (Tracepoint scopes and begin/end pairs), nested per thread.",
      {id, thread, channel, label, beginNs, endNs, depth, parent, metadata}};
};

struct InstantEvents {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "instant event id"};
  static constexpr Column thread{"thread", "INTEGER NOT NULL", "threads.id"};
  static constexpr Column channel{"channel", "INTEGER NOT NULL", "channels.id"};
  static constexpr Column label{"label", "INTEGER NOT NULL", "labels.id"};
  static constexpr Column tsNs{"ts_ns", "INTEGER NOT NULL", "ns since start_steady_ns"};
  static constexpr Column kind{"kind", "TEXT NOT NULL", "InstantKind: instant, or an unbalanced end() recorded as such"};
  static constexpr Column metadata{"metadata", "INTEGER", "metadata.id, NULL: none"};
  static constexpr Table<7> table{"instant_events", "Points in time: Tracepoint::event and unbalanced end() calls.",
      {id, thread, channel, label, tsNs, kind, metadata}};
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
  static constexpr Table<3> table{"series_samples", "Values of every series, in the order they were added.",
      {series, tsNs, value}};
};

struct Heatmaps {
  static constexpr Column id{"id", "INTEGER PRIMARY KEY", "heatmap id"};
  static constexpr Column name{"name", "TEXT NOT NULL", "heatmap name"};
  static constexpr Column unit{"unit", "TEXT NOT NULL", "unit label of the bin edges (e.g. 2^x); only a label"};
  static constexpr Column valueType{"value_type", "TEXT NOT NULL", "double (HeatmapDouble) or int64 (HeatmapInt64)"};
  static constexpr Column binEdges{"bin_edges", "TEXT NOT NULL", "JSON array of the n ascending bin edges"};
  static constexpr Table<5> table{"heatmaps", "Heatmaps (histograms over time): n edges make n+1 bins, see below.",
      {id, name, unit, valueType, binEdges}};
};

struct HeatmapSamples {
  static constexpr Column heatmap{"heatmap", "INTEGER NOT NULL", "heatmaps.id"};
  static constexpr Column tsNs{"ts_ns", "INTEGER NOT NULL", "ns since start_steady_ns"};
  static constexpr Column binQuantities{"bin_quantities", "BLOB NOT NULL", "n+1 counts, each an unsigned LEB128 varint"};
  static constexpr Table<3> table{"heatmap_samples", "One histogram per Heatmap::add call.", {heatmap, tsNs, binQuantities}};
};

/// Every trace table, in creation order.
template <class F> void forEachTraceTable(F&& f) {
  f(Meta::table); f(Processes::table); f(Threads::table); f(Channels::table); f(Labels::table);
  f(Metadata::table); f(Events::table); f(InstantEvents::table); f(Graphs::table); f(Series::table);
  f(SeriesSamples::table); f(Heatmaps::table); f(HeatmapSamples::table);
}

// --- enumerations stored as text --------------------------------------------------------------

/// instant_events.kind: a Tracepoint::event, an end() on a thread with nothing open, or an end()
/// whose label differs from the innermost open event (which it closes anyway).
enum class InstantKind : std::uint8_t { instant, unmatchedEnd, mismatchedEnd };
inline constexpr std::array<std::string_view, 3> kInstantKindNames{"instant", "unmatched_end", "mismatched_end"};
constexpr std::string_view name(InstantKind k) { return nameOf(k, kInstantKindNames); }

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
template <std::size_t N> std::string insertRowSql(const Table<N>& t) { return insertRowSql(t.name, N); }

/// The trace format as markdown; docs/formats.md holds exactly this text between
/// <!-- trace-schema:begin --> and <!-- trace-schema:end -->.
std::string renderTraceSchemaMarkdown();

} // namespace tessera::profiler::schema::trace
