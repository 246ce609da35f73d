// pva::Report: a profile report (profile.pop, optionally with debug.cbor), opened lazily and
// read-only. Opening reads only the report's identity; everything else is read on first use.
//
//   pva::Report report = pva::openReport("reports/mlp/profile.pop");
//   std::uint64_t total = 0;
//   for (const pva::Tile& tile : report.compilation().tiles())
//     total += tile.memory().total().excludingGaps();
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <pva/Compilation.hpp>
#include <pva/Execution.hpp>
#include <string>

namespace pva {

/// The version of the tool that wrote the report (Tessera's version, as Poplar's SDK version).
class PoplarVersion {
public:
  std::string string() const; ///< "0.1.0 (tessera-0.1.0)"
  unsigned majorVer() const { return major_; }
  unsigned minorVer() const { return minor_; }
  unsigned pointVer() const { return point_; }
  const std::string& packageHash() const { return hash_; }

private:
  friend struct detail::Access;
  unsigned major_ = 0, minor_ = 0, point_ = 0;
  std::string hash_;
};

/// The report's format version.
class ProfileReportVersion {
public:
  unsigned majorVer() const { return major_; }
  unsigned minorVer() const { return minor_; }
  unsigned pointVer() const { return point_; }
  bool isUnstableFormat() const { return false; }
  std::string string() const;

private:
  friend struct detail::Access;
  unsigned major_ = 0, minor_ = 0, point_ = 0;
};

class InstrumentationSettings {
public:
  enum class ComputeInstrumentationLevel {
    Off = 0,
    Vertex = 1,
    Tile = 2,
    Ipu = 3,
    Device = 4,
    Unknown = 5
  };
  enum class ExternalExchangeInstrumentationLevel { Off = 0, Tile = 1, Unknown = 2 };
  /// As stored in the report: "Off", "Vertex", "Tile", "Ipu", "Device" ("unknown" for Unknown).
  static const std::string& computeName(ComputeInstrumentationLevel l);
  /// As stored in the report: "Off", "Tile" ("unknown" for Unknown).
  static const std::string& externalExchangeName(ExternalExchangeInstrumentationLevel l);
  ComputeInstrumentationLevel compute() const { return compute_; }
  ExternalExchangeInstrumentationLevel externalExchange() const { return external_; }

private:
  friend struct detail::Access;
  ComputeInstrumentationLevel compute_ = ComputeInstrumentationLevel::Unknown;
  ExternalExchangeInstrumentationLevel external_ = ExternalExchangeInstrumentationLevel::Unknown;
};

/// A report's place in a job launched by poprun (docs/distributed.md). A report written outside
/// poprun, or of format before 1.5, is instance 0 of a job of one.
struct JobPlacement {
  unsigned instanceIndex = 0;
  unsigned numInstances = 1;
  unsigned replicaOffset = 0; ///< global index of this instance's first replica
  unsigned totalReplicas = 1; ///< replicas of the whole job (its collectives span them all)
};

class Report {
public:
  CompilationReport compilation() const;
  ExecutionReport execution() const;
  PoplarVersion poplarVersion() const;
  ProfileReportVersion version() const;
  InstrumentationSettings instrumentationSettings() const;
  /// Creation time, ISO 8601 UTC ("2026-11-23T05:36:27Z"), and in µs since the Unix epoch.
  std::string timestamp() const;
  std::int64_t timestampMicroseconds() const;
  /// Engine options in force when the report was written.
  std::map<std::string, std::string> engineOptions() const;
  /// True when compilation ran out of tile memory.
  bool outOfMemory() const;
  /// True when its compute sets carry FLOP estimates (ComputeSet::estimatedFlops): the engine
  /// option profiler.includeFlopEstimates was true, in a report of format 1.1 or later.
  bool hasFlopEstimates() const;
  /// True when they are also stored tile by tile (ComputeSet::estimatedFlopsByTile,
  /// OperationTileFigures::estimatedFlops): hasFlopEstimates() in a report of format 1.4 or later.
  bool hasFlopEstimatesByTile() const;
  /// Which instance of a poprun job wrote it.
  JobPlacement jobPlacement() const;
  /// The files it was opened from (debug is empty without debug information).
  const std::string& profilePath() const;
  const std::string& debugPath() const;
  bool hasDebugInfo() const;

private:
  friend struct detail::Access;
  std::shared_ptr<detail::ReportState> s_;
};

/// Opens a profile report. Throws FileNotFoundError, InvalidReportError or
/// UnsupportedVersionError naming the file.
Report openReport(const std::string& profilePath);
/// Opens a profile report with its debug information (debug.cbor). Also throws
/// DebugInfoMismatchError when the debug file belongs to another report.
Report openReport(const std::string& profilePath, const std::string& debugPath);

/// The format versions this libpva reads: the same major version, minor and point up to these.
ProfileReportVersion supportedFormatVersion();

} // namespace pva
