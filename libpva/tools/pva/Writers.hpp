// The tool's outputs as values, from a report or trace the caller holds: what `pva summary`,
// `pva query` and `pva trace` write (as text, CSV or JSON through output/Output.hpp), without a
// command line or a file. `pva compare`'s are output/CompareReport.hpp's. The subcommands use
// these, and so do the fuzz targets (fuzz/fuzz_analysis.cpp), which check that every JSON they
// give parses.
#pragma once

#include "Common.hpp"
#include "output/Output.hpp"

#include <cstddef>
#include <pva/Trace.hpp>
#include <string>

namespace pvacli {

/// `pva summary --json` of a report opened from `files`.
Json summaryJson(const pva::Report& report, const ReportFiles& files);

/// `pva insights --json [--top N]` of a report opened from `files`.
Json insightsJson(const pva::Report& report, const ReportFiles& files, unsigned top = 5);

/// `pva query REPORT WHAT [--top N] [--type T]`: WHAT is tiles, compute-sets, live-at-peak,
/// programs, runs or categories; top -1 is the query's default, 0 all rows.
Table queryTable(const pva::Report& report, const std::string& what, long top = -1,
                 const std::string& type = "", const GlobalOptions& global = GlobalOptions());

/// `pva trace TRACE --json`: the summary of a host trace, `top` labels (0: all).
Json traceSummaryJson(const pva::Trace& trace, std::size_t top);

} // namespace pvacli
