#include "DebugInfo.hpp"

#include <profiler/Schema.hpp>
#include <pva/Exception.hpp>

#include <cbor.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>

namespace pva::storage {

namespace S = tessera::profiler::schema;
namespace K = tessera::profiler::schema::cbor;

namespace {

struct ItemDeleter {
  void operator()(cbor_item_t* item) const { cbor_decref(&item); }
};

/// A reader over a decoded CBOR tree that turns every shape mismatch into one clear error.
class Reader {
public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw InvalidReportError(path_ + ": corrupted debug information: " + what);
  }
  const cbor_item_t* get(const cbor_item_t* map, std::string_view key, bool required = true) const {
    if (!cbor_isa_map(map) || !cbor_map_is_definite(map)) fail("expected a map");
    const cbor_pair* pairs = cbor_map_handle(map);
    for (std::size_t i = 0; i < cbor_map_size(map); ++i)
      if (cbor_isa_string(pairs[i].key) && cbor_string_is_definite(pairs[i].key) &&
          std::string_view(reinterpret_cast<const char*>(cbor_string_handle(pairs[i].key)),
                           cbor_string_length(pairs[i].key)) == key)
        return pairs[i].value;
    if (required) fail("missing key '" + std::string(key) + "'");
    return nullptr;
  }
  std::string text(const cbor_item_t* item, std::string_view what) const {
    if (!item || !cbor_isa_string(item) || !cbor_string_is_definite(item)) fail(std::string(what) + " is not text");
    return std::string(reinterpret_cast<const char*>(cbor_string_handle(item)), cbor_string_length(item));
  }
  std::uint64_t uint(const cbor_item_t* item, std::string_view what) const {
    if (!item || !cbor_isa_uint(item)) fail(std::string(what) + " is not an unsigned integer");
    return cbor_get_int(item);
  }

private:
  std::string path_;
};

} // namespace

std::vector<DebugContextRow> readDebugInfo(const std::string& path, const std::string& reportId,
                                           const std::string& profilePath) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw FileNotFoundError(path + ": no such file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileNotFoundError(path + ": cannot be read");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty()) throw InvalidReportError(path + ": empty file, not debug information");
  // debug.cbor is one CBOR map (major type 5): anything else is some other file.
  if ((static_cast<unsigned char>(bytes[0]) >> 5) != 5)
    throw InvalidReportError(path + ": not Tessera debug information (not a CBOR map)");
  cbor_load_result result{};
  std::unique_ptr<cbor_item_t, ItemDeleter> root(
      cbor_load(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), &result));
  if (!root || result.error.code != CBOR_ERR_NONE) {
    const bool truncated = result.error.code == CBOR_ERR_NOTENOUGHDATA;
    throw InvalidReportError(path + (truncated ? ": truncated debug information" : ": not debug information (not CBOR)") +
                             " at byte " + std::to_string(result.error.position));
  }
  Reader r(path);
  if (!cbor_isa_map(root.get())) throw InvalidReportError(path + ": not Tessera debug information");
  const cbor_item_t* format = r.get(root.get(), K::format, false);
  if (!format || r.text(format, K::format) != S::kDebugFormatName)
    throw InvalidReportError(path + ": not Tessera debug information (format is not '" +
                             std::string(S::kDebugFormatName) + "')");
  const std::string version = r.text(r.get(root.get(), K::version), K::version);
  const auto& ours = S::kDebugFormatVersion;
  unsigned major = 0, minor = 0, point = 0;
  char extra = 0;
  if (std::sscanf(version.c_str(), "%u.%u.%u%c", &major, &minor, &point, &extra) != 3)
    r.fail("version '" + version + "'");
  if (major != ours.major || minor > ours.minor || (minor == ours.minor && point > ours.point))
    throw UnsupportedVersionError(path + ": debug information format " + version + " is not supported (this libpva reads " +
                                  std::to_string(ours.major) + ".x up to " + S::toString(ours) + ")");
  const std::string id = r.text(r.get(root.get(), K::reportId), K::reportId);
  const cbor_item_t* contexts = r.get(root.get(), K::contexts);
  if (!cbor_isa_array(contexts) || !cbor_array_is_definite(contexts)) r.fail("contexts is not an array");
  std::vector<DebugContextRow> out;
  out.reserve(cbor_array_size(contexts));
  for (std::size_t i = 0; i < cbor_array_size(contexts); ++i) {
    const cbor_item_t* c = cbor_array_handle(contexts)[i];
    DebugContextRow row;
    row.id = r.uint(r.get(c, K::id), K::id);
    if (row.id != i) r.fail("context " + std::to_string(i) + " has id " + std::to_string(row.id));
    row.name = r.text(r.get(c, K::name), K::name);
    row.path = r.text(r.get(c, K::path), K::path);
    row.layer = r.text(r.get(c, K::layer), K::layer);
    row.opType = r.text(r.get(c, K::opType), K::opType);
    const cbor_item_t* parent = r.get(c, K::parent);
    if (!(cbor_isa_float_ctrl(parent) && cbor_is_null(parent))) {
      const std::uint64_t p = r.uint(parent, K::parent);
      if (p >= i) r.fail("context " + std::to_string(i) + " has parent " + std::to_string(p) + " after it");
      row.parent = std::int64_t(p);
    }
    const cbor_item_t* loc = r.get(c, K::location);
    row.file = r.text(r.get(loc, K::file), K::file);
    row.function = r.text(r.get(loc, K::function), K::function);
    row.line = unsigned(r.uint(r.get(loc, K::line), K::line));
    out.push_back(std::move(row));
  }
  // Checked last, so a malformed file is reported as such whichever report it is opened with.
  if (id != reportId)
    throw DebugInfoMismatchError(path + ": debug information of another report (report id " + id + ", " + profilePath +
                                 " has " + reportId + ")");
  return out;
}

} // namespace pva::storage
