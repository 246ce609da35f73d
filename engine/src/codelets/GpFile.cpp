#include "GpFile.hpp"

#include "Hash.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

namespace poplar::detail::codelets {
namespace {

constexpr char kGpMagic[16] = {'T', 'E', 'S', 'S', 'E', 'R',  'A', '-',
                               'G', 'P', '-', 'V', '1', '\n', 0,   0};
constexpr std::uint64_t kMaxMetadata = 16u << 20; // a trailer larger than this is corruption
constexpr char kElfMagic[4] = {'\x7f', 'E', 'L', 'F'};
constexpr std::uint64_t kMinElfBytes = 64; // an ELF-64 header

/// Reads at most `limit` bytes from the start of the file.
bool readPrefix(const std::string& path, std::uint64_t limit, std::string& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.clear();
  char buf[65536];
  while (bytes.size() < limit && in) {
    const std::uint64_t want = std::min<std::uint64_t>(sizeof buf, limit - bytes.size());
    in.read(buf, static_cast<std::streamsize>(want));
    bytes.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  return !in.bad();
}

} // namespace

std::string formatMetadata(const GpMetadata& m) {
  std::ostringstream os;
  os << "tessera " << m.tesseraVersion << "\nabi " << m.abi << "\nabi-hash " << m.abiHash << "\n"
     << "object " << m.objectSize << " " << m.objectHash << "\n";
  for (const auto& s : m.sources)
    os << "source " << s << "\n";
  for (const auto& v : m.vertices)
    os << "vertex " << v << "\n";
  for (const auto& d : m.contentDeps)
    os << "dep-content " << d << "\n";
  for (const auto& d : m.statDeps)
    os << "dep-stat " << d << "\n";
  return os.str();
}

bool appendTrailer(const std::string& path, const GpMetadata& meta, std::string& error) {
  GpMetadata m = meta;
  std::string object;
  if (!readPrefix(path, ~std::uint64_t(0), object)) {
    error = "cannot read '" + path + "'";
    return false;
  }
  m.objectSize = object.size();
  m.objectHash = Hasher().add(object.data(), object.size()).hex();
  std::ofstream out(path, std::ios::binary | std::ios::app);
  const std::string text = formatMetadata(m);
  unsigned char size[8];
  for (int i = 0; i < 8; ++i)
    size[i] = static_cast<unsigned char>(std::uint64_t(text.size()) >> (8 * i));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.write(reinterpret_cast<const char*>(size), 8);
  out.write(kGpMagic, sizeof kGpMagic);
  out.close();
  if (!out) error = "cannot write '" + path + "'";
  return static_cast<bool>(out);
}

std::optional<GpMetadata> readTrailer(const std::string& path, std::string& why) {
  std::string file;
  if (!std::ifstream(path, std::ios::binary) || !readPrefix(path, ~std::uint64_t(0), file)) {
    why = "cannot open it";
    return std::nullopt;
  }
  return parseGpImage(file, why);
}

std::optional<GpMetadata> parseGpImage(std::string_view file, std::string& why) {
  const std::uint64_t fileSize = file.size();
  const std::uint64_t tail = 8 + sizeof kGpMagic;
  if (fileSize < tail ||
      std::memcmp(file.data() + fileSize - sizeof kGpMagic, kGpMagic, sizeof kGpMagic) != 0) {
    why = "it does not end with Tessera's codelet trailer (not made by popc, or truncated)";
    return std::nullopt;
  }
  std::uint64_t n = 0;
  for (int i = 0; i < 8; ++i)
    n |= std::uint64_t(static_cast<unsigned char>(file[fileSize - tail + i])) << (8 * i);
  if (n > kMaxMetadata || n > fileSize - tail) {
    why = "its codelet trailer is damaged";
    return std::nullopt;
  }
  const std::string text(file.substr(fileSize - tail - n, n));
  GpMetadata m;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const auto space = line.find(' ');
    const std::string key = line.substr(0, space),
                      value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "tessera")
      m.tesseraVersion = value;
    else if (key == "abi")
      m.abi = std::atoi(value.c_str());
    else if (key == "abi-hash")
      m.abiHash = value;
    else if (key == "object") {
      std::istringstream v(value);
      v >> m.objectSize >> m.objectHash;
    } else if (key == "source")
      m.sources.push_back(value);
    else if (key == "vertex")
      m.vertices.push_back(value);
    else if (key == "dep-content")
      m.contentDeps.push_back(value);
    else if (key == "dep-stat")
      m.statDeps.push_back(value);
  }
  if (m.tesseraVersion.empty()) {
    why = "its codelet trailer has no Tessera version";
    return std::nullopt;
  }
  // The shared object must be exactly what popc wrote: dlopen of a damaged one may crash. The
  // trailer must cover all of it: the object starts at offset 0 and runs up to the metadata,
  // holds at least an ELF header, and the metadata is text (a shared object never is). A
  // trailer claiming an empty object (its checksum then covering no byte) while its
  // "metadata" swallowed the object let any file through to dlopen.
  const std::uint64_t objectBytes = fileSize - tail - n;
  if (m.objectSize == 0 || objectBytes < kMinElfBytes || text.find('\0') != std::string::npos) {
    why = "its codelet trailer does not cover a shared object (damaged, or not made by popc)";
    return std::nullopt;
  }
  const std::string_view object = file.substr(0, objectBytes);
  if (m.objectSize != objectBytes ||
      Hasher().add(object.data(), object.size()).hex() != m.objectHash) {
    why = "its shared object does not match the checksum in its trailer (damaged or truncated)";
    return std::nullopt;
  }
  if (object.compare(0, sizeof kElfMagic, std::string_view(kElfMagic, sizeof kElfMagic)) != 0) {
    why = "its shared object is not an ELF file (damaged, or not made by popc)";
    return std::nullopt;
  }
  return m;
}

} // namespace poplar::detail::codelets
