// Rows waiting for a writer thread: ReportWriter::writeInBackground(true) queues each row's values
// here and a worker thread inserts them, so the caller's next rows (encoding blobs, say) overlap
// SQLite's work on these. A row's target decides what it does: ReportWriter queues BEGIN and
// COMMIT as rows without values too, so they run in order with the rows. Rows are copied into
// batches (values plus one byte arena for text and blobs) that are recycled, so a long run
// allocates nothing per row once the batches have grown, and at most kMaxQueuedBatches wait at any
// time, so memory stays bounded however fast the caller is.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace tessera::profiler::detail {

/// One column's value of a queued row; text and blob bytes live in the batch's arena.
struct QueuedValue {
  enum class Kind : std::uint8_t { Null, Int, Real, Text, Blob };
  Kind kind = Kind::Null;
  std::int64_t integer = 0;
  double real = 0;
  std::size_t offset = 0, size = 0; ///< bytes in the arena (Text, Blob)
};

class RowQueue {
public:
  /// Inserts one row: `target` as given to endRow(), its values, and the arena they refer to.
  /// Runs on the worker thread; an exception stops the queue (see drain()).
  using Insert = std::function<void(void* target, const QueuedValue* values, std::size_t count,
                                    const char* arena)>;

  explicit RowQueue(Insert insert);
  /// Waits for the queued rows (errors are dropped: nobody is left to hear them) and stops the
  /// worker.
  ~RowQueue();
  RowQueue(const RowQueue&) = delete;
  RowQueue& operator=(const RowQueue&) = delete;

  // The row being built, value by value in column order.
  void addNull();
  void addInt(std::int64_t v);
  void addReal(double v);
  void addText(std::string_view v);
  void addBlob(const void* data, std::size_t size);
  /// Queues the row for `target`; hands the batch to the worker when it is full.
  void endRow(void* target);
  /// Forgets the values added since the last endRow().
  void discardRow();

  /// Waits until every queued row has been inserted. Returns the first error a row met since the
  /// last drain (empty when none) and forgets it; rows queued after an error are dropped.
  std::string drain();
  /// The first error a row met since the last drain, without waiting (empty when none so far).
  /// The error stays until drain(): rows queued meanwhile are still dropped.
  std::string failure();

private:
  struct Row {
    void* target;
    std::size_t firstValue, count;
  };
  struct Batch {
    std::vector<Row> rows;
    std::vector<QueuedValue> values;
    std::string arena;
    void clear() {
      rows.clear();
      values.clear();
      arena.clear();
    }
  };
  static constexpr std::size_t kRowsPerBatch = 256;
  static constexpr std::size_t kArenaBytesPerBatch = 1 << 20;
  static constexpr std::size_t kMaxQueuedBatches = 4;
  // Each thread sleeps until there are two batches for it (queued, or room for), not one: every
  // wake-up costs a trip through the scheduler (tens of microseconds for an idle virtual core,
  // milliseconds on a busy machine), and with both threads about as fast, waking per batch made
  // hundreds of them per 100k rows.
  static constexpr std::size_t kBatchesPerWake = 2;

  void submit(); // hands `current_` to the worker, waiting while the queue is full
  void work();
  void insertBatch(const Batch& b);

  Insert insert_;
  Batch current_;
  std::size_t rowStart_ = 0; ///< first value of the row being built

  std::mutex mutex_;
  std::condition_variable wake_;  ///< the worker: a batch arrived, or stop
  std::condition_variable space_; ///< the caller: a batch was done
  std::deque<Batch> queued_;
  std::vector<Batch> spare_;
  bool busy_ = false, stop_ = false;
  bool draining_ = false; ///< drain() waits: the worker takes even a single batch
  std::string error_;     ///< non-empty from a row's failure until drain()
  std::thread worker_;
};

} // namespace tessera::profiler::detail
