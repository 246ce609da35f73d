// Running pvti_driver in a child process with a chosen PVTI_OPTIONS and working directory, and
// finding the trace it wrote.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace test {

struct DriverResult {
  int exitCode = -1; ///< -1: killed by a signal
  std::string out, err;
};

/// Runs pvti_driver with `args` in `cwd`; PVTI_OPTIONS is set to `options`, or unset.
DriverResult runDriver(const std::vector<std::string>& args,
                       const std::optional<std::string>& options, const std::filesystem::path& cwd);

/// Every *.pvti under `dir` (recursively).
std::vector<std::filesystem::path> traceFiles(const std::filesystem::path& dir);

/// A child process running pvti_driver, for tests that kill it.
class DriverProcess {
public:
  DriverProcess(const std::vector<std::string>& args, const std::string& options,
                const std::filesystem::path& cwd);
  ~DriverProcess();
  /// One line of its standard output (blocking); empty at end of file.
  std::string readLine();
  void kill(int signal);
  /// Waits for it; the raw wait status.
  int wait();

private:
  int pid_ = -1;
  int out_ = -1;
  std::string buffer_;
};

} // namespace test
