#include "DebugInfo.hpp"

#include "CborCursor.hpp"
#include "FormatVersionCheck.hpp"

#include <cstdio>
#include <optional>
#include <profiler/Schema.hpp>
#include <pva/Exception.hpp>

namespace pva::storage {

namespace S = tessera::profiler::schema;
namespace K = tessera::profiler::schema::cbor;
using Kind = CborItem::Kind;

namespace {

/// The smallest encoding of a context: a map head, seven keys of at least two bytes each and
/// their values, the location map with three. Used to bound what a declared count may reserve.
constexpr std::size_t kMinContextBytes = 1 + 7 * 3 + 1 + 3 * 3;

/// Reads debug.cbor's layout (docs/formats.md) from a CborCursor and turns every mismatch into
/// one clear error naming the file.
class Parser {
public:
  Parser(std::string_view bytes, std::string shown) : in_(bytes), shown_(std::move(shown)) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw InvalidReportError(shown_ + ": corrupted debug information: " + what);
  }

  CborItem next() {
    try {
      return in_.next();
    } catch (const CborError& e) {
      throw InvalidReportError(
          shown_ + (e.truncated ? ": truncated debug information: " : ": not debug information: ") +
          e.what());
    }
  }
  void skip(const CborItem& item) {
    try {
      in_.skip(item);
    } catch (const CborError& e) {
      throw InvalidReportError(
          shown_ +
          (e.truncated ? ": truncated debug information: " : ": corrupted debug information: ") +
          e.what());
    }
  }

  /// A map head; its count must be possible for the bytes left (each pair is two items).
  std::uint64_t mapHead(std::string_view what) {
    const CborItem m = next();
    if (m.kind != Kind::Map)
      fail(std::string(what) + " is " + kindName(m.kind) + ", not a map (byte " +
           std::to_string(m.offset) + ")");
    if (m.value > in_.remaining() / 2)
      throw InvalidReportError(shown_ + ": truncated debug information: " + std::string(what) +
                               " declares " + std::to_string(m.value) + " entries, more than the " +
                               std::to_string(in_.remaining()) + " bytes left can hold");
    return m.value;
  }
  std::string key() {
    const CborItem k = next();
    if (k.kind != Kind::Text)
      fail("a map key is " + std::string(kindName(k.kind)) + ", not text (byte " +
           std::to_string(k.offset) + ")");
    return std::string(k.text);
  }
  std::string text(std::string_view what) {
    const CborItem v = next();
    if (v.kind != Kind::Text)
      fail(std::string(what) + " is not text (" + kindName(v.kind) + " at byte " +
           std::to_string(v.offset) + ")");
    return std::string(v.text);
  }
  std::uint64_t uint(std::string_view what) {
    const CborItem v = next();
    if (v.kind != Kind::Unsigned)
      fail(std::string(what) + " is not an unsigned integer (" + kindName(v.kind) + " at byte " +
           std::to_string(v.offset) + ")");
    return v.value;
  }
  /// An unsigned integer or null (nullopt).
  std::optional<std::uint64_t> optionalUint(std::string_view what) {
    const CborItem v = next();
    if (v.kind == Kind::Null) return std::nullopt;
    if (v.kind != Kind::Unsigned)
      fail(std::string(what) + " is not an unsigned integer or null (" + kindName(v.kind) +
           " at byte " + std::to_string(v.offset) + ")");
    return v.value;
  }
  void skipValue() { skip(next()); }

