#include "common/CapnpBytes.hpp"

#include <capnp/message.h>
#include <capnp/serialize-packed.h>
#include <kj/io.h>

namespace test {

namespace {
std::string bytesOf(kj::VectorOutputStream& out) {
  const auto bytes = out.getArray();
  return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
}
} // namespace

std::string packedMessage(::capnp::MessageBuilder& message) {
  kj::VectorOutputStream out;
  ::capnp::writePackedMessage(out, message);
  return bytesOf(out);
}

std::string packedMessage(kj::ArrayPtr<const kj::ArrayPtr<const ::capnp::word>> segments) {
  kj::VectorOutputStream out;
  ::capnp::writePackedMessage(out, segments);
  return bytesOf(out);
}

} // namespace test
