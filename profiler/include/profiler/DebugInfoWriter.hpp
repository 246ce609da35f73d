// Writes debug.cbor: the debug contexts (what created each variable, compute set and program)
// that profile.pop refers to by id. Written to "<path>.partial" and renamed when complete.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tessera::profiler {

struct DebugContextRecord {
  std::uint32_t id = 0; ///< index in the list; parents come first
  std::string name;     ///< this context's own name
  std::string path;     ///< names from the root, joined by '/'
  std::string layer;    ///< user, poplar or poplibs
  std::string opType;   ///< the op that made it, or empty
  std::string file, function;
  std::uint32_t line = 0;
  std::optional<std::uint32_t> parent;
};

/// Writes the contexts with the report id of the profile.pop they belong to. Throws ReportError
/// naming the file when it cannot be written.
void writeDebugInfo(const std::filesystem::path& path, const std::string& reportId,
                    const std::vector<DebugContextRecord>& contexts);

} // namespace tessera::profiler
