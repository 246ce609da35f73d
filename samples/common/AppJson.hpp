// app.json beside a sample's reports: which program made them and how it was run, as PopVision's
// Graph Analyser shows in its Summary and as applications on the Poplar SDK write it (libpva
// reads it: pva/Application.hpp, docs/formats.md).
#pragma once

#include <string>

namespace tessera::cli {

/// Writes `<reportDir>/app.json`: {"application": the program's name, "framework": "Tessera",
/// "version": Tessera's version, "arguments": the command line after the program's name}.
/// Creates the directory if needed; an empty `reportDir` (--no-reports) writes nothing. A file
/// that cannot be written is a warning on stderr, not a failed run: the reports do not need it.
void writeAppJson(const std::string& reportDir, int argc, const char* const* argv);

} // namespace tessera::cli
