// The outputs of `pva compare`: text for people and CI logs (CompareText.cpp), JSON for scripts
// (CompareJson.cpp); JUnit is in JUnit.hpp. All three are written from the same comparison and
// gate checks.
#pragma once

#include "Gate.hpp"
#include "output/Output.hpp"

#include <iosfwd>
#include <pva/Compare.hpp>
#include <string>

namespace pvacli {

struct CompareResult {
  std::string basePath, newPath;
  pva::ReportComparison comparison;
  Limit cycles, memory;
  std::vector<GateCheck> checks;
  std::size_t top = 10; ///< entries of each "what grew" list
};

/// A quantity that grew: a memory category, a variable, a run, a compute set, an operation or a
/// kind of tile cycles.
struct Increase {
  std::string what; ///< "memory category", "variable (always)", "run cycles", ...
  std::string unit; ///< "bytes" or "cycles"
  std::string name;
  bool inBase = true, inCurrent = true;
  pva::ComparedValue value;
};

/// What grew, largest increase first within each group, at most `top` per group. Groups matched
/// by name (variables, compute sets, operations) are left out for unrelated reports
/// (ReportComparison::programsInCommon): their rows would pair nothing with nothing.
std::vector<Increase> increases(const CompareResult& r);

/// A run's name as the outputs show it: "train0", "train0 -> pipeline (by position)",
/// "train1 (only in base)".
std::string runLabel(const pva::RunComparison& run);

void writeCompareText(std::ostream& out, const CompareResult& r);
Json compareJson(const CompareResult& r);

} // namespace pvacli
