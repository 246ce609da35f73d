// Cap'n Proto's packed encoding, written for speed. capnp's own PackedOutputStream examines
// every byte of every word; execution profiles are mostly idle tiles (zero words), so this
// packer finds the non-zero words first and visits only those. It emits exactly what
// capnp::writePackedMessage emits (the profiler tests compare the two), so any Cap'n Proto
// implementation reads the result.
#pragma once

#include <capnp/message.h>
#include <cstddef>
#include <string>

namespace tessera::profiler::detail {

/// Packs a message piece by piece (segment table, then each segment), like capnp's writer.
class PackedWriter {
public:
  /// `totalWords`: the words of all pieces to come (sizes the output buffer).
  explicit PackedWriter(std::size_t totalWords);
  void pack(const void* words, std::size_t n);
  /// Replaces `out` with the packed bytes.
  void finish(std::string& out);

private:
  struct Buffers;
  Buffers* b_;
  unsigned char* end_;
};

/// Replaces `out` with the packed stream encoding (segment table, then segments) of `message`.
void writePacked(::capnp::MessageBuilder& message, std::string& out);

} // namespace tessera::profiler::detail
