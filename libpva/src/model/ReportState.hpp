// The open report behind every public handle: its storage and the caches of what has been read.
// Each cache is filled once, on first use, from plain storage rows; caches never hold handles
// that own the state (that would be a reference cycle), and programs and debug contexts are
// handed out as shared_ptrs that share ownership of the state (aliasing constructor).
#pragma once

#include "../storage/DebugInfo.hpp"
#include "../storage/PackedStepIpus.hpp"
#include "../storage/ReportStore.hpp"

#include <array>
#include <atomic>
#include <exception>
#include <mutex>
#include <pva/Compilation.hpp>
#include <pva/Debug.hpp>
#include <pva/Exception.hpp>
#include <pva/Execution.hpp>
#include <pva/Program.hpp>
#include <pva/Report.hpp>

namespace pva::detail {

/// What the analysis layer derives once per open report (analysis/AnalysisCache.hpp). The model
/// keeps it without knowing its type, so that it stays below the analysis layer.
struct AnalysisCache;

/// A value filled on first use. After that, reading it costs one atomic load (std::call_once
/// costs a thread-local look-up, which showed in per-tile loops).
///
/// A fill that finds the report damaged (InvalidReportError) is not tried again: the open
/// report does not change, so every later get rethrows that error at once. Read again, a
/// damaged part cost its whole reading on every call, and the callers are many (summarize,
/// compare, insights and each `pva query` table all read the tile memory categories; the viewer
/// asks per tile): a 64 KiB report whose cell declared a 2 GiB payload made SQLite zero 16 MiB
/// for each of them (docs/reliability.md, fuzz_analysis). Any other failure (a progress
/// callback's CancelledError, std::bad_alloc) is retried: it is not the file's.
template <class T> struct Lazy {
  std::atomic<bool> ready{false};
  std::mutex mutex;
  T value;
  std::exception_ptr damage; ///< the fill's InvalidReportError, once it threw one
  template <class F> const T& get(F&& fill) {
    if (!ready.load(std::memory_order_acquire)) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!ready.load(std::memory_order_relaxed)) {
        if (damage) std::rethrow_exception(damage);
        try {
          fill();
        } catch (const InvalidReportError&) {
          value = T();
          damage = std::current_exception();
          throw;
        } catch (...) {
          value = T(); // the next attempt starts afresh
          throw;
        }
        ready.store(true, std::memory_order_release);
      }
    }
    return value;
  }
};

struct ProgramCache {
  std::vector<std::unique_ptr<Program>> objects;
  std::vector<std::vector<std::uint64_t>> children;
  std::vector<std::uint64_t> entryPoints;
};

struct ReportState : std::enable_shared_from_this<ReportState> {
  ReportState(const storage::Source& profile, const storage::Source* debug);

  storage::ReportStore store;
  std::string debugPath;
  std::vector<storage::DebugContextRow> debugRows;
  bool hasDebug = false;

  Lazy<Target> target;
  Lazy<Graph> graph;
  /// Every tile of the device, borrowing this state (see detail::StateRef); handed out by Tiles.
  Lazy<std::vector<Tile>> tiles;
  std::array<Lazy<storage::U64s>, storage::kTileColumns> tileColumns;
  Lazy<std::vector<MemoryCategories>> categories; ///< per tile of one replica
  Lazy<std::vector<VertexType>> vertexTypes;
  Lazy<ProgramCache> programs;
  Lazy<std::vector<storage::ComputeSetRow>> computeSets;
  Lazy<std::vector<storage::VariableRow>> variables;
  Lazy<std::vector<storage::LivenessRow>> liveness;
  Lazy<std::vector<storage::RunRow>> runs;
  Lazy<std::vector<std::unique_ptr<DebugContext>>> debugContexts;
  /// Filled by the analysis layer on first use (analysis/AnalysisCache.hpp: analysisCache()).
  Lazy<std::shared_ptr<AnalysisCache>> analysis;

  // Accessors that fill the caches.
  const Target& getTarget();
  const std::vector<Tile>& getTiles();
  const storage::U64s& getTileColumn(storage::TileColumn column);
  const std::vector<MemoryCategories>& getCategories();
  const std::vector<VertexType>& getVertexTypes();
  const ProgramCache& getPrograms();
  const std::vector<storage::ComputeSetRow>& getComputeSets();
  const std::vector<storage::VariableRow>& getVariables();
  const std::vector<storage::LivenessRow>& getLiveness();
  const std::vector<storage::RunRow>& getRuns();
  const std::vector<std::unique_ptr<DebugContext>>& getDebugContexts();

  std::shared_ptr<ReportState> self() { return shared_from_this(); }
  /// The state of a cached object (programs and debug contexts keep a plain pointer to it).
  static ReportState& of(const ReportState* s) { return const_cast<ReportState&>(*s); }
  /// A program as a ProgramPtr that keeps the report open.
  ProgramPtr program(std::uint64_t id);
  /// A debug context (null without debug information or for id < 0).
  std::shared_ptr<const DebugContext> debugContext(std::int64_t id);
  Variable variable(std::uint64_t id);
  unsigned tilesPerReplica();
  /// A per-tile array as every public accessor returns it: one entry per tile of one replica,
  /// because clients index these arrays by tile. Nothing stored (a NULL blob: the program has no
  /// exchange code, no estimate...) gives zeros; a stored array of another length is damage.
  /// `what` names the array in the error.
  storage::U64s perTile(storage::U64s values, const char* what);
  /// Throws InvalidArgumentError naming the report.
  [[noreturn]] void badArgument(const std::string& what) const;
};

/// One step of a chunk: where its data is in the chunk's bytes, and how its per-IPU entries are
/// laid out (read with the step, so that the public handles carry only the step's place).
struct StepEntry {
  storage::StepRow row;
  storage::StepIpusLayout layout; ///< valid when `plain`
  bool plain = false;             ///< entries read one at a time; otherwise decoded in full
};

/// A chunk of execution steps as read from the report, shared by the chunk's steps, their IPU
/// lists and compute sets; it keeps the report open, so a step needs one reference, not two.
struct StepBytes {
  std::shared_ptr<ReportState> state;
  std::string bytes;            ///< every step's blobs, back to back (storage::StepChunk::bytes)
  std::vector<StepEntry> steps; ///< in step order
  const unsigned char* at(std::uint32_t offset) const {
    return reinterpret_cast<const unsigned char*>(bytes.data()) + offset;
  }
};

} // namespace pva::detail
