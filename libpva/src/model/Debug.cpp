// Debug information: debug contexts from debug.cbor, and operations grouped by them.
#include "Access.hpp"
#include "Saturating.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

namespace pva {

using detail::Access;
using detail::ReportState;

namespace {
/// debug.cbor's text comes from whoever wrote the file: bytes that are not UTF-8 become U+FFFD
/// instead of nlohmann's type_error (which escaped to clients as a non-pva exception).
std::string dumpJson(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
} // namespace

std::string DebugContext::json() const {
  nlohmann::json j{{"id", id_},
                   {"name", name_},
                   {"path", path_},
                   {"layer", layer_},
                   {"opType", opType_},
                   {"location",
                    {{"fileName", location_.fileName()},
                     {"functionName", location_.functionName()},
                     {"lineNumber", location_.lineNumber()}}}};
  return dumpJson(j);
}

std::string DebugContext::layer() const {
  return dumpJson(nlohmann::json{{"layer", layer_}});
}

std::vector<std::shared_ptr<const DebugContext>> DebugContext::parents() const {
  std::vector<std::shared_ptr<const DebugContext>> out;
  ReportState& s = ReportState::of(s_);
  for (std::int64_t p = parent_; p >= 0;) {
    auto ctx = s.debugContext(p);
    if (!ctx) break;
    p = ctx->parent_;
    out.push_back(std::move(ctx));
  }
  return out;
}

std::uint64_t StepIndex::value() const {
  if (!has_)
    throw InvalidArgumentError("no step index: the operation runs no step of the schedule");
  return index_;
}

std::vector<ProgramPtr> Operation::programs() const {
  std::vector<ProgramPtr> out;
  for (auto id : programs_)
    out.push_back(s_->program(id));
  return out;
}

bool Operation::hasFlopEstimates() const {
  return s_->store.hasFlopEstimates();
}

std::uint64_t Operation::variableBytes() const {
  std::uint64_t b = 0;
  for (const auto& v : vars_)
    detail::addTo(b, v.bytes());
  return b;
}

OperationAnalysis::OperationAnalysis(const Report& report) {
  const auto s = Access::state(report);
  if (!s->hasDebug)
    s->badArgument("OperationAnalysis needs debug information: open the report with "
                   "openReport(profile, debug.cbor)");
  const auto& contexts = s->getDebugContexts();
  // The operation a context belongs to: its nearest enclosing context made by an op, or itself.
  auto owner = [&](std::int64_t id) -> std::int64_t {
    if (id < 0 || std::uint64_t(id) >= contexts.size()) return -1;
    for (std::int64_t c = id; c >= 0; c = Access::parentOf(*contexts[std::size_t(c)]))
      if (!contexts[std::size_t(c)]->opType().empty()) return c;
    return id;
  };
  struct Group {
    std::vector<std::uint64_t> programs;
    std::vector<Variable> vars;
  };
  std::map<std::int64_t, Group> groups;
  const auto& programs = s->getPrograms().objects;
  std::vector<std::int64_t> ownerOfProgram(programs.size(), -1); // context ids, then positions
  for (const auto& p : programs) {
    const std::int64_t o = owner(Access::debugOf(*p));
    if (o < 0) continue;
    groups[o].programs.push_back(p->_id());
    if (p->_id() < ownerOfProgram.size()) ownerOfProgram[std::size_t(p->_id())] = o;
  }
  for (const auto& row : s->getVariables()) {
    const std::int64_t o = owner(row.debug);
    if (o >= 0) groups[o].vars.push_back(Access::variable(s, row));
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
  std::map<std::int64_t, std::int64_t> positionOfContext;
  for (auto& [id, g] : groups) {
    positionOfContext[id] = std::int64_t(operations_.size());
    std::optional<std::uint64_t> first, last; // none until a program is found in the schedule
    std::uint64_t cycles = 0;
    for (auto p : g.programs) {
      if (p < programs.size())
        if (const Span& span = spanOf(p)) {
          first = first ? std::min(*first, span->first) : span->first;
          last = last ? std::max(*last, span->second) : span->second;
        }
      if (programs[p]->isStep()) {
        const auto c = programs[p]->estimatedCyclesByTile();
        if (!c.empty()) detail::addTo(cycles, *std::max_element(c.begin(), c.end()));
      }
    }
    auto ctx = s->debugContext(id);
    operations_.push_back(Access::operation(s, ctx, std::move(g.programs), std::move(g.vars),
                                            first ? StepIndex(*first) : StepIndex(),
                                            last ? StepIndex(*last) : StepIndex(), cycles));
  }
  for (std::int64_t& o : ownerOfProgram)
    if (o >= 0) o = positionOfContext.at(o);
  operationOfProgram_ = std::move(ownerOfProgram);
}

namespace detail {

std::unique_ptr<DebugContext> Access::debugContext(const ReportState* s,
                                                   const storage::DebugContextRow& row) {
  auto c = std::make_unique<DebugContext>();
  c->s_ = s;
  c->id_ = row.id;
  c->parent_ = row.parent;
  c->name_ = row.name;
  c->path_ = row.path;
  c->layer_ = row.layer;
  c->opType_ = row.opType;
  c->location_.file_ = row.file;
  c->location_.function_ = row.function;
  c->location_.line_ = row.line;
  return c;
}

Operation Access::operation(const std::shared_ptr<ReportState>& s,
                            std::shared_ptr<const DebugContext> context,
                            std::vector<std::uint64_t> programs, std::vector<Variable> vars,
                            StepIndex first, StepIndex last, std::uint64_t cycles) {
  Operation o;
  o.s_ = s;
  o.name_ = context->path().empty() ? context->name() : context->path();
  o.context_ = std::move(context);
  o.programs_ = std::move(programs);
  o.vars_ = std::move(vars);
  o.first_ = first;
  o.last_ = last;
  o.cycles_ = cycles;
  return o;
}

} // namespace detail
} // namespace pva
