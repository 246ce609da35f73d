// Rebuilds one thread's event tree from its event_blocks: the file stores the begin/end/instant
// records as the thread made them, and the nesting is replayed here with a stack of open events.
// No SQL: TraceLoader reads the rows and feeds the blobs in.
#pragma once

#include "TraceData.hpp"

#include <cstddef>
#include <cstdint>
#include <profiler/TraceBlock.hpp>
#include <vector>

namespace pva::detail {

class EventReplay {
public:
  /// Fills `thread`; ids in the records are checked against `strings`.
  EventReplay(ThreadData& thread, const TraceStrings& strings) : t_(thread), strings_(strings) {}

  /// One block of the thread, in id order. Throws std::invalid_argument saying what is wrong
  /// (the caller names the block and the file); the thread is then unusable.
  void addBlock(const void* data, std::size_t size, std::int64_t firstNs, std::int64_t lastNs,
                std::int64_t count);

  /// After the last block: events still open never ended (the process was killed, or end()
  /// never came).
  void finish();

private:
  void record(const tessera::profiler::schema::trace::BlockRecord& r);

  ThreadData& t_;
  const TraceStrings& strings_;
  std::vector<std::uint32_t> open_; ///< indices into t_.events of the open events, innermost last
  std::int64_t lastNs_ = 0;         ///< end of the previous block: blocks must not go back in time
};

} // namespace pva::detail
