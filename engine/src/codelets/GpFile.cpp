#include "GpFile.hpp"

#include "Hash.hpp"

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

namespace tessera::codelets {
namespace {

constexpr char kGpMagic[16] = {'T', 'E', 'S', 'S', 'E', 'R', 'A', '-', 'G', 'P', '-', 'V', '1', '\n', 0, 0};
constexpr std::uint64_t kMaxMetadata = 16u << 20; // a trailer larger than this is corruption

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
  for (const auto& s : m.sources) os << "source " << s << "\n";
  for (const auto& v : m.vertices) os << "vertex " << v << "\n";
  for (const auto& d : m.contentDeps) os << "dep-content " << d << "\n";
  for (const auto& d : m.statDeps) os << "dep-stat " << d << "\n";
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
  for (int i = 0; i < 8; ++i) size[i] = static_cast<unsigned char>(std::uint64_t(text.size()) >> (8 * i));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.write(reinterpret_cast<const char*>(size), 8);
  out.write(kGpMagic, sizeof kGpMagic);
  out.close();
  if (!out) error = "cannot write '" + path + "'";
  return static_cast<bool>(out);
}

std::optional<GpMetadata> readTrailer(const std::string& path, std::string& why) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    why = "cannot open it";
    return std::nullopt;
  }
  const std::streamoff fileSize = in.tellg();
  const std::streamoff tail = 8 + sizeof kGpMagic;
  char magic[sizeof kGpMagic];
  unsigned char size[8];
  if (fileSize < tail || !in.seekg(fileSize - tail) || !in.read(reinterpret_cast<char*>(size), 8) ||
      !in.read(magic, sizeof magic) || std::memcmp(magic, kGpMagic, sizeof magic) != 0) {
    why = "it does not end with Tessera's codelet trailer (not made by popc, or truncated)";
    return std::nullopt;
  }
  std::uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= std::uint64_t(size[i]) << (8 * i);
  if (n > kMaxMetadata || static_cast<std::streamoff>(n) > fileSize - tail) {
    why = "its codelet trailer is damaged";
    return std::nullopt;
  }
  std::string text(n, '\0');
  in.seekg(fileSize - tail - static_cast<std::streamoff>(n));
  if (!in.read(text.data(), static_cast<std::streamsize>(n))) {
    why = "its codelet trailer cannot be read";
    return std::nullopt;
  }
  GpMetadata m;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const auto space = line.find(' ');
    const std::string key = line.substr(0, space), value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "tessera") m.tesseraVersion = value;
    else if (key == "abi") m.abi = std::atoi(value.c_str());
    else if (key == "abi-hash") m.abiHash = value;
    else if (key == "object") {
      std::istringstream v(value);
      v >> m.objectSize >> m.objectHash;
    }
    else if (key == "source") m.sources.push_back(value);
    else if (key == "vertex") m.vertices.push_back(value);
    else if (key == "dep-content") m.contentDeps.push_back(value);
    else if (key == "dep-stat") m.statDeps.push_back(value);
  }
  if (m.tesseraVersion.empty()) {
    why = "its codelet trailer has no Tessera version";
    return std::nullopt;
  }
  // The shared object must be exactly what popc wrote: dlopen of a damaged one may crash.
  const std::uint64_t objectBytes = static_cast<std::uint64_t>(fileSize - tail) - n;
  std::string object;
  if (m.objectSize != objectBytes || !readPrefix(path, objectBytes, object) || object.size() != objectBytes ||
      Hasher().add(object.data(), object.size()).hex() != m.objectHash) {
    why = "its shared object does not match the checksum in its trailer (damaged or truncated)";
    return std::nullopt;
  }
  return m;
}

} // namespace tessera::codelets