  CborCursor& cursor() { return in_; }

private:
  CborCursor in_;
  std::string shown_;
};

/// Marks the keys a map must have and says which one is missing.
struct Required {
  std::initializer_list<const char*> names;
  unsigned seen = 0;
  void mark(const std::string& key) {
    unsigned i = 0;
    for (const char* n : names) {
      if (key == n) seen |= 1u << i;
      ++i;
    }
  }
  const char* missing() const {
    unsigned i = 0;
    for (const char* n : names) {
      if (!(seen & (1u << i))) return n;
      ++i;
    }
    return nullptr;
  }
};

void readLocation(Parser& p, DebugContextRow& row) {
  Required req{{K::file.data(), K::function.data(), K::line.data()}};
  for (std::uint64_t n = p.mapHead("a context's location"); n > 0; --n) {
    const std::string key = p.key();
    req.mark(key);
    if (key == K::file)
      row.file = p.text(K::file);
    else if (key == K::function)
      row.function = p.text(K::function);
    else if (key == K::line) {
      const std::uint64_t line = p.uint(K::line);
      if (line > 0xffffffffu) p.fail("line " + std::to_string(line) + " is out of range");
      row.line = static_cast<unsigned>(line);
    } else
      p.skipValue(); // a key a newer minor version added
  }
  if (const char* m = req.missing()) p.fail("missing key '" + std::string(m) + "'");
}

DebugContextRow readContext(Parser& p, std::size_t index) {
  DebugContextRow row;
  Required req{{K::id.data(), K::name.data(), K::path.data(), K::layer.data(), K::opType.data(),
                K::parent.data(), K::location.data()}};
  for (std::uint64_t n = p.mapHead("context " + std::to_string(index)); n > 0; --n) {
    const std::string key = p.key();
    req.mark(key);
    if (key == K::id) {
      row.id = p.uint(K::id);
      if (row.id != index)
        p.fail("context " + std::to_string(index) + " has id " + std::to_string(row.id));
    } else if (key == K::name)
      row.name = p.text(K::name);
    else if (key == K::path)
      row.path = p.text(K::path);
    else if (key == K::layer)
      row.layer = p.text(K::layer);
    else if (key == K::opType)
      row.opType = p.text(K::opType);
    else if (key == K::parent) {
      if (const auto parent = p.optionalUint(K::parent)) {
        if (*parent >= index)
          p.fail("context " + std::to_string(index) + " has parent " + std::to_string(*parent) +
                 " after it");
        row.parent = static_cast<std::int64_t>(*parent);
      }
    } else if (key == K::location)
      readLocation(p, row);
    else
      p.skipValue();
  }
  if (const char* m = req.missing()) p.fail("missing key '" + std::string(m) + "'");
  return row;
}

} // namespace

std::vector<DebugContextRow> readDebugInfo(const Source& source, const std::string& reportId,
                                           const std::string& profileShown) {
  const std::string shown = source.shown();
  // debug.cbor is read whole: it is small next to its report, and parsing it is linear.
  const std::string bytes = readWholeFile(source, "debug information", SIZE_MAX);
  if (bytes.empty()) throw InvalidReportError(shown + ": empty file, not debug information");
  // debug.cbor is one CBOR map (major type 5): anything else is some other file.
  if ((static_cast<unsigned char>(bytes[0]) >> 5) != 5)
    throw InvalidReportError(shown + ": not Tessera debug information (not a CBOR map)");

  // The root map's values are found first and read after: the format and version say how to
  // read the rest, wherever they are in the map.
  Parser p(bytes, shown);
  std::optional<std::string> format, version, id;
  std::optional<std::size_t> contextsAt;
  for (std::uint64_t n = p.mapHead("the file"); n > 0; --n) {
    const std::string key = p.key();
    if (key == K::format)
      format = p.text(K::format);
    else if (key == K::version)
      version = p.text(K::version);
    else if (key == K::reportId)
      id = p.text(K::reportId);
    else {
      if (key == K::contexts) contextsAt = p.cursor().offset();
      p.skipValue();
    }
  }
  if (!p.cursor().atEnd())
    p.fail(std::to_string(p.cursor().remaining()) + " bytes after the end of the data");
  if (!format || *format != S::kDebugFormatName)
    throw InvalidReportError(shown + ": not Tessera debug information (format is not '" +
                             std::string(S::kDebugFormatName) + "')");
  if (!version) p.fail("missing key '" + std::string(K::version) + "'");
  checkFormatVersion(shown, "debug information", *version, S::kDebugFormatVersion);
  if (!id) p.fail("missing key '" + std::string(K::reportId) + "'");
  if (!contextsAt) p.fail("missing key '" + std::string(K::contexts) + "'");

  p.cursor().seek(*contextsAt);
  const CborItem contexts = p.next();
  if (contexts.kind != Kind::Array) p.fail("contexts is not an array");
  // Checked by skipping above: every declared context is there. Reserve no more than the bytes
  // could hold all the same.
  std::vector<DebugContextRow> out;
  out.reserve(std::min<std::uint64_t>(contexts.value, p.cursor().remaining() / kMinContextBytes));
  for (std::uint64_t i = 0; i < contexts.value; ++i)
    out.push_back(readContext(p, static_cast<std::size_t>(i)));
  // Checked last, so a malformed file is reported as such whichever report it is opened with.
  if (*id != reportId)
    throw DebugInfoMismatchError(shown + ": debug information of another report (report id " + *id +
                                 ", " + profileShown + " has " + reportId + ")");
  return out;
}

} // namespace pva::storage
