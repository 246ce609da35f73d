#include "common/CommandLine.hpp"

#include "common/AppJson.hpp"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <utility>

namespace tessera::cli {

const CLI::Validator PositiveNumber(
    [](std::string& value) {
      return CLI::PositiveNumber(value).empty() ? std::string()
                                                : "needs a number above 0, got '" + value + "'";
    },
    "POSITIVE");

CommandLine::CommandLine(std::string name, const std::string& summary, const std::string& example)
    : CLI::App(summary + "\n", std::move(name)) { // a blank line before "Usage:"
  option_defaults()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast)
      ->always_capture_default();
  footer("example:\n  " + example);
  get_formatter()->column_width(36);
  failure_message([](const CLI::App* app, const CLI::Error& e) {
    return app->get_name() + ": " + e.what() + " (try --help)\n";
  });
}

void CommandLine::addReportOptions(std::string& dir, bool canTurnOff) {
  reportDir_ = &dir;
  CLI::Option* reports = add_option("--reports", dir,
                                    "Profile report directory: profile.pop, debug.cbor "
                                    "(autoReport.all) and serialized_graph.capnp")
                             ->type_name("DIR");
  if (canTurnOff)
    add_flag_callback(
        "--no-reports", [&dir] { dir.clear(); }, "Do not profile")
        ->excludes(reports);
}

#define TESSERA_CLI_OPTION(Type)                                                                   \
  CLI::Option* CommandLine::add_option(std::string name, Type& value, std::string description) {   \
    return CLI::App::add_option(std::move(name), value, std::move(description));                   \
  }
TESSERA_CLI_OPTION(int)
TESSERA_CLI_OPTION(unsigned)
TESSERA_CLI_OPTION(long)
TESSERA_CLI_OPTION(unsigned long)
TESSERA_CLI_OPTION(long long)
TESSERA_CLI_OPTION(unsigned long long)
TESSERA_CLI_OPTION(double)
TESSERA_CLI_OPTION(std::string)
TESSERA_CLI_OPTION(std::vector<std::string>)
TESSERA_CLI_OPTION(std::vector<unsigned>)
TESSERA_CLI_OPTION(std::vector<unsigned long>)
#undef TESSERA_CLI_OPTION

CLI::Option* CommandLine::add_flag(std::string name, bool& value, std::string description) {
  return CLI::App::add_flag(std::move(name), value, std::move(description));
}

void CommandLine::parseOrExit(int argc, const char* const* argv) {
  try {
    parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI::App::exit prints the help (status 0) or the failure message (CLI11's own codes, 100
    // and up); the programs have always exited 2 on a bad command line.
    std::exit(CLI::App::exit(e) == 0 ? 0 : 2);
  }
  if (reportDir_) writeAppJson(*reportDir_, argc, argv);
}

} // namespace tessera::cli
