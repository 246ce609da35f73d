// The .gp codelet object: a host shared object (what dlopen loads) followed by a metadata
// trailer that says which Tessera made it and which files it was built from. The loader
// ignores bytes after the ELF segments, so the file stays loadable as it is.
//
//   <ELF shared object> <metadata text> <metadata size: 8 bytes, little endian> <kGpMagic>
//
// Metadata lines: "tessera <version>", "abi <n>", "abi-hash <hex>" (the hash of the
// poplar/Vertex.hpp it was compiled against: two builds of one version may differ), "object
// <size> <hex>" (the shared object's size and content hash: a damaged file is never dlopen'ed),
// "source <path>", "vertex <name>",
// "dep-content <path>" (a file whose bytes the result depends on), "dep-stat <path>" (a system
// header or the compiler: its size and modification time stand for its content).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace poplar::detail::codelets {

/// Bumped whenever the registration code a .gp contains stops matching poplar/Vertex.hpp.
constexpr int kCodeletAbi = 1;
/// The entry point every .gp exports: registers its vertex types under codelet source `source`.
constexpr const char* kRegisterSymbol = "tessera_codelets_register_v1";
/// A .gp built with popc's execution counting (the default) exports this accessor: the calling
/// thread's count of the instructions the .gp's code has executed (docs/profiling.md).
constexpr const char* kExecutedInstructionsSymbol = "tessera_executed_instructions_v1";

struct GpMetadata {
  std::string tesseraVersion;
  int abi = 0;
  std::string abiHash;          ///< TESSERA_CODELET_ABI_HASH of the build that made it
  std::uint64_t objectSize = 0; ///< bytes of the shared object before the trailer
  std::string objectHash;       ///< Hasher hex of those bytes
  std::vector<std::string> sources;
  std::vector<std::string> vertices;
  std::vector<std::string> contentDeps;
  std::vector<std::string> statDeps;
};

std::string formatMetadata(const GpMetadata& m);
/// Appends the trailer to an existing shared object file (objectSize/objectHash are filled in
/// from the file).
bool appendTrailer(const std::string& path, const GpMetadata& m, std::string& error);
/// Reads the trailer and checks the shared object against its size and hash; nullopt (with the
/// reason) if the file is not an intact .gp made by Tessera.
/// The whole file is read: it is hashed anyway. Accepted only when the trailer covers the whole
/// shared object (a non-empty ELF file from offset 0 up to the metadata text).
std::optional<GpMetadata> readTrailer(const std::string& path, std::string& why);
/// The same checks on a .gp image in memory (what readTrailer does after reading the file).
std::optional<GpMetadata> parseGpImage(std::string_view file, std::string& why);

} // namespace poplar::detail::codelets
