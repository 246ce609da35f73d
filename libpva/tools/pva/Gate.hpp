// The CI regression gate: which quantities `pva compare` gates, the thresholds on them, and the
// verdict. Pure functions of a pva::ReportComparison so that every output format (text, JSON,
// JUnit) reports the same checks.
//
// Gated quantities (docs/ci-gate.md):
//   cycles.total          total cycles of all runs          --max-cycles-increase[-abs]
//   memory.maxTile        the largest tile, including gaps  --max-memory-increase[-abs]
//   memory.total          all tiles, including gaps         --max-memory-increase[-abs]
//   memory.peakLiveness   always live + the largest step    --max-memory-increase[-abs]
//   memory.outOfMemory    the new report ran out of memory and the base did not (no threshold)
// A quantity fails when it grows by more than any threshold given for it; decreases never fail.
#pragma once

#include <optional>
#include <pva/Compare.hpp>
#include <string>
#include <vector>

namespace pvacli {

/// The thresholds of one family (cycles, or memory): unset ones are not checked.
struct Limit {
  std::optional<double> relative;        ///< a fraction: 0.02 for "2%"
  std::optional<std::uint64_t> absolute; ///< cycles or bytes
  bool any() const { return relative || absolute; }
};

/// "2%", "2" (also percent), "0.5%", or "off" (nullopt). Throws UsageError naming `option`.
std::optional<double> parsePercent(const std::string& text, const std::string& option);
/// A count, or bytes with an optional unit: "4096", "64KiB", "1.5MiB", "2GiB", "10KB"
/// (K/KB/KiB are all 1024), or "off". Throws UsageError naming `option`.
std::optional<std::uint64_t> parseAmount(const std::string& text, const std::string& option,
                                         bool allowUnits);

struct GateCheck {
  std::string id;          ///< "cycles.total", stable: CI scripts and JUnit test names use it
  std::string description; ///< "total cycles of all runs"
  std::string unit;        ///< "cycles", "bytes" or "" (outOfMemory)
  pva::ComparedValue value;
  Limit limit;
  bool skipped = false;
  bool passed = true;
  std::string message; ///< why it failed or was skipped, or how it stands against its limit
};

/// Checks every gated quantity (cycles are skipped when either report has no execution).
std::vector<GateCheck> evaluateGate(const pva::ReportComparison& c, const Limit& cycles,
                                    const Limit& memory, bool baseOutOfMemory,
                                    bool currentOutOfMemory);

bool allPassed(const std::vector<GateCheck>& checks);

/// "2%" / "1.5%": a limit as given.
std::string describeRelative(double fraction);
/// "max +2%, max +1,000 cycles" or "none".
std::string describeLimit(const Limit& l, const std::string& unit);

} // namespace pvacli
