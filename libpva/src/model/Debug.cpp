// Debug information: debug contexts from debug.cbor and the operations they name (grouped in
// analysis/OperationGroups.cpp).
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
