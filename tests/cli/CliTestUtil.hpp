// Running the built `pva` as a user would, and the reports the fixture made (CMakeLists.txt).
// Scratch directories are test::ScratchDir (tests/common).
#pragma once

#include "common/ScratchDir.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cli {

struct Result {
  int status = -1; ///< exit status (-1: killed by a signal)
  std::string out, err;
  nlohmann::json json() const; ///< stdout parsed (fails the test when it is not JSON)
};

/// Runs `pva` with these arguments (each passed as one word, no shell expansion).
Result pva(const std::vector<std::string>& args, const std::string& env = "");

/// The fixture's reports: "base" (default MLP) and "big" (--batch 64).
std::filesystem::path reportDir(const std::string& name);
std::filesystem::path profile(const std::string& name);
/// The host trace recorded while making "base".
std::filesystem::path traceFile();
/// tests/data/<name>: files that are not valid reports.
std::filesystem::path dataFile(const std::string& name);

std::string readFile(const std::filesystem::path& p);
/// Non-empty lines of s.
std::vector<std::string> lines(const std::string& s);
bool contains(const std::string& haystack, const std::string& needle);

} // namespace cli
