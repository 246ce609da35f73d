// Packed Cap'n Proto encoding of the large per-tile arrays. Encoding is on the hot path of
// execution profiling (two blobs per step, millions of steps), so it reuses a thread-local
// first segment and packs with a word-at-a-time packer (Pack.hpp): no allocation per row once
// the buffers have grown. Decoding uses capnp's own reader and treats the bytes as hostile.
#include "Pack.hpp"

#include <algorithm>
#include <array>
#include <capnp/message.h>
#include <capnp/serialize-packed.h>
#include <cstring>
#include <kj/exception.h>
#include <kj/io.h>
#include <limits>
#include <profiler/Blob.hpp>
#include <profiler/schema/profile.capnp.h>

namespace tessera::profiler {

namespace pcapnp = tessera::profiler::capnp;

bool StepIpu::operator==(const StepIpu& o) const {
  return ipu == o.ipu && cycles == o.cycles && activeTiles == o.activeTiles &&
         activeFromMin == o.activeFromMin && activeFromMax == o.activeFromMax &&
         activeToMin == o.activeToMin && activeToMax == o.activeToMax &&
         allFromMin == o.allFromMin && allFromMax == o.allFromMax && allToMin == o.allToMin &&
         allToMax == o.allToMax && dataIn == o.dataIn && dataOut == o.dataOut &&
         tileBalance == o.tileBalance && activeTileBalance == o.activeTileBalance;
}

namespace {

// First segment reused by every encode on this thread: 1472 tiles x 8 bytes plus headers fit.
// MallocMessageBuilder requires it zeroed and zeroes what it used again when destroyed.
constexpr std::size_t kScratchWords = 4096;
kj::ArrayPtr<::capnp::word> scratchSegment() {
  thread_local std::array<::capnp::word, kScratchWords> words{};
  return {words.data(), words.size()};
}

template <class Build> void encode(std::string& out, Build&& build) {
  ::capnp::MallocMessageBuilder message(scratchSegment());
  build(message);
  detail::writePacked(message, out);
}

// Reads one packed message from the bytes and hands its root to `read`. Limits follow from the
// input size (a packed byte pair unpacks to at most 256 words), so hostile bytes cannot make the
// reader allocate or traverse more than the blob could legitimately hold.
template <class Root, class Read>
void decode(const void* data, std::size_t bytes, const char* what, Read&& read) {
  if (bytes == 0) throw BlobError(std::string("cannot decode ") + what + ": the blob is empty");
  if (!data) throw BlobError(std::string("cannot decode ") + what + ": no data");
  try {
    kj::ArrayInputStream input(kj::arrayPtr(static_cast<const kj::byte*>(data), bytes));
    ::capnp::ReaderOptions options;
    const std::uint64_t limit = (static_cast<std::uint64_t>(bytes) / 2 + 1) * 256 + 64;
    options.traversalLimitInWords = std::min<std::uint64_t>(limit, options.traversalLimitInWords);
    {
      ::capnp::PackedMessageReader reader(input, options);
      read(reader.getRoot<Root>());
    } // the reader's destructor may still read (and throw) on truncated multi-segment input
    if (input.tryGetReadBuffer().size() != 0)
      throw BlobError(std::string("cannot decode ") + what + ": " +
                      std::to_string(input.tryGetReadBuffer().size()) +
                      " unexpected bytes after the message");
  } catch (const kj::Exception& e) {
    throw BlobError(
        std::string("cannot decode ") + what + " (" + std::to_string(bytes) +
        " bytes): not a valid packed Cap'n Proto message: " + e.getDescription().cStr());
  }
}

} // namespace

// TileValues is the hottest message (one per step, millions of steps) and has a fixed layout, so
// it is written directly rather than built in a MessageBuilder first (which would copy and then
// zero 11.8 KB per step): one segment holding the root struct pointer (no data words, one
// pointer), the list pointer (8-byte elements, n of them, starting right after it), and the
// caller's values, packed in place. The profiler tests check the bytes equal what capnp's own
// MessageBuilder + writePackedMessage produce, for many inputs.
void encodeTileValues(const std::uint64_t* values, std::size_t n, std::string& out) {
  if (n >= (std::uint64_t(1) << 29) - 2)
    throw BlobError("cannot encode TileValues: too many values");
  const std::uint64_t segmentWords = 2 + n;
  const std::uint64_t table = segmentWords << 32; // segment count - 1 = 0, then the segment's size
  const std::uint64_t header[2] = {
      std::uint64_t(1) << 48, // struct pointer: offset 0, 0 data words, 1 pointer
      1 | ((5 | (std::uint64_t(n) << 3))
           << 32), // list pointer: offset 0, element size 5 (8 bytes), n
  };
  detail::PackedWriter writer(1 + segmentWords);
  writer.pack(&table, 1);
  writer.pack(header,
              2); // neither word can start a run, so packing values separately changes nothing
  writer.pack(values, n);
  writer.finish(out);
}

std::string encodeTileValues(const std::vector<std::uint64_t>& values) {
  std::string out;
  encodeTileValues(values.data(), values.size(), out);
  return out;
}

std::vector<std::uint64_t> decodeTileValues(const void* data, std::size_t bytes) {
  std::vector<std::uint64_t> values;
  decode<pcapnp::TileValues>(data, bytes, "TileValues", [&](pcapnp::TileValues::Reader root) {
    auto list = root.getValues();
    values.resize(list.size());
    for (unsigned i = 0; i < list.size(); ++i)
      values[i] = list[i];
  });
  return values;
}

void encodeStepIpus(const StepIpu* ipus, std::size_t n, std::string& out) {
  if (n > std::numeric_limits<std::uint32_t>::max() / 16)
    throw BlobError("cannot encode StepIpus: too many IPUs");
  encode(out, [&](::capnp::MessageBuilder& message) {
    auto list = message.initRoot<pcapnp::StepIpus>().initIpus(static_cast<unsigned>(n));
    for (std::size_t i = 0; i < n; ++i) {
      const StepIpu& s = ipus[i];
      auto b = list[static_cast<unsigned>(i)];
      b.setIpu(s.ipu);
      b.setCycles(s.cycles);
      b.setActiveTiles(s.activeTiles);
      b.setActiveFromMin(s.activeFromMin);
      b.setActiveFromMax(s.activeFromMax);
      b.setActiveToMin(s.activeToMin);
      b.setActiveToMax(s.activeToMax);
      b.setAllFromMin(s.allFromMin);
      b.setAllFromMax(s.allFromMax);
      b.setAllToMin(s.allToMin);
      b.setAllToMax(s.allToMax);
      b.setDataIn(s.dataIn);
      b.setDataOut(s.dataOut);
      b.setTileBalance(s.tileBalance);
      b.setActiveTileBalance(s.activeTileBalance);
    }
  });
}

std::vector<StepIpu> decodeStepIpus(const void* data, std::size_t bytes) {
  std::vector<StepIpu> ipus;
  decodeStepIpus(data, bytes, ipus);
  return ipus;
}

void decodeStepIpus(const void* data, std::size_t bytes, std::vector<StepIpu>& ipus) {
  decode<pcapnp::StepIpus>(data, bytes, "StepIpus", [&](pcapnp::StepIpus::Reader root) {
    auto list = root.getIpus();
    ipus.resize(list.size());
    for (unsigned i = 0; i < list.size(); ++i) {
      auto r = list[i];
      StepIpu& s = ipus[i];
      s.ipu = r.getIpu();
      s.cycles = r.getCycles();
      s.activeTiles = r.getActiveTiles();
      s.activeFromMin = r.getActiveFromMin();
      s.activeFromMax = r.getActiveFromMax();
      s.activeToMin = r.getActiveToMin();
      s.activeToMax = r.getActiveToMax();
      s.allFromMin = r.getAllFromMin();
      s.allFromMax = r.getAllFromMax();
      s.allToMin = r.getAllToMin();
      s.allToMax = r.getAllToMax();
      s.dataIn = r.getDataIn();
      s.dataOut = r.getDataOut();
      s.tileBalance = r.getTileBalance();
      s.activeTileBalance = r.getActiveTileBalance();
    }
  });
}

} // namespace tessera::profiler
