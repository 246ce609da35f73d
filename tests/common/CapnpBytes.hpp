// Packed Cap'n Proto bytes made with capnp's own writer, to compare with or feed to Tessera's
// blob encoders and readers.
#pragma once

#include <capnp/common.h>
#include <kj/common.h>
#include <string>

namespace capnp {
class MessageBuilder;
}

namespace test {

/// The message packed by capnp::writePackedMessage.
std::string packedMessage(::capnp::MessageBuilder& message);
/// A message given as raw segments (a layout written by hand), packed by capnp::writePackedMessage.
std::string packedMessage(kj::ArrayPtr<const kj::ArrayPtr<const ::capnp::word>> segments);

} // namespace test
