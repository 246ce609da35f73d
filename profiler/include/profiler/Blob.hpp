// Packed Cap'n Proto blobs for the large arrays of profile.pop (schema:
// profiler/schema/profile.capnp). Encoding appends to a caller-owned buffer so a writer can reuse
// one buffer for millions of rows; decoding validates the message and throws BlobError on anything
// malformed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::profiler {

class BlobError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// One IPU's part of an execution step (capnp StepIpu).
struct StepIpu {
  std::uint32_t ipu = 0;
  std::uint64_t cycles = 0;
  std::uint32_t activeTiles = 0;
  std::uint64_t activeFromMin = 0, activeFromMax = 0, activeToMin = 0, activeToMax = 0;
  std::uint64_t allFromMin = 0, allFromMax = 0, allToMin = 0, allToMax = 0;
  std::uint64_t dataIn = 0, dataOut = 0;
  float tileBalance = 0, activeTileBalance = 0;
  bool operator==(const StepIpu& o) const;
};

/// Replaces `out` with the packed TileValues message holding values[0..n).
void encodeTileValues(const std::uint64_t* values, std::size_t n, std::string& out);
std::string encodeTileValues(const std::vector<std::uint64_t>& values);
/// Decodes a packed TileValues message. Throws BlobError when it is not one.
std::vector<std::uint64_t> decodeTileValues(const void* data, std::size_t bytes);

void encodeStepIpus(const StepIpu* ipus, std::size_t n, std::string& out);
std::vector<StepIpu> decodeStepIpus(const void* data, std::size_t bytes);
/// The same into a caller-owned vector (replaced), so a reader can reuse its storage.
void decodeStepIpus(const void* data, std::size_t bytes, std::vector<StepIpu>& out);

} // namespace tessera::profiler
