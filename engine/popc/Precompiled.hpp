// A precompiled poplar/Vertex.hpp (with the standard headers it includes), kept in a directory
// and reused by every later popc run with the same compiler and flags. Parsing those headers is
// most of the work of scanning and compiling a small codelet file; with the precompiled header
// popc's scan and compile together cost about what the compiler alone costs on the plain file
// (docs/benchmarks.md). Graph::addCodelets keeps one per codelet cache (<cache>/pch).
#pragma once

#include <string>
#include <vector>

namespace popc {

/// The precompiled header for `flags` (exactly the flags the scan and the compile use), built
/// into `dir` if it is not there yet, or again if `rebuild` (clang rejected the one there).
/// Returns "" if it cannot be built: popc then works without it.
std::string precompiledVertexHeader(const std::string& dir, const std::string& compiler,
                                    const std::vector<std::string>& flags,
                                    const std::string& includeDir, bool rebuild);

/// The files a precompiled header was built from (its make-style .d file beside it): the
/// .gp's dependencies must include them, since the scan no longer sees those headers.
std::vector<std::string> precompiledHeaderInputs(const std::string& pch);

/// True if compiler output complains about a precompiled header (stale, damaged, other clang).
bool mentionsPrecompiledHeader(const std::string& output);

} // namespace popc
