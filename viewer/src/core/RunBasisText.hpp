// How the viewer writes a change of a figure summed over all runs: libpva's pva::RunBasis decides
// how the two reports compare (their totals, or per run when they ran different numbers of runs);
// these helpers only put that into words, the same in every view (Compare, Summary, Operations,
// Program tree).
#pragma once

#include <QString>
#include <cstdint>
#include <pva/Compare.hpp>

namespace tessera::viewer {

/// basis.delta(v) rounded to a whole count, for display, colour and sorting.
std::int64_t roundedDelta(const pva::RunBasis& basis, const pva::ComparedValue& v);
/// " per run" when the basis is per run, else "".
QString perRunSuffix(const pva::RunBasis& basis);
/// For a tooltip: "Compared per run (10 vs 2 runs): base 132,416, current 162,432 per run
/// (+22.7 %)"; "" when the basis is all runs.
QString perRunTip(const pva::RunBasis& basis, const pva::ComparedValue& v);

} // namespace tessera::viewer
