// The command line of Tessera's samples and benchmarks, on CLI11.
//
// Every sample and benchmark parsed its options by hand before (a loop over argv with strtol),
// each a little differently: some had no --help, some turned `--steps abc` into 0. They share
// this one set-up instead, so each program only declares its options and they all behave alike:
//   --help              the program's summary, its options with their defaults, an example; exit 0
//   a bad option/value  "<program>: <what is wrong> (try --help)" on stderr; exit 2
//   an option twice     the last value counts (a list, such as --sizes 1,2, takes them all)
#pragma once

// CLI/App.hpp, not CLI/CLI.hpp: the help formatter and config parser stay in CommandLine.cpp.
// Every sample and benchmark includes this header, and CLI11 is header-only: with all of it,
// each of them compiled CLI11's formatter again (half of a benchmark's compile time).
#include <CLI/App.hpp>
#include <string>
#include <vector>

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

  /// Options of the types the programs use, compiled once in CommandLine.cpp rather than
  /// instantiated from CLI11's templates in every program (they hide CLI::App's templates, which
  /// the using-declarations bring back for any other type). Same behaviour as CLI::App's.
  using CLI::App::add_flag;
  using CLI::App::add_option;
  CLI::Option* add_option(std::string name, int& value, std::string description = "");
  CLI::Option* add_option(std::string name, unsigned& value, std::string description = "");
  CLI::Option* add_option(std::string name, long& value, std::string description = "");
  CLI::Option* add_option(std::string name, unsigned long& value, std::string description = "");
  CLI::Option* add_option(std::string name, long long& value, std::string description = "");
  CLI::Option* add_option(std::string name, unsigned long long& value,
                          std::string description = "");
  CLI::Option* add_option(std::string name, double& value, std::string description = "");
  CLI::Option* add_option(std::string name, std::string& value, std::string description = "");
  CLI::Option* add_option(std::string name, std::vector<std::string>& values,
                          std::string description = "");
  CLI::Option* add_option(std::string name, std::vector<unsigned>& values,
                          std::string description = "");
  CLI::Option* add_option(std::string name, std::vector<unsigned long>& values,
                          std::string description = "");
  CLI::Option* add_flag(std::string name, bool& value, std::string description = "");

  /// Parses argv into the declared options; after --help or a rejected command line it does not
  /// return but exits (0 or 2, as above).
  void parseOrExit(int argc, const char* const* argv);

private:
  std::string* reportDir_ = nullptr; ///< addReportOptions' directory, for app.json
};

} // namespace tessera::cli
