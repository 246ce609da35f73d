// How compare() pairs the rows of two reports: named figures by name (equal names add up), runs by
// name then by run number, operations by debug path in order. Internal to libpva.
#pragma once

#include <cstdint>
#include <map>
#include <pva/Compare.hpp>
#include <string>
#include <vector>

namespace pva::detail {

using NamedValues = std::map<std::string, std::uint64_t>;

/// Every name of either map, in name order; a name missing from one side counts 0 there.
std::vector<NamedComparison> matchByName(const NamedValues& base, const NamedValues& current);

/// Σ of each side of a list: its totals row.
ComparedValue totalOf(const std::vector<NamedComparison>& rows);

/// A run as the pairing needs it.
struct RunFigures {
  unsigned index = 0;
  std::string name;
  std::uint64_t cycles = 0, steps = 0;
};

/// Pairs runs with the same name first (repeated names in order), then the runs left over with
/// the same run number; the rest have no partner. Base runs in order, then the current's unpaired.
std::vector<RunComparison> matchRuns(const std::vector<RunFigures>& base,
                                     const std::vector<RunFigures>& current);

/// An operation's figures as the pairing needs them.
struct OperationRow {
  std::string name;
  std::uint64_t cycles = 0, estimatedCycles = 0, alwaysLiveBytes = 0, peakNotAlwaysLiveBytes = 0,
                codeBytes = 0;
};

/// Pairs operations of the same name in their order; base order first, then the current's
/// unpaired ones. baseIndex and currentIndex are the rows' positions in `base` and `current`.
std::vector<OperationComparison> matchOperations(const std::vector<OperationRow>& base,
                                                 const std::vector<OperationRow>& current);

/// Distinct non-empty names of each side and how many both have.
ProgramsInCommon programsInCommon(const std::vector<std::string>& base,
                                  const std::vector<std::string>& current);

} // namespace pva::detail
