// Comparison of two reports: memory (totals, largest tile, always live, peak liveness, per
// category, per tile), the liveness curve, and cycles (total, per run, per compute set, per
// program, per kind), matched by name. The base of the `pva compare` gate and the viewer's
// compare mode.
//
//   auto c = pva::compare(pva::openReport("base/profile.pop"), pva::openReport("new/profile.pop"));
//   if (c.cycles.total.relative() > 0.02) fail("cycles grew by more than 2%");
#pragma once

#include <pva/Report.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace pva {

/// A quantity in the base report and in the current one.
struct ComparedValue {
  std::uint64_t base = 0, current = 0;
  std::int64_t delta() const { return static_cast<std::int64_t>(current) - static_cast<std::int64_t>(base); }
  /// delta / base (0 when both are 0; +infinity when only base is 0).
  double relative() const;
};

/// A quantity matched by name; a name missing from one report counts 0 there.
struct NamedComparison {
  std::string name;
  bool inBase = false, inCurrent = false;
  ComparedValue value;
};

struct MemoryComparison {
  ComparedValue totalIncludingGaps, totalExcludingGaps;
  ComparedValue maxTileIncludingGaps;      ///< the largest tile of each report
  unsigned maxTileBase = 0, maxTileCurrent = 0;
  ComparedValue alwaysLive;
  ComparedValue peakLiveness;              ///< always live + the largest not-always-live step
  std::uint64_t peakStepBase = 0, peakStepCurrent = 0;
  std::vector<NamedComparison> categories; ///< every category, summed over tiles
  std::vector<ComparedValue> tilesIncludingGaps; ///< per tile; the shorter report counts 0
};

struct LivenessComparison {
  /// Always live + not-always-live bytes at each step of each report's schedule.
  std::vector<std::uint64_t> base, current;
};

struct CycleComparison {
  ComparedValue total;
  std::vector<NamedComparison> runs;        ///< by run name
  std::vector<NamedComparison> computeSets; ///< slowest-IPU cycles of its steps, summed
  std::vector<NamedComparison> programs;    ///< the same for every step program, by name
  std::vector<NamedComparison> kinds;       ///< tile cycles by kind, summed over tiles
};

struct ReportComparison {
  MemoryComparison memory;
  LivenessComparison liveness;
  CycleComparison cycles;
  bool hasExecution = false; ///< both reports have runs
};

/// Compares two reports. Reads every step of both executions once (streamed).
ReportComparison compare(const Report& base, const Report& current);

} // namespace pva
