// The .pvti file: the only code in libpvti that speaks SQL. Used by the writer thread alone.
#pragma once

#include "Batch.hpp"
#include "Record.hpp"

#include <tessera/internal/Sqlite.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace pvti::detail {

struct SessionInfo {
  long pid;
  std::string processName;
  std::uint64_t startSteadyNs;
  std::int64_t startUnixUs;
  std::string options; ///< PVTI_OPTIONS text
};

class TraceWriter {
public:
  /// Creates the file (WAL journal), the tables and the meta rows; throws sqlite::Error.
  TraceWriter(const std::filesystem::path& path, const SessionInfo& info);
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;
  ~TraceWriter();

  void beginTransaction();
  void commit();
  void writeDefinitions(const Batch& batch, std::uint64_t deadlineNs);
  /// Turns the records of `buffer` up to `head` into rows and frees their slots. Records stamped
  /// after `deadlineNs` (raw steady ns) are dropped, except ends that close an open event.
  void drain(ThreadBuffer& buffer, std::uint64_t head, std::uint64_t deadlineNs);
  /// Writes events still open on the thread (end_ns NULL) so a crash keeps them.
  void writeOpenSpans(ThreadBuffer& buffer);
  /// Leaves a single self-contained file (journal_mode DELETE) and closes it.
  void finish();

private:
  std::int64_t rel(std::uint64_t rawNs) const { return static_cast<std::int64_t>(rawNs - startNs_); }
  void instant(const ThreadBuffer& b, const Record& r, std::string_view kind, std::uint32_t label);
  void insertSpan(const ThreadBuffer& b, const OpenSpan& s, std::int64_t depth, const std::int64_t* endNs);

  tessera::sqlite::Database db_;
  std::uint64_t startNs_;
  long pid_;
  std::int64_t nextEventId_ = 1, nextInstantId_ = 1;
  /// Prepared once; finalized before the database closes (SQLite refuses to close otherwise).
  struct Statements;
  std::unique_ptr<Statements> st_;
};

} // namespace pvti::detail
