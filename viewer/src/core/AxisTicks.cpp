// Round tick steps, and one unit per bytes axis.
#include "core/AxisTicks.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::viewer {

namespace {

/// The round steps next to `x`: 1, 2 or 5 times a power of ten.
double niceAtLeast(double x) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(x)));
  const double f = x / magnitude;
  return (f <= 1 + 1e-9 ? 1 : f <= 2 + 1e-9 ? 2 : f <= 5 + 1e-9 ? 5 : 10) * magnitude;
}

/// The next round step below `step` (itself round): 5 -> 2 -> 1 -> 0.5.
double niceBelow(double step) {
  const double magnitude = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  const double f = step / magnitude;
  return (f > 5 - 1e-9 ? 2 : f > 2 - 1e-9 ? 1 : 0.5) * magnitude;
}

long long tickCount(double lo, double hi, double step) {
  return (long long)(std::floor(hi / step + 1e-9) - std::ceil(lo / step - 1e-9)) + 1;
}

/// A step of about (hi - lo) / target, made smaller (never below `minStep`) until at least
/// `minTicks` ticks fit.
double chooseStep(double lo, double hi, int targetTicks, int minTicks, double minStep) {
  const double range = std::max(hi - lo, minStep);
  double step = std::max(minStep, niceAtLeast(range / std::max(1, targetTicks)));
  while (tickCount(lo, hi, step) < minTicks) {
    const double smaller = niceBelow(step);
    if (smaller < minStep - 1e-12) break;
    step = smaller;
  }
  return step;
}

std::vector<double> tickValues(double lo, double hi, double step) {
  std::vector<double> out;
  const double first = std::ceil(lo / step - 1e-9);
  for (long long i = 0;; ++i) {
    const double v = (first + double(i)) * step;
    if (v > hi + step * 1e-9 || i > 10000) break;
    out.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v); // no "-0"
  }
  return out;
}

} // namespace

std::pair<QString, double> bytesAxisUnit(double maxAbs, MemoryUnits units) {
  if (units == MemoryUnits::Bytes) return {QStringLiteral("B"), 1.0};
  static const char* const binary[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  static const char* const decimal[] = {"B", "kB", "MB", "GB", "TB"};
  const double base = units == MemoryUnits::Binary ? 1024.0 : 1000.0;
  int k = 0;
  double size = 1;
  while (k < 4 && size * base <= maxAbs) {
    size *= base;
    ++k;
  }
  return {QString::fromLatin1(units == MemoryUnits::Binary ? binary[k] : decimal[k]), size};
}

AxisTicks bytesAxisTicks(double lo, double hi, int targetTicks, MemoryUnits units, int minTicks) {
  if (!(hi > lo)) hi = lo + 1;
  AxisTicks t;
  const auto [unit, size] = bytesAxisUnit(std::max(std::abs(lo), std::abs(hi)), units);
  t.unit = unit;
  // Steps are round in the axis unit (0.5 MiB, not 524,288 B), and never below a byte.
  const double inUnitStep = chooseStep(lo / size, hi / size, targetTicks, minTicks, 1.0 / size);
  t.step = inUnitStep * size;
  const int decimals = size == 1 ? 0 : std::max(0, int(std::ceil(-std::log10(inUnitStep) - 1e-9)));
  for (double v : tickValues(lo / size, hi / size, inUnitStep)) {
    t.values.push_back(v * size);
    QString number;
    if (size == 1) {
      const double rounded = std::round(std::abs(v));
      number = (v < 0 ? QStringLiteral("-") : QString()) + formatCount(std::uint64_t(rounded));
    } else {
      number = QString::number(v, 'f', decimals);
    }
    t.labels << number + QLatin1Char(' ') + unit;
  }
  return t;
}

AxisTicks indexAxisTicks(double lo, double hi, int targetTicks, int minTicks) {
  AxisTicks t;
  if (!(hi > lo)) hi = lo + 1;
  t.step =
      chooseStep(lo, hi - 1e-6, targetTicks, minTicks, 1.0); // the item at hi is not on the axis
  for (double v : tickValues(lo, hi, t.step)) {
    if (v >= hi) continue; // [lo, hi): the item at hi is not on the axis
    t.values.push_back(v);
    t.labels << QString::number((long long)std::llround(v));
  }
  return t;
}

} // namespace tessera::viewer
