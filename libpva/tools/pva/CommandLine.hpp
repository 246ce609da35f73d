// pva's command line: parsing it into the chosen subcommand's options (CommandLine.cpp, the one
// file of the tool that includes CLI11).
#pragma once

#include <functional>
#include <string>

namespace pvacli {

/// What the command line asks for: a subcommand to run, or an exit status at once.
struct Invocation {
  /// The chosen subcommand with its options (commands/Commands.hpp); returns the exit status.
  /// pva::Exception and UsageError escape it, for main to print. Empty when `status` applies.
  std::function<int()> run;
  /// The exit status when there is nothing to run: 0 after --help or --version (printed on
  /// stdout), kBadInput after a parse error (printed on stderr).
  int status = 0;
};

/// Parses pva's command line; `version` is what --version prints.
Invocation parseCommandLine(int argc, char** argv, const std::string& version);

} // namespace pvacli
