// debug.cbor writer. Streams definite-length CBOR with libcbor's encoders, so memory does not
// grow with the number of contexts; the key names come from schema::cbor.
#include "FileUtil.hpp"

#include <cbor.h>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <profiler/DebugInfoWriter.hpp>
#include <profiler/ReportWriter.hpp>
#include <profiler/Schema.hpp>

namespace tessera::profiler {

namespace fs = std::filesystem;
namespace keys = schema::cbor;

namespace {

// Writes CBOR items to a stream. libcbor encodes each head (major type + length) into a small
// buffer; string bytes are written as they are.
class CborStream {
public:
  explicit CborStream(std::ostream& out) : out_(out) {}

  void mapStart(std::size_t n) { head(cbor_encode_map_start(n, buf_, sizeof buf_)); }
  void arrayStart(std::size_t n) { head(cbor_encode_array_start(n, buf_, sizeof buf_)); }
  void uint(std::uint64_t v) { head(cbor_encode_uint(v, buf_, sizeof buf_)); }
  void null() { head(cbor_encode_null(buf_, sizeof buf_)); }
  void text(std::string_view s) {
    head(cbor_encode_string_start(s.size(), buf_, sizeof buf_));
    out_.write(s.data(), static_cast<std::streamsize>(s.size()));
  }
  /// key: text
  void entry(std::string_view key, std::string_view value) { text(key), text(value); }
  void entry(std::string_view key, std::uint64_t value) { text(key), uint(value); }

private:
  void head(std::size_t n) {
    // Nine bytes hold any head; zero would mean libcbor's buffer check failed.
    if (n == 0) throw ReportError("internal error: CBOR head does not fit its buffer");
    out_.write(reinterpret_cast<const char*>(buf_), static_cast<std::streamsize>(n));
  }
  std::ostream& out_;
  unsigned char buf_[9];
};

void writeContext(CborStream& cbor, const DebugContextRecord& c) {
  cbor.mapStart(7);
  cbor.entry(keys::id, c.id);
  cbor.entry(keys::name, c.name);
  cbor.entry(keys::path, c.path);
  cbor.entry(keys::layer, c.layer);
  cbor.entry(keys::opType, c.opType);
  cbor.text(keys::parent);
  if (c.parent)
    cbor.uint(*c.parent);
  else
    cbor.null();
  cbor.text(keys::location);
  cbor.mapStart(3);
  cbor.entry(keys::file, c.file);
  cbor.entry(keys::function, c.function);
  cbor.entry(keys::line, c.line);
}

} // namespace

void writeDebugInfo(const fs::path& path, const std::string& reportId,
                    const std::vector<DebugContextRecord>& contexts) {
  if (path.empty()) throw ReportError("cannot write debug info: the path is empty");
  detail::createParentDirectory(path);
  const fs::path partial = detail::partialPath(path);
  bool created = false; // never remove something we did not create (e.g. a directory in the way)
  try {
    {
      std::ofstream out(partial, std::ios::binary | std::ios::trunc);
      if (!out)
        throw ReportError(path.string() + ": cannot create " + partial.string() + ": " +
                          std::strerror(errno));
      created = true;
      CborStream cbor(out);
      cbor.mapStart(4);
      cbor.entry(keys::format, schema::kDebugFormatName);
      cbor.entry(keys::version, schema::toString(schema::kDebugFormatVersion));
      cbor.entry(keys::reportId, reportId);
      cbor.text(keys::contexts);
      cbor.arrayStart(contexts.size());
      for (const DebugContextRecord& c : contexts)
        writeContext(cbor, c);
      out.close();
      if (!out)
        throw ReportError(path.string() + ": cannot write " + partial.string() + ": " +
                          std::strerror(errno));
    }
    detail::syncFile(partial);
    detail::publishFile(partial, path);
  } catch (...) {
    if (created) detail::removeQuietly(partial);
    throw;
  }
}

} // namespace tessera::profiler
