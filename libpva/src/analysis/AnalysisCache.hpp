// What the analysis layer derives once per open report: an open report never changes, and the
// CLI, compare, the viewer and Python each ask for the same figures, often more than once. The
// model's ReportState holds this without knowing its type (libpva's layers only look down).
#pragma once

#include "../model/ReportState.hpp"

#include <cstdint>
#include <optional>
#include <pva/Analysis.hpp>
#include <pva/ProgramTotals.hpp>
#include <vector>

namespace pva::detail {

/// OperationAnalysis's grouping as plain data (ids, not handles: a cached handle would own the
/// state that owns the cache). Each OperationAnalysis makes its Operation handles from it.
struct OperationGroups {
  struct Group {
    std::int64_t context = -1;                ///< the debug context that names the operation
    std::vector<std::uint64_t> programs;      ///< program ids
    std::vector<std::size_t> variables;       ///< positions in getVariables()
    std::optional<std::uint64_t> first, last; ///< liveness steps its programs execute
    std::uint64_t estimatedCycles = 0;
  };
  std::vector<Group> groups;                    ///< in debug-context order
  std::vector<std::int64_t> operationOfProgram; ///< position in groups, or -1
};

struct AnalysisCache {
  /// pva::summarize's value.
  Lazy<ReportSummary> summary;
  /// pva::analyseExecution's value (every step read once): the viewer's pages, compare and the
  /// CLI ask for it several times per report; each asks this one.
  Lazy<ExecutionAnalysis> execution;
  /// pva::OperationAnalysis's grouping (debug contexts, programs, variables, step spans).
  Lazy<OperationGroups> operationGroups;
  /// pva::sharedProgramTotals: the program tree's totals over all runs (from `execution`).
  Lazy<std::vector<ProgramTotals>> programTotals;
};

/// Counts a derivation for pva::detail::derivations (called once per fill of a cache entry).
void countDerivation(Derivation what);

/// The report's analysis cache, made on first use.
inline AnalysisCache& analysisCache(ReportState& state) {
  return *state.analysis.get([&] { state.analysis.value = std::make_shared<AnalysisCache>(); });
}

} // namespace pva::detail
