#include "FileUtil.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <profiler/ReportWriter.hpp>
#include <system_error>
#include <unistd.h>

namespace tessera::profiler::detail {

namespace fs = std::filesystem;

fs::path partialPath(const fs::path& path) {
  fs::path p = path;
  p += ".partial";
  return p;
}

void createParentDirectory(const fs::path& path) {
  const fs::path parent = path.parent_path();
  if (parent.empty()) return;
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec || !fs::is_directory(parent))
    throw ReportError(path.string() + ": cannot create directory " + parent.string() + ": " +
                      (ec ? ec.message() : "a file of that name is in the way"));
}

bool removeQuietly(const fs::path& path) noexcept {
  std::error_code ec;
  fs::remove(path, ec);
  return !ec;
}

namespace {
// fsync of a file or directory. Directories opened O_RDONLY can be synced on Linux.
int syncPath(const fs::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return errno;
  int err = ::fsync(fd) == 0 ? 0 : errno;
  ::close(fd);
  return err;
}
} // namespace

void syncFile(const fs::path& path) {
  if (int err = syncPath(path, O_RDONLY))
    throw ReportError(path.string() + ": cannot flush to disk: " + std::strerror(err));
}

void publishFile(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec)
    throw ReportError(to.string() + ": cannot rename " + from.string() + " to it: " + ec.message());
  // Best effort: some file systems refuse fsync on directories, and the data itself is safe.
  const fs::path dir = to.parent_path().empty() ? fs::path(".") : to.parent_path();
  syncPath(dir, O_RDONLY | O_DIRECTORY);
}

} // namespace tessera::profiler::detail
