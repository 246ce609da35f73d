// The engine options that control profiling (autoReport.*, debug.*, profiler.*), parsed and
// checked once. Unknown names and bad values are rejected by Engine with invalid_option.
#pragma once

#include <cstdint>
#include <optional>
#include <poplar/OptionFlags.hpp>
#include <regex>
#include <string>

namespace poplar::detail::profile {

struct ProfilerOptions {
  bool graphProfile = false;     ///< write profile.pop at compile time
  bool executionProfile = false; ///< record runs into it
  bool debugInfo = false;        ///< write debug.cbor
  bool serializedGraph = false;  ///< write serialized_graph.capnp
  std::string directory = ".";   ///< autoReport.directory
  bool computeInstrumentation = false;
  bool externalExchangeInstrumentation =
      false; ///< stream copies and global exchanges timed per tile
  bool allowOutOfMemory = false;
  /// profiler.includeFlopEstimates: write each compute set's FLOP estimate (models/FlopModel).
  /// Off by default, as in Poplar.
  bool flopEstimates = false;
  std::optional<std::regex> blocksFilter; ///< profiler.blocks.filter: Block programs by name
  std::string blocksFilterText;
  /// profiler.programs.filter: programs measured as if wrapped in a Block (implicit blocks)
  std::optional<std::regex> programsFilter;
  std::string programsFilterText;
  /// Lightweight profiling is on: some blocks are instrumented.
  bool anyBlocks() const { return blocksFilter || programsFilter; }
  unsigned blocksTile = 0;
  std::uint64_t blocksBufferSize = 1000;
  bool blocksImplicitFlush = true;
  std::string engineName; ///< debug name of the engine: reports go in a sub-directory
  /// debug.retainDebugInformation without autoReport.*: as Poplar keeps its profile for
  /// printProfileSummary, the engine writes one (compilation and execution, no instrumentation)
  /// to a temporary directory of its own, removed with the engine.
  bool privateReport = false;

  bool anyReport() const {
    return graphProfile || executionProfile || debugInfo || serializedGraph;
  }
  /// The directory this engine's files go to.
  std::string reportDirectory() const;
};

/// Parses the profiling options out of merged engine options. Throws invalid_option naming the
/// option and the accepted values.
ProfilerOptions parseProfilerOptions(const OptionFlags& options);

} // namespace poplar::detail::profile
