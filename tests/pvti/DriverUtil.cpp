#include "DriverUtil.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace test {

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// fork + exec of the driver; stdout/stderr go to the given descriptors.
int spawn(const std::vector<std::string>& args, const std::optional<std::string>& options,
          const fs::path& cwd, int outFd, int errFd) {
  // Everything the child needs is built here: between fork and exec only async-signal-safe calls
  // are allowed (the test process has threads).
  std::vector<std::string> argv{PVTI_DRIVER_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (std::string(*e).rfind("PVTI_OPTIONS=", 0) != 0) env.emplace_back(*e);
  if (options) env.push_back("PVTI_OPTIONS=" + *options);
  std::vector<char*> cargv, cenv;
  for (auto& a : argv)
    cargv.push_back(a.data());
  cargv.push_back(nullptr);
  for (auto& e : env)
    cenv.push_back(e.data());
  cenv.push_back(nullptr);
  const std::string dir = cwd.string();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(126);
    dup2(outFd, 1);
    dup2(errFd, 2);
    execve(cargv[0], cargv.data(), cenv.data());
    _exit(127);
  }
  return pid;
}

} // namespace

DriverResult runDriver(const std::vector<std::string>& args,
                       const std::optional<std::string>& options, const fs::path& cwd) {
  // Output files next to (not in) cwd, so traceFiles(cwd) sees only what the driver wrote.
  static int counter = 0;
  const fs::path base =
      cwd.parent_path() / (cwd.filename().string() + ".driver" + std::to_string(counter++));
  const fs::path outPath = base.string() + ".out", errPath = base.string() + ".err";
  const int outFd = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int errFd = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const int pid = spawn(args, options, cwd, outFd, errFd);
  close(outFd);
  close(errFd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  DriverResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(outPath);
  r.err = slurp(errPath);
  fs::remove(outPath);
  fs::remove(errPath);
  return r;
}

std::vector<fs::path> traceFiles(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".pvti") out.push_back(e.path());
  return out;
}

DriverProcess::DriverProcess(const std::vector<std::string>& args, const std::string& options,
                             const fs::path& cwd) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  pid_ = spawn(args, options, cwd, fds[1], 2);
  close(fds[1]);
  out_ = fds[0];
}

DriverProcess::~DriverProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    wait();
  }
  if (out_ >= 0) close(out_);
}

std::string DriverProcess::readLine() {
  while (true) {
    const auto nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    char buf[256];
    const ssize_t n = read(out_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::exchange(buffer_, std::string());
    buffer_.append(buf, static_cast<std::size_t>(n));
  }
}

void DriverProcess::kill(int signal) {
  ::kill(pid_, signal);
}

int DriverProcess::wait() {
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  return status;
}

} // namespace test
