// compare(): variables always live, and live at each report's peak liveness step, by name.
#include "../model/Saturating.hpp"
#include "Matching.hpp"
#include "Parts.hpp"

namespace pva::detail {

namespace {

NamedValues alwaysLive(const Report& r) {
  NamedValues out;
  for (const Variable& v : r.compilation().alwaysLiveVariables())
    detail::addTo(out[v.name()], v.bytes());
  return out;
}

/// The variables live at the summary's peak step (none when the report has no liveness steps).
NamedValues atPeak(const Report& r, const ReportSummary& s) {
  NamedValues out;
  if (!s.memory.peakLiveness.known) return out;
  const std::vector<ProgramStep> steps = r.compilation().livenessProgramSteps();
  for (const ProgramStep& step : steps)
    if (step.index() == s.memory.peakLiveness.step) {
      for (const Variable& v : step.notAlwaysLiveMemory().variables())
        detail::addTo(out[v.name()], v.bytes());
      break;
    }
  return out;
}

} // namespace

VariableComparison compareVariables(const Report& base, const ReportSummary& baseSummary,
                                    const Report& current, const ReportSummary& currentSummary) {
  VariableComparison v;
  v.alwaysLive = matchByName(alwaysLive(base), alwaysLive(current));
  v.alwaysLiveTotal = totalOf(v.alwaysLive);
  v.atPeak = matchByName(atPeak(base, baseSummary), atPeak(current, currentSummary));
  v.atPeakTotal = totalOf(v.atPeak);
  return v;
}

} // namespace pva::detail
