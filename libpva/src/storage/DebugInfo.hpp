// Reads debug.cbor (the only place libpva parses CBOR) and checks it belongs to its report.
#pragma once

#include "OpenFile.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pva::storage {

struct DebugContextRow {
  std::uint64_t id = 0;
  std::int64_t parent = -1;
  std::string name, path, layer, opType, file, function;
  unsigned line = 0;
};

/// Throws FileNotFoundError, InvalidReportError (not debug info, corrupted, truncated),
/// UnsupportedVersionError, or DebugInfoMismatchError when its report id is not `reportId`.
/// `profileShown`: the report's path as messages print it.
std::vector<DebugContextRow> readDebugInfo(const Source& source, const std::string& reportId,
                                           const std::string& profileShown);

} // namespace pva::storage
