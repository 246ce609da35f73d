// A .pvti's tables as plain rows: the only SQL of the trace reader, built from the descriptors
// of profiler/TraceSchema.hpp. It checks that the file is a trace of a version this reader
// knows, then hands each table's rows, in file order, to the trace layer
// (trace/TraceLoader.cpp), which builds the object model from them. Any SQLite failure after the
// file is known to be a trace means it is truncated or corrupted: an InvalidReportError naming it.
#pragma once

#include "OpenFile.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pva::storage {

/// A problem found in the trace's data itself (not by SQLite); the loader names the file.
struct CorruptTrace : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class TraceStore {
public:
  /// Opens `source` and checks what it is (empty, not SQLite, truncated, not a trace, a trace
  /// of another version): InvalidReportError (or FileNotFoundError) naming it.
  explicit TraceStore(const Source& source);

  const std::string& formatVersion() const { return formatVersion_; }
  /// A number of the meta table; CorruptTrace when missing or not a number.
  std::uint64_t metaUnsigned(std::string_view key) const;
  /// The same, or `fallback` when the meta table has no such key (a key later formats added).
  std::uint64_t metaUnsigned(std::string_view key, std::uint64_t fallback) const;
  /// A text of the meta table, or empty when it has none.
  std::string metaText(std::string_view key) const;

  /// id -> text tables (labels, channels, metadata), indexed by id (index 0: ""): ids are
  /// dense from 1, else CorruptTrace.
  std::vector<std::string> labels();
  std::vector<std::string> channels();
  std::vector<std::string> metadata();
  /// The first process's name ("" when there is none).
  std::string processName();

  void
  threads(const std::function<void(std::int64_t id, std::uint64_t tid, std::string name)>& row);
  /// The largest event block id (blocks are dense from 1, so their count): one b-tree descent.
  std::int64_t lastEventBlock();
  struct EventBlock {
    std::int64_t id, thread, firstNs, lastNs, count;
    const void* data;
    std::size_t size;
  };
  void eventBlocks(const std::function<void(const EventBlock&)>& row);
  void graphs(const std::function<void(std::int64_t id, std::string name, std::string unit)>& row);
  void
  series(const std::function<void(std::int64_t id, std::int64_t graph, std::string name)>& row);
  void
  seriesSamples(const std::function<void(std::int64_t series, std::int64_t ns, double value)>& row);
  struct Heatmap {
    std::int64_t id;
    std::string name, unit, valueType, edges; ///< edges: a JSON array, as libpvti writes it
  };
  void heatmaps(const std::function<void(Heatmap)>& row);
  void heatmapSamples(const std::function<void(std::int64_t heatmap, std::int64_t ns,
                                               const void* bins, std::size_t size)>& row);

private:
  /// Runs one read; an SQLite failure becomes "truncated or corrupted trace".
  template <class F> auto guarded(F&& f);

  std::string shown_, formatVersion_;
  ReadOnlyDatabase file_;
  std::map<std::string, std::string> meta_;
};

} // namespace pva::storage
