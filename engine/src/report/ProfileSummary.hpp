// Engine::printProfileSummary: the profile as readable text, from the in-memory models.
#pragma once

#include "../profile/ExecutionRecorder.hpp"
#include "ReportBuilder.hpp"

#include <iosfwd>

namespace poplar::detail::report {

struct SummaryOptions {
  bool showVarStorage = false;
  bool showExecutionSteps = false;
};

void printProfileSummary(std::ostream& out, const CompiledGraph& g, const CompilationProfile& p,
                         const std::vector<profile::RunSummary>* runs, const std::string& reportDirectory,
                         const SummaryOptions& options);

} // namespace poplar::detail::report
