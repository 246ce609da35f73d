// A per-input budget of time and memory that a fuzz target enforces itself: the work a reader
// does must be bounded by the input's size (docs/formats.md, "Hostile files"), so an input
// that costs more than its budget is a finding even when it ends in a clean error. libFuzzer's
// own -timeout and -rss_limit_mb catch hangs and the process's size; this catches an input of
// 64 KiB that costs seconds or hundreds of MiB.
//
//   fuzz::Budget budget(size);  // at the start of LLVMFuzzerTestOneInput
//   ...                         // allocations are counted as they happen (sanitizer hooks)
//   budget.check("summarize");  // between stages: CPU time so far
//
// FUZZ_STAGE_TIMES=1 in the environment prints, at exit, the CPU time spent in each stage (from
// the previous check), summed over the inputs: where a target's executions go.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fuzz {

class Budget {
public:
  /// CPU seconds of this thread and bytes live on the heap at once, each a fixed part plus a
  /// part per byte of the input. Generous for the sanitizers' slowdown; far below a bug's cost.
  static constexpr double kBaseSeconds = 5.0, kSecondsPerByte = 50e-6;
  static constexpr std::uint64_t kBaseBytes = 256ull << 20, kBytesPerByte = 1024;

  explicit Budget(std::size_t inputBytes);
  ~Budget();
  Budget(const Budget&) = delete;
  Budget& operator=(const Budget&) = delete;

  /// Aborts (a finding, with the input saved by libFuzzer) when the input has used more CPU
  /// time than its budget; `stage` names where.
  void check(const char* stage) const;
  /// The most bytes live at once since the budget started (only with the sanitizers' hooks).
  static std::uint64_t peakBytes();

private:
  double startSeconds_ = 0, limitSeconds_ = 0;
  std::size_t inputBytes_ = 0;
};

} // namespace fuzz
