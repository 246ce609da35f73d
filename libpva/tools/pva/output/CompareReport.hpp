// The outputs of `pva compare`: text for people and CI logs, JSON for scripts (JUnit is in
// JUnit.hpp). All three are written from the same comparison and gate checks.
#pragma once

#include "Gate.hpp"
#include "output/Output.hpp"

#include <pva/Compare.hpp>

#include <iosfwd>
#include <string>

namespace pvacli {

struct CompareResult {
  std::string basePath, newPath;
  pva::ReportComparison comparison;
  Limit cycles, memory;
  std::vector<GateCheck> checks;
  std::size_t top = 10; ///< entries of each "what grew" list
};

/// A quantity that grew: a memory category, a run, a compute set or a kind of tile cycles.
struct Increase {
  std::string what; ///< "memory category", "run cycles", "compute set cycles", "tile cycles"
  std::string unit; ///< "bytes" or "cycles"
  const pva::NamedComparison* item;
};

/// What grew, largest increase first within each group, at most `top` per group.
std::vector<Increase> increases(const CompareResult& r);

void writeCompareText(std::ostream& out, const CompareResult& r);
Json compareJson(const CompareResult& r);

} // namespace pvacli
