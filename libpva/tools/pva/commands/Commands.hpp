// The subcommands as plain functions: each one's options as the command line gives them, and the
// function that does the work. CommandLine.cpp (the only file that includes CLI11) fills the
// options and calls the chosen function; the files in commands/ never see CLI11, so they compile
// at half the cost.
#pragma once

#include "Common.hpp"

#include <cstddef>
#include <string>

namespace pvacli {

/// `pva summary REPORT` (commands/Summary.cpp; job folders: commands/Job.cpp).
struct SummaryOptions {
  std::string report, debug;
  bool json = false;
  std::string maxInstanceSlowdown; ///< job folders only: the gate on the slowest instance
};
int runSummary(const SummaryOptions& options, const GlobalOptions& global);

/// `pva query REPORT WHAT` (commands/Query.cpp).
struct QueryOptions {
  std::string report, debug, what, format = "table", type;
  long top = -1; ///< -1: the query's default
};
int runQuery(const QueryOptions& options, const GlobalOptions& global);

/// `pva insights REPORT` (commands/Insights.cpp). Not "InsightsOptions": pva::InsightsOptions
/// is libpva's, which Insights.cpp also uses.
struct InsightsCommandOptions {
  std::string report, debug;
  bool json = false;
  unsigned top = 5;
};
int runInsights(const InsightsCommandOptions& options, const GlobalOptions& global);

/// `pva compare BASE NEW` (commands/Compare.cpp): two reports or two job folders.
struct CompareOptions {
  std::string base, current;
  std::string maxCycles, maxCyclesAbs, maxMemory, maxMemoryAbs;
  std::string format = "text", output;
  std::size_t top = 10;
};
int runCompare(const CompareOptions& options, const GlobalOptions& global);

/// `pva trace TRACE` (commands/Trace.cpp).
struct TraceOptions {
  std::string path, chrome;
  std::size_t top = 10;
  bool json = false;
};
int runTrace(const TraceOptions& options, const GlobalOptions& global);

} // namespace pvacli
