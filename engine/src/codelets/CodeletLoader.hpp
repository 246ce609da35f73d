// Graph::addCodelets for files: finds the file as Poplar does, compiles a C++ source with popc
// (through the per-user cache), loads the .gp and registers its vertices once per process.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <poplar/CodeletFileType.hpp>
#include <string>

namespace poplar::detail::codelets {

/// Loads a codelet file; returns the codelet source key its vertices are registered under.
/// `what` names the call in error messages. Compiler messages go to `compileOutput` if given.
std::string loadCodeletFile(const std::string& path, poplar::CodeletFileType type,
                            const std::string& compileFlags, std::ostream* compileOutput);
/// The same for a source (or .gp) read from a stream: it is kept in the cache under its hash.
std::string loadCodeletStream(std::istream& in, poplar::CodeletFileType type,
                              const std::string& compileFlags, std::ostream* compileOutput);

/// The .gp file the vertices of codelet source `key` were loaded from (none for codelets
/// compiled into a program or library).
std::optional<std::string> codeletObjectPath(const std::string& key);
/// Loads a codelet object carried by an executable and registers its vertices under `key`, the
/// source key they had in the process that compiled it (nothing to do if already registered).
/// The bytes are kept in the cache's executables/ folder, named by their hash.
std::string loadEmbeddedCodeletObject(const std::string& bytes, const std::string& key);

/// The execution counter of the .gp the vertices of codelet source `source` (a vertex type's
/// codeletSource) were loaded from: the calling thread's count of executed instructions, which
/// the engine zeroes before a vertex's compute() and reads after. Null for a .gp built without
/// counting and for codelets compiled into a program or library.
using ExecutedInstructionsFn = std::uint64_t* (*)();
ExecutedInstructionsFn executedInstructionsCounter(const std::string& source);

/// Where the codelet cache lives: $TESSERA_CODELET_CACHE, else $XDG_CACHE_HOME/tessera/codelets,
/// else ~/.cache/tessera/codelets.
std::string cacheDirectory();

/// A codelet source key as users know it: "kernels.cpp#0123..." is shown as "kernels.cpp".
std::string displaySourceName(const std::string& key);

} // namespace poplar::detail::codelets
