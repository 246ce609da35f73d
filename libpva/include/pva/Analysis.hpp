// The figures people read off a report, derived once. The `pva` tool, the viewer, pva::compare,
// the Python module and Engine::printProfileSummary all show these values, so a total, a peak or
// a share of cycles is the same number wherever it is read.
//
//   const pva::ReportSummary s = pva::summarize(report);
//   std::cout << s.memory.peakLiveness.bytes << " bytes at peak (" << s.memory.scope.describe() <<
//   ")\n"; const pva::ExecutionAnalysis e = pva::analyseExecution(report); for (const
//   pva::ProgramFigures& p : e.allRuns.programs) ...   // indexed by program id
//
// Every group of figures says what it covers (Scope: one run or all runs, one replica or all)
// and every member names its unit (...Bytes, ...Cycles, a count, or a fraction in [0, 1]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <pva/Compilation.hpp>
#include <pva/Debug.hpp>
#include <pva/Execution.hpp>
#include <pva/Report.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace pva {

/// What a group of figures covers.
struct Scope {
  enum class Runs { NotApplicable, OneRun, AllRuns };
  enum class Replicas { OneReplica, AllReplicas };
  Runs runs = Runs::NotApplicable;
  Replicas replicas = Replicas::OneReplica;
  std::string runName; ///< the run, when runs == OneRun
  /// "all runs, one replica", "run 'training', one replica", "all replicas" (for memory).
  std::string describe() const;
};

/// Counts of the compiled graph.
struct GraphCounts {
  std::uint64_t vertices = 0, computeSets = 0, variables = 0, edges = 0;
  std::uint64_t programs = 0;     ///< every program of the report
  std::uint64_t programSteps = 0; ///< programs that are steps of the schedule (each counted once)
  /// Steps of the schedule's liveness (CompilationReport::livenessProgramSteps()): a program run
  /// at several places of the schedule is a step at each, so this is at least programSteps.
  std::uint64_t livenessSteps = 0;
};

/// A tile and one of its memory figures.
struct TileBytes {
  unsigned tile = 0; ///< over the whole device (all replicas)
  unsigned ipu = 0;
  std::uint64_t bytes = 0;
};

/// Allocations of a memory category or region: bytes with addresses of their own, and bytes
/// sharing addresses with variables whose lives do not meet (each such variable counts them).
struct AllocatedBytes {
  std::string name; ///< Poplar's spelling, as MemoryCategories::names() / regionNames()
  std::uint64_t nonOverlapped = 0, overlapped = 0;
  /// By region (non-interleaved, interleaved, overflowed), overlapped bytes included.
  std::uint64_t regionBytes[3] = {};
  std::uint64_t total() const { return nonOverlapped + overlapped; }
};

/// The liveness peak: always-live bytes plus the largest not-always-live step.
struct PeakLiveness {
  bool known = false;      ///< false when the report has no liveness steps
  std::uint64_t bytes = 0; ///< alwaysLiveBytes + notAlwaysLiveBytes
  std::uint64_t notAlwaysLiveBytes = 0;
  std::uint64_t step = 0; ///< index in CompilationReport::livenessProgramSteps()
  std::string program;    ///< name of the step's program ("" when it has none)
};

