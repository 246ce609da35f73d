#include "common/WalFiles.hpp"

#include <cerrno>
#include <sqlite3.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace test {

void leaveInWal(const fs::path& db, const std::string& sql, bool keepShm) {
  const std::string path = db.string(), script = "PRAGMA journal_mode=WAL; " + sql;
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("test: fork failed");
  if (pid == 0) {
    sqlite3* h = nullptr;
    if (sqlite3_open(path.c_str(), &h) != SQLITE_OK) ::_exit(1);
    if (sqlite3_exec(h, script.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) ::_exit(2);
    ::_exit(0); // no sqlite3_close: the changes stay in the journal, never checkpointed
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("test: could not leave " + path + " in WAL mode (status " +
                             std::to_string(status) + ")");
  if (!fs::exists(path + "-wal")) throw std::runtime_error("test: no " + path + "-wal");
  if (!keepShm) fs::remove(path + "-shm");
}

ReadOnlyDir::ReadOnlyDir(fs::path dir) : dir_(std::move(dir)) {
  for (const auto& e : fs::directory_iterator(dir_))
    fs::permissions(e.path(), fs::perms(0444));
  fs::permissions(dir_, fs::perms(0555));
}

ReadOnlyDir::~ReadOnlyDir() {
  std::error_code ec;
  fs::permissions(dir_, fs::perms(0755), ec);
  for (const auto& e : fs::directory_iterator(dir_, ec))
    fs::permissions(e.path(), fs::perms(0644), ec);
}

} // namespace test
