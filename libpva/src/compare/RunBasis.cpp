// pva::RunBasis: how figures summed over all runs compare between two reports.
#include <cmath>
#include <limits>
#include <pva/Compare.hpp>
#include <pva/Execution.hpp>
#include <string>

namespace pva {

double RunBasis::base(const ComparedValue& v) const {
  return perRun() ? double(v.base) / double(baseRuns) : double(v.base);
}

double RunBasis::current(const ComparedValue& v) const {
  return perRun() ? double(v.current) / double(currentRuns) : double(v.current);
}

double RunBasis::delta(const ComparedValue& v) const {
  return current(v) - base(v);
}

double RunBasis::relative(const ComparedValue& v) const {
  // Without a per-run division this is ComparedValue::relative, exact for values beyond 2^53.
  if (!perRun()) return v.relative();
  const double b = base(v), c = current(v);
  if (b == 0) return c == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return (c - b) / b;
}

std::string RunBasis::describe() const {
  if (!perRun()) return "all runs";
  return "per run (" + std::to_string(baseRuns) + " vs " + std::to_string(currentRuns) + " runs)";
}

RunBasis runBasis(const Report& base, const Report& current) {
  RunBasis b;
  b.baseRuns = base.execution().runs().size();
  b.currentRuns = current.execution().runs().size();
  return b;
}

} // namespace pva
