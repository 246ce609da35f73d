#include "DecodedSteps.hpp"

#include "../model/Access.hpp"

#include <cstdlib>
#include <cstring>

namespace pva::detail {

namespace {

/// From TESSERA_PVA_PASS_READER, read at each pass so that a test can compare both ways.
bool useReaderThread(const std::vector<Run>& runs) {
  const char* forced = std::getenv("TESSERA_PVA_PASS_READER");
  if (forced && std::strcmp(forced, "inline") == 0) return false;
  if (forced && std::strcmp(forced, "thread") == 0) return true;
  if (std::thread::hardware_concurrency() < 2) return false;
  std::uint64_t steps = 0;
  for (const Run& run : runs)
    steps += run.steps().size();
  return steps >= 8 * 1024; // below that a thread costs more than it overlaps
}

} // namespace

DecodedSteps::DecodedSteps(const std::vector<Run>& runs) : runs_(runs) {
  if (!useReaderThread(runs)) {
    slots_.resize(1);
    return;
  }
  slots_.resize(kSlots);
  reader_ = std::thread([this] { readAhead(); });
}

DecodedSteps::~DecodedSteps() {
  if (!reader_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  room_.notify_one();
  reader_.join();
}

void DecodedSteps::fill(DecodedBatch& b) {
  b.steps.clear();
  b.ipuBegin.assign(1, 0);
  b.ipus.clear();
  b.endsRun = false;
  b.error = nullptr;
  try {
    if (!runOpen_) {
      steps_ = runs_.at(run_).steps();
      at_ = steps_.begin();
      end_ = steps_.end();
      runOpen_ = true;
    }
    for (; at_ != end_ && b.steps.size() < kBatchSteps; ++at_) {
      const ExecutionStep& step = *at_;
      Access::decodeAppend(step.ipus(), b.ipus);
      b.steps.push_back(step);
      b.ipuBegin.push_back(b.ipus.size());
    }
    if (at_ == end_) {
      b.endsRun = true;
      runOpen_ = false;
      steps_ = {};
      at_ = end_ = {};
      ++run_;
    }
  } catch (...) {
    b.error = std::current_exception();
  }
}

void DecodedSteps::readAhead() {
  for (;;) {
    DecodedBatch* slot;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      room_.wait(lock, [&] { return stop_ || filled_ - taken_ < kSlots; });
      if (stop_) return;
      slot = &slots_[filled_ % kSlots];
    }
    // The slot is the reader's alone until `filled_` moves past it.
    fill(*slot);
    const bool last = slot->error || (slot->endsRun && run_ == runs_.size());
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++filled_;
    }
    ready_.notify_one();
    if (last) return;
  }
}

const DecodedBatch& DecodedSteps::next() {
  if (!reader_.joinable()) {
    fill(slots_[0]);
    if (slots_[0].error) std::rethrow_exception(slots_[0].error);
    return slots_[0];
  }
  std::unique_lock<std::mutex> lock(mutex_);
  if (holding_) { // the batch handed out last is done with: its slot is free
    ++taken_;
    holding_ = false;
    room_.notify_one();
  }
  ready_.wait(lock, [&] { return filled_ > taken_; });
  holding_ = true;
  const DecodedBatch& b = slots_[taken_ % kSlots];
  if (b.error) std::rethrow_exception(b.error);
  return b;
}

} // namespace pva::detail
