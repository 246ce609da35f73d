#include "core/RunBasisText.hpp"

#include "core/Format.hpp"

#include <cmath>
#include <limits>

namespace tessera::viewer {

std::int64_t roundedDelta(const pva::RunBasis& basis, const pva::ComparedValue& v) {
  if (!basis.perRun()) return v.delta(); // exact, saturated
  const double d = std::round(basis.delta(v));
  // Per-run means of 64-bit totals stay far inside int64, but a damaged report must not overflow.
  if (d >= 9.2e18) return std::numeric_limits<std::int64_t>::max();
  if (d <= -9.2e18) return std::numeric_limits<std::int64_t>::min();
  return std::int64_t(d);
}

QString perRunSuffix(const pva::RunBasis& basis) {
  return basis.perRun() ? QStringLiteral(" per run") : QString();
}

QString perRunTip(const pva::RunBasis& basis, const pva::ComparedValue& v) {
  if (!basis.perRun()) return {};
  const double rel = basis.relative(v);
  const QString change =
      std::isfinite(rel) ? QStringLiteral(" (%1%2)").arg(rel > 0 ? QStringLiteral("+") : QString(),
                                                         formatPercent(rel))
                         : QString();
  return QStringLiteral("Compared per run (%1 vs %2 runs): base %3, current %4 per run%5")
      .arg(basis.baseRuns)
      .arg(basis.currentRuns)
      .arg(formatCount(std::uint64_t(std::llround(basis.base(v)))),
           formatCount(std::uint64_t(std::llround(basis.current(v)))), change);
}

} // namespace tessera::viewer
