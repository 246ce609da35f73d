// What every subcommand shares: global options, the exit statuses, and finding and opening the
// report a command line names.
#pragma once

#include <pva/pva.hpp>
#include <stdexcept>
#include <string>

namespace pvacli {

/// Exit statuses of every subcommand. `pva compare` is a CI gate, so these are its contract.
enum ExitStatus : int {
  kOk = 0,            ///< done (compare: within every threshold)
  kOverThreshold = 1, ///< compare: some gated quantity grew more than allowed
  kBadInput = 2,      ///< missing or unreadable file, not a report, bad option
};

/// Options given before the subcommand.
struct GlobalOptions {
  bool progress = false; ///< force progress lines on stderr even when it is not a terminal
};

/// An error in what the user gave us (a path, an option value): printed as "pva: <message>" and
/// exits with kBadInput, like a pva::Exception.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// `text` with every control character but newline shown as \xNN: messages echo paths, and an
/// escape sequence in a file name must not reach the terminal. (libpva escapes the paths in its
/// own messages already; this covers the tool's.)
std::string escapeControls(const std::string& text);

/// Where a report's files are.
struct ReportFiles {
  std::string profile;     ///< profile.pop
  std::string debug;       ///< debug.cbor, empty when there is none
  bool debugGiven = false; ///< named on the command line, not found beside the profile
};

/// Resolves REPORT as given on the command line: a profile.pop (any name), or a directory that
/// holds one (directly or in exactly one sub-directory, where an engine given a DebugContext name
/// writes). debug.cbor is taken from beside the profile when it exists, unless `debug` names one.
/// Throws UsageError when nothing is found.
ReportFiles findReport(const std::string& given, const std::string& debug = "");

/// Opens the report (with its debug information when there is some). A debug.cbor that was only
/// found beside the profile and cannot be used (another report's, corrupted) is skipped with a
/// warning: nothing here needs it. One named with --debug is an error like a bad profile.
pva::Report openReportFiles(ReportFiles& files);

} // namespace pvacli
