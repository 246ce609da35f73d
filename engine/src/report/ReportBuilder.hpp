// The one place where the engine's plain profiling results become report files: rows of
// profile.pop through the profiler's writer, and debug.cbor. The engine never writes SQL.
#pragma once

#include "AllocationFeed.hpp"
#include "DebugContexts.hpp"
#include "models/MemoryModel.hpp"
#include "profile/ProfilerOptions.hpp"

#include <memory>
#include <poplar/OptionFlags.hpp>
#include <profiler/ReportWriter.hpp>
#include <string>

namespace poplar::detail::report {

/// Everything the compile-time models computed for one engine.
struct CompilationProfile {
  models::ProgramModel model;
  std::vector<models::VariableLiveness> liveness;
  models::MemoryModel memory;
};

struct ReportFiles {
  std::string directory, profile, debug;
  std::string reportId; ///< 32 hex digits shared by profile.pop and debug.cbor
};

/// The files one engine writes, under the options' report directory.
ReportFiles reportFiles(const profile::ProfilerOptions& options);

/// A new, empty directory of this process only, under the system's temporary directory, for a
/// private report (ProfilerOptions::privateReport). Throws profiling_error when it cannot be made.
std::string makePrivateReportDirectory();

/// Writes the compilation part of profile.pop, publishes it, and returns the writer, open for
/// the execution recorder to append runs. Writes debug.cbor too when asked. Throws
/// tessera::profiler::ReportError naming the file on I/O failure.
///
/// With a feed, this runs on its own thread while another builds p.memory: the memory model's
/// allocations come from the feed, and p.memory is read only after the feed has finished
/// (p.model and p.liveness must be complete before the call). The rows are the same either way.
std::unique_ptr<tessera::profiler::ReportWriter>
writeCompilationReport(const ReportFiles& files, const compiler::CompiledGraph& g,
                       const CompilationProfile& p, const OptionFlags& engineOptions,
                       const profile::ProfilerOptions& options, AllocationFeed* feed = nullptr);

} // namespace poplar::detail::report
