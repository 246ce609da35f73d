#include "CborCursor.hpp"

#include <cbor.h>

namespace pva::storage {

const char* kindName(CborItem::Kind kind) {
  using K = CborItem::Kind;
  switch (kind) {
  case K::Unsigned:
    return "an unsigned integer";
  case K::Negative:
    return "a negative integer";
  case K::Bytes:
    return "a byte string";
  case K::Text:
    return "text";
  case K::Array:
    return "an array";
  case K::Map:
    return "a map";
  case K::Tag:
    return "a tag";
  case K::Float:
    return "a float";
  case K::Bool:
    return "a boolean";
  case K::Null:
    return "null";
  case K::Undefined:
    return "undefined";
  case K::Indefinite:
    return "an indefinite-length item";
  case K::Break:
    return "a break";
  }
  return "an unknown item";
}

namespace {

using K = CborItem::Kind;

CborItem& itemOf(void* context) {
  return *static_cast<CborItem*>(context);
}
void setUnsigned(void* c, std::uint64_t v) {
  itemOf(c).kind = K::Unsigned, itemOf(c).value = v;
}
void setNegative(void* c, std::uint64_t v) {
  itemOf(c).kind = K::Negative, itemOf(c).value = v;
}

const cbor_callbacks& callbacks() {
  static const cbor_callbacks cb = [] {
    cbor_callbacks c = cbor_empty_callbacks;
    c.uint8 = [](void* x, std::uint8_t v) { setUnsigned(x, v); };
    c.uint16 = [](void* x, std::uint16_t v) { setUnsigned(x, v); };
    c.uint32 = [](void* x, std::uint32_t v) { setUnsigned(x, v); };
    c.uint64 = [](void* x, std::uint64_t v) { setUnsigned(x, v); };
    c.negint8 = [](void* x, std::uint8_t v) { setNegative(x, v); };
    c.negint16 = [](void* x, std::uint16_t v) { setNegative(x, v); };
    c.negint32 = [](void* x, std::uint32_t v) { setNegative(x, v); };
    c.negint64 = [](void* x, std::uint64_t v) { setNegative(x, v); };
    // libcbor's names: byte_string/string are the definite ones, *_start the indefinite ones.
    c.byte_string = [](void* x, cbor_data d, std::size_t n) {
      itemOf(x).kind = K::Bytes, itemOf(x).text = {reinterpret_cast<const char*>(d), n};
    };
    c.string = [](void* x, cbor_data d, std::size_t n) {
      itemOf(x).kind = K::Text, itemOf(x).text = {reinterpret_cast<const char*>(d), n};
    };
    c.byte_string_start = c.string_start = c.indef_array_start =
        c.indef_map_start = [](void* x) { itemOf(x).kind = K::Indefinite; };
    c.array_start = [](void* x, std::size_t n) { itemOf(x).kind = K::Array, itemOf(x).value = n; };
    c.map_start = [](void* x, std::size_t n) { itemOf(x).kind = K::Map, itemOf(x).value = n; };
    c.tag = [](void* x, std::uint64_t v) { itemOf(x).kind = K::Tag, itemOf(x).value = v; };
    c.float2 = c.float4 = [](void* x, float) { itemOf(x).kind = K::Float; };
    c.float8 = [](void* x, double) { itemOf(x).kind = K::Float; };
    c.undefined = [](void* x) { itemOf(x).kind = K::Undefined; };
    c.null = [](void* x) { itemOf(x).kind = K::Null; };
    c.boolean = [](void* x, bool v) { itemOf(x).kind = K::Bool, itemOf(x).value = v; };
    c.indef_break = [](void* x) { itemOf(x).kind = K::Break; };
    return c;
  }();
  return cb;
}

} // namespace

CborItem CborCursor::next() {
  CborItem item;
  item.offset = at_;
  if (at_ >= bytes_.size()) throw CborError("the data ends at byte " + std::to_string(at_), true);
  item.kind = K::Undefined;
  const auto* data = reinterpret_cast<cbor_data>(bytes_.data()) + at_;
  const cbor_decoder_result r = cbor_stream_decode(data, bytes_.size() - at_, &callbacks(), &item);
  if (r.status == CBOR_DECODER_NEDATA)
    throw CborError("an item at byte " + std::to_string(at_) + " needs more bytes than are left",
                    true);
  if (r.status != CBOR_DECODER_FINISHED || r.read == 0 || r.read > bytes_.size() - at_)
    throw CborError("not CBOR at byte " + std::to_string(at_), false);
  at_ += r.read;
  return item;
}

void CborCursor::skip(const CborItem& first) {
  std::uint64_t pending = 0; // items still to skip after `item`
  CborItem item = first;
  while (true) {
    switch (item.kind) {
    case K::Array:
    case K::Map:
      // Every item is at least a byte: a count above the bytes left cannot be true (and
      // checking first keeps `pending` from overflowing).
      if (item.value > remaining())
        throw CborError(std::string(kindName(item.kind)) + " at byte " +
                            std::to_string(item.offset) + " declares " +
                            std::to_string(item.value) + " entries, more than the " +
                            std::to_string(remaining()) + " bytes left",
                        true);
      pending += item.kind == K::Map ? 2 * item.value : item.value;
      break;
    case K::Tag:
      pending += 1;
      break;
    case K::Indefinite:
    case K::Break:
      throw CborError("indefinite-length item at byte " + std::to_string(item.offset) +
                          " (debug.cbor uses definite lengths only)",
                      false);
    default:
      break;
    }
    if (pending == 0) return;
    if (pending > remaining())
      throw CborError("an item at byte " + std::to_string(first.offset) +
                          " declares more items than the bytes left",
                      true);
    --pending;
    item = next();
  }
}

} // namespace pva::storage
