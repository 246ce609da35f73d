// pva::OperationAnalysis: operations as their debug contexts group programs and variables. The
// grouping is derived once per open report (AnalysisCache::operationGroups); each
// OperationAnalysis makes its handles from it. Declared with the model (pva/Debug.hpp), derived
// here so that its cache sits with the analysis layer's others.
#include "../model/Access.hpp"
#include "../model/Saturating.hpp"
#include "AnalysisCache.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <pva/Debug.hpp>

namespace pva {

using detail::Access;
using detail::ReportState;

namespace {

/// The grouping behind OperationAnalysis, as plain ids: computed once per open report.
detail::OperationGroups groupOperations(ReportState* s) {
  const auto& contexts = s->getDebugContexts();
  // The operation a context belongs to: its nearest enclosing context made by an op, or itself.
  auto owner = [&](std::int64_t id) -> std::int64_t {
    if (id < 0 || std::uint64_t(id) >= contexts.size()) return -1;
    for (std::int64_t c = id; c >= 0; c = Access::parentOf(*contexts[std::size_t(c)]))
      if (!contexts[std::size_t(c)]->opType().empty()) return c;
    return id;
  };
  std::map<std::int64_t, detail::OperationGroups::Group> groups;
  const auto& programs = s->getPrograms().objects;
  std::vector<std::int64_t> ownerOfProgram(programs.size(), -1); // context ids, then positions
  for (const auto& p : programs) {
    const std::int64_t o = owner(Access::debugOf(*p));
    if (o < 0) continue;
    groups[o].programs.push_back(p->_id());
    if (p->_id() < ownerOfProgram.size()) ownerOfProgram[std::size_t(p->_id())] = o;
  }
  const auto& variables = s->getVariables();
  for (std::size_t i = 0; i < variables.size(); ++i) {
    const std::int64_t o = owner(variables[i].debug);
    if (o >= 0) groups[o].variables.push_back(i);
  }
  std::map<std::uint64_t, std::vector<std::uint64_t>> stepsOfProgram;
  for (const auto& step : s->getLiveness())
    stepsOfProgram[step.program].push_back(step.id);
  // The steps a program executes: its own, and those of every program inside it (a Sequence,
  // Repeat or Switch executes the steps of its bodies). Programs form a DAG (a Function is
  // called from several places), so each span is computed once; iterative, as nesting is deep.
  using Span = std::optional<std::pair<std::uint64_t, std::uint64_t>>;
  std::vector<Span> spanOfProgram(programs.size());
  std::vector<char> state(programs.size(), 0); // 0 new, 1 on the stack, 2 done
  auto merge = [](Span& into, const Span& from) {
    if (!from) return;
    into = into ? std::make_pair(std::min(into->first, from->first),
                                 std::max(into->second, from->second))
                : *from;
  };
  auto spanOf = [&](std::uint64_t root) -> const Span& {
    std::vector<std::pair<std::uint64_t, std::vector<ProgramPtr>>> stack;
    auto push = [&](std::uint64_t id) {
      state[id] = 1;
      auto it = stepsOfProgram.find(id);
      if (it != stepsOfProgram.end())
        spanOfProgram[id] = std::make_pair(it->second.front(), it->second.back());
      stack.emplace_back(id, programs[id]->children());
    };
    if (state[root] == 0) push(root);
    while (!stack.empty()) {
      auto& [id, pending] = stack.back();
      if (pending.empty()) {
        state[id] = 2;
        const std::uint64_t done = id;
        stack.pop_back();
        if (!stack.empty()) merge(spanOfProgram[stack.back().first], spanOfProgram[done]);
        continue;
      }
      const std::uint64_t child = pending.back()->_id();
      pending.pop_back();
      if (child >= programs.size()) continue;
      if (state[child] == 2)
        merge(spanOfProgram[id], spanOfProgram[child]);
      else if (state[child] == 0)
        push(child); // state 1: a cycle, which a schedule cannot have
    }
    return spanOfProgram[root];
  };
  detail::OperationGroups out;
  std::map<std::int64_t, std::int64_t> positionOfContext;
  for (auto& [id, g] : groups) {
    positionOfContext[id] = std::int64_t(out.groups.size());
    g.context = id;
    for (auto p : g.programs) {
      if (p < programs.size())
        if (const Span& span = spanOf(p)) {
          g.first = g.first ? std::min(*g.first, span->first) : span->first;
          g.last = g.last ? std::max(*g.last, span->second) : span->second;
        }
      if (programs[p]->isStep()) {
        const auto c = programs[p]->estimatedCyclesByTile();
        if (!c.empty()) detail::addTo(g.estimatedCycles, *std::max_element(c.begin(), c.end()));
      }
    }
    out.groups.push_back(std::move(g));
  }
  for (std::int64_t& o : ownerOfProgram)
    if (o >= 0) o = positionOfContext.at(o);
  out.operationOfProgram = std::move(ownerOfProgram);
  return out;
}

} // namespace

OperationAnalysis::OperationAnalysis(const Report& report) {
  const auto s = Access::state(report);
  if (!s->hasDebug)
    s->badArgument("OperationAnalysis needs debug information: open the report with "
                   "openReport(profile, debug.cbor)");
  const detail::OperationGroups& groups = detail::analysisCache(*s).operationGroups.get([&] {
    detail::analysisCache(*s).operationGroups.value = groupOperations(s.get());
    detail::countDerivation(detail::Derivation::OperationGroups);
  });
  const auto& variables = s->getVariables();
  operations_.reserve(groups.groups.size());
  for (const auto& g : groups.groups) {
    std::vector<Variable> vars;
    vars.reserve(g.variables.size());
    for (const std::size_t v : g.variables)
      vars.push_back(Access::variable(s, variables[v]));
    operations_.push_back(
        Access::operation(s, s->debugContext(g.context), g.programs, std::move(vars),
                          g.first ? StepIndex(*g.first) : StepIndex(),
                          g.last ? StepIndex(*g.last) : StepIndex(), g.estimatedCycles));
  }
  operationOfProgram_ = groups.operationOfProgram;
}

} // namespace pva
