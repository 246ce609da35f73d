// The linkable parts a .gp carries, so that popc can link several .gp files into one as the
// SDK's popc does (PopLibs compiles each source into a partial .gp, then links them).
//
// A .gp's shared object cannot be linked again, so popc keeps beside it, in a section of the
// shared object that is never loaded (kPartsSection), the relocatable object of each source it
// compiled with that part's registration. Linking .gp files takes their parts out, adds the
// parts of any sources on the same command line, and links them all with one new entry point.
//
// The section holds "tessera-gp-parts 1\n" and then, for each part:
//   part <id> <counted 0|1> <bytes>\n  source <path>\n  vertex <name>\n ...  data\n  <bytes>\n
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace popc {

constexpr const char* kPartsSection = ".tessera_gp_parts";

struct GpPart {
  std::string id;       ///< names the part's registration function: unique across .gp files
  bool counted = false; ///< compiled with execution counting (docs/profiling.md)
  std::string source;   ///< the codelet source it was compiled from
  std::vector<std::string> vertices;
  std::string object; ///< the relocatable object's bytes
};

/// The section's content for these parts.
std::string formatParts(const std::vector<GpPart>& parts);
/// The parts in a section's content; nullopt (with the reason) if it is damaged.
std::optional<std::vector<GpPart>> parseParts(std::string_view section, std::string& why);

/// The bytes of the named section of an ELF64 file in memory; nullopt if it has none (or the
/// file is not an ELF64 file: `why` says which).
std::optional<std::string_view> elfSection(std::string_view elf, const std::string& name,
                                           std::string& why);

/// Assembler source that puts `blobPath`'s bytes in kPartsSection, a section the loader never
/// maps (no "a" flag), so the .gp's memory image is unchanged.
std::string partsAssembly(const std::string& blobPath);

} // namespace popc
