// Nice ticks for the Host trace's line graphs.
#include "core/ValueAxis.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::viewer {

namespace {

/// The smallest 1-2-5 step at least `raw`.
double niceStep(double raw) {
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw * (1 - 1e-9)) return m * p;
  return 10 * p;
}

} // namespace

ValueTicks niceValueTicks(double min, double max, int maxTicks) {
  ValueTicks t;
  if (!std::isfinite(min) || !std::isfinite(max)) min = max = 0;
  if (min > max) std::swap(min, max);
  if (max == min) {
    // One value: a range around it (around 0: 0..1).
    const double pad = min == 0 ? 1 : std::fabs(min) * 0.5;
    max = min == 0 ? 1 : max + pad;
    min = min == 0 ? 0 : min - pad;
  }
  maxTicks = std::max(maxTicks, 2);
  // Grow the step until the ticks that cover [min, max] fit in maxTicks; then, when fewer than
  // 3 came out, take the next smaller 1-2-5 step (3 labels read as an axis, 2 as min and max).
  double step = niceStep((max - min) / (maxTicks - 1));
  auto count = [&](double s) {
    return int(std::llround(std::ceil(max / s - 1e-9) - std::floor(min / s + 1e-9))) + 1;
  };
  while (count(step) > maxTicks)
    step = niceStep(step * 1.01);
  if (maxTicks >= 3) {
    while (count(step) < 3) {
      const double smaller = niceStep(step / 2.6); // 10 -> 5 -> 2 -> 1
      if (smaller >= step || count(smaller) > maxTicks) break;
      step = smaller;
    }
  }
  t.step = step;
  const double first = std::floor(min / step + 1e-9) * step,
               last = std::ceil(max / step - 1e-9) * step;
  for (int i = 0; first + i * step <= last + step * 1e-6; ++i) {
    const double v = first + i * step;
    t.values.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v); // no "-0"
  }
  const double magnitude = std::max(std::fabs(t.values.front()), std::fabs(t.values.back()));
  t.scientific = magnitude >= 1e7 || step < 1e-4;
  t.decimals = std::max(0, int(-std::floor(std::log10(step) + 1e-9)));
  return t;
}

QString formatTick(double value, const ValueTicks& ticks, const QString& unit) {
  QString number;
  if (ticks.scientific) {
    // Enough significant digits to tell neighbouring ticks apart.
    const double magnitude =
        std::max(std::fabs(ticks.values.front()), std::fabs(ticks.values.back()));
    const int digits = std::clamp(int(std::ceil(std::log10(magnitude / ticks.step))), 1, 8);
    number = QString::number(value, 'e', digits);
  } else {
    number = QString::number(value, 'f', ticks.decimals);
  }
  return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

} // namespace tessera::viewer
