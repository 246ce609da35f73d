// A pull reader over CBOR bytes, one item head at a time (libcbor's streaming decoder,
// cbor_stream_decode). Unlike cbor_load it builds no tree, so it allocates nothing a file
// declares: an array claiming 2^31 items costs nothing until its items are read, and each
// item needs at least one byte of the file. It never calls libcbor's item API, whose assertions
// (kept in Debian's build) abort the process on a type the caller did not expect.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace pva::storage {

/// What is wrong with the bytes and at which byte; the caller adds the file.
struct CborError : std::runtime_error {
  CborError(const std::string& what, bool isTruncated)
      : std::runtime_error(what), truncated(isTruncated) {}
  bool truncated; ///< the bytes ended inside an item
};

struct CborItem {
  enum class Kind {
    Unsigned,
    Negative,
    Bytes,
    Text,
    Array,
    Map,
    Tag,
    Float,
    Bool,
    Null,
    Undefined,
    Indefinite,
    Break
  };
  Kind kind = Kind::Null;
  std::uint64_t value = 0; ///< Unsigned, Negative (-1 - value), Array/Map size, Tag number, Bool
  std::string_view text;   ///< Bytes and Text: the payload, inside the input
  std::size_t offset = 0;  ///< where its head starts
};

const char* kindName(CborItem::Kind kind);

class CborCursor {
public:
  explicit CborCursor(std::string_view bytes) : bytes_(bytes) {}
  bool atEnd() const { return at_ == bytes_.size(); }
  std::size_t offset() const { return at_; }
  std::size_t remaining() const { return bytes_.size() - at_; }
  void seek(std::size_t offset) { at_ = offset; }

  /// Reads the next item's head (and a string's payload). Throws CborError when the bytes end
  /// first or are not CBOR.
  CborItem next();
  /// Skips the item whose head `item` was, with everything nested in it. Iterative, so a deep
  /// nesting cannot overflow the stack; the count of items still to skip only grows by what
  /// heads declare and every item is at least one byte, so the loop ends within the input.
  void skip(const CborItem& item);

private:
  std::string_view bytes_;
  std::size_t at_ = 0;
};

} // namespace pva::storage
