// Engine::printProfileSummary: a report as Poplar's profile summary lays it out (Target:,
// Graph:, Memory Usage:, Execution:), read through libpva like every other front end.
#pragma once

#include <iosfwd>
#include <pva/Report.hpp>

namespace poplar::detail::report {

struct SummaryOptions {
  bool showVarStorage = false;        ///< liveness peak and the largest always-live variables
  bool showExecutionSteps = false;    ///< the costliest program steps
  bool showPerIpuMemoryUsage = false; ///< memory totals of each IPU
};

/// `executionProfiled`: whether the report records runs (its Execution section says how to get
/// them when it does not).
void printProfileSummary(std::ostream& out, const pva::Report& report, bool executionProfiled,
                         const SummaryOptions& options);

} // namespace poplar::detail::report
