// The loaded contents of one .pvti, shared (read-only) by the public handles of <pva/Trace.hpp>.
#pragma once

#include <cstdint>
#include <memory>
#include <pva/Trace.hpp>
#include <string>
#include <vector>

namespace pva::storage {
struct Source;
}

namespace pva::detail {

/// Interned text, indexed by id (index 0 is the empty string: "none").
struct TraceStrings {
  std::vector<std::string> labels, channels, metadata;
  std::uint64_t startUnixUs = 0;
};

/// A duration event. Events of a thread are stored in begin order, which is a pre-order walk of
/// its event tree: an event's descendants are the records after it up to `next`.
struct EventRecord {
  std::int64_t beginNs, endNs;
  std::uint32_t label, channel, metadata;
  std::uint32_t next; ///< index of the first record after this event's subtree
  std::uint32_t depth;
  bool finished;
};

struct InstantRecord {
  std::int64_t tsNs;
  std::uint32_t label, channel, metadata;
  InstantEvent::Kind kind;
};

struct ThreadData {
  std::shared_ptr<const TraceStrings> strings;
  std::uint64_t tid = 0;
  std::string name;
  std::vector<EventRecord> events;
  std::vector<InstantRecord> instants;
};

struct TraceData {
  std::string path, formatVersion, processName;
  std::uint64_t pid = 0, startUnixUs = 0;
  std::uint64_t startSteadyNs = 0; ///< 0: the file does not say (Trace::startSteadyNs)
  std::vector<Thread> threads;
  std::vector<TraceGraph> graphs;
  std::vector<TraceHeatmap> heatmaps;

  /// Reads the whole file, telling `progress` (may be empty) how far it is; throws the pva
  /// exceptions of openTrace.
  static std::shared_ptr<const TraceData> load(const std::string& path,
                                               const LoadProgress& progress);
  /// The same from a file or an image (storage/OpenFile.hpp).
  static std::shared_ptr<const TraceData> load(const storage::Source& source,
                                               const LoadProgress& progress);
};

/// ns since the trace started -> µs since the Unix epoch.
inline std::uint64_t unixMicros(std::uint64_t startUnixUs, std::int64_t ns) {
  return startUnixUs + static_cast<std::uint64_t>(ns < 0 ? 0 : ns / 1000);
}

} // namespace pva::detail
