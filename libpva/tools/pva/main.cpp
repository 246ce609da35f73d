// pva: command-line access to Tessera's profile reports and host traces, built on libpva only.
//
//   pva summary reports/mlp
//   pva query reports/mlp tiles --top 5
//   pva compare base/profile.pop new/profile.pop --max-cycles-increase 2%   (exit 1 when over)
//   pva trace run.pvti --export-chrome run.json
//
// Every subcommand lives in its own file and registers itself here; this file only parses the
// command line and turns errors into messages and exit statuses (Common.hpp).
#include "Common.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

namespace {

const char* kDescription =
    R"(pva: read Tessera profile reports (profile.pop, debug.cbor) and host traces (.pvti).

examples:
  pva summary reports/mlp                       target, memory, liveness and cycles
  pva query reports/mlp compute-sets --top 5    the slowest compute sets
  pva insights reports/oom                      does it fit, the worst tiles, what to change
  pva compare base/ new/ --max-cycles-increase 2% --max-memory-increase 1%
                                                CI gate: exit 0 within, 1 over, 2 bad input
  pva trace trace.pvti --export-chrome trace.json

Run 'pva SUBCOMMAND --help' for the options and examples of each.)";

std::string versionText() {
  const auto f = pva::supportedFormatVersion();
  return std::string("pva (Tessera) ") + TESSERA_VERSION + ", reads report format " +
         std::to_string(f.majorVer()) + ".x up to " + f.string();
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{kDescription, "pva"};
  app.require_subcommand(1);
  app.fallthrough(); // global options (--progress) may also follow the subcommand
  app.set_version_flag("--version", versionText());
  pvacli::GlobalOptions global;
  app.add_flag(
      "--progress", global.progress,
      "Show progress of long work on stderr even when it is not a terminal (always shown on one)");

  const std::vector<pvacli::Command> commands = {
      pvacli::addSummaryCommand(app, global),  pvacli::addQueryCommand(app, global),
      pvacli::addInsightsCommand(app, global), pvacli::addCompareCommand(app, global),
      pvacli::addTraceCommand(app, global),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every other parse error is bad input (status 2, which CI
    // scripts tell apart from "over threshold").
    const int status = app.exit(e);
    return status == 0 ? 0 : pvacli::kBadInput;
  }
  try {
    for (const pvacli::Command& c : commands)
      if (c.app->parsed()) return c.run();
  } catch (const pva::Exception& e) {
    std::cerr << "pva: " << pvacli::escapeControls(e.what())
              << "\n"; // libpva's messages start with the file's path
    return pvacli::kBadInput;
  } catch (const pvacli::UsageError& e) {
    std::cerr << "pva: " << pvacli::escapeControls(e.what()) << "\n";
    return pvacli::kBadInput;
  } catch (const std::exception& e) {
    // Anything else reading a file (bad_alloc on a corrupt size...) is still bad input, not a
    // crash.
    std::cerr << "pva: error: " << pvacli::escapeControls(e.what()) << "\n";
    return pvacli::kBadInput;
  }
  return pvacli::kBadInput;
}
