// A value axis for the Host trace's line graphs: "nice" ticks (1, 2 or 5 times a power of ten)
// that cover the data's range, every label in the same notation and the series' one unit.
// Pure presentation (tick positions and text), tested without widgets.
#pragma once

#include <QString>
#include <vector>

namespace tessera::viewer {

struct ValueTicks {
  double step = 1;
  std::vector<double> values; ///< ascending; values.front() <= min, values.back() >= max
  int decimals = 0;           ///< digits after the point that `step` needs
  bool scientific = false;    ///< magnitudes too large or small for plain digits
  double lo() const { return values.front(); }
  double hi() const { return values.back(); }
};

/// Ticks from below `min` to above `max` (an empty range is widened around its value), at most
/// `maxTicks` of them and at least 3 whenever maxTicks >= 3.
ValueTicks niceValueTicks(double min, double max, int maxTicks);

/// One tick's label: "150 MB", "0.25 s", "1.5e+09 B"; the unit is the series' own, as given.
QString formatTick(double value, const ValueTicks& ticks, const QString& unit);

} // namespace tessera::viewer
