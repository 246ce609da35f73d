#include "output/Format.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pvacli {

std::string withCommas(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string signedWithCommas(std::int64_t n) {
  // Through unsigned so that INT64_MIN does not overflow on negation.
  const std::uint64_t magnitude =
      n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
  return (n < 0 ? "-" : "+") + withCommas(magnitude);
}

std::string bytes(std::uint64_t n) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  if (n < 1024) return std::to_string(n) + " B";
  double v = double(n);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %s", v, units[u]);
  return buf;
}

std::string signedBytes(std::int64_t n) {
  const std::uint64_t magnitude =
      n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
  return (n < 0 ? "-" : "+") + bytes(magnitude);
}

std::string signedPercent(double fraction) {
  if (std::isinf(fraction)) return "from 0";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f%%", fraction * 100);
  return buf;
}

std::string percentOf(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * double(part) / double(whole));
  return buf;
}

std::string cyclesAsTime(std::uint64_t cycles, double clockHz) {
  if (clockHz <= 0) return "?";
  return microseconds(double(cycles) / clockHz * 1e6);
}

std::string microseconds(double us) {
  char buf[32];
  if (us >= 1e6)
    std::snprintf(buf, sizeof buf, "%.3f s", us / 1e6);
  else if (us >= 1e3)
    std::snprintf(buf, sizeof buf, "%.3f ms", us / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.0f us", us);
  return buf;
}

} // namespace pvacli
