#include "OpenFile.hpp"

#include "WalReplay.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <pva/Exception.hpp>
#include <sys/stat.h>

namespace pva::storage {

using tessera::sqlite::Database;
using tessera::sqlite::OpenMode;

std::uint64_t checkRegularFile(const Source& source, const char* kind) {
  if (source.image) return source.image->bytes.size();
  const std::string shown = source.shown();
  // stat, not open: opening a FIFO blocks until someone writes to it.
  struct stat st {};
  if (::stat(source.path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) {
      // Said as the readers always said it ("no such trace file" for openTrace).
      throw FileNotFoundError(
          shown + (std::strcmp(kind, "trace") == 0 ? ": no such trace file" : ": no such file"));
    }
    throw FileNotFoundError(shown + ": cannot read the " + kind + ": " + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode))
    throw FileNotFoundError(
        shown + ": is a directory, not a " + kind + " file" +
        (std::strcmp(kind, "report") == 0 ? " (profile.pop is inside it)" : ""));
  if (!S_ISREG(st.st_mode)) {
    const char* what = S_ISFIFO(st.st_mode)                         ? "a FIFO (named pipe)"
                       : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                       : S_ISSOCK(st.st_mode)                       ? "a socket"
                                                                    : "not a regular file";
    throw FileNotFoundError(shown + ": is " + what + ", not a " + kind + " file");
  }
  return static_cast<std::uint64_t>(st.st_size);
}

std::string readHead(const Source& source, std::size_t n) {
  if (source.image) return std::string(source.image->bytes.substr(0, n));
  std::ifstream in(source.path, std::ios::binary);
  if (!in) throw FileNotFoundError(source.shown() + ": cannot be read");
  std::string head(n, '\0');
  in.read(head.data(), static_cast<std::streamsize>(n));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head;
}

std::string readWholeFile(const Source& source, const char* kind, std::uint64_t limit) {
  const std::uint64_t size = checkRegularFile(source, kind);
  if (size > limit)
    throw InvalidReportError(source.shown() + ": " + std::to_string(size) +
                             " bytes is more than a " + kind + " file can be (" +
                             std::to_string(limit) + " at most)");
  if (source.image) return std::string(source.image->bytes);
  std::string bytes = readHead(source, static_cast<std::size_t>(size));
  if (bytes.size() != size)
    throw FileNotFoundError(source.shown() + ": cannot be read (it shrank while being read)");
  return bytes;
}

namespace {

/// Reads the schema: where opening really happens (SQLite opens lazily), so that a file it
/// cannot read fails here, inside openReadOnly's fallbacks.
void probe(Database& db) {
  tessera::sqlite::Statement s(db, "SELECT count(*) FROM sqlite_master");
  s.step();
}

bool isWalMode(const std::string& head) {
  // Bytes 18 and 19 of the header: file format write/read version, 2 for WAL.
  return head.size() >= 20 && head.compare(0, 16, std::string("SQLite format 3\0", 16)) == 0 &&
         (head[18] == 2 || head[19] == 2);
}

} // namespace

ReadOnlyDatabase openReadOnly(const Source& source) {
  ReadOnlyDatabase out;
  if (source.image) {
    out.fileSize = source.image->bytes.size();
    out.db = std::make_unique<Database>(
        Database::fromImage(source.path, source.image->bytes.data(), source.image->bytes.size()));
    return out;
  }
  out.fileSize = checkRegularFile(source, "database");
  try {
    out.db = std::make_unique<Database>(source.path, OpenMode::ReadOnly);
    probe(*out.db);
    return out;
  } catch (const tessera::sqlite::Error&) {
    // A WAL file SQLite could not read in place: it needs a -shm file beside it that it may
    // use, and in a read-only directory there is none (or only one it cannot open).
    if (!isWalMode(readHead(source, 20))) throw;
  }
  out.db.reset();
  std::error_code ec;
  const std::string wal = source.path + "-wal";
  const auto walSize = std::filesystem::file_size(wal, ec);
  if (ec || walSize < kWalHeaderBytes) {
    // No journal (the writer finished or never wrote one): the file holds everything, and
    // SQLite may read it as immutable, without the -shm file.
    out.db = std::make_unique<Database>(source.path, OpenMode::Immutable);
    probe(*out.db);
    return out;
  }
  // A journal with committed transactions that were never copied into the file: replay it into
  // a copy in memory (cost: the two files' sizes) and read that.
  const Source walSource{wal, nullptr};
  out.bytes = std::make_unique<std::string>(readWholeFile(source, "database", UINT64_MAX));
  replayWal(*out.bytes, readWholeFile(walSource, "journal", UINT64_MAX));
  out.db = std::make_unique<Database>(
      Database::fromImage(source.path, out.bytes->data(), out.bytes->size()));
  probe(*out.db);
  return out;
}

} // namespace pva::storage
