// Reads the IPU entries of a step's packed StepIpus blob (profile.capnp) in place, one entry at a
// time. Cap'n Proto's packed reader unpacks the whole message before anything can be read: for
// 16 IPUs that is about 210 words per step, most of the cost of iterating a million steps when
// a client reads one IPU's cycles. Here only the head of the message and the entries asked for
// are unpacked. Anything but the plain layout Cap'n Proto's builder writes (one segment, root
// struct, then the list) is left to the full decoder (tessera::profiler::decodeStepIpus), which
// reads every valid layout and rejects damaged bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <profiler/Blob.hpp>

namespace pva::storage {

/// A place in a packed stream: the next byte, and what is left of a run of zero words or of
/// words stored verbatim that started before it (packing encodes such runs with one count).
struct PackedPosition {
  std::uint32_t byte = 0;
  std::uint8_t zeros = 0, verbatim = 0;
};

/// Where a blob's IPU entries are.
struct StepIpusLayout {
  PackedPosition first;           ///< the first entry's first word
  std::uint32_t count = 0;        ///< entries (IPUs that took part)
  std::uint16_t dataWords = 0;    ///< per entry: a data section of this many words...
  std::uint16_t pointerWords = 0; ///< ...then this many pointers (none today; skipped)
};

/// Reads the head of a packed StepIpus blob. False when it is not the plain layout, or when the
/// head is damaged: either way the caller decodes the blob in full, which reads other valid
/// layouts and names the damage.
bool readStepIpusLayout(const unsigned char* data, std::size_t size, StepIpusLayout& out);

/// Decodes the entry that starts at `at` and moves `at` to the next one. Throws
/// tessera::profiler::BlobError when the blob ends before the entry does.
tessera::profiler::StepIpu readStepIpuAt(const unsigned char* data, std::size_t size,
                                         const StepIpusLayout& layout, PackedPosition& at);

/// Decodes `count` entries from `at` into out[0, count) and moves `at` past them: one call per
/// step for a pass over every step (the reader's state stays in registers between entries).
/// Throws BlobError as readStepIpuAt.
void readStepIpus(const unsigned char* data, std::size_t size, const StepIpusLayout& layout,
                  PackedPosition& at, tessera::profiler::StepIpu* out, std::size_t count);

/// Where entry `i` (< layout.count) starts. Throws BlobError when the blob ends before it.
PackedPosition stepIpuPosition(const unsigned char* data, std::size_t size,
                               const StepIpusLayout& layout, std::size_t i);

} // namespace pva::storage