/// Memory over every tile of the device. How the totals relate:
///   excludingGapsBytes = alwaysLiveBytes + each tile's peak of not-always-live bytes, summed;
///   includingGapsBytes = excludingGapsBytes + alignment padding and holes;
///   Σ categories nonOverlapped + overlapped = Σ regions = allocatedBytes, which exceeds
///   excludingGapsBytes by the bytes that variables with disjoint lives share (overlapped bytes
///   count once for every variable placed on them). Tables of categories show the two columns and
///   say so; their totals row is allocatedBytes, not the memory used.
struct MemorySummary {
  Scope scope; ///< all replicas (every tile of the device)
  unsigned numTiles = 0, tilesUsed = 0, tilesOutOfMemory = 0;
  std::uint64_t capacityBytes = 0; ///< the device's memory
  std::uint64_t includingGapsBytes = 0, excludingGapsBytes = 0;
  std::uint64_t allocatedBytes = 0;
  std::uint64_t overflowedBytes = 0; ///< including gaps, beyond the tiles' memory
  TileBytes largestTileIncludingGaps, largestTileExcludingGaps; ///< first such tile on ties
  std::uint64_t alwaysLiveBytes = 0;
  PeakLiveness peakLiveness;
  std::vector<AllocatedBytes> categories; ///< every category, in MemoryCategories order
  std::vector<AllocatedBytes> regions;    ///< non-interleaved, interleaved, overflowed
  /// Tiles by memory excluding gaps: equal-width bins from binStartBytes.
  std::uint64_t binStartBytes = 0, binWidthBytes = 0;
  std::vector<std::uint64_t> tilesPerBin;
  static const std::vector<std::string>& regionNames();
};

/// Tile cycles by kind: summed over the tiles of one replica.
struct CycleKinds {
  static constexpr std::size_t numKinds = TileCycleTotals::numKinds;
  std::uint64_t cycles[numKinds] = {};
  std::uint64_t total() const;
  std::uint64_t of(TileCycleTotals::Kind k) const { return cycles[static_cast<std::size_t>(k)]; }
  /// of(k) / total(): the share of busy tile cycles ("of tile cycles"), 0 when there are none.
  double shareOfTileCycles(TileCycleTotals::Kind k) const;
  /// For people: "Compute", "Internal exchange", ... (the stored names: TileCycleTotals::kindName).
  static const std::string& label(TileCycleTotals::Kind k);
};

/// Cycles of a span's stream-copy steps (StreamCopyBegin, Mid and End; each step at its slowest
/// IPU, as SpanFigures::cycles counts it) by what the copy moves data to or from
/// (Program::streamCopyDestination). unknown: reports before format 1.3, which did not record it.
struct StreamCopyCycles {
  std::uint64_t host = 0, remoteBuffer = 0, mixed = 0, unknown = 0;
  /// Saturates at 2^64 - 1, as the analysis layer's other sums (hostile reports).
  std::uint64_t total() const {
    std::uint64_t t = 0;
    for (const std::uint64_t v : {host, remoteBuffer, mixed, unknown})
      t = t + v < t ? ~std::uint64_t(0) : t + v;
    return t;
  }
  /// The cycles of one destination (0 for None).
  std::uint64_t of(Program::StreamCopyDestination d) const;
};

/// One run, from its stored totals (no step is read).
struct RunSummary {
  Scope scope; ///< this run, one replica
  unsigned index = 0;
  std::string name;
  std::uint64_t steps = 0;
  std::uint64_t cycles = 0;          ///< of the slowest IPU
  std::int64_t hostMicroseconds = 0; ///< host wall-clock time of the run
  CycleKinds tileCycles;
  /// Its stream-copy steps' cycles by destination as the report stores them (format 1.7 on:
  /// ExecutionSummary::hasStreamCopyCycles); zeros otherwise (summarizeStreamCopies reads the
  /// steps then).
  StreamCopyCycles streamCopyCycles;
};

