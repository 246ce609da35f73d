#include "common/Unprivileged.hpp"

#include <cerrno>
#include <exception>
#include <grp.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace test {

namespace {
Outcome runHere(const std::function<void()>& f) {
  try {
    f();
    return {true, {}};
  } catch (const std::exception& e) {
    return {false, e.what()};
  }
}
} // namespace

Outcome runUnprivileged(const std::function<void()>& f) {
  if (::geteuid() != 0) return runHere(f);
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("test: pipe failed");
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("test: fork failed");
  if (pid == 0) {
    ::close(fds[0]);
    if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(3);
    const Outcome o = runHere(f);
    const std::string report = (o.ok ? "1" : "0") + o.message;
    ssize_t off = 0;
    while (off < static_cast<ssize_t>(report.size())) {
      const ssize_t n =
          ::write(fds[1], report.data() + off, report.size() - static_cast<std::size_t>(off));
      if (n <= 0) break;
      off += n;
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string report;
  char buf[512];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    report.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || report.empty())
    throw std::runtime_error("test: the unprivileged child failed (status " +
                             std::to_string(status) + ")");
  return {report[0] == '1', report.substr(1)};
}

} // namespace test
