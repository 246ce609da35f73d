// The structure-aware half of the SQLite targets' mutator: edits a database through SQLite
// (a cell set to a boundary value, NULL, other text, or a byte-mutated blob; a row deleted or
// duplicated) so that inputs stay valid databases whose *contents* are hostile. Byte-level
// mutation alone mostly breaks the b-tree pages, which SQLite rejects before libpva reads them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fuzz {

/// Mutates the database image in data[0, size) in place (at most maxSize bytes) and returns its
/// new size, or 0 when the input is not a database it could edit (the caller then mutates bytes).
std::size_t mutateThroughSqlite(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                                unsigned seed);

} // namespace fuzz

/// Defines LLVMFuzzerCustomMutator for a target: half of the mutations through SQLite, half
/// libFuzzer's own byte mutations (which also find what breaks the file format itself).
#define TESSERA_SQLITE_MUTATOR                                                                     \
  extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size,                    \
                                          std::size_t maxSize);                                    \
  extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,             \
                                                 std::size_t maxSize, unsigned seed) {             \
    if (seed % 2 == 0)                                                                             \
      if (const std::size_t n = fuzz::mutateThroughSqlite(data, size, maxSize, seed / 2))          \
        return n;                                                                                  \
    return LLVMFuzzerMutate(data, size, maxSize);                                                  \
  }
