// pva: command-line access to Tessera's profile reports and host traces, built on libpva only.
//
//   pva summary reports/mlp
//   pva query reports/mlp tiles --top 5
//   pva compare base/profile.pop new/profile.pop --max-cycles-increase 2%   (exit 1 when over)
//   pva trace run.pvti --export-chrome run.json
//
// Every subcommand lives in its own file (commands/); CommandLine.cpp parses the command line
// into one of them, and this file runs it and turns errors into messages and exit statuses
// (Common.hpp).
#include "CommandLine.hpp"
#include "Common.hpp"

#include <iostream>

namespace {

std::string versionText() {
  const auto f = pva::supportedFormatVersion();
  return std::string("pva (Tessera) ") + TESSERA_VERSION + ", reads report format " +
         std::to_string(f.majorVer()) + ".x up to " + f.string();
}

} // namespace

int main(int argc, char** argv) {
  const pvacli::Invocation invocation = pvacli::parseCommandLine(argc, argv, versionText());
  if (!invocation.run) return invocation.status;
  try {
    return invocation.run();
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
}
