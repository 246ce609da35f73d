// How a Host trace heatmap is read: which of its bins get a row, what each bin's value range is
// called on the bin axis, and the colour of a count on its colour scale. Pure presentation of
// what pva::TraceHeatmap holds (its bin edges and counts); tested without widgets.
//
// Rows: from the lowest to the highest bin that any sample puts a value in. Bins outside that
// span are empty for the whole trace and would only push the data into a few pixels (a heatmap
// with 34 bins and values in 4 of them drew 4 thin stripes); the bins between stay, empty or not,
// so the axis remains a contiguous value range. The lane says how many bins there are in all.
#pragma once

#include <QColor>
#include <QString>
#include <cstdint>
#include <pva/Trace.hpp>
#include <vector>

namespace tessera::viewer {

/// The bins a heatmap lane shows: [first, first + count).
struct HeatmapRows {
  int first = 0, count = 0;
  int total = 0; ///< binEdges().size() + 1
  bool all() const { return count == total; }
};

/// The span of bins any sample uses; every bin when no sample holds a value.
HeatmapRows heatmapRows(const pva::TraceHeatmap& heatmap);

/// The largest count of any bin of any sample: the top of the colour scale (0 when empty).
std::uint32_t heatmapMaxCount(const pva::TraceHeatmap& heatmap);

/// An edge as the axis names it. With the unit "2^x" the edges are exponents and read as powers
/// of two ("2⁻³", "2⁰", "2¹⁰"; "2^0.5" for a fractional one); otherwise "0.25 ms" (the unit as
/// given).
QString heatmapEdgeLabel(double edge, const QString& unit);

/// The values bin `bin` counts: "< a" (below the first edge), "[a, b)", "≥ z" (at or above the
/// last), "all values" for a heatmap without edges.
QString heatmapBinLabel(const std::vector<double>& edges, int bin, const QString& unit);

/// The colour of a count on the scale 1..maxCount (0 is not drawn): pale yellow (few) to deep
/// red (many), readable on light and dark themes. `fraction` is count / maxCount.
QColor heatmapColor(double fraction);

} // namespace tessera::viewer
