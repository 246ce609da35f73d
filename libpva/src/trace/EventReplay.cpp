// Replaying a thread's begin/end/instant records into its event tree (see EventReplay.hpp).
#include "EventReplay.hpp"

#include <stdexcept>
#include <string>

namespace pva::detail {

namespace ts = tessera::profiler::schema::trace;

namespace {

std::uint32_t checkedId(std::uint32_t id, const std::vector<std::string>& table, const char* what,
                        bool nullable) {
  if ((nullable && id == 0) || (id >= 1 && id < table.size())) return id;
  throw std::invalid_argument(std::string("a record refers to ") + what + " " + std::to_string(id) +
                              ", which the trace does not define");
}

} // namespace

void EventReplay::addBlock(const void* data, std::size_t size, std::int64_t firstNs,
                           std::int64_t lastNs, std::int64_t count) {
  if (count < 1)
    throw std::invalid_argument("count " + std::to_string(count) +
                                " (a block holds at least 1 record)");
  // Checked before decoding so that a hostile count cannot make us allocate: a record takes at
  // least 2 bytes (header and time delta).
  if (static_cast<std::uint64_t>(count) > size / 2)
    throw std::invalid_argument("count " + std::to_string(count) + " records cannot fit in " +
                                std::to_string(size) + " bytes (truncated blob?)");
  ts::BlockDecoder decoder(data, size, firstNs); // checks first_ns >= 0
  if (firstNs < lastNs_)
    throw std::invalid_argument("first_ns " + std::to_string(firstNs) +
                                " is before the end of the thread's previous block (" +
                                std::to_string(lastNs_) + ")");
  ts::BlockRecord r{};
  std::int64_t decoded = 0;
  while (decoder.next(r)) {
    if (++decoded > count)
      throw std::invalid_argument("more records than its count of " + std::to_string(count) +
                                  " (byte " + std::to_string(decoder.offset()) + ")");
    record(r);
  }
  if (decoded != count)
    throw std::invalid_argument("the blob ends after " + std::to_string(decoded) + " of its " +
                                std::to_string(count) + " records (truncated?)");
  if (decoder.lastNs() != lastNs)
    throw std::invalid_argument("its records end at " + std::to_string(decoder.lastNs()) +
                                " ns, not at last_ns " + std::to_string(lastNs));
  lastNs_ = lastNs;
}

void EventReplay::record(const ts::BlockRecord& r) {
  const std::uint32_t channel = checkedId(r.channel, strings_.channels, "channel", false);
  const std::uint32_t label = checkedId(r.label, strings_.labels, "label", false);
  const std::uint32_t metadata = checkedId(r.metadata, strings_.metadata, "metadata", true);
  switch (r.kind) {
  case ts::BlockRecordKind::begin: {
    if (t_.events.size() >= UINT32_MAX)
      throw std::invalid_argument("more than 2^32-1 events on one thread");
    EventRecord e{};
    e.beginNs = e.endNs = r.tsNs;
    e.label = label;
    e.channel = channel;
    e.metadata = metadata;
    e.depth = static_cast<std::uint32_t>(open_.size());
    e.finished = false;
    open_.push_back(static_cast<std::uint32_t>(t_.events.size()));
    t_.events.push_back(e);
    break;
  }
  case ts::BlockRecordKind::end: {
    if (open_.empty()) {
      t_.instants.push_back({r.tsNs, label, channel, 0, InstantEvent::Kind::UnmatchedEnd});
      break;
    }
    // end() closes the innermost open event whatever its label; a different label is recorded.
    EventRecord& e = t_.events[open_.back()];
    open_.pop_back();
    e.endNs = r.tsNs;
    e.finished = true;
    e.next = static_cast<std::uint32_t>(t_.events.size());
    if (e.label != label)
      t_.instants.push_back({r.tsNs, label, channel, 0, InstantEvent::Kind::MismatchedEnd});
    break;
  }
  case ts::BlockRecordKind::instant:
    t_.instants.push_back({r.tsNs, label, channel, metadata, InstantEvent::Kind::Instant});
    break;
  }
}

void EventReplay::finish() {
  const auto end = static_cast<std::uint32_t>(t_.events.size());
  for (std::uint32_t i : open_)
    t_.events[i].next = end; // endNs stays beginNs, finished false
  open_.clear();
}

} // namespace pva::detail
