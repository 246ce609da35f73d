// compare(): the operations of debug.cbor, with the figures the Operations view shows.
#include "../model/Saturating.hpp"
#include "Matching.hpp"
#include "Parts.hpp"

#include <pva/Debug.hpp>
#include <pva/Program.hpp>
#include <set>

namespace pva::detail {

namespace {

struct Side {
  std::vector<OperationRow> rows;
  OperationRow total;
};

std::string nameOf(const Operation& op) {
  const std::string& path = op.debugContext()->path();
  if (!path.empty()) return path;
  // Unnamed contexts (a stream copy, the engine's program switch): their first program names them.
  const auto programs = op.programs();
  return "(unnamed) " + (programs.empty() ? std::string() : programs.front()->name());
}

Side read(const Report& r, const ExecutionAnalysis& execution) {
  Side s;
  std::vector<Variable> all;
  std::set<std::uint64_t> seen;
  for (const Operation& op : OperationAnalysis(r).operations()) {
    const OperationFigures f = operationFigures(op);
    OperationRow row;
    row.name = nameOf(op);
    row.cycles = operationCycles(op, execution.allRuns);
    row.estimatedCycles = op.estimatedCycles();
    row.alwaysLiveBytes = f.alwaysLiveBytes;
    row.peakNotAlwaysLiveBytes = f.peakNotAlwaysLiveBytes;
    row.codeBytes = f.codeBytes;
    detail::addTo(s.total.cycles, row.cycles);
    detail::addTo(s.total.estimatedCycles, row.estimatedCycles);
    detail::addTo(s.total.alwaysLiveBytes, row.alwaysLiveBytes);
    detail::addTo(s.total.codeBytes, row.codeBytes);
    for (const Variable& v : op.vars())
      if (seen.insert(v.id()).second)
        all.push_back(v); // each variable once, as the view's layer totals

    s.rows.push_back(std::move(row));
  }
  s.total.peakNotAlwaysLiveBytes = peakNotAlwaysLiveBytes(all);
  return s;
}

} // namespace

OperationsComparison compareOperations(const Report& base, const ExecutionAnalysis& baseExecution,
                                       const Report& current,
                                       const ExecutionAnalysis& currentExecution) {
  OperationsComparison o;
  o.total.name = "Total";
  o.basis = runBasis(base, current);
  if (!base.hasDebugInfo() || !current.hasDebugInfo()) return o;
  const Side a = read(base, baseExecution), b = read(current, currentExecution);
  o.compared = true;
  o.operations = matchOperations(a.rows, b.rows);
  o.total = matchOperations({a.total}, {b.total}).front();
  o.total.name = "Total";
  return o;
}

} // namespace pva::detail
