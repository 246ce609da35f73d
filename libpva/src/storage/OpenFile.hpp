// How every libpva reader gets at its bytes: a file on disk, or the same bytes given in memory
// (the fuzz targets, which must not touch the disk). Both go through here, so every check after
// this point is the same whichever way the bytes came.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <tessera/internal/Sqlite.hpp>

namespace pva::storage {

/// A file's bytes handed over in memory; `bytes` must outlive what is opened from it.
struct FileImage {
  std::string_view bytes;
};

/// Where a reader reads from: `path` names it in every message (escaped, see shown); `image`,
/// when set, holds its bytes and nothing on disk is opened.
struct Source {
  std::string path;
  const FileImage* image = nullptr;
  /// The path as messages print it (control characters escaped).
  std::string shown() const { return tessera::sqlite::displayPath(path); }
};

/// Refuses what is not a readable regular file before anything opens it: missing (or a name
/// the system cannot look up, e.g. too long: FileNotFoundError saying why), a directory, a FIFO
/// (opening one blocks until a writer comes), a device or a socket. `kind` says what the file
/// should have been ("report", "trace", "debug information"). Returns the file's size.
std::uint64_t checkRegularFile(const Source& source, const char* kind);

/// Reads a small file whole (debug.cbor): from the image, or the file after checkRegularFile.
/// Never reads more than `limit` bytes; a larger file is an InvalidReportError.
std::string readWholeFile(const Source& source, const char* kind, std::uint64_t limit);

/// The first `n` bytes (fewer when the file is shorter).
std::string readHead(const Source& source, std::size_t n);

/// An SQLite file opened read-only without writing anything next to it, and what it needs kept
/// alive (the bytes of an image or of a WAL replayed in memory).
struct ReadOnlyDatabase {
  std::unique_ptr<std::string> bytes; ///< stable address: SQLite reads it in place
  std::unique_ptr<tessera::sqlite::Database> db;
  std::uint64_t fileSize = 0; ///< of the file (or image) itself
};

/// Opens `source` read-only. A file in WAL mode (a writer was killed, or still runs) is read
/// with its -wal journal. Where SQLite cannot share that journal (a read-only directory without
/// a -shm file it may use), the committed frames of the -wal file are replayed in memory, so
/// nothing is ever created or written next to the file. Throws tessera::sqlite::Error.
ReadOnlyDatabase openReadOnly(const Source& source);

} // namespace pva::storage
