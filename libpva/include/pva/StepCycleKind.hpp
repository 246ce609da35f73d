// Which kind of cycles a step counts as: the one rule the report's per-tile cycle totals follow,
// for front ends that draw steps by kind beside those totals.
#pragma once

#include <pva/Execution.hpp>
#include <pva/Program.hpp>

namespace pva {

/// The kind of cycles a step of this program type is counted as in TileCycleTotals (the report's
/// per-tile totals), so that a front end drawing steps by kind and one adding up the totals agree:
/// OnTileExecute is Compute, DoExchange InternalExchange, GlobalExchange GlobalExchange,
/// StreamCopyMid and StreamCopyEnd StreamCopy, and Sync and StreamCopyBegin (the host and the
/// IPUs agreeing that a copy starts: a host sync) Sync. False, `kind` untouched, for program
/// types that are not steps (Sequence, Repeat, ...).
bool stepCycleKind(Program::Type type, TileCycleTotals::Kind& kind);

} // namespace pva