struct ExecutionSummary {
  Scope scope;           ///< all runs, one replica
  bool profiled = false; ///< the report has at least one run
  std::uint64_t steps = 0;
  std::uint64_t totalCycles = 0; ///< all runs, each at its slowest IPU
  CycleKinds tileCycles;         ///< all runs
  std::vector<RunSummary> runs;
  unsigned tilesPerReplica = 0;
  /// tileCycles.of(k) / tilesPerReplica / totalCycles: the share of the run time an average tile
  /// spends on k ("of total cycles").
  double tileAverageShareOfTotal(TileCycleTotals::Kind k) const;
  double tileAverageCycles(TileCycleTotals::Kind k) const;
  /// Compute excluding idle worker contexts (Poplar's "Tile average compute cycles (excluding
  /// idle threads)"), all runs, summed over tiles; known for reports of format 1.2 and later.
  bool hasComputeExcludingIdleThreads = false;
  std::uint64_t computeExcludingIdleThreads = 0;
  double tileAverageComputeExcludingIdleThreads() const;
  double tileAverageComputeExcludingIdleThreadsShareOfTotal() const;
  /// The runs' stream-copy steps' cycles by destination are stored (reports of format 1.7 and
  /// later, every run with its row): streamCopyCycles here and in each run hold them, equal to
  /// what analyseExecution sums over the steps. False: they are zeros, and only a pass over the
  /// steps gives them (summarizeStreamCopies does either).
  bool hasStreamCopyCycles = false;
  StreamCopyCycles streamCopyCycles; ///< all runs
};

/// What one cycle rule costed (VertexCycleSummary::rules).
struct VertexCycleRuleFigures {
  std::string rule;  ///< stored name, as VertexCycleRule::rule ("executed", "getCycleEstimate"...)
  std::string label; ///< for people: vertexCycleRuleLabel(rule)
  std::uint64_t vertices = 0;     ///< instances over all compute sets (one replica)
  double shareOfVertices = 0;     ///< vertices / VertexCycleSummary::vertices, in [0, 1]
  std::uint64_t cycles = 0;       ///< vertex cycles, all runs, summed over one replica's tiles
  double shareOfVertexCycles = 0; ///< cycles / VertexCycleSummary::cycles, in [0, 1]
};

/// Which rule costed the vertices, and what share of the compute each one's figures make
/// (docs/profiling.md, "Where a vertex's cycles come from"). A vertex execution's cycles are
/// those it keeps the tile's contexts busy: a worker's thread cycles, a MultiVertex's on each
/// worker context, a supervisor's tile cycles; summed over the tiles of one replica and all
/// runs. Together they are the compute cycles excluding idle threads less the compute sets'
/// launch cycles, so shareOfVertexCycles says how much of the profile's compute is declared
/// estimates, PopLibs' estimators or measured execution.
struct VertexCycleSummary {
  Scope scope;                ///< all runs, one replica
  std::string policy;         ///< vertexCyclePolicy(target)
  bool hasRules = false;      ///< the report records rules (format 1.3 and later)
  bool hasCycles = false;     ///< ... and each run's cycles by rule (format 1.6 and later, runs)
  std::uint64_t vertices = 0; ///< Σ rules' vertices
  std::uint64_t cycles = 0;   ///< Σ rules' cycles (saturating)
  std::vector<VertexCycleRuleFigures> rules; ///< each rule with vertices or cycles, by name
};

struct ReportSummary {
  Target target;
  GraphCounts graph;
  MemorySummary memory;
  ExecutionSummary execution;
  /// Which rule costed the graph's vertices (docs/profiling.md, "Where a vertex's cycles come
  /// from"): each rule's stored name and the vertex instances of all compute sets it costs, by
  /// name; empty for reports older than format 1.3. With the target's type it says whose
  /// numbers a profile shows: an IPU Model's declared estimates, or the hardware's measurements.
  std::vector<VertexCycleRule> vertexCycleRules;
  /// The same rules with their shares of the vertices and of the vertex cycles.
  VertexCycleSummary vertexCycles;
};

/// A rule's stored name for people: "declared estimate (getCycleEstimate)", "measured by
/// execution (executed)", ...; an unknown name as it is.
std::string vertexCycleRuleLabel(const std::string& rule);

/// How the target type decides a vertex's cycles, in a sentence every front end prints:
/// an IPU Model takes the declared estimates first, (simulated) hardware measures the code.
std::string vertexCyclePolicy(const Target& target);

