#include "RowQueue.hpp"

#include <exception>
#include <utility>

namespace tessera::profiler::detail {

RowQueue::RowQueue(Insert insert) : insert_(std::move(insert)) {
  worker_ = std::thread([this] { work(); });
}

RowQueue::~RowQueue() {
  drain();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  worker_.join();
}

void RowQueue::addNull() {
  current_.values.push_back({});
}

void RowQueue::addInt(std::int64_t v) {
  QueuedValue q;
  q.kind = QueuedValue::Kind::Int;
  q.integer = v;
  current_.values.push_back(q);
}

void RowQueue::addReal(double v) {
  QueuedValue q;
  q.kind = QueuedValue::Kind::Real;
  q.real = v;
  current_.values.push_back(q);
}

void RowQueue::addText(std::string_view v) {
  QueuedValue q;
  q.kind = QueuedValue::Kind::Text;
  q.offset = current_.arena.size();
  q.size = v.size();
  current_.arena.append(v.data(), v.size());
  current_.values.push_back(q);
}

void RowQueue::addBlob(const void* data, std::size_t size) {
  QueuedValue q;
  q.kind = QueuedValue::Kind::Blob;
  q.offset = current_.arena.size();
  q.size = size;
  current_.arena.append(static_cast<const char*>(data), size);
  current_.values.push_back(q);
}

void RowQueue::endRow(void* target) {
  current_.rows.push_back({target, rowStart_, current_.values.size() - rowStart_});
  rowStart_ = current_.values.size();
  if (current_.rows.size() >= kRowsPerBatch || current_.arena.size() >= kArenaBytesPerBatch)
    submit();
}

void RowQueue::discardRow() {
  // Arena bytes of the discarded values stay unused until the batch is recycled; harmless.
  current_.values.resize(rowStart_);
}

void RowQueue::submit() {
  Batch next;
  bool wakeWorker = false;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    space_.wait(lock, [&] { return queued_.size() < kMaxQueuedBatches; });
    queued_.push_back(std::move(current_));
    if (!spare_.empty()) {
      next = std::move(spare_.back());
      spare_.pop_back();
    }
    wakeWorker = queued_.size() >= kBatchesPerWake;
  }
  if (wakeWorker) wake_.notify_one();
  current_ = std::move(next);
  rowStart_ = 0;
}

std::string RowQueue::drain() {
  discardRow(); // a row left half-built by an exception in the caller
  if (!current_.rows.empty()) submit();
  std::unique_lock<std::mutex> lock(mutex_);
  draining_ = true;
  wake_.notify_one();
  space_.wait(lock, [&] { return queued_.empty() && !busy_; });
  draining_ = false;
  return std::exchange(error_, std::string());
}

std::string RowQueue::failure() {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

void RowQueue::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  bool awake =
      false; // batches were left when the last one was done: take the next without sleeping
  for (;;) {
    wake_.wait(lock, [&] {
      return stop_ || queued_.size() >= (awake ? 1 : kBatchesPerWake) ||
             (draining_ && !queued_.empty());
    });
    if (queued_.empty()) return; // stop_, nothing left
    Batch b = std::move(queued_.front());
    queued_.pop_front();
    busy_ = true;
    const bool failed = !error_.empty();
    lock.unlock();
    std::string error;
    if (!failed) { // after an error the rest are dropped: they may depend on the failed row
      try {
        insertBatch(b);
      } catch (const std::exception& e) {
        error = e.what();
        if (error.empty()) error = "a queued row could not be inserted";
      }
    }
    b.clear();
    lock.lock();
    if (!error.empty()) error_ = std::move(error);
    spare_.push_back(std::move(b));
    busy_ = false;
    awake = !queued_.empty();
    // The caller waits for room in a full queue (woken once there is room for kBatchesPerWake) or,
    // in drain(), for an empty one.
    if (queued_.size() + kBatchesPerWake <= kMaxQueuedBatches) space_.notify_all();
  }
}

void RowQueue::insertBatch(const Batch& b) {
  for (const Row& r : b.rows)
    insert_(r.target, b.values.data() + r.firstValue, r.count, b.arena.data());
}

} // namespace tessera::profiler::detail
