// Number formatting shared by every page.
#include "core/Format.hpp"

#include "core/Settings.hpp"

#include <cmath>

namespace tessera::viewer {

namespace {

QString scaled(double value, double step, const char* const* suffixes, int count) {
  int i = 0;
  while (i + 1 < count && std::fabs(value) >= step) {
    value /= step;
    ++i;
  }
  // Three significant digits: 1.23, 12.3, 123.
  const double a = std::fabs(value);
  const int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
  return QString::number(value, 'f', decimals) + QLatin1Char(' ') +
         QString::fromUtf8(suffixes[i]); // "µs" is UTF-8
}

} // namespace

QString formatCount(std::uint64_t n) {
  QString digits = QString::number(n);
  if (!Settings::thousandsSeparators()) return digits;
  for (int i = digits.size() - 3; i > 0; i -= 3)
    digits.insert(i, QLatin1Char(','));
  return digits;
}

QString formatCycles(std::uint64_t cycles, double clockHz) {
  if (Settings::cycleUnits() == Settings::CycleUnits::Time && clockHz > 0)
    return formatDurationNs(static_cast<double>(cycles) / clockHz * 1e9);
  return formatCount(cycles);
}

QString formatFlops(const std::optional<std::uint64_t>& flops,
                    std::uint64_t verticesWithoutEstimate) {
  if (!flops) return QStringLiteral("—");
  return verticesWithoutEstimate ? QStringLiteral("≥ %1").arg(formatCount(*flops))
                                 : formatCount(*flops);
}

QString formatCountDelta(std::int64_t n) {
  if (n == 0) return QStringLiteral("0");
  const std::uint64_t magnitude =
      n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
  return (n < 0 ? QStringLiteral("-") : QStringLiteral("+")) + formatCount(magnitude);
}

QString formatBytes(std::uint64_t bytes, MemoryUnits units) {
  static const char* const binary[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  static const char* const decimal[] = {"B", "kB", "MB", "GB", "TB"};
  const double step = units == MemoryUnits::Binary ? 1024.0 : 1000.0;
  if (units == MemoryUnits::Bytes || bytes < step) return formatCount(bytes) + QStringLiteral(" B");
  return scaled(static_cast<double>(bytes), step, units == MemoryUnits::Binary ? binary : decimal,
                5);
}

QString formatBytesDelta(std::int64_t bytes, MemoryUnits units) {
  if (bytes == 0) return QStringLiteral("0 B");
  const std::uint64_t magnitude =
      bytes < 0 ? 0 - static_cast<std::uint64_t>(bytes) : static_cast<std::uint64_t>(bytes);
  return (bytes < 0 ? QStringLiteral("-") : QStringLiteral("+")) + formatBytes(magnitude, units);
}

QString formatPercent(double fraction, int decimals) {
  if (std::isnan(fraction)) return QStringLiteral("-");
  return QString::number(fraction * 100.0, 'f', decimals) + QStringLiteral(" %");
}

QString formatCyclesShort(double cycles) {
  static const char* const suffixes[] = {"", "k", "M", "G", "T"};
  if (std::fabs(cycles) < 1000) return QString::number(cycles, 'f', 0);
  return scaled(cycles, 1000.0, suffixes, 5).trimmed();
}

QString formatDurationNs(double ns) {
  static const char* const suffixes[] = {"ns", "µs", "ms", "s"};
  if (std::fabs(ns) < 1000) return QString::number(ns, 'f', 0) + QStringLiteral(" ns");
  return scaled(ns, 1000.0, suffixes, 4);
}

bool parseMemoryUnits(const QString& text, MemoryUnits* out) {
  const QString t = text.trimmed().toLower();
  if (t == QLatin1String("bytes") || t == QLatin1String("b"))
    *out = MemoryUnits::Bytes;
  else if (t == QLatin1String("binary") || t == QLatin1String("kib"))
    *out = MemoryUnits::Binary;
  else if (t == QLatin1String("decimal") || t == QLatin1String("si") || t == QLatin1String("kb"))
    *out = MemoryUnits::Decimal;
  else
    return false;
  return true;
}

QString memoryUnitsName(MemoryUnits units) {
  switch (units) {
  case MemoryUnits::Bytes:
    return QStringLiteral("bytes");
  case MemoryUnits::Binary:
    return QStringLiteral("binary");
  case MemoryUnits::Decimal:
    return QStringLiteral("decimal");
  }
  return {};
}

} // namespace tessera::viewer
