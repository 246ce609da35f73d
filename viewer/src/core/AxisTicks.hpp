// Where the ticks of a chart axis go and how they read: round steps (1, 2 or 5 times a power of
// ten) and, for a bytes axis, one unit for the whole axis chosen from its largest value, so that
// "1.5 MiB, 1.0 MiB, 0.5 MiB, 0 MiB" reads as one scale (never "1.46 MiB, 1000 KiB, 500 KiB").
// Presentation only: the values come from the chart's data, the ticks only place them.
//
// Pure functions, GUI-free, tested without widgets.
#pragma once

#include "core/Format.hpp"

#include <QString>
#include <QStringList>
#include <vector>

namespace tessera::viewer {

struct AxisTicks {
  std::vector<double> values; ///< ascending, inside [lo, hi]
  QStringList labels;         ///< one per value, each in `unit`
  QString unit;               ///< "MiB", "kB", "B"; empty for a plain number axis
  double step = 1;            ///< distance between ticks, in axis values
};

/// Ticks of a bytes axis over [lo, hi] (lo may be negative: a difference), at least `minTicks`
/// of them when the range allows and about `targetTicks`. Every label is in the unit that suits
/// max(|lo|, |hi|) in `units` (Bytes: "B" with thousands separators).
AxisTicks bytesAxisTicks(double lo, double hi, int targetTicks, MemoryUnits units,
                         int minTicks = 4);

/// Ticks of an index axis (tiles, steps) over [lo, hi): whole numbers at round steps, at least
/// `minTicks` of them when the range holds that many items.
AxisTicks indexAxisTicks(double lo, double hi, int targetTicks, int minTicks = 4);

/// The unit a bytes axis reaching `maxAbs` uses, and its size in bytes ("MiB", 1048576).
std::pair<QString, double> bytesAxisUnit(double maxAbs, MemoryUnits units);

} // namespace tessera::viewer
