// The command line of Tessera's samples and benchmarks, on CLI11.
//
// Every sample and benchmark parsed its options by hand before (a loop over argv with strtol),
// each a little differently: some had no --help, some turned `--steps abc` into 0. They share
// this one set-up instead, so each program only declares its options and they all behave alike:
//   --help              the program's summary, its options with their defaults, an example; exit 0
//   a bad option/value  "<program>: <what is wrong> (try --help)" on stderr; exit 2
//   an option twice     the last value counts (a list, such as --sizes 1,2, takes them all)
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace tessera::cli {

/// A number greater than zero: CLI::PositiveNumber, with a message that says so (CLI11 2.1's
/// own prints its range, 0 to 1.8e308). For an integer option, CLI11 then rejects fractions.
extern const CLI::Validator PositiveNumber;

class CommandLine : public CLI::App {
public:
  /// `summary`: what the program does, one line first (more lines may follow); `example`: a
  /// command line, shown last in --help.
  CommandLine(std::string name, const std::string& summary, const std::string& example);

  /// --reports DIR, the profile report directory (profile.pop and debug.cbor, as with
  /// POPLAR_ENGINE_OPTIONS autoReport.all), `dir` holding the default; with `canTurnOff`,
  /// --no-reports too, which clears `dir` (the two exclude each other).
  /// After parsing, the report directory gets an app.json naming the program, its version and
  /// its arguments (common/AppJson.hpp), which the Summary of the viewer shows.
  void addReportOptions(std::string& dir, bool canTurnOff);

  /// Parses argv into the declared options; after --help or a rejected command line it does not
  /// return but exits (0 or 2, as above).
  void parseOrExit(int argc, const char* const* argv);

private:
  std::string* reportDir_ = nullptr; ///< addReportOptions' directory, for app.json
};

} // namespace tessera::cli
