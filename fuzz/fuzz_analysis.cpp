// The analysis layer and the tool's writers on a fuzzed profile.pop (from memory), opened with
// the valid debug.cbor when it still matches: every public function of <pva/Analysis.hpp> and
// <pva/Compare.hpp> (both ways, with relative changes), <pva/Insights.hpp>, and every JSON and
// CSV `pva summary`, `pva insights`, `pva query` and `pva compare` write. The readers' cheap walk
// is fuzz_report's; this target is where issue 28's findings were (an IPU number sizing a vector,
// signed overflow in deltas and in the liveness sweep).
//
// Oracles (a broken one aborts: a finding):
//   - only pva::Exception escapes libpva; nothing but it escapes the writers;
//   - every JSON the tool would write parses (nlohmann's strict lexer, through its SAX acceptor:
//     common/Oracles.hpp), and CSV and JUnit are well-formed UTF-8;
//   - figures in range: fractions (tile balance, parallel efficiency, shares of tile cycles,
//     programs in common) within [0, 1]; progress within [0, 1] and never going back; a
//     delta's sign is the sign of current - base and relative() is never NaN; peaks are at
//     least their parts; saturating sums never wrap (allocated = Σ categories, saturated);
//   - insights keeps its lists' lengths and order, says "fits" only with no tile over, and its
//     split's total is at least its always-live part; a stream-copy split never wraps; its
//     memory is summarize's (tiles, bytes, categories);
//   - an operation's executed steps are the same from operationTileFigures and
//     operationExecution over all runs;
//   - an operation's FLOPs per tile are none or one per tile adding up to its FLOPs;
//   - the input's budget (fuzz/common/Budget.hpp): CPU time and heap bytes bounded by its size.
#include "FromMemory.hpp"
#include "Writers.hpp"
#include "common/Budget.hpp"
#include "common/FuzzUtil.hpp"
#include "common/Oracles.hpp"
#include "common/SqliteMutator.hpp"
#include "output/CompareReport.hpp"
#include "output/JUnit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <pva/Analysis.hpp>
#include <pva/Compare.hpp>
#include <pva/Insights.hpp>
#include <pva/OperationTiles.hpp>
#include <sstream>

