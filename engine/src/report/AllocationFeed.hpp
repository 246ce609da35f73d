// Hands the memory model's allocations, tile by tile, to the thread writing profile.pop, so
// that SQLite inserts the lowered_variables rows of the first tiles while the model still lays
// out the later ones (at a million vertices the two million rows are the longest part of the
// report, and the layout the second longest). One producer, one consumer.
#pragma once

#include "models/MemoryModel.hpp"

#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace poplar::detail::report {

class AllocationFeed {
public:
  /// Producer: one tile's allocations, in the model's order (copied).
  void push(const models::Allocation* tile, std::size_t count) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (abandoned_) return;
    pending_.insert(pending_.end(), tile, tile + count);
    ready_.notify_one();
  }
  /// Producer: every tile was pushed, and the rest of the memory model is complete (what the
  /// consumer reads of it afterwards was written before this call).
  void finish() { close(State::Finished); }
  /// Producer: the model failed; the consumer stops with an error instead of waiting.
  void abort() { close(State::Aborted); }

  /// Consumer: it failed and will take nothing more, so the producer stops keeping copies.
  void abandon() {
    std::lock_guard<std::mutex> lock(mutex_);
    abandoned_ = true;
    std::vector<models::Allocation>().swap(pending_);
  }

  /// Consumer: calls f(allocation) for every allocation in order, returning once finish() was
  /// called and everything pushed was seen. Throws if the producer aborted.
  template <class F> void consume(F&& f) {
    std::vector<models::Allocation> batch;
    for (;;) {
      State state;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [&] { return !pending_.empty() || state_ != State::Open; });
        batch.swap(pending_);
        state = state_;
      }
      for (const auto& a : batch)
        f(a);
      batch.clear();
      if (state == State::Aborted) throw std::runtime_error("the memory model was not completed");
      if (state == State::Finished) return; // nothing is pushed after finish()
    }
  }

private:
  enum class State { Open, Finished, Aborted };
  void close(State s) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_ == State::Open) state_ = s;
    ready_.notify_one();
  }
  std::mutex mutex_;
  std::condition_variable ready_;
  std::vector<models::Allocation> pending_;
  State state_ = State::Open;
  bool abandoned_ = false;
};

} // namespace poplar::detail::report
