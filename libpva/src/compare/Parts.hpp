// The parts of compare() beyond memory and cycles, each from the two reports' own figures.
// Internal to libpva.
#pragma once

#include <pva/Analysis.hpp>
#include <pva/Compare.hpp>

namespace pva::detail {

TargetComparison compareTargets(const Target& base, const Target& current);

/// Always-live variables, and those live at each summary's peak liveness step.
VariableComparison compareVariables(const Report& base, const ReportSummary& baseSummary,
                                    const Report& current, const ReportSummary& currentSummary);

/// Operations with the figures of the Operations view; `compared` is false unless both reports
/// have debug information. The analyses give executed cycles (empty ones give 0).
OperationsComparison compareOperations(const Report& base, const ExecutionAnalysis& baseExecution,
                                       const Report& current,
                                       const ExecutionAnalysis& currentExecution);

} // namespace pva::detail