/// The memory figures of some tiles (an IPU's: CompilationReport::ipus()[i].tiles()), as
/// summarize computes them for all; peakLiveness is known only when `tiles` are all of them.
MemorySummary summarizeMemory(const Report& report, const Tiles& tiles);

/// Reads what the summary needs: the target, the graph counts, one pass over the tiles' memory
/// columns and the liveness steps, and the runs' stored totals. No execution step is read, so it
/// costs the same for a run of a thousand steps as for one of millions.
ReportSummary summarize(const Report& report);
/// summarize's value as the open report keeps it, without a copy: the pointer keeps the report
/// open. For clients that hand one summary to several views (the viewer's pages).
std::shared_ptr<const ReportSummary> sharedSummary(const Report& report);

/// Stream-copy steps' cycles by destination, per run and over all runs.
struct StreamCopySummary {
  std::vector<StreamCopyCycles> runs; ///< in Run order
  StreamCopyCycles allRuns;
  /// From the report's stored per-run totals (format 1.7 on), no step read; false: from
  /// analyseExecution's pass over every step (kept with the open report as always).
  bool stored = false;
};

/// What `pva summary` shows of the stream copies: the stored totals when the report has them
/// (ExecutionSummary::hasStreamCopyCycles), otherwise analyseExecution's figures (one pass over
/// the steps, once per open report). The same numbers either way.
StreamCopySummary summarizeStreamCopies(const Report& report);

/// A not-always-live variable's life, [from, to) in liveness steps, and its size.
struct LiveRange {
  std::uint64_t from = 0, to = 0, bytes = 0;
};

/// The most bytes of `ranges` live at one liveness step (a sweep over their ends).
std::uint64_t peakLiveBytes(std::vector<LiveRange> ranges);

/// The most bytes of the not-always-live `variables` live at one step; always-live ones are not
/// counted. This is what a group of variables (an operation's, a layer's) adds to the liveness
/// peak at most, so it never exceeds MemorySummary::peakLiveness.notAlwaysLiveBytes, whereas
/// their plain sum can (variables whose lives do not meet share addresses).
std::uint64_t peakNotAlwaysLiveBytes(const std::vector<Variable>& variables);

/// What an operation's programs hold in tile memory and move, for one execution of each (all
/// tiles of one replica). Vertex code is not included: vertex types are shared by operations.
struct OperationFigures {
  std::uint64_t codeBytes = 0;   ///< control code and exchange code of its programs
  std::uint64_t vertices = 0;    ///< vertices of the compute sets its programs run (each set once)
  std::uint64_t computeSets = 0; ///< those compute sets
  std::uint64_t exchangeBytes = 0; ///< data its exchanges, global exchanges and stream copies move
  std::uint64_t alwaysLiveBytes = 0;
  std::uint64_t peakNotAlwaysLiveBytes = 0; ///< as peakNotAlwaysLiveBytes(op.vars())
  /// Σ ComputeSet::estimatedFlops of those compute sets (each once): FLOPs of one execution of
  /// each. None ("no estimate") when the report has no FLOP estimates.
  OptionalCount estimatedFlops;
  /// Σ ComputeSet::verticesWithoutFlopEstimate of those compute sets: vertices whose FLOPs are
  /// unknown (user codelets) and not in estimatedFlops; 0 when the report has no estimates.
  std::uint64_t verticesWithoutFlopEstimate = 0;
};
OperationFigures operationFigures(const Operation& operation);

/// Cycles of a program or compute set over a span of steps: each step counts the cycles of its
/// slowest IPU.
struct ProgramFigures {
  std::uint64_t cycles = 0;
  std::uint64_t executions = 0; ///< steps of the span that ran it
  std::uint64_t firstStep = 0;  ///< index of the first of those steps (when executions > 0)
  /// Cycle-weighted over its steps and IPUs (0 when it never ran):
  double tileBalance = 0; ///< mean over max of the working tiles' cycles
  double parallelEfficiency =
      0; ///< mean over max of all tiles' cycles: the busy share of tile time
};

