// The .pvti file: the only code in libpvti that speaks SQL. Used by the writer thread alone.
// Events go in as packed blocks per thread per flush (event_blocks), definitions and series
// samples as rows.
#pragma once

#include "Batch.hpp"
#include "Record.hpp"
#include "TickClock.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <profiler/TraceBlock.hpp>
#include <string>
#include <tessera/internal/Sqlite.hpp>

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
  /// The most records in one event block: one ring's worth (about 64 KiB packed).
  static constexpr std::size_t kMaxBlockRecords = ThreadBuffer::kCapacity;

  /// Creates the file (WAL journal), the tables and the meta rows; throws sqlite::Error.
  TraceWriter(const std::filesystem::path& path, const SessionInfo& info);
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;
  ~TraceWriter();

  /// How record ticks become ns; the identity until set (right when ticks are steady ns).
  void setCalibration(const TickCalibration& c) { clock_ = c; }
  void beginTransaction();
  void commit();
  void writeDefinitions(const Batch& batch, std::uint64_t deadlineNs);
  /// A thread's records of one flush: startBlock (with the records held while the clock was
  /// calibrated), addRecords for each run of records in order (spilled arrays, then the ring:
  /// `ring` true indexes `slots` by sequence number modulo the ring), finishBlock writes the
  /// last block (series samples become rows as they come). A block is written whenever it
  /// holds kMaxBlockRecords, so however far the writer lags, its buffer and SQLite's copy of
  /// a block stay the size of one ring. Records stamped after `deadlineNs` (raw steady ns,
  /// setDeadline) are dropped, except ends that close an event written before it.
  void startBlock(ThreadBuffer& buffer);
  void addRecords(ThreadBuffer& buffer, const Record* slots, std::uint64_t begin, std::uint64_t end,
                  bool ring);
  void finishBlock(const ThreadBuffer& buffer);
  void setDeadline(std::uint64_t deadlineNs) { deadlineNs_ = deadlineNs; }
  /// Leaves a single self-contained file (journal_mode DELETE) and closes it.
  void finish();

private:
  std::int64_t rel(std::uint64_t rawNs) const {
    return static_cast<std::int64_t>(rawNs - startNs_);
  }
  void writeBlock(const ThreadBuffer& b);
  /// addRecords for at most the room left in the block.
  void packRecords(ThreadBuffer& buffer, const Record* slots, std::uint64_t begin,
                   std::uint64_t end, bool ring);
  void writeSample(const Record& r);
  std::int64_t relTicks(std::uint64_t ticks) const { return rel(clock_.toNs(ticks)); }

  tessera::sqlite::Database db_;
  std::uint64_t startNs_;
  TickCalibration clock_;
  std::uint64_t deadlineNs_ = UINT64_MAX;
  long pid_;
  tessera::profiler::schema::trace::BlockEncoder block_; ///< reused: no allocation per flush
  /// Prepared once; finalized before the database closes (SQLite refuses to close otherwise).
  struct Statements;
  std::unique_ptr<Statements> st_;
};

} // namespace pvti::detail
