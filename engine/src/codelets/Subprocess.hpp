// Runs a helper program (popc, the host compiler) and collects what it prints.
#pragma once

#include <string>
#include <vector>

namespace poplar::detail::codelets {

struct ProcessResult {
  bool started = false; ///< false: the program could not be run (see output)
  int exitCode = -1;    ///< the exit status, or 128 + signal
  std::string output;   ///< standard output and standard error, interleaved
};

/// Runs argv[0] (searched on PATH when it has no '/') with standard input from /dev/null.
ProcessResult runProcess(const std::vector<std::string>& argv);

} // namespace poplar::detail::codelets
