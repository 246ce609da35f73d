// Tick steps and h:m:s labels for the trace timeline's axis.
#include "core/TraceTime.hpp"

#include <QDateTime>
#include <cmath>

namespace tessera::viewer {

double niceTimeStep(double minStepNs) {
  if (!(minStepNs > 1)) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(minStepNs)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= minStepNs) return m * p;
  return 10 * p;
}

namespace {

// Decimals of a second that a step needs: 1 s -> 0, 250 ms -> 2, 1 ms -> 3, 1 µs -> 6, 1 ns -> 9.
int decimalsFor(double stepNs) {
  int d = 0;
  double unit = 1e9;
  while (d < 9 && stepNs < unit - 0.5) {
    unit /= 10;
    ++d;
  }
  // A step such as 2.5 ms has a digit below its own magnitude: keep one more when it is needed.
  while (d < 9 && std::fmod(stepNs, unit) > 0.5) {
    unit /= 10;
    ++d;
  }
  return d;
}

QString fraction(double nsWithinSecond, int decimals) {
  if (decimals == 0) return {};
  const auto digits =
      static_cast<long long>(std::floor(nsWithinSecond / std::pow(10.0, 9 - decimals) + 1e-6));
  return QStringLiteral(".%1").arg(digits, decimals, 10, QLatin1Char('0'));
}

} // namespace

QString formatTraceTime(double ns, double stepNs) {
  const int decimals = decimalsFor(stepNs);
  const bool negative = ns < 0;
  // Round to the shown precision first so 0.9999999 s does not print as "0:00:00.999".
  const double quantum = std::pow(10.0, 9 - decimals);
  const double rounded = std::round(std::fabs(ns) / quantum) * quantum;
  const auto seconds = static_cast<long long>(std::floor(rounded / 1e9));
  const double within = rounded - double(seconds) * 1e9;
  const QString text = QStringLiteral("%1:%2:%3%4")
                           .arg(seconds / 3600)
                           .arg((seconds / 60) % 60, 2, 10, QLatin1Char('0'))
                           .arg(seconds % 60, 2, 10, QLatin1Char('0'))
                           .arg(fraction(within, decimals));
  return negative && rounded > 0 ? QStringLiteral("-") + text : text;
}

QString formatAbsoluteTraceTime(std::uint64_t startUs, double ns, double stepNs) {
  const int decimals = decimalsFor(stepNs);
  const double totalNs = double(startUs % 1000000) * 1000.0 + ns;
  const auto wholeSeconds = static_cast<qint64>(std::floor(totalNs / 1e9));
  const double within = totalNs - double(wholeSeconds) * 1e9;
  const QDateTime t = QDateTime::fromSecsSinceEpoch(qint64(startUs / 1000000) + wholeSeconds);
  return t.toString(QStringLiteral("HH:mm:ss")) + fraction(within, decimals);
}

} // namespace tessera::viewer
