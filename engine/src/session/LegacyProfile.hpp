// The older SDKs' profiles (Engine::getGraphProfile, getExecutionProfile, printProfileSummary of
// ProfileValues) built from the report every reader uses, so that they agree with it.
#pragma once

#include "report/ProfileSummary.hpp"

#include <poplar/OptionFlags.hpp>
#include <poplar/ProfileValue.hpp>
#include <pva/Report.hpp>

namespace poplar::detail::session {

/// The graph profile: target, graph counts, memory by tile, compute set names, profilePath.
ProfileValue graphProfile(const pva::Report& report);
/// The execution profile of the runs from `firstRun` on: simulation cycles and steps, runs.
ProfileValue executionProfile(const pva::Report& report, unsigned firstRun);
/// printProfileSummary's options (showVarStorage, showExecutionSteps, showPerIpuMemoryUsage),
/// checked: `what` names the caller in errors.
report::SummaryOptions summaryOptions(const OptionFlags& options, const char* what);

} // namespace poplar::detail::session
