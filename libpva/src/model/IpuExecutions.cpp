// step.ipus(): the IPUs of a step, decoded from the step's packed data one entry at a time
// (storage/PackedStepIpus.hpp), or in full when the blob is laid out otherwise.
#include "Access.hpp"

#include "../storage/PackedStepIpus.hpp"

#include <profiler/Blob.hpp>

namespace pva {

using detail::Access;
using detail::StepBytes;

namespace {

storage::PackedPosition toStorage(detail::PackedPosition p) { return {p.byte, p.zeros, p.verbatim}; }
detail::PackedPosition fromStorage(storage::PackedPosition p) { return {p.byte, p.zeros, p.verbatim}; }

IpuExecution toIpuExecution(const tessera::profiler::StepIpu& d) {
  return Access::ipuExecution({d.ipu, d.activeTiles, d.cycles, d.activeFromMin, d.activeFromMax, d.activeToMin,
                               d.activeToMax, d.allFromMin, d.allFromMax, d.allToMin, d.allToMax, d.dataIn, d.dataOut,
                               d.tileBalance, d.activeTileBalance});
}

[[noreturn]] void corruptStep(const StepBytes& chunk, std::uint64_t step, const tessera::profiler::BlobError& e) {
  chunk.state->store.corrupt("corrupted step " + std::to_string(step) + ": " + e.what());
}

} // namespace

IpuExecutions::iterator IpuExecutions::begin() const {
  iterator it;
  it.list_ = this;
  it.next_ = first_; // "entry -1 was decoded": entry 0, at first_, is next in order
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
    const std::string what = "no IPU entry " + std::to_string(i) + " in step " + std::to_string(step_) + " (it has " +
                             std::to_string(size_) + ")";
    if (!chunk_) throw InvalidArgumentError(what);
    chunk_->state->badArgument(what);
  }
  if (decoded_) return (*decoded_)[i];
  storage::StepIpusLayout layout;
  layout.first = toStorage(first_);
  layout.count = size_;
  layout.dataWords = dataWords_;
  layout.pointerWords = pointerWords_;
  detail::PackedPosition at;
  try {
    at = fromStorage(storage::stepIpuPosition(chunk_->at(offset_), bytes_, layout, i));
  } catch (const tessera::profiler::BlobError& e) {
    corruptStep(*chunk_, step_, e);
  }
  return decode(at);
}

IpuExecution IpuExecutions::at(std::size_t i) const { return (*this)[i]; }

IpuExecutions::operator std::vector<IpuExecution>() const {
  std::vector<IpuExecution> out;
  out.reserve(size_);
  for (const IpuExecution& ipu : *this) out.push_back(ipu);
  return out;
}

IpuExecution IpuExecutions::decode(detail::PackedPosition& at) const {
  storage::StepIpusLayout layout;
  layout.count = size_;
  layout.dataWords = dataWords_;
  layout.pointerWords = pointerWords_;
  storage::PackedPosition p = toStorage(at);
  tessera::profiler::StepIpu d;
  try {
    d = storage::readStepIpuAt(chunk_->at(offset_), bytes_, layout, p);
  } catch (const tessera::profiler::BlobError& e) {
    corruptStep(*chunk_, step_, e);
  }
  at = fromStorage(p);
  return toIpuExecution(d);
}

namespace detail {

IpuExecutions Access::ipuExecutions(const std::shared_ptr<const StepBytes>& chunk, std::uint64_t step,
                                    std::uint32_t offset, std::uint32_t size) {
  IpuExecutions l;
  l.chunk_ = chunk;
  l.step_ = step;
  l.offset_ = offset;
  l.bytes_ = size;
  const unsigned char* blob = chunk->at(offset);
  storage::StepIpusLayout layout;
  if (storage::readStepIpusLayout(blob, size, layout)) {
    l.size_ = layout.count;
    l.dataWords_ = layout.dataWords;
    l.pointerWords_ = layout.pointerWords;
    l.first_ = fromStorage(layout.first);
    return l;
  }
  // Another layout, or damage: Cap'n Proto's own reader decodes it in full or says what is wrong.
  std::vector<tessera::profiler::StepIpu> all;
  try {
    tessera::profiler::decodeStepIpus(blob, size, all);
  } catch (const tessera::profiler::BlobError& e) {
    corruptStep(*chunk, step, e);
  }
  auto decoded = std::make_shared<std::vector<IpuExecution>>();
  decoded->reserve(all.size());
  for (const auto& d : all) decoded->push_back(toIpuExecution(d));
  l.size_ = static_cast<std::uint32_t>(decoded->size());
  l.decoded_ = std::move(decoded);
  return l;
}

} // namespace detail
} // namespace pva
