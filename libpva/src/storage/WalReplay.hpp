// Applies the committed frames of an SQLite write-ahead log to a copy of its database, for a
// reader that cannot let SQLite do it (no -shm file it may use, see OpenFile.cpp). Follows
// SQLite's file format (https://www.sqlite.org/fileformat.html, "The WAL File Format").
#pragma once

#include <cstddef>
#include <string>

namespace pva::storage {

constexpr std::size_t kWalHeaderBytes = 32;

/// Replays into `db` (the main file's bytes) every frame of `wal` up to its last valid commit,
/// exactly as SQLite would on opening: frames with the header's salts and a running checksum
/// that matches. A torn or foreign tail is ignored. Marks the result as a rollback-journal
/// database, so SQLite reads it without a WAL. Memory: at most the sizes of both files.
void replayWal(std::string& db, const std::string& wal);

} // namespace pva::storage
