// libpva's public enums mirror the enums profile.pop stores as text (profiler/SchemaEnums.hpp):
// the same values in the same order, some with an extra Unknown at the end for a name this
// build cannot parse. This file checks the mirrors value by value at compile time, and gives
// the public name functions, which return the stored spelling from the schema (never a copy).
#include "Access.hpp"

#include <profiler/SchemaEnums.hpp>
#include <string>
#include <vector>

namespace pva {

namespace S = tessera::profiler::schema;

namespace {

/// Checks that a public enumerator has the value of the stored one (one call per enumerator).
template <class Public, class Stored> constexpr bool same(Public p, Stored s) {
  return static_cast<int>(p) == static_cast<int>(s);
}

using T = Target::Type;
static_assert(same(T::Ipu, S::TargetType::IPU), "Target::Type::Ipu");
static_assert(same(T::IpuModel, S::TargetType::IPU_MODEL), "Target::Type::IpuModel");
static_assert(same(T::Cpu, S::TargetType::CPU), "Target::Type::Cpu");
static_assert(std::size_t(T::Unknown) == S::enumSize<S::TargetType>(),
              "Target::Type::Unknown follows the stored values");

using A = Target::Architecture;
static_assert(same(A::Ipu1, S::Architecture::ipu1), "Target::Architecture::Ipu1");
static_assert(same(A::Ipu2, S::Architecture::ipu2), "Target::Architecture::Ipu2");
static_assert(same(A::Ipu21, S::Architecture::ipu21), "Target::Architecture::Ipu21");
static_assert(std::size_t(A::Unknown) == S::enumSize<S::Architecture>(),
              "Target::Architecture::Unknown follows the stored values");

using V = ProgramVariable::Access;
static_assert(same(V::Read, S::VariableAccess::read), "ProgramVariable::Access::Read");
static_assert(same(V::Write, S::VariableAccess::write), "ProgramVariable::Access::Write");
static_assert(same(V::ReadWrite, S::VariableAccess::readWrite),
              "ProgramVariable::Access::ReadWrite");
static_assert(S::enumSize<S::VariableAccess>() == 3,
              "ProgramVariable::Access lists every stored access");

using K = TileCycleTotals::Kind;
static_assert(same(K::Compute, S::CycleKind::compute), "TileCycleTotals::Kind::Compute");
static_assert(same(K::InternalExchange, S::CycleKind::internalExchange),
              "TileCycleTotals::Kind::InternalExchange");
static_assert(same(K::GlobalExchange, S::CycleKind::globalExchange),
              "TileCycleTotals::Kind::GlobalExchange");
static_assert(same(K::StreamCopy, S::CycleKind::streamCopy), "TileCycleTotals::Kind::StreamCopy");
static_assert(same(K::Sync, S::CycleKind::sync), "TileCycleTotals::Kind::Sync");
static_assert(TileCycleTotals::numKinds == S::enumSize<S::CycleKind>(),
              "TileCycleTotals lists every cycle kind");

using C = InstrumentationSettings::ComputeInstrumentationLevel;
static_assert(same(C::Off, S::ComputeInstrumentation::Off), "ComputeInstrumentationLevel::Off");
static_assert(same(C::Vertex, S::ComputeInstrumentation::Vertex),
              "ComputeInstrumentationLevel::Vertex");
static_assert(same(C::Tile, S::ComputeInstrumentation::Tile), "ComputeInstrumentationLevel::Tile");
static_assert(same(C::Ipu, S::ComputeInstrumentation::Ipu), "ComputeInstrumentationLevel::Ipu");
static_assert(same(C::Device, S::ComputeInstrumentation::Device),
              "ComputeInstrumentationLevel::Device");
static_assert(std::size_t(C::Unknown) == S::enumSize<S::ComputeInstrumentation>(),
              "ComputeInstrumentationLevel::Unknown follows");

using E = InstrumentationSettings::ExternalExchangeInstrumentationLevel;
static_assert(same(E::Off, S::ExternalExchangeInstrumentation::Off),
              "ExternalExchangeInstrumentationLevel::Off");
static_assert(same(E::Tile, S::ExternalExchangeInstrumentation::Tile),
              "ExternalExchangeInstrumentationLevel::Tile");
static_assert(std::size_t(E::Unknown) == S::enumSize<S::ExternalExchangeInstrumentation>(),
              "ExternalExchangeInstrumentationLevel::Unknown follows");

using P = Program::Type;
static_assert(same(P::Sequence, S::ProgramType::Sequence), "Program::Type::Sequence");
static_assert(same(P::Repeat, S::ProgramType::Repeat), "Program::Type::Repeat");
static_assert(same(P::RepeatWhileTrue, S::ProgramType::RepeatWhileTrue),
              "Program::Type::RepeatWhileTrue");
static_assert(same(P::RepeatWhileFalse, S::ProgramType::RepeatWhileFalse),
              "Program::Type::RepeatWhileFalse");
static_assert(same(P::If, S::ProgramType::If), "Program::Type::If");
static_assert(same(P::Switch, S::ProgramType::Switch), "Program::Type::Switch");
static_assert(same(P::Call, S::ProgramType::Call), "Program::Type::Call");
static_assert(same(P::OnEveryTileSwitch, S::ProgramType::OnEveryTileSwitch),
              "Program::Type::OnEveryTileSwitch");
static_assert(same(P::OnTileExecute, S::ProgramType::OnTileExecute),
              "Program::Type::OnTileExecute");
static_assert(same(P::DoExchange, S::ProgramType::DoExchange), "Program::Type::DoExchange");
static_assert(same(P::GlobalExchange, S::ProgramType::GlobalExchange),
              "Program::Type::GlobalExchange");
static_assert(same(P::StreamCopyBegin, S::ProgramType::StreamCopyBegin),
              "Program::Type::StreamCopyBegin");
static_assert(same(P::StreamCopyMid, S::ProgramType::StreamCopyMid),
              "Program::Type::StreamCopyMid");
static_assert(same(P::StreamCopyEnd, S::ProgramType::StreamCopyEnd),
              "Program::Type::StreamCopyEnd");
static_assert(same(P::Sync, S::ProgramType::Sync), "Program::Type::Sync");
static_assert(same(P::WriteUndef, S::ProgramType::WriteUndef), "Program::Type::WriteUndef");
static_assert(same(P::Block, S::ProgramType::Block), "Program::Type::Block");
static_assert(same(P::Abort, S::ProgramType::Abort), "Program::Type::Abort");
static_assert(Program::numTypes == S::enumSize<S::ProgramType>(),
              "Program::Type lists every program type");

// MemoryCategories has no enum: its accessors index c_ by the stored category's position, in
// the order of S::MemoryCategory (variable() is c_[0], ..., instrumentationResults() c_[14]).
static_assert(MemoryCategories::size() == S::enumSize<S::MemoryCategory>(),
              "MemoryCategories lists every category");

/// The stored names of E as std::string, then "unknown" for the public enum's Unknown.
template <class Stored> std::vector<std::string> namesWithUnknown() {
  std::vector<std::string> out(S::EnumNames<Stored>::names.begin(),
                               S::EnumNames<Stored>::names.end());
  out.emplace_back("unknown");
  return out;
}

template <class Stored, class Public>
const std::string& nameIn(const std::vector<std::string>& names, Public v) {
  const auto i = static_cast<std::size_t>(v);
  return i < names.size() ? names[i] : names.back();
}

} // namespace

const std::string& Target::typeName(Type t) {
  static const auto names = namesWithUnknown<S::TargetType>();
  return nameIn<S::TargetType>(names, t);
}

const std::string& Target::architectureName(Architecture a) {
  static const auto names = namesWithUnknown<S::Architecture>();
  return nameIn<S::Architecture>(names, a);
}

const std::string& ProgramVariable::accessName(Access a) {
  static const auto names = namesWithUnknown<S::VariableAccess>();
  return nameIn<S::VariableAccess>(names, a);
}

const std::string& TileCycleTotals::kindName(Kind k) {
  static const auto names = namesWithUnknown<S::CycleKind>();
  return nameIn<S::CycleKind>(names, k);
}

const std::string& InstrumentationSettings::computeName(ComputeInstrumentationLevel l) {
  static const auto names = namesWithUnknown<S::ComputeInstrumentation>();
  return nameIn<S::ComputeInstrumentation>(names, l);
}

const std::string&
InstrumentationSettings::externalExchangeName(ExternalExchangeInstrumentationLevel l) {
  static const auto names = namesWithUnknown<S::ExternalExchangeInstrumentation>();
  return nameIn<S::ExternalExchangeInstrumentation>(names, l);
}

} // namespace pva
