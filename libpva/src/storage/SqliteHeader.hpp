// What an SQLite file's first 100 bytes say about it, checked before any query: a report or
// trace cut short would otherwise fail only when SQLite reads a missing page, with a message
// about the query that read it rather than about the file.
#pragma once

#include "OpenFile.hpp"

#include <cstdint>

namespace pva::storage {

struct SqliteHeader {
  enum class Problem { None, Empty, NotSqlite, BadPageSize, Truncated };
  Problem problem = Problem::None;
  std::uint64_t headerBytes = 0; ///< the size the header gives (when it is valid), for Truncated
};

/// Checks the signature, the page size, and that the file is at least as long as its header
/// says (only when the header's size is valid: SQLite keeps it so unless the change counter and
/// the version-valid-for field differ).
SqliteHeader checkSqliteHeader(const Source& source, std::uint64_t fileSize);

} // namespace pva::storage
