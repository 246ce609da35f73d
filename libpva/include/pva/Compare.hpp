// Comparison of two reports: the targets they were compiled for, memory (totals, largest tile,
// always live, peak liveness, per category, per tile), variables (always live, and live at each
// report's peak), the liveness curve, cycles (total, per run, per compute set, per program, per
// kind) and, with debug information, operations. Named rows are matched by name; runs by name,
// else by position. The base of the `pva compare` gate and the viewer's compare mode.
//
//   auto c = pva::compare(pva::openReport("base/profile.pop"), pva::openReport("new/profile.pop"));
//   if (!c.target.same()) warn("compiled for different targets");
//   if (!c.programsInCommon.related) warn("unrelated programs: rows matched by name mean little");
//   if (c.cycles.total.relative() > 0.02) fail("cycles grew by more than 2%");
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <pva/Compilation.hpp>
#include <pva/Report.hpp>
#include <pva/SerializedGraph.hpp>
#include <string>
#include <vector>

namespace pva {

struct ExecutionAnalysis; // pva/Analysis.hpp

/// A quantity in the base report and in the current one.
///
/// The arithmetic is defined for every pair of values, as a CI gate needs: delta() saturates at
/// the ends of std::int64_t (a change beyond 2^63 - 1 either way reads as that end, with the
/// right sign), and relative() is computed from the two values as doubles, never from a
/// saturated delta. So a gate's "did it grow, and by how much" never wraps around to a decrease,
/// and no report (however damaged) makes the comparison undefined behaviour.
struct ComparedValue {
  std::uint64_t base = 0, current = 0;
  /// current - base, saturated to [INT64_MIN, INT64_MAX].
  std::int64_t delta() const {
    typedef std::numeric_limits<std::int64_t> Limits;
    const std::uint64_t kMax = static_cast<std::uint64_t>(Limits::max());
    if (current >= base) {
      const std::uint64_t d = current - base;
      return d > kMax ? Limits::max() : static_cast<std::int64_t>(d);
    }
    const std::uint64_t d = base - current;
    return d > kMax ? Limits::min() : -static_cast<std::int64_t>(d);
  }
  /// (current - base) / base (0 when both are 0; +infinity when only base is 0).
  double relative() const;
};

/// The one rule for comparing figures summed over all runs (execution cycles, steps, tile cycles
/// by kind, stream copies, runs' total, compute sets', programs' and operations' executed cycles).
/// Two reports that ran the same number of runs compare those totals as they are. Reports that
/// ran different numbers (10 training runs against 2) compare the mean of one run, each total
/// divided by its report's runs: a total over more runs is larger without the program changing,
/// and its raw difference ranks rows by run count. Compile-time figures (memory, estimates, code)
/// are never affected. The viewer's Compare view, Summary, Operations and Program tree follow it.
///
///   const pva::RunBasis basis = pva::runBasis(base, current);
///   double change = basis.relative(comparison.cycles.total);   // per run when the counts differ
struct RunBasis {
  std::uint64_t baseRuns = 0, currentRuns = 0;
  /// Both reports ran, different numbers of runs: all-runs figures compare per run.
  bool perRun() const { return baseRuns != currentRuns && baseRuns > 0 && currentRuns > 0; }
  /// The values as compared: per run when perRun(), else the totals.
  double base(const ComparedValue& v) const;
  double current(const ComparedValue& v) const;
  /// current(v) - base(v).
  double delta(const ComparedValue& v) const;
  /// delta(v) / base(v): 0 when both are 0, +infinity when only the base is 0.
  double relative(const ComparedValue& v) const;
  /// "all runs" or "per run (10 vs 2 runs)".
  std::string describe() const;
};

/// The rule for these two reports (Execution::runs() of each).
RunBasis runBasis(const Report& base, const Report& current);

/// A quantity matched by name; a name missing from one report counts 0 there.
struct NamedComparison {
  std::string name;
  bool inBase = false, inCurrent = false;
  ComparedValue value;
};

struct MemoryComparison {
  ComparedValue totalIncludingGaps, totalExcludingGaps;
  ComparedValue maxTileIncludingGaps; ///< the largest tile of each report
  unsigned maxTileBase = 0, maxTileCurrent = 0;
  ComparedValue alwaysLive;
  ComparedValue peakLiveness; ///< always live + the largest not-always-live step
  std::uint64_t peakStepBase = 0, peakStepCurrent = 0;
  std::vector<NamedComparison> categories;       ///< every category, summed over tiles
  std::vector<ComparedValue> tilesIncludingGaps; ///< per tile; the shorter report counts 0
  /// Σ categories = MemorySummary::allocatedBytes (all tiles): the categories' totals row. It
  /// exceeds totalExcludingGaps by the bytes variables whose lives do not meet share (each counts
  /// them).
  ComparedValue allocated;
};

/// The devices the reports were compiled for. When they differ, other differences say as much
/// about the device as about the program: front ends show this first.
struct TargetComparison {
  Target base, current;
  ComparedValue ipus, tilesPerIpu, bytesPerTile, replicas;
  ComparedValue clockHz; ///< clockFrequency(), rounded to whole Hz
  bool sameType = true, sameArchitecture = true;
  /// What differs, in this order: "type", "architecture", "IPUs", "tiles per IPU",
  /// "memory per tile", "replicas", "clock". Empty when the targets are the same.
  std::vector<std::string> differences;
  bool same() const { return differences.empty(); }
};

/// Variables matched by name (variables sharing a name add up), bytes over the tiles of one
/// replica.
struct VariableComparison {
  /// CompilationReport::alwaysLiveVariables(): code and state are pseudo-variables named after
  /// their memory category.
  std::vector<NamedComparison> alwaysLive;
  ComparedValue alwaysLiveTotal; ///< Σ alwaysLive: MemorySummary::alwaysLiveBytes of one replica
  /// The not-always-live variables live at each report's peak liveness step
  /// (MemoryComparison::peakStepBase, peakStepCurrent): each report at its own peak.
  std::vector<NamedComparison> atPeak;
  ComparedValue atPeakTotal; ///< Σ atPeak: PeakLiveness::notAlwaysLiveBytes
};

/// A run of one report paired with a run of the other.
struct RunComparison {
  enum class Match {
    ByName,       ///< the same name in both
    ByPosition,   ///< the same run number, names differ (or repeat)
    OnlyInBase,   ///< no partner: counts 0 in the current report
    OnlyInCurrent ///< no partner: counts 0 in the base report
  };
  /// "name", "position", "only in base", "only in current".
  static const std::string& matchName(Match m);
  Match match = Match::ByName;
  std::string baseName, currentName;        ///< empty on the side without the run
  unsigned baseIndex = 0, currentIndex = 0; ///< run numbers (Run::index), where present
  ComparedValue cycles;                     ///< the run's cycles (slowest IPU)
  ComparedValue steps;
  bool inBase() const { return match != Match::OnlyInCurrent; }
  bool inCurrent() const { return match != Match::OnlyInBase; }
};

/// How much of the two reports' programs is the same program: distinct non-empty program names
/// (CompilationReport::programs()). Reports of one model before and after a change share most
/// names; reports of different models share almost none, and then every row matched by name
/// (variables, compute sets, programs, operations) is noise: front ends say "unrelated reports"
/// instead of showing such rows.
struct ProgramsInCommon {
  std::uint64_t namesBase = 0, namesCurrent = 0, namesInCommon = 0;
  /// namesInCommon / the smaller of namesBase and namesCurrent (1 when one has no names): a
  /// program that only grew keeps a share of 1.
  double share = 1.0;
  static constexpr double relatedShare = 0.5;
  bool related = true; ///< share >= relatedShare
};

/// An operation (debug.cbor) in both reports, matched by its debug path; operations with the same
/// path are paired in order. Unnamed ones are called "(unnamed) " + their first program's name.
/// The figures are those the Operations view shows.
struct OperationComparison {
  std::string name;
  bool inBase = false, inCurrent = false;
  ComparedValue cycles;          ///< executed, all runs: operationCycles(op, allRuns)
  ComparedValue estimatedCycles; ///< Operation::estimatedCycles: compile time, each step once
  ComparedValue alwaysLiveBytes, peakNotAlwaysLiveBytes, codeBytes; ///< operationFigures
  /// The operation's place in OperationAnalysis(report).operations() of the base and of the
  /// current report, where it is present (inBase, inCurrent): front ends showing one report's
  /// operations find each one's comparison by it.
  std::size_t baseIndex = 0, currentIndex = 0;
};

struct OperationsComparison {
  bool compared = false; ///< both reports have debug information
  std::vector<OperationComparison> operations;
  /// Named "Total": sums over the operations (an operation's programs and variables are its
  /// own), except peakNotAlwaysLiveBytes, the peak of all operations' variables together.
  OperationComparison total;
  /// How `cycles` (all runs) compares: runBasis of the two reports. The other figures are
  /// compile-time ones and compare as they are.
  RunBasis basis;
};

struct LivenessComparison {
  /// Always live + not-always-live bytes at each step of each report's schedule.
  std::vector<std::uint64_t> base, current;
};

struct CycleComparison {
  ComparedValue total;
  std::vector<NamedComparison> runs;        ///< by run name
  std::vector<NamedComparison> computeSets; ///< slowest-IPU cycles of its steps, summed
  std::vector<NamedComparison> programs;    ///< the same for every step program, by name
  std::vector<NamedComparison> kinds;       ///< tile cycles by kind, summed over tiles
  /// Runs paired by name, else by run number, with how each pair was matched: use these rather
  /// than `runs` (by name alone) when the names may differ.
  std::vector<RunComparison> matchedRuns;
  /// Totals rows of the lists above:
  ComparedValue runsTotal;        ///< Σ runs' cycles, = total
  ComparedValue computeSetsTotal; ///< Σ compute sets: the cycles of OnTileExecute steps
  ComparedValue
      programsTotal;        ///< Σ programs: every step's slowest-IPU cycles (SpanFigures::cycles)
  ComparedValue kindsTotal; ///< Σ kinds: busy tile cycles of one replica (CycleKinds::total)
  /// Stream-copy steps' cycles over all runs by what they copy to or from (each report's
  /// ExecutionAnalysis::allRuns.streamCopyCycles, the Summary's figures): always four rows, in
  /// this order, named as `pva summary --format json` names them: "host", "remoteBuffer",
  /// "mixed" (host and remote buffers), "unknown" (a report before format 1.3). Empty without
  /// an execution in both reports.
  std::vector<NamedComparison> streamCopies;
  ComparedValue streamCopiesTotal; ///< Σ streamCopies: StreamCopyCycles::total()
  /// How every all-runs figure above compares (runBasis of the two reports).
  RunBasis basis;
};

struct ReportComparison {
  MemoryComparison memory;
  LivenessComparison liveness;
  CycleComparison cycles;
  bool hasExecution = false; ///< both reports have runs
  TargetComparison target;
  VariableComparison variables;
  OperationsComparison operations;
  ProgramsInCommon programsInCommon;
};

/// Compares two reports. Reads every step of both executions once (streamed); operations are
/// compared when both reports were opened with their debug information.
ReportComparison compare(const Report& base, const Report& current);

/// The two serialized graphs, element by element: compute sets and variables matched by name
/// (repeated names paired in order). The Graph view in compare mode marks what changed with it.
struct SerializedGraphComparison {
  enum class Change {
    Same,    ///< in both, alike
    Changed, ///< in both: a compute set's vertex count or tiles, a variable's type, shape or
             ///< mapping differ
    New      ///< only in the current graph
  };
  std::vector<Change> computeSets; ///< by the current graph's compute set index
  std::vector<Change> variables;   ///< by the current graph's variable index
  /// Names of the base's elements without a partner in the current graph, in the base's order.
  std::vector<std::string> computeSetsOnlyInBase, variablesOnlyInBase;
};
SerializedGraphComparison compareSerializedGraphs(const SerializedGraph& base,
                                                  const SerializedGraph& current);

/// ReportComparison::operations alone (the Operations view in compare mode): reads both
/// executions, not the memory or variables.
OperationsComparison compareOperations(const Report& base, const Report& current);
/// The same with each report's analyseExecution already done (an empty one for a report that did
/// not run).
OperationsComparison compareOperations(const Report& base, const ExecutionAnalysis& baseExecution,
                                       const Report& current,
                                       const ExecutionAnalysis& currentExecution);

/// CycleComparison::programs alone (the Program tree in compare mode): step programs' executed
/// cycles by name, all runs; reads both executions.
std::vector<NamedComparison> compareProgramCycles(const Report& base, const Report& current);
/// The same with each report's analyseExecution already done (an empty one for a report that did
/// not run).
std::vector<NamedComparison> compareProgramCycles(const Report& base,
                                                  const ExecutionAnalysis& baseExecution,
                                                  const Report& current,
                                                  const ExecutionAnalysis& currentExecution);

} // namespace pva