/// Bytes an IPU moved in a span.
struct IpuTraffic {
  unsigned ipu = 0;
  std::uint64_t streamCopyInBytes = 0, streamCopyOutBytes = 0;
  std::uint64_t globalExchangeInBytes = 0, globalExchangeOutBytes = 0;
};

/// Figures of one span of steps: one run, or all runs.
struct SpanFigures {
  Scope scope;
  std::uint64_t steps = 0;
  /// Σ steps' slowest-IPU cycles: the runs' cycles on one IPU; more where IPUs run different
  /// steps at the same time (a pipeline), whose overlap this sum counts again.
  std::uint64_t cycles = 0;
  /// The span's length in cycles, read off the per-IPU timelines: each IPU's steps' cycles summed
  /// (waits for other IPUs included), and the longest of those. IPUs that run different steps at
  /// the same time overlap here, so this is the time the span took. For all runs, the runs'
  /// lengths summed (runs follow each other). Equals RunSummary::cycles and
  /// ExecutionSummary::totalCycles: one run has one length.
  std::uint64_t lengthCycles = 0;
  std::vector<std::uint64_t> cyclesByIpu;         ///< each IPU's timeline: its steps' cycles summed
  double tileBalance = 0, parallelEfficiency = 0; ///< as ProgramFigures, over every step
  std::vector<ProgramFigures> programs;           ///< by program id (CompilationReport::programs())
  std::vector<ProgramFigures> computeSets;        ///< by compute set id, from OnTileExecute steps
  std::vector<IpuTraffic> ipus;                   ///< by IPU of one replica
  StreamCopyCycles streamCopyCycles;              ///< stream-copy steps' cycles by destination
  /// Tile cycles by kind per IPU of one replica (from the stored per-tile totals).
  std::vector<CycleKinds> tileCyclesByIpu;
};

struct ExecutionAnalysis {
  std::vector<SpanFigures> runs; ///< in Run order
  SpanFigures allRuns;
};

/// An operation's executed cycles in a span: its programs' cycles (SpanFigures::programs) summed;
/// operationExecution({operation}, span).cycles. Operations own their programs, so operations'
/// cycles add up without counting a step twice.
std::uint64_t operationCycles(const Operation& operation, const SpanFigures& span);

/// Reads every execution step once (streamed, in chunks). Progress gets the share done in
/// [0, 1] from time to time, and may throw to stop. The result is kept with the open report
/// (shared by every copy of the Report handle) and thread-safe: later calls, from any thread,
/// return it without reading a step (progress gets 1 at once), and a call made while another
/// thread reads the steps waits for that reading. Opening the report again reads them again.
ExecutionAnalysis analyseExecution(const Report& report);
template <class Progress>
ExecutionAnalysis analyseExecution(const Report& report, Progress&& progress);
/// The same analysis as the open report keeps it, without a copy: the pointer keeps the report
/// open. For clients whose views share one analysis (the viewer's pages).
std::shared_ptr<const ExecutionAnalysis> sharedExecutionAnalysis(const Report& report);
template <class Progress>
std::shared_ptr<const ExecutionAnalysis> sharedExecutionAnalysis(const Report& report,
                                                                 Progress&& progress);

/// A client that keeps something of every step (the viewer's trace index keeps each IPU's
/// begin, length and balance) and takes it from the pass that derives analyseExecution's
/// figures, so that each step is read and decoded once for both (see the overload of
/// sharedExecutionAnalysis below).
class StepObserver {
public:
  static constexpr std::uint64_t kNoProgram = ~std::uint64_t(0);
  virtual ~StepObserver() = default;
  /// Each step once, in execution order, on the pass's thread. `program`: the step's program id
  /// (its place in CompilationReport::programs()), or kNoProgram when the step names none.
  /// `ipus[0, numIpus)`: the IPUs that took part (the entries of step.ipus()), decoded; valid
  /// during the call only. May throw to stop the pass: nothing is kept, the caller gets the
  /// exception.
  virtual void step(const ExecutionStep& step, std::uint64_t program, const IpuExecution* ipus,
                    std::size_t numIpus) = 0;
};

