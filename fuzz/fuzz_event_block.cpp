// The .pvti event-block decoder alone (profiler/TraceBlock.hpp), and the replay that turns its
// records into nested events (libpva trace/EventReplay), as the trace loader drives them. The
// first 8 bytes are the block's first_ns.
#include "trace/EventReplay.hpp"
#include "trace/TraceData.hpp"

#include <cstring>
#include <profiler/TraceBlock.hpp>
#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 8) return 0;
  std::int64_t firstNs = 0;
  std::memcpy(&firstNs, data, 8);
  data += 8, size -= 8;
  namespace ts = tessera::profiler::schema::trace;
  std::int64_t count = 0, lastNs = firstNs;
  try {
    ts::BlockDecoder decoder(data, size, firstNs);
    ts::BlockRecord r;
    while (decoder.next(r))
      ++count;
    lastNs = decoder.lastNs();
  } catch (const std::invalid_argument&) {
  }
  // The same bytes through the replay, with every id valid (ids are checked against the
  // trace's tables there; here they are the decoder's).
  auto strings = std::make_shared<pva::detail::TraceStrings>();
  strings->labels.assign(4, "l");
  strings->channels.assign(4, "c");
  strings->metadata.assign(4, "m");
  pva::detail::ThreadData thread;
  thread.strings = strings;
  try {
    pva::detail::EventReplay replay(thread, *strings);
    // The row's columns as a writer fills them, so the replay reads past its own checks.
    replay.addBlock(data, size, firstNs, lastNs, count);
    replay.finish();
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
