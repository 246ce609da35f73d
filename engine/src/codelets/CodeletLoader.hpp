// Graph::addCodelets for files: finds the file as Poplar does, compiles a C++ source with popc
// (through the per-user cache), loads the .gp and registers its vertices once per process.
#pragma once

#include <poplar/CodeletFileType.hpp>

#include <iosfwd>
#include <string>

namespace tessera::codelets {

/// Loads a codelet file; returns the codelet source key its vertices are registered under.
/// `what` names the call in error messages. Compiler messages go to `compileOutput` if given.
std::string loadCodeletFile(const std::string& path, poplar::CodeletFileType type,
                            const std::string& compileFlags, std::ostream* compileOutput);
/// The same for a source (or .gp) read from a stream: it is kept in the cache under its hash.
std::string loadCodeletStream(std::istream& in, poplar::CodeletFileType type,
                              const std::string& compileFlags, std::ostream* compileOutput);

/// Where the codelet cache lives: $TESSERA_CODELET_CACHE, else $XDG_CACHE_HOME/tessera/codelets,
/// else ~/.cache/tessera/codelets.
std::string cacheDirectory();

} // namespace tessera::codelets

namespace poplar::detail {
/// A codelet source key as users know it: "kernels.cpp#0123..." is shown as "kernels.cpp".
std::string displaySourceName(const std::string& key);
} // namespace poplar::detail
