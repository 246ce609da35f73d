// step.ipus(): the IPUs of a step, decoded from the step's packed data one entry at a time
// (storage/PackedStepIpus.hpp), or in full when the blob is laid out otherwise.
#include "../storage/PackedStepIpus.hpp"
#include "Access.hpp"

#include <algorithm>
#include <profiler/Blob.hpp>

namespace pva {

using detail::Access;
using detail::StepBytes;

namespace {

// The iterator keeps its place in the packed stream as a plain integer, so that the public header
// says nothing of the format: byte offset in bits 0-31, the zero run left in bits 32-39, the
// verbatim run left in bits 40-47.
storage::PackedPosition toStorage(std::uint64_t token) {
  return {std::uint32_t(token), std::uint8_t(token >> 32), std::uint8_t(token >> 40)};
}
std::uint64_t toToken(storage::PackedPosition p) {
  return std::uint64_t(p.byte) | std::uint64_t(p.zeros) << 32 | std::uint64_t(p.verbatim) << 40;
}

IpuExecution toIpuExecution(const tessera::profiler::StepIpu& d) {
  return Access::ipuExecution({d.ipu, d.activeTiles, d.cycles, d.activeFromMin, d.activeFromMax,
                               d.activeToMin, d.activeToMax, d.allFromMin, d.allFromMax, d.allToMin,
                               d.allToMax, d.dataIn, d.dataOut, d.tileBalance,
                               d.activeTileBalance});
}

[[noreturn]] void corruptStep(const StepBytes& chunk, std::uint64_t step,
                              const tessera::profiler::BlobError& e) {
  chunk.state->store.corrupt("corrupted step " + std::to_string(step) + ": " + e.what());
}

} // namespace

IpuExecutions::iterator IpuExecutions::begin() const {
  iterator it;
  it.list_ = this;
  // "Entry -1 was decoded": entry 0, where the step's layout says, is next in order.
  if (!decoded_ && size_) it.next_ = toToken(chunk_->steps[row_].layout.first);
  return it;
}

IpuExecutions::iterator IpuExecutions::end() const {
  iterator it;
  it.list_ = this;
  it.index_ = size_;
  return it;
}

const IpuExecution& IpuExecutions::iterator::operator*() const {
  if (decoded_ != index_) {
    // In order, each entry continues where the last one ended; otherwise it is looked up.
    if (list_->decoded_ || decoded_ + 1 != index_ || index_ >= list_->size_) {
      current_ = (*list_)[index_];
    } else {
      current_ = list_->decode(next_);
    }
    decoded_ = index_;
  }
  return current_;
}

IpuExecutions::iterator& IpuExecutions::iterator::operator++() {
  ++index_;
  return *this;
}

IpuExecution IpuExecutions::operator[](std::size_t i) const {
  if (i >= size_) {
    if (!chunk_)
      throw InvalidArgumentError("no IPU entry " + std::to_string(i) + " in an empty IPU list");
    chunk_->state->badArgument("no IPU entry " + std::to_string(i) + " in step " +
                               std::to_string(chunk_->steps[row_].row.id) + " (it has " +
                               std::to_string(size_) + ")");
  }
  if (decoded_) return (*decoded_)[i];
  const detail::StepEntry& step = chunk_->steps[row_];
  std::uint64_t at = 0;
  try {
    at = toToken(storage::stepIpuPosition(chunk_->at(step.row.ipusOffset), step.row.ipusSize,
                                          step.layout, i));
  } catch (const tessera::profiler::BlobError& e) {
    corruptStep(*chunk_, step.row.id, e);
  }
  return decode(at);
}

IpuExecution IpuExecutions::at(std::size_t i) const {
  return (*this)[i];
}

IpuExecutions::operator std::vector<IpuExecution>() const {
  std::vector<IpuExecution> out;
  out.reserve(size_);
  for (const IpuExecution& ipu : *this)
    out.push_back(ipu);
  return out;
}

IpuExecution IpuExecutions::decode(std::uint64_t& at) const {
  const detail::StepEntry& step = chunk_->steps[row_];
  storage::PackedPosition p = toStorage(at);
  tessera::profiler::StepIpu d;
  try {
    d = storage::readStepIpuAt(chunk_->at(step.row.ipusOffset), step.row.ipusSize, step.layout, p);
  } catch (const tessera::profiler::BlobError& e) {
    corruptStep(*chunk_, step.row.id, e);
  }
  at = toToken(p);
  return toIpuExecution(d);
}

namespace detail {

IpuExecutions Access::ipuExecutions(const std::shared_ptr<const StepBytes>& chunk,
                                    std::uint32_t row) {
  IpuExecutions l;
  l.chunk_ = chunk;
  l.row_ = row;
  const StepEntry& step = chunk->steps[row];
  if (step.plain) {
    l.size_ = step.layout.count;
    return l;
  }
  // Another layout, or damage: Cap'n Proto's own reader decodes it in full or says what is wrong.
  std::vector<tessera::profiler::StepIpu> all;
  try {
    tessera::profiler::decodeStepIpus(chunk->at(step.row.ipusOffset), step.row.ipusSize, all);
  } catch (const tessera::profiler::BlobError& e) {
    corruptStep(*chunk, step.row.id, e);
  }
  auto decoded = std::make_shared<std::vector<IpuExecution>>();
  decoded->reserve(all.size());
  for (const auto& d : all)
    decoded->push_back(toIpuExecution(d));
  l.size_ = static_cast<std::uint32_t>(decoded->size());
  l.decoded_ = std::move(decoded);
  return l;
}

void Access::decodeAll(const IpuExecutions& list, std::vector<IpuExecution>& out) {
  out.clear();
  decodeAppend(list, out);
}

void Access::decodeAppend(const IpuExecutions& list, std::vector<IpuExecution>& out) {
  if (list.decoded_) {
    out.insert(out.end(), list.decoded_->begin(), list.decoded_->end());
    return;
  }
  if (list.size_ == 0) return;
  const StepEntry& step = list.chunk_->steps[list.row_];
  const unsigned char* data = list.chunk_->at(step.row.ipusOffset);
  // One position carried from entry to entry, as the iterator does, without its token round
  // trips and copies (a pass decodes 16 M entries on the bench's 1 M-step report): the entries
  // in batches of a stack buffer, then set field by field.
  storage::PackedPosition at = step.layout.first;
  const std::size_t first = out.size();
  out.resize(first + list.size_);
  constexpr std::size_t kBatch = 32;
  tessera::profiler::StepIpu batch[kBatch];
  for (std::size_t done = 0; done < list.size_;) {
    const std::size_t n = std::min<std::size_t>(kBatch, list.size_ - done);
    try {
      storage::readStepIpus(data, step.row.ipusSize, step.layout, at, batch, n);
    } catch (const tessera::profiler::BlobError& e) {
      out.resize(first); // nothing half-decoded is left behind
      corruptStep(*list.chunk_, step.row.id, e);
    }
    for (std::size_t i = 0; i < n; ++i)
      setIpuExecution(out[first + done + i], batch[i]);
    done += n;
  }
}

} // namespace detail
} // namespace pva
