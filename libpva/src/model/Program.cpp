// Programs: the cached objects behind ProgramPtr, and visitor dispatch.
#include "Access.hpp"

#include <profiler/Schema.hpp>

namespace pva {

namespace S = tessera::profiler::schema;
using detail::ReportState;

Program::~Program() = default;
ProgramVisitor::~ProgramVisitor() = default;

const std::string& Program::typeName(Type t) {
  static const std::vector<std::string> names(S::kProgramTypeNames.begin(),
                                              S::kProgramTypeNames.end());
  return names.at(static_cast<std::size_t>(t));
}

const std::string& Program::streamCopyDestinationName(StreamCopyDestination d) {
  static const std::string names[] = {"none", "host", "remoteBuffer", "mixed", "unknown"};
  return names[static_cast<std::size_t>(d)];
}

bool Program::isStep() const {
  switch (type_) {
  case Type::OnTileExecute:
  case Type::DoExchange:
  case Type::GlobalExchange:
  case Type::StreamCopyBegin:
  case Type::StreamCopyMid:
  case Type::StreamCopyEnd:
  case Type::Sync:
    return true;
  default:
    return false;
  }
}

std::vector<ProgramPtr> Program::children() const {
  ReportState& s = ReportState::of(s_);
  std::vector<ProgramPtr> out;
  for (auto c : s.getPrograms().children[id_])
    out.push_back(s.program(c));
  return out;
}

std::vector<std::uint64_t> Program::controlCodeByTile() const {
  ReportState& s = ReportState::of(s_);
  return s.perTile(s.store.programBlob(id_, storage::ReportStore::ProgramBlob::ControlCode),
                   "a program's control code");
}

std::vector<std::uint64_t> Program::codeBytesByTile() const {
  ReportState& s = ReportState::of(s_);
  return s.perTile(s.store.programBlob(id_, storage::ReportStore::ProgramBlob::ExchangeCode),
                   "a program's exchange code");
}

std::vector<std::uint64_t> Program::estimatedCyclesByTile() const {
  ReportState& s = ReportState::of(s_);
  return s.perTile(s.store.programBlob(id_, storage::ReportStore::ProgramBlob::EstimatedCycles),
                   "a program's estimated cycles");
}

std::vector<ProgramVariable> Program::vars() const {
  ReportState& s = ReportState::of(s_);
  const auto& vars = s.getVariables();
  std::vector<ProgramVariable> out;
  for (const auto& row : s.store.programVariables(id_)) {
    if (row.variable >= vars.size())
      s.store.corrupt("corrupted report (program " + std::to_string(id_) + " uses variable " +
                      std::to_string(row.variable) + ")");
    out.push_back(detail::Access::programVariable(vars[row.variable], row.access));
  }
  return out;
}

std::shared_ptr<const DebugContext> Program::debugContext() const {
  return ReportState::of(s_).debugContext(debug_);
}

ComputeSet OnTileExecuteProgram::computeset() const {
  ReportState& s = ReportState::of(detail::Access::stateOf(*this));
  const auto& sets = s.getComputeSets();
  const std::int64_t id = computeSetId();
  if (id < 0 || std::uint64_t(id) >= sets.size())
    s.store.corrupt("corrupted report (program " + std::to_string(_id()) + " runs compute set " +
                    std::to_string(id) + ")");
  return detail::Access::computeSet(s.self(), sets[std::size_t(id)]);
}

ComputeSet OnTileExecuteProgram::computeSet() const {
  return computeset();
}

#define PVA_ACCEPT(TYPE)                                                                           \
  void TYPE##Program::accept(ProgramVisitor& v) const {                                            \
    v.visit##TYPE(*this);                                                                          \
  }
