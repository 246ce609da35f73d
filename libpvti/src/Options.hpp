// PVTI_OPTIONS: the JSON that switches tracing on for a process.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pvti::detail {

/// The longest "duration" accepted: 10^9 s (about 31 years). The deadline is kept in
/// nanoseconds on the steady clock, which this keeps far below 2^64.
constexpr double kMaxDurationSeconds = 1e9;

struct Options {
  bool enable = true;                ///< "enable": true/false or "true"/"false"
  std::string directory;             ///< "directory": empty = working directory
  std::vector<std::string> channels; ///< "channels": empty = every channel
  double durationSeconds = 0;        ///< "duration": 0 = no limit
  std::string warning; ///< why the text (or part of it) was ignored; empty if all was fine
};

/// Parses the value of PVTI_OPTIONS. Unparseable text (or a value of the wrong type) gives the
/// defaults for what could not be read, and a warning that says what was wrong.
Options parseOptions(const std::string& text);

/// PVTI_OPTIONS of this process; nullopt when the variable is not set (tracing off).
std::optional<std::string> optionsFromEnvironment();

} // namespace pvti::detail
