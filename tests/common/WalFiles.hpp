// SQLite files as a killed writer leaves them: in WAL mode, with committed changes only in the
// -wal journal, for the tests of reading such files where nothing may be written.
#pragma once

#include <filesystem>
#include <string>

namespace test {

/// Switches `db` to WAL mode and runs `sql` in a child process that then exits without closing
/// the database, as a killed writer would: `sql`'s changes are only in `db`-wal, and `db`-shm
/// is left behind. Without `keepShm` the -shm file is removed (a copy of the two files).
void leaveInWal(const std::filesystem::path& db, const std::string& sql, bool keepShm);

/// Makes `dir` and every file in it read-only (0555 / 0444) until destroyed.
class ReadOnlyDir {
public:
  explicit ReadOnlyDir(std::filesystem::path dir);
  ~ReadOnlyDir();
  ReadOnlyDir(const ReadOnlyDir&) = delete;
  ReadOnlyDir& operator=(const ReadOnlyDir&) = delete;

private:
  std::filesystem::path dir_;
};

} // namespace test