/// sharedExecutionAnalysis, handing every step to `observer` on the way. When this call makes
/// the pass, the observer rides on it: one decode of every step for both. When the analysis is
/// already kept, or another thread's pass is under way (read beside it, then this waits for that
/// pass), the steps are read again for the observer alone (decoded, no figures). Either way the
/// observer has seen every step exactly once, in order, when this returns. Progress as above.
template <class Progress>
std::shared_ptr<const ExecutionAnalysis>
sharedExecutionAnalysis(const Report& report, StepObserver& observer, Progress&& progress);

/// Figures of steps [firstStep, firstStep + count) of the execution (indices over all runs, as
/// ExecutionStep::index()), counted as analyseExecution counts a run's: a stretch of the trace,
/// such as the steps of one operation drawn as a block. Reads only those steps. Its scope is the
/// run holding them all, else all runs. Throws InvalidArgumentError for steps past the end.
SpanFigures analyseSteps(const Report& report, std::uint64_t firstStep, std::uint64_t count);

/// What a group of operations (one, or the operations under a debug-context path) ran in a span.
struct OperationExecution {
  std::uint64_t cycles = 0; ///< Σ its programs' cycles in the span (each step at its slowest IPU)
  std::uint64_t steps = 0;  ///< steps of the span that ran one of its programs
};
/// From the span's per-program figures; a program owned by two of the operations counts once.
OperationExecution operationExecution(const std::vector<Operation>& operations,
                                      const SpanFigures& span);

namespace detail {
using ProgressFn = void (*)(void* context, double done);
ExecutionAnalysis analyseExecution(const Report& report, ProgressFn progress, void* context);
std::shared_ptr<const ExecutionAnalysis>
sharedExecutionAnalysis(const Report& report, ProgressFn progress, void* context);
std::shared_ptr<const ExecutionAnalysis> sharedExecutionAnalysis(const Report& report,
                                                                 StepObserver* observer,
                                                                 ProgressFn progress,
                                                                 void* context);
/// Passes over every execution step analyseExecution made in this process (a StepObserver that
/// rides on one adds none), for benchmarks and tests that check a report is read once.
std::uint64_t executionPasses();
/// Readings of every step for a StepObserver alone (the analysis was kept already, so it could
/// not ride on the pass): each decodes every step again.
std::uint64_t observerOnlyPasses();
/// The analyses libpva keeps with an open report (analysis/AnalysisCache.hpp).
enum class Derivation { Summary, Execution, ProgramTotals, OperationGroups };
/// How many times this process derived one of them (each is derived once per open report,
/// however many callers and threads ask), for tests that check so.
std::uint64_t derivations(Derivation what);
} // namespace detail

template <class Progress>
ExecutionAnalysis analyseExecution(const Report& report, Progress&& progress) {
  using P = typename std::remove_reference<Progress>::type;
  return detail::analyseExecution(
      report, [](void* context, double done) { (*static_cast<P*>(context))(done); }, &progress);
}

template <class Progress>
std::shared_ptr<const ExecutionAnalysis> sharedExecutionAnalysis(const Report& report,
                                                                 Progress&& progress) {
  using P = typename std::remove_reference<Progress>::type;
  return detail::sharedExecutionAnalysis(
      report, [](void* context, double done) { (*static_cast<P*>(context))(done); }, &progress);
}

template <class Progress>
std::shared_ptr<const ExecutionAnalysis>
sharedExecutionAnalysis(const Report& report, StepObserver& observer, Progress&& progress) {
  using P = typename std::remove_reference<Progress>::type;
  return detail::sharedExecutionAnalysis(
      report, &observer, [](void* context, double done) { (*static_cast<P*>(context))(done); },
      &progress);
}

} // namespace pva
