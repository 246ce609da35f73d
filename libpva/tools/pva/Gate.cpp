#include "Gate.hpp"

#include "Common.hpp"
#include "output/Format.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>

namespace pvacli {

namespace {

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
    ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
    --e;
  return s.substr(b, e - b);
}

/// A non-negative decimal number at the start of `s`; `used` is how many characters it took.
bool leadingNumber(const std::string& s, double& value, std::size_t& used) {
  if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '.')) return false;
  try {
    value = std::stod(s, &used);
  } catch (const std::exception&) {
    return false;
  }
  return std::isfinite(value) && value >= 0;
}

std::string amountText(std::uint64_t n, const std::string& unit) {
  return unit == "bytes" ? withCommas(n) + " bytes (" + bytes(n) + ")" : withCommas(n) + " " + unit;
}

std::string deltaText(const pva::ComparedValue& v, const std::string& unit) {
  return signedPercent(v.relative()) + ", " + signedWithCommas(v.delta()) + " " + unit;
}

} // namespace

std::optional<double> parsePercent(const std::string& text, const std::string& option) {
  const std::string s = trim(text);
  if (s == "off" || s == "none") return std::nullopt;
  double v = 0;
  std::size_t used = 0;
  if (!leadingNumber(s, v, used) || !(trim(s.substr(used)).empty() || trim(s.substr(used)) == "%"))
    throw UsageError(option + ": '" + text + "' is not a percentage (examples: 2%, 0.5%, off)");
  return v / 100;
}

std::optional<std::uint64_t> parseAmount(const std::string& text, const std::string& option,
                                         bool allowUnits) {
  const std::string s = trim(text);
  if (s == "off" || s == "none") return std::nullopt;
  double v = 0;
  std::size_t used = 0;
  std::string unit;
  if (leadingNumber(s, v, used)) {
    unit = trim(s.substr(used));
    for (char& c : unit)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  double scale = 0;
  if (used == 0)
    scale = 0;
  else if (unit.empty() || (allowUnits && (unit == "b" || unit == "bytes")))
    scale = 1;
  else if (allowUnits && (unit == "k" || unit == "kb" || unit == "kib"))
    scale = 1024.0;
  else if (allowUnits && (unit == "m" || unit == "mb" || unit == "mib"))
    scale = 1024.0 * 1024;
  else if (allowUnits && (unit == "g" || unit == "gb" || unit == "gib"))
    scale = 1024.0 * 1024 * 1024;
  const double amount = v * scale;
  if (scale == 0 || amount > 1.8e19 || (unit.empty() && std::floor(v) != v))
    throw UsageError(option + ": '" + text + "' is not " +
                     (allowUnits ? "an amount of bytes (examples: 4096, 64KiB, 1.5MiB, off)"
                                 : "a whole number (or off)"));
  return static_cast<std::uint64_t>(std::llround(amount));
}

std::string describeRelative(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g%%", fraction * 100);
  return buf;
}

std::string describeLimit(const Limit& l, const std::string& unit) {
  std::string s;
  if (l.relative) s = "max +" + describeRelative(*l.relative);
  if (l.absolute)
    s += (s.empty() ? "" : ", ") + std::string("max +") + withCommas(*l.absolute) + " " + unit;
  return s.empty() ? "none" : s;
}

namespace {

GateCheck makeCheck(std::string id, std::string description, std::string unit,
                    const pva::ComparedValue& v, const Limit& limit) {
  GateCheck g;
  g.id = std::move(id);
  g.description = std::move(description);
  g.unit = std::move(unit);
  g.value = v;
  g.limit = limit;
  return g;
}

GateCheck check(std::string id, std::string description, std::string unit,
                const pva::ComparedValue& v, const Limit& limit) {
  GateCheck g = makeCheck(std::move(id), std::move(description), std::move(unit), v, limit);
  std::vector<std::string> over;
  // A small tolerance so that "2%" passes a growth the printout rounds to +2.00%.
  if (limit.relative && v.delta() > 0 && v.relative() > *limit.relative + 1e-12)
    over.push_back("more than " + describeRelative(*limit.relative));
  if (limit.absolute && v.delta() > 0 && static_cast<std::uint64_t>(v.delta()) > *limit.absolute)
    over.push_back("more than " + amountText(*limit.absolute, g.unit));
  const std::string change = amountText(v.base, g.unit) + " -> " + amountText(v.current, g.unit) +
                             " (" + deltaText(v, g.unit) + ")";
  if (!over.empty()) {
    g.passed = false;
    g.message = g.description + " grew by " + over.front() +
                (over.size() > 1 ? " and " + over.back() : "") + ": " + change;
  } else if (!limit.any()) {
    g.skipped = true;
    g.message = "not gated (threshold off): " + change;
  } else {
    g.message = "within " + describeLimit(limit, g.unit) + ": " + change;
  }
  return g;
}

} // namespace

std::vector<GateCheck> evaluateGate(const pva::ReportComparison& c, const Limit& cycles,
                                    const Limit& memory, bool baseOutOfMemory,
                                    bool currentOutOfMemory) {
  std::vector<GateCheck> checks;
  if (c.hasExecution) {
    checks.push_back(
        check("cycles.total", "total cycles of all runs", "cycles", c.cycles.total, cycles));
  } else {
    GateCheck g =
        makeCheck("cycles.total", "total cycles of all runs", "cycles", c.cycles.total, cycles);
    g.skipped = true;
    g.message =
        "not compared: " + std::string(c.cycles.total.base == 0 && c.cycles.total.current == 0
                                           ? "neither report has an execution profile"
                                           : "only one report has an execution profile");
    checks.push_back(g);
  }
  checks.push_back(check("memory.maxTile", "memory of the largest tile (including gaps)", "bytes",
                         c.memory.maxTileIncludingGaps, memory));
  checks.push_back(check("memory.total", "total memory of all tiles (including gaps)", "bytes",
                         c.memory.totalIncludingGaps, memory));
  checks.push_back(check("memory.peakLiveness", "peak live memory (always live + largest step)",
                         "bytes", c.memory.peakLiveness, memory));
  GateCheck oom = makeCheck("memory.outOfMemory", "out of memory", "",
                            {baseOutOfMemory ? 1u : 0u, currentOutOfMemory ? 1u : 0u}, Limit{});
  if (currentOutOfMemory && !baseOutOfMemory) {
    oom.passed = false;
    oom.message = "the new report ran out of tile memory; the base did not";
  } else {
    oom.message = currentOutOfMemory ? "both reports ran out of tile memory"
                                     : "the new report fits in tile memory";
  }
  checks.push_back(oom);
  return checks;
}

bool allPassed(const std::vector<GateCheck>& checks) {
  for (const GateCheck& g : checks)
    if (!g.passed) return false;
  return true;
}

} // namespace pvacli
