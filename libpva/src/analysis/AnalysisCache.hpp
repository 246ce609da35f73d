// What the analysis layer derives once per open report: an open report never changes, and the
// CLI, compare, the viewer and Python each ask for the same figures, often more than once. The
// model's ReportState holds this without knowing its type (libpva's layers only look down).
#pragma once

#include "../model/ReportState.hpp"

#include <pva/Analysis.hpp>

namespace pva::detail {

struct AnalysisCache {
  /// pva::summarize's value.
  Lazy<ReportSummary> summary;
};

/// The report's analysis cache, made on first use.
inline AnalysisCache& analysisCache(ReportState& state) {
  return *state.analysis.get([&] { state.analysis.value = std::make_shared<AnalysisCache>(); });
}

} // namespace pva::detail
