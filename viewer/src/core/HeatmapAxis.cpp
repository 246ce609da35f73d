// Bin rows, bin labels and the colour scale of the Host trace heatmaps.
#include "core/HeatmapAxis.hpp"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace tessera::viewer {

HeatmapRows heatmapRows(const pva::TraceHeatmap& heatmap) {
  HeatmapRows rows;
  rows.total = int(heatmap.binEdges().size()) + 1;
  int lo = rows.total, hi = -1;
  for (const pva::HeatmapSample& s : heatmap.samples())
    for (int b = 0; b < int(s.bins.size()) && b < rows.total; ++b)
      if (s.bins[std::size_t(b)] != 0) lo = std::min(lo, b), hi = std::max(hi, b);
  if (hi < 0) lo = 0, hi = rows.total - 1;
  rows.first = lo;
  rows.count = hi - lo + 1;
  return rows;
}

std::uint32_t heatmapMaxCount(const pva::TraceHeatmap& heatmap) {
  std::uint32_t most = 0;
  for (const pva::HeatmapSample& s : heatmap.samples())
    for (std::uint32_t c : s.bins)
      most = std::max(most, c);
  return most;
}

namespace {

/// "⁻¹²" for -12: the exponent in superscript digits.
QString superscript(long long n) {
  static const QChar digits[] = {QChar(0x2070), QChar(0x00B9), QChar(0x00B2), QChar(0x00B3),
                                 QChar(0x2074), QChar(0x2075), QChar(0x2076), QChar(0x2077),
                                 QChar(0x2078), QChar(0x2079)};
  QString out;
  for (QChar c : QString::number(n))
    out += c == QLatin1Char('-') ? QChar(0x207B) : digits[c.digitValue()];
  return out;
}

} // namespace

QString heatmapEdgeLabel(double edge, const QString& unit) {
  if (unit == QLatin1String("2^x")) {
    if (std::isfinite(edge) && edge == std::round(edge) && std::fabs(edge) < 1e6)
      return QStringLiteral("2") + superscript((long long)edge);
    return QStringLiteral("2^") + QString::number(edge, 'g', 4);
  }
  const QString number = QString::number(edge, 'g', 6);
  return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

QString heatmapBinLabel(const std::vector<double>& edges, int bin, const QString& unit) {
  const int bins = int(edges.size()) + 1;
  if (edges.empty()) return QCoreApplication::translate("HeatmapAxis", "all values");
  if (bin <= 0) return QStringLiteral("< %1").arg(heatmapEdgeLabel(edges.front(), unit));
  if (bin >= bins - 1) return QStringLiteral("≥ %1").arg(heatmapEdgeLabel(edges.back(), unit));
  return QStringLiteral("[%1, %2)")
      .arg(heatmapEdgeLabel(edges[std::size_t(bin - 1)], unit),
           heatmapEdgeLabel(edges[std::size_t(bin)], unit));
}

QColor heatmapColor(double fraction) {
  const QColor lo(255, 237, 160), hi(189, 0, 38);
  const double f = 0.15 + 0.85 * std::clamp(fraction, 0.0, 1.0);
  return QColor::fromRgbF(float(lo.redF() + (hi.redF() - lo.redF()) * f),
                          float(lo.greenF() + (hi.greenF() - lo.greenF()) * f),
                          float(lo.blueF() + (hi.blueF() - lo.blueF()) * f));
}

} // namespace tessera::viewer
