// The steps of a report's runs, read and their IPU entries decoded in batches, ahead of the
// whole-steps pass (analyseExecution) on a thread of its own when the machine has a core to
// spare. Reading (SQLite, copying the rows) and decoding are about two thirds of the pass's CPU
// on the bench's 1 M-step report; the pass's own work (figures, a StepObserver) then overlaps
// them instead of following them, so the pass's wall time is close to the reading's alone.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <pva/Execution.hpp>
#include <thread>
#include <vector>

namespace pva::detail {

/// Consecutive steps of one run, each with its decoded IPU entries.
struct DecodedBatch {
  std::vector<ExecutionStep> steps;
  /// Step i's entries are ipus[ipuBegin[i], ipuBegin[i + 1]).
  std::vector<std::size_t> ipuBegin;
  std::vector<IpuExecution> ipus;
  bool endsRun = false;     ///< the run's last batch (a run without steps has one, empty)
  std::exception_ptr error; ///< what the reading threw; nothing follows it

  std::size_t size() const { return steps.size(); }
  const IpuExecution* ipusOf(std::size_t i) const { return ipus.data() + ipuBegin[i]; }
  std::size_t numIpusOf(std::size_t i) const { return ipuBegin[i + 1] - ipuBegin[i]; }
};

/// The runs' steps in order, batch by batch. Whether a thread reads ahead is chosen once, at
/// construction: TESSERA_PVA_PASS_READER=inline or =thread forces it (for tests and
/// measurements); otherwise a thread is used when the machine has more than one core and the
/// runs hold more than a few batches of steps.
class DecodedSteps {
public:
  explicit DecodedSteps(const std::vector<Run>& runs);
  /// Stops the reading thread (it may be waiting for room) and joins it.
  ~DecodedSteps();
  DecodedSteps(const DecodedSteps&) = delete;
  DecodedSteps& operator=(const DecodedSteps&) = delete;

  /// The next batch, valid until the next call; rethrows what the reading threw. Call it until a
  /// batch ends the last run, and no further.
  const DecodedBatch& next();
  bool readsAhead() const { return reader_.joinable(); }

private:
  static constexpr std::size_t kBatchSteps = 1024;
  static constexpr std::size_t kSlots = 4; ///< batches read ahead at most

  /// Reads the next batch into `b` on whichever thread calls it.
  void fill(DecodedBatch& b);
  void readAhead();

  const std::vector<Run>& runs_;
  std::size_t run_ = 0;
  ExecutionSteps steps_;
  ExecutionSteps::iterator at_, end_;
  bool runOpen_ = false;

  // The slots, a ring: the reader fills slots_[filled_ % kSlots], the pass takes
  // slots_[taken_ % kSlots]; the slot handed out last is freed by the next call to next().
  std::vector<DecodedBatch> slots_;
  std::uint64_t filled_ = 0, taken_ = 0;
  bool holding_ = false, stop_ = false;
  std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::thread reader_;
};

} // namespace pva::detail