namespace {

std::string validProfile, validDebug;
std::unique_ptr<pva::Report> valid;

[[noreturn]] void broken(const std::string& what) {
  std::fprintf(stderr, "==fuzz oracle== %s\n", what.c_str());
  std::abort();
}

void fraction(double v, const char* what) {
  if (!(v >= 0.0 && v <= 1.0))
    broken(std::string(what) + " is not a fraction in [0, 1]: " + std::to_string(v));
}

void compared(const pva::ComparedValue& v, const char* what) {
  const std::int64_t d = v.delta();
  if ((d > 0) != (v.current > v.base) || (d < 0) != (v.current < v.base))
    broken(std::string(what) + ": delta " + std::to_string(d) + " has the wrong sign for " +
           std::to_string(v.base) + " -> " + std::to_string(v.current));
  const double r = v.relative();
  if (std::isnan(r) || r < -1.0) broken(std::string(what) + ": relative() is " + std::to_string(r));
}

void named(const std::vector<pva::NamedComparison>& rows, const char* what) {
  for (const auto& n : rows)
    compared(n.value, what);
}

/// The JSON text parses (strict: invalid UTF-8 is an error; checked without building it).
void parses(const std::string& text, const char* what) {
  fuzz::mustParseJson(text, what);
}

/// The text is well-formed UTF-8.
void utf8(const std::string& text, const char* what) {
  fuzz::mustBeUtf8(text, what);
}

void checkSpan(const pva::SpanFigures& s) {
  const pva::StreamCopyCycles& sc = s.streamCopyCycles;
  for (const std::uint64_t part : {sc.host, sc.remoteBuffer, sc.mixed, sc.unknown})
    if (part > sc.total())
      broken("a stream-copy destination's cycles exceed their total (wrapped)");
  fraction(s.tileBalance, "SpanFigures::tileBalance");
  fraction(s.parallelEfficiency, "SpanFigures::parallelEfficiency");
  for (const auto* list : {&s.programs, &s.computeSets})
    for (const pva::ProgramFigures& p : *list) {
      fraction(p.tileBalance, "ProgramFigures::tileBalance");
      fraction(p.parallelEfficiency, "ProgramFigures::parallelEfficiency");
      if (p.cycles > s.cycles) broken("a program ran more cycles than its span");
    }
  for (const pva::CycleKinds& k : s.tileCyclesByIpu)
    for (std::size_t i = 0; i < pva::CycleKinds::numKinds; ++i)
      fraction(k.shareOfTileCycles(static_cast<pva::TileCycleTotals::Kind>(i)),
               "CycleKinds::shareOfTileCycles");
}

void checkMemory(const pva::MemorySummary& m) {
  std::uint64_t allocated = 0;
  for (const pva::AllocatedBytes& c : m.categories) {
    const std::uint64_t t = c.nonOverlapped + c.overlapped;
    allocated = t < c.nonOverlapped || allocated + t < allocated
                    ? std::numeric_limits<std::uint64_t>::max()
                    : allocated + t;
  }
  // Each category's total() itself may wrap (a public inline sum); the saturated sums compare
  // only when no category did.
  bool wrapped = false;
  for (const pva::AllocatedBytes& c : m.categories)
    wrapped = wrapped || c.nonOverlapped + c.overlapped < c.nonOverlapped;
  if (!wrapped && allocated != m.allocatedBytes)
    broken("MemorySummary::allocatedBytes is not the sum of its categories");
  if (m.peakLiveness.known && (m.peakLiveness.bytes < m.peakLiveness.notAlwaysLiveBytes ||
                               m.peakLiveness.bytes < m.alwaysLiveBytes))
    broken("the liveness peak is less than one of its parts");
  if (m.tilesUsed > m.numTiles || m.tilesOutOfMemory > m.numTiles)
    broken("more tiles counted than there are");
}

void checkSummary(const pva::ReportSummary& s) {
  checkMemory(s.memory);
  for (std::size_t i = 0; i < pva::CycleKinds::numKinds; ++i) {
    const auto k = static_cast<pva::TileCycleTotals::Kind>(i);
    fraction(s.execution.tileCycles.shareOfTileCycles(k), "CycleKinds::shareOfTileCycles");
    for (const pva::RunSummary& r : s.execution.runs)
      fraction(r.tileCycles.shareOfTileCycles(k), "a run's shareOfTileCycles");
  }
}

void checkComparison(const pva::ReportComparison& c) {
  const auto& m = c.memory;
  for (const auto* v : {&m.totalIncludingGaps, &m.totalExcludingGaps, &m.maxTileIncludingGaps,
                        &m.alwaysLive, &m.peakLiveness, &m.allocated})
    compared(*v, "memory");
  named(m.categories, "memory category");
  for (const auto& t : m.tilesIncludingGaps)
    compared(t, "tile");
  compared(c.cycles.total, "cycles");
  named(c.cycles.runs, "run");
  named(c.cycles.computeSets, "compute set");
  named(c.cycles.programs, "program");
  named(c.cycles.kinds, "kind");
  for (const auto& r : c.cycles.matchedRuns)
    compared(r.cycles, "matched run");
  for (const auto* v : {&c.cycles.runsTotal, &c.cycles.computeSetsTotal, &c.cycles.programsTotal,
                        &c.cycles.kindsTotal})
    compared(*v, "cycles total");
  named(c.variables.alwaysLive, "variable");
  named(c.variables.atPeak, "variable at peak");
  for (const auto& o : c.operations.operations)
    for (const auto* v : {&o.cycles, &o.estimatedCycles, &o.alwaysLiveBytes,
                          &o.peakNotAlwaysLiveBytes, &o.codeBytes})
      compared(*v, "operation");
  fraction(c.programsInCommon.share, "ProgramsInCommon::share");
}

/// What `pva compare` writes for (base, current): JSON, text and JUnit.
void writeCompare(const pva::ReportComparison& comparison, bool baseOom, bool currentOom) {
  pvacli::CompareResult r;
  r.basePath = "base/profile.pop";
  r.newPath = "fuzz/profile.pop";
  r.comparison = comparison;
  r.cycles.relative = 0.02;
  r.memory.absolute = 1024;
  r.checks = pvacli::evaluateGate(r.comparison, r.cycles, r.memory, baseOom, currentOom);
  std::ostringstream json, text, junit;
  pvacli::writeJson(json, pvacli::compareJson(r));
  parses(json.str(), "pva compare --format json");
  pvacli::writeCompareText(text, r);
  pvacli::writeJUnit(junit, "pva compare", r.checks);
  utf8(junit.str(), "pva compare --format junit");
}

/// What `pva summary --json` and every `pva query` write, as JSON and as CSV.
void writeTool(const pva::Report& report, const fuzz::Budget& budget) {
  fuzz::part([&] {
    pvacli::ReportFiles files;
    files.profile = "fuzz/profile.pop";
    std::ostringstream out;
    pvacli::writeJson(out, pvacli::summaryJson(report, files));
    parses(out.str(), "pva summary --json");
  });
  budget.check("pva summary --json");
  for (const char* what :
       {"tiles", "compute-sets", "live-at-peak", "programs", "runs", "categories"})
    fuzz::part([&] {
      const pvacli::Table table = pvacli::queryTable(report, what, 0);
      std::ostringstream json, csv, text;
      table.write(json, pvacli::TableFormat::JsonObject);
      parses(json.str(), "pva query --format json");
      table.write(csv, pvacli::TableFormat::Csv);
      utf8(csv.str(), "pva query --format csv");
      table.write(text, pvacli::TableFormat::Text);
    });
  fuzz::part([&] {
    std::ostringstream json;
    pvacli::queryTable(report, "programs", 0, "OnTileExecute")
        .write(json, pvacli::TableFormat::JsonObject);
    parses(json.str(), "pva query programs --type --format json");
  });
  budget.check("pva query");
}

/// pva::insights and `pva insights --json`: what the page and the tool promise.
void checkInsights(const pva::Report& report) {
  fuzz::part([&] {
    const pva::InsightsOptions options;
    const pva::Insights in = pva::insights(report, options);
    if (in.worstTiles.size() > options.worstTiles)
      broken("insights lists more worst tiles than asked");
    if (in.suggestions.size() > options.suggestions)
      broken("insights keeps more suggestions than asked");
    for (std::size_t i = 1; i < in.suggestions.size(); ++i)
      if (in.suggestions[i].savingBytes > in.suggestions[i - 1].savingBytes)
        broken("insights' suggestions are not largest saving first");
    if (in.fits && (in.worstOverBytes != 0 || in.tilesOutOfMemory != 0))
      broken("insights says it fits with tiles over their memory");
    if (in.model.total() < in.model.alwaysLiveBytes)
      broken("insights' liveness split total is below its always-live part");
    std::uint64_t binned = 0;
    for (const pva::UsageBin& b : in.usage)
      binned += b.tiles;
    if (binned < in.tilesOutOfMemory)
      broken("insights' usage bins hold fewer tiles than are over their memory");
    // Documented "as summarize(report).memory" (issue 40, N1): the same tiles, bytes and
    // categories, whenever summarize reads the report too.
    pva::MemorySummary m;
    try {
      m = pva::summarize(report).memory;
    } catch (const pva::Exception&) {
      return;
    }
    bool same = m.numTiles == in.memory.numTiles && m.tilesUsed == in.memory.tilesUsed &&
                m.includingGapsBytes == in.memory.includingGapsBytes &&
                m.excludingGapsBytes == in.memory.excludingGapsBytes &&
                m.categories.size() == in.memory.categories.size();
    for (std::size_t c = 0; same && c < m.categories.size(); ++c)
      same = m.categories[c].name == in.memory.categories[c].name &&
             m.categories[c].nonOverlapped == in.memory.categories[c].nonOverlapped &&
             m.categories[c].overlapped == in.memory.categories[c].overlapped;
    if (!same) broken("insights' memory is not summarize's");
  });
  fuzz::part([&] {
    pvacli::ReportFiles files;
    files.profile = "fuzz/profile.pop";
    std::ostringstream out;
    pvacli::writeJson(out, pvacli::insightsJson(report, files, 5));
    parses(out.str(), "pva insights --json");
  });
}

void analyse(const pva::Report& report, const fuzz::Budget& budget) {
  fuzz::part([&] { checkSummary(pva::summarize(report)); });
  budget.check("summarize");
  fuzz::part([&] {
    for (const pva::Ipu& ipu : report.compilation().ipus())
      checkMemory(pva::summarizeMemory(report, ipu.tiles()));
  });
  fuzz::part([&] {
    const std::vector<pva::Variable> vars = report.compilation().variables();
    (void)pva::peakNotAlwaysLiveBytes(vars);
  });
  budget.check("summarizeMemory");

  pva::ExecutionAnalysis execution;
  bool analysed = false;
  fuzz::part([&] {
    double last = 0;
    execution = pva::analyseExecution(report, [&](double done) {
      if (!(done >= last && done <= 1.0))
        broken("analyseExecution's progress went back or beyond 1: " + std::to_string(done));
      last = done;
    });
    checkSpan(execution.allRuns);
    for (const pva::SpanFigures& run : execution.runs)
      checkSpan(run);
    analysed = true;
  });
  budget.check("analyseExecution");

  fuzz::part([&] {
    const std::uint64_t steps = report.execution().steps().size();
    const std::pair<std::uint64_t, std::uint64_t> spans[] = {
        {0, steps}, {steps / 2, steps - steps / 2}, {0, std::min<std::uint64_t>(steps, 3)}};
    for (const auto& span : spans)
      fuzz::part([&] { checkSpan(pva::analyseSteps(report, span.first, span.second)); });
    // Past the end: an InvalidArgumentError, nothing else.
    try {
      (void)pva::analyseSteps(report, steps, 1);
      broken("analyseSteps accepted a step past the end");
    } catch (const pva::InvalidArgumentError&) {
    }
  });
  budget.check("analyseSteps");

  if (report.hasDebugInfo())
    fuzz::part([&] {
      const pva::OperationAnalysis ops(report);
      const std::vector<pva::Operation> operations = ops.operations();
      for (std::size_t i = 0; i < std::min(operations.size(), fuzz::kMaxItems); ++i)
        fuzz::part([&] {
          const pva::OperationFigures f = pva::operationFigures(operations[i]);
          // The peak of its variables' lives never exceeds the sum of their bytes (saturated).
          std::uint64_t notAlwaysLive = 0;
          for (const pva::Variable& v : operations[i].vars())
            if (!v.alwaysLive())
              notAlwaysLive = notAlwaysLive + v.bytes() < notAlwaysLive
                                  ? std::numeric_limits<std::uint64_t>::max()
                                  : notAlwaysLive + v.bytes();
          if (f.peakNotAlwaysLiveBytes > notAlwaysLive)
            broken("an operation's liveness peak exceeds its variables' bytes");
          // FLOPs per tile (format 1.4): none, or one value per tile adding up (saturated) to the
          // operation's FLOPs. It reads every executed step, so only the first few operations.
          if (i < 4)
            fuzz::part([&] {
              const pva::OperationTileFigures t = pva::operationTileFigures(report, operations[i]);
              // Documented as the same quantity (issue 40, N5): the steps of all runs that ran
              // one of its programs, counted per step by one and per run by the other.
              if (analysed && t.profiled &&
                  t.executedSteps !=
                      pva::operationExecution({operations[i]}, execution.allRuns).steps)
                broken("operationTileFigures' executed steps differ from operationExecution's");
              if (t.estimatedFlops.empty()) return;
              if (t.estimatedFlops.size() != report.compilation().target().tilesPerReplica())
                broken("an operation's FLOPs per tile are not one per tile");
              std::uint64_t flops = 0;
              for (const std::uint64_t v : t.estimatedFlops)
                flops = flops + v < flops ? std::numeric_limits<std::uint64_t>::max() : flops + v;
              if (!f.estimatedFlops || flops != *f.estimatedFlops)
                broken("an operation's FLOPs per tile do not add up to its FLOPs");
            });
          if (analysed) {
            const pva::OperationExecution x =
                pva::operationExecution({operations[i]}, execution.allRuns);
            if (x.cycles != pva::operationCycles(operations[i], execution.allRuns))
              broken("operationCycles differs from operationExecution");
            if (x.steps > execution.allRuns.steps)
              broken("an operation ran more steps than the span");
          }
        });
      if (analysed) (void)pva::operationExecution(operations, execution.allRuns);
    });
  budget.check("operations");

  if (valid)
    for (const bool forward : {true, false})
      fuzz::part([&] {
        const pva::ReportComparison c =
            forward ? pva::compare(*valid, report) : pva::compare(report, *valid);
        checkComparison(c);
        fuzz::part([&] {
          writeCompare(c, forward ? valid->outOfMemory() : report.outOfMemory(),
                       forward ? report.outOfMemory() : valid->outOfMemory());
        });
      });
  budget.check("compare");

  if (valid)
    for (const bool forward : {true, false})
      fuzz::part([&] {
        const pva::Report& base = forward ? *valid : report;
        const pva::Report& current = forward ? report : *valid;
        for (const auto& o : pva::compareOperations(base, current).operations)
          for (const auto* v : {&o.cycles, &o.estimatedCycles, &o.alwaysLiveBytes,
                                &o.peakNotAlwaysLiveBytes, &o.codeBytes})
            compared(*v, "compareOperations");
        named(pva::compareProgramCycles(base, current), "compareProgramCycles");
      });
  budget.check("compareOperations, compareProgramCycles");

  fuzz::part([&] {
    for (const pva::ProgramPtr& p : report.compilation().programs())
      (void)pva::Program::streamCopyDestinationName(p->streamCopyDestination());
  });
  checkInsights(report);
  budget.check("insights");

  writeTool(report, budget);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  validProfile = fuzz::readFile(TESSERA_FUZZ_VALID_PROFILE);
  validDebug = fuzz::readFile(TESSERA_FUZZ_VALID_DEBUG);
  if (!validProfile.empty()) {
    const std::string debugName = "valid/debug.cbor";
    valid = std::make_unique<pva::Report>(pva::detail::openReportImage(
        "valid/profile.pop", validProfile, validDebug.empty() ? nullptr : &debugName, validDebug));
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::Budget budget(size);
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::unique_ptr<pva::Report> report;
  // With the valid debug.cbor while it still matches (the operations' figures need it), else
  // alone. The profile is opened first, then the (valid, fixed) debug.cbor is read against its
  // report id: any failure but a mismatch is the profile's own, which opening it alone would
  // only repeat (most mutated inputs do not open: that was a second open for each).
  bool mismatch = validDebug.empty();
  if (!validDebug.empty()) {
    try {
      const std::string debugName = "valid/debug.cbor";
      report = std::make_unique<pva::Report>(
          pva::detail::openReportImage("fuzz/profile.pop", bytes, &debugName, validDebug));
    } catch (const pva::DebugInfoMismatchError&) {
      mismatch = true;
    } catch (const pva::Exception&) {
    }
  }
  if (!report && mismatch)
    fuzz::part([&] {
      report =
          std::make_unique<pva::Report>(pva::detail::openReportImage("fuzz/profile.pop", bytes));
    });
  budget.check("open");
  if (report) analyse(*report, budget);
  budget.check("the input");
  return 0;
}

TESSERA_SQLITE_MUTATOR
