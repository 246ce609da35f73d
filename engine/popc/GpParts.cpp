#include "GpParts.hpp"

#include <cstring>
#include <sstream>

namespace popc {
namespace {

constexpr const char* kHeader = "tessera-gp-parts 1\n";

/// The next line of `s` from `pos` (without its newline), advancing `pos`; false at the end.
bool nextLine(std::string_view s, std::size_t& pos, std::string& line) {
  if (pos >= s.size()) return false;
  const std::size_t end = s.find('\n', pos);
  if (end == std::string_view::npos) return false;
  line.assign(s.substr(pos, end - pos));
  pos = end + 1;
  return true;
}

template <typename T> T readLe(std::string_view s, std::size_t at) {
  T v{};
  std::memcpy(&v, s.data() + at, sizeof v); // ELF64 little endian, as the host is (x86-64)
  return v;
}

} // namespace

std::string formatParts(const std::vector<GpPart>& parts) {
  std::ostringstream os;
  os << kHeader;
  for (const auto& p : parts) {
    os << "part " << p.id << " " << (p.counted ? 1 : 0) << " " << p.object.size() << "\n"
       << "source " << p.source << "\n";
    for (const auto& v : p.vertices)
      os << "vertex " << v << "\n";
    os << "data\n" << p.object << "\n";
  }
  return os.str();
}

std::optional<std::vector<GpPart>> parseParts(std::string_view s, std::string& why) {
  if (s.substr(0, std::strlen(kHeader)) != kHeader) {
    why = "its parts section has an unknown format";
    return std::nullopt;
  }
  std::vector<GpPart> parts;
  std::size_t pos = std::strlen(kHeader);
  std::string line;
  while (nextLine(s, pos, line)) {
    GpPart p;
    std::istringstream head(line);
    std::string word;
    int counted = -1;
    std::uint64_t size = 0;
    if (!(head >> word >> p.id >> counted >> size) || word != "part" || counted < 0 ||
        counted > 1) {
      why = "its parts section is damaged (a part header reads '" + line + "')";
      return std::nullopt;
    }
    p.counted = counted == 1;
    bool data = false;
    while (!data && nextLine(s, pos, line)) {
      if (line.rfind("source ", 0) == 0)
        p.source = line.substr(7);
      else if (line.rfind("vertex ", 0) == 0)
        p.vertices.push_back(line.substr(7));
      else if (line == "data")
        data = true;
      else
        break;
    }
    if (!data || size > s.size() - pos || s.size() - pos - size < 1 || s[pos + size] != '\n') {
      why = "its parts section is damaged or truncated (part " + p.id + ")";
      return std::nullopt;
    }
    p.object.assign(s.substr(pos, size));
    pos += size + 1;
    parts.push_back(std::move(p));
  }
  if (pos != s.size()) {
    why = "its parts section is damaged (unreadable bytes at its end)";
    return std::nullopt;
  }
  return parts;
}

std::optional<std::string_view> elfSection(std::string_view elf, const std::string& name,
                                           std::string& why) {
  // ELF64 header: e_shoff at 0x28, e_shentsize at 0x3a, e_shnum at 0x3c, e_shstrndx at 0x3e.
  if (elf.size() < 0x40 ||
      elf.substr(0, 4) != "\x7f"
                          "ELF" ||
      elf[4] != 2 /* ELFCLASS64 */ || elf[5] != 1 /* little endian */) {
    why = "it is not a 64-bit ELF shared object";
    return std::nullopt;
  }
  const auto shoff = readLe<std::uint64_t>(elf, 0x28);
  const auto shentsize = readLe<std::uint16_t>(elf, 0x3a);
  const auto shnum = readLe<std::uint16_t>(elf, 0x3c);
  const auto shstrndx = readLe<std::uint16_t>(elf, 0x3e);
  if (shentsize < 0x40 || shstrndx >= shnum || shoff > elf.size() ||
      std::uint64_t(shnum) * shentsize > elf.size() - shoff) {
    why = "its section table is damaged";
    return std::nullopt;
  }
  // Section header: sh_name at 0, sh_offset at 0x18, sh_size at 0x20.
  auto sectionBytes = [&](unsigned i) -> std::optional<std::string_view> {
    const std::size_t h = shoff + std::size_t(i) * shentsize;
    const auto off = readLe<std::uint64_t>(elf, h + 0x18);
    const auto size = readLe<std::uint64_t>(elf, h + 0x20);
    if (off > elf.size() || size > elf.size() - off) return std::nullopt;
    return elf.substr(off, size);
  };
  const auto names = sectionBytes(shstrndx);
  if (!names) {
    why = "its section names are damaged";
    return std::nullopt;
  }
  for (unsigned i = 0; i < shnum; ++i) {
    const auto nameAt = readLe<std::uint32_t>(elf, shoff + std::size_t(i) * shentsize);
    if (nameAt >= names->size()) continue;
    const std::string_view sectionName = names->substr(nameAt, names->find('\0', nameAt) - nameAt);
    if (sectionName != name) continue;
    const auto bytes = sectionBytes(i);
    if (!bytes) {
      why = "its section " + name + " lies outside the file";
      return std::nullopt;
    }
    return bytes;
  }
  why = "it has no " + name + " section";
  return std::nullopt;
}

std::string partsAssembly(const std::string& blobPath) {
  std::string quoted;
  for (char c : blobPath) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  // The stack note keeps the linker from assuming this object needs an executable stack.
  return std::string("\t.section ") + kPartsSection + ",\"\",@progbits\n\t.incbin \"" + quoted +
         "\"\n\t.section .note.GNU-stack,\"\",@progbits\n";
}

} // namespace popc