PVA_ACCEPT(Sequence)
PVA_ACCEPT(Repeat)
PVA_ACCEPT(RepeatWhileTrue)
PVA_ACCEPT(RepeatWhileFalse)
PVA_ACCEPT(If)
PVA_ACCEPT(Switch)
PVA_ACCEPT(Call)
PVA_ACCEPT(OnEveryTileSwitch)
PVA_ACCEPT(OnTileExecute)
PVA_ACCEPT(DoExchange)
PVA_ACCEPT(GlobalExchange)
PVA_ACCEPT(StreamCopyBegin)
PVA_ACCEPT(StreamCopyMid)
PVA_ACCEPT(StreamCopyEnd)
PVA_ACCEPT(Sync)
PVA_ACCEPT(WriteUndef)
PVA_ACCEPT(Block)
PVA_ACCEPT(Abort)
#undef PVA_ACCEPT

namespace detail {

std::unique_ptr<Program> Access::program(ReportState* s, const storage::ProgramRow& row) {
  using T = Program::Type;
  std::unique_ptr<Program> p;
  switch (static_cast<T>(row.type)) {
  case T::Sequence:
    p = std::make_unique<SequenceProgram>();
    break;
  case T::Repeat:
    p = std::make_unique<RepeatProgram>();
    break;
  case T::RepeatWhileTrue:
    p = std::make_unique<RepeatWhileTrueProgram>();
    break;
  case T::RepeatWhileFalse:
    p = std::make_unique<RepeatWhileFalseProgram>();
    break;
  case T::If:
    p = std::make_unique<IfProgram>();
    break;
  case T::Switch:
    p = std::make_unique<SwitchProgram>();
    break;
  case T::Call:
    p = std::make_unique<CallProgram>();
    break;
  case T::OnEveryTileSwitch:
    p = std::make_unique<OnEveryTileSwitchProgram>();
    break;
  case T::OnTileExecute:
    p = std::make_unique<OnTileExecuteProgram>();
    break;
  case T::DoExchange:
    p = std::make_unique<DoExchangeProgram>();
    break;
  case T::GlobalExchange:
    p = std::make_unique<GlobalExchangeProgram>();
    break;
  case T::StreamCopyBegin:
    p = std::make_unique<StreamCopyBeginProgram>();
    break;
  case T::StreamCopyMid:
    p = std::make_unique<StreamCopyMidProgram>();
    break;
  case T::StreamCopyEnd:
    p = std::make_unique<StreamCopyEndProgram>();
    break;
  case T::Sync:
    p = std::make_unique<SyncProgram>();
    break;
  case T::WriteUndef:
    p = std::make_unique<WriteUndefProgram>();
    break;
  case T::Block:
    p = std::make_unique<BlockProgram>();
    break;
  case T::Abort:
    p = std::make_unique<AbortProgram>();
    break;
  }
  p->s_ = s;
  p->id_ = row.id;
  p->dataBytes_ = row.dataBytes;
  p->debug_ = row.debug;
  p->computeSet_ = row.computeSet;
  p->repeatCount_ = row.repeatCount;
  p->type_ = static_cast<T>(row.type);
  p->name_ = row.name;
  p->syncType_ = row.syncType;
  if (p->type_ == T::StreamCopyBegin || p->type_ == T::StreamCopyMid ||
      p->type_ == T::StreamCopyEnd) {
    using D = Program::StreamCopyDestination;
    switch (row.streamDestination) {
    case 0:
      p->streamCopyDestination_ = D::Host;
      break;
    case 1:
      p->streamCopyDestination_ = D::RemoteBuffer;
      break;
    case 2:
      p->streamCopyDestination_ = D::Mixed;
      break;
    default:
      p->streamCopyDestination_ = D::Unknown;
      break; // a report before 1.3.0
    }
  }
  if (p->type_ == T::OnTileExecute && row.computeSet < 0)
    s->store.corrupt("corrupted report (OnTileExecute program " + std::to_string(row.id) +
                     " has no compute set)");
  return p;
}

} // namespace detail
} // namespace pva
