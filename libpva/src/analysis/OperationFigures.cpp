// pva::operationFigures: code, vertices and exchanged bytes of one operation's programs; and
// pva::operationCycles: the cycles its programs ran.
#include "../model/Saturating.hpp"
#include "MovesData.hpp"

#include <pva/Analysis.hpp>
#include <pva/Program.hpp>
#include <set>

namespace pva {

namespace {

std::uint64_t sum(const std::vector<std::uint64_t>& v) {
  std::uint64_t s = 0;
  for (std::uint64_t x : v)
    detail::addTo(s, x);
  return s;
}

} // namespace

OperationFigures operationFigures(const Operation& operation) {
  OperationFigures f;
  std::set<unsigned> computeSets;
  for (const ProgramPtr& p : operation.programs()) {
    detail::addTo(f.codeBytes,
                  detail::saturatingAdd(sum(p->controlCodeByTile()), sum(p->codeBytesByTile())));
    if (detail::movesData(p->type())) detail::addTo(f.exchangeBytes, p->dataBytes());
    if (p->type() == Program::Type::OnTileExecute) {
      const ComputeSet cs = static_cast<const OnTileExecuteProgram&>(*p).computeSet();
      if (computeSets.insert(cs.id()).second) {
        detail::addTo(f.vertices, cs.numVertices());
        if (const auto flops = cs.estimatedFlops()) {
          f.estimatedFlops =
              OptionalCount(detail::saturatingAdd(f.estimatedFlops.value_or(0), *flops));
          detail::addTo(f.verticesWithoutFlopEstimate,
                        cs.verticesWithoutFlopEstimate().value_or(0));
        }
      }
    }
  }
  // An operation without compute sets does no FLOPs; it has a figure when its report has estimates.
  if (!f.estimatedFlops && operation.hasFlopEstimates()) f.estimatedFlops = OptionalCount(0);
  f.computeSets = computeSets.size();
  const std::vector<Variable> vars = operation.vars();
  for (const Variable& v : vars)
    if (v.alwaysLive()) detail::addTo(f.alwaysLiveBytes, v.bytes());
  f.peakNotAlwaysLiveBytes = peakNotAlwaysLiveBytes(vars);
  return f;
}

std::uint64_t operationCycles(const Operation& operation, const SpanFigures& span) {
  return operationExecution({operation}, span).cycles;
}

} // namespace pva
