// pva::stepCycleKind: which TileCycleTotals kind a step's cycles count as. The engine's recorder
// writes the per-tile totals with the same rule; a timeline colouring steps with it draws what
// the totals add up.
#include <pva/StepCycleKind.hpp>

namespace pva {

bool stepCycleKind(Program::Type type, TileCycleTotals::Kind& kind) {
  using T = Program::Type;
  using K = TileCycleTotals::Kind;
  switch (type) {
  case T::OnTileExecute:
    kind = K::Compute;
    return true;
  case T::DoExchange:
    kind = K::InternalExchange;
    return true;
  case T::GlobalExchange:
    kind = K::GlobalExchange;
    return true;
  case T::StreamCopyMid:
  case T::StreamCopyEnd:
    kind = K::StreamCopy;
    return true;
  // The start of a stream copy waits for the host: its cycles are a host sync's.
  case T::StreamCopyBegin:
  case T::Sync:
    kind = K::Sync;
    return true;
  default:
    return false;
  }
}

} // namespace pva
